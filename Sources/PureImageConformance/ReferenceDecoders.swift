import CReference

/// What a reference C library made of a file.
public struct ReferenceResult: Sendable {
    public enum Status: Sendable, Equatable { case ok, warning, rejected }
    public var status: Status
    public var message: String
    /// One image per frame (one for stills); empty when rejected.
    public var frames: [ComparableImage]
}

/// Swift faces of the CReference functions.
public enum ReferenceDecoders {
    static func message<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    static func result(_ image: inout PIRefImage) -> ReferenceResult {
        defer { pi_ref_image_free(&image) }
        let text = message(image.message)
        guard image.status >= 0, let pixels = image.pixels else {
            return ReferenceResult(status: .rejected, message: text, frames: [])
        }
        let samples = Array(UnsafeBufferPointer(start: pixels, count: image.size))
        let comparable = ComparableImage(width: Int(image.width), height: Int(image.height), channels: Int(image.channels),
                                         bits: Int(image.bits), samples: samples)
        return ReferenceResult(status: image.status == 0 ? .ok : .warning, message: text, frames: [comparable])
    }

    /// libpng, expanded to RGBA (8-bit, or 16-bit host order for 16-bit files).
    public static func png(_ bytes: [UInt8]) -> ReferenceResult {
        var image = PIRefImage()
        _ = bytes.withUnsafeBufferPointer { pi_ref_png_decode($0.baseAddress, $0.count, &image) }
        return result(&image)
    }

    /// libjpeg-turbo, its default output colour space, scaled by 1/`denominator`.
    public static func jpeg(_ bytes: [UInt8], scaleDenominator: Int = 1) -> ReferenceResult {
        var image = PIRefImage()
        _ = bytes.withUnsafeBufferPointer { pi_ref_jpeg_decode($0.baseAddress, $0.count, Int32(scaleDenominator), &image) }
        return result(&image)
    }

    /// libtiff's RGBA interface for page `page`.
    public static func tiffRGBA(_ bytes: [UInt8], page: Int = 0) -> ReferenceResult {
        var image = PIRefImage()
        _ = bytes.withUnsafeBufferPointer { pi_ref_tiff_decode_rgba($0.baseAddress, $0.count, Int32(page), &image) }
        return result(&image)
    }

    /// giflib's frames composed by `pi_ref_gif_composer_*` (the rules in CReference.h), with
    /// the delays (hundredths of a second) and loop count giflib read.
    public static func gif(_ bytes: [UInt8]) -> (result: ReferenceResult, delays: [Int], loopCount: Int?) {
        var gif = PIRefGIF()
        _ = bytes.withUnsafeBufferPointer { pi_ref_gif_decode($0.baseAddress, $0.count, &gif) }
        defer { pi_ref_gif_free(&gif) }
        let text = message(gif.message)
        guard gif.status >= 0, gif.frame_count > 0 else {
            return (ReferenceResult(status: .rejected, message: text, frames: []), [], nil)
        }
        var composer = PIRefGIFComposer()
        var frames: [ComparableImage] = []
        var delays: [Int] = []
        let width = Int(gif.width), height = Int(gif.height)
        if pi_ref_gif_composer_init(&composer, &gif) == 0 {
            defer { pi_ref_gif_composer_free(&composer) }
            var index = 0
            while let canvas = pi_ref_gif_composer_next(&composer) {
                frames.append(ComparableImage(width: width, height: height, channels: 4, bits: 8,
                                              samples: Array(UnsafeBufferPointer(start: canvas, count: width * height * 4))))
                delays.append(Int(gif.frames[index].delay_cs))
                index += 1
            }
        }
        let status: ReferenceResult.Status = gif.status == 0 ? .ok : .warning
        return (ReferenceResult(status: status, message: text, frames: frames), delays, gif.loop_count >= 0 ? Int(gif.loop_count) : nil)
    }
}
