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

    /// libwebp's WebPDecodeRGBA (straight RGBA8) for a still WebP.
    public static func webp(_ bytes: [UInt8]) -> ReferenceResult {
        var image = PIRefImage()
        _ = bytes.withUnsafeBufferPointer { pi_ref_webp_decode($0.baseAddress, $0.count, &image) }
        return result(&image)
    }

    /// Whether libwebp's WebPGetFeatures sees an animation (nil when it refuses the file).
    public static func webpIsAnimated(_ bytes: [UInt8]) -> Bool? {
        var features = PIRefWebPFeatures()
        let status = bytes.withUnsafeBufferPointer { pi_ref_webp_features($0.baseAddress, $0.count, &features) }
        return status == 0 ? features.has_animation != 0 : nil
    }

    /// libwebp's WebPAnimDecoder: every frame composed on the canvas (straight RGBA8), the
    /// frame durations in milliseconds (from its timestamps), loop count and background colour.
    public static func webpAnimation(_ bytes: [UInt8]) -> (result: ReferenceResult, frameCount: Int, durations: [Int], loopCount: Int, background: UInt32) {
        var animation = PIRefWebPAnimation()
        _ = bytes.withUnsafeBufferPointer { pi_ref_webp_animation_decode($0.baseAddress, $0.count, &animation) }
        defer { pi_ref_webp_animation_free(&animation) }
        let text = message(animation.message)
        guard animation.status >= 0, animation.decoded_frames > 0, let pixels = animation.frames, let stamps = animation.timestamps else {
            return (ReferenceResult(status: .rejected, message: text, frames: []), Int(animation.frame_count), [], 0, 0)
        }
        let width = Int(animation.canvas_width), height = Int(animation.canvas_height)
        let frameBytes = width * height * 4
        var frames: [ComparableImage] = []
        var durations: [Int] = []
        var previous = 0
        for index in 0..<Int(animation.decoded_frames) {
            frames.append(ComparableImage(width: width, height: height, channels: 4, bits: 8,
                                          samples: Array(UnsafeBufferPointer(start: pixels + index * frameBytes, count: frameBytes))))
            durations.append(Int(stamps[index]) - previous)
            previous = Int(stamps[index])
        }
        let status: ReferenceResult.Status = animation.status == 0 ? .ok : .warning
        return (ReferenceResult(status: status, message: text, frames: frames), Int(animation.frame_count), durations,
                Int(animation.loop_count), animation.background_color)
    }
}
