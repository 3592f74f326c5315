import CReference
import PureImageConformance

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A further library timed beside the reference in the same rounds, as an extra column: libspng
/// for PNG, stb_image for JPEG, PNG and GIF. Its pixels are checked against the reference
/// library's before it is timed, like PureImage's.
struct OtherDecoder {
    /// Column name: "spng" or "stb".
    let name: String
    /// What the check found: "pixels equal", or for stb_image's JPEG (its own IDCT and colour
    /// conversion, so not libjpeg-turbo-exact) "PSNR 47.1 dB, max diff 6 (not bit-exact)"; or
    /// why the library is not timed.
    let check: String
    /// The timed call (decode and free, as for the other sides); nil when the check failed.
    let decode: (() -> Int)?
}

extension CaseFactory {
    /// The extra columns, in table order.
    static let otherNames = ["spng", "stb"]

    /// stb_image's JPEG output is accepted for timing at or above this PSNR against
    /// libjpeg-turbo's (with equal dimensions and layout). Rounding differences in the IDCT,
    /// the upsampler and YCbCr→RGB keep it near 45–50 dB on the corpus; a wrong decode (shifted
    /// blocks, swapped channels) lands far below 30.
    static let stbJPEGMinimumPSNR = 40.0

    /// libspng decoding to the libpng wrapper's layout (RGBA8, or RGBA16 host order for 16-bit
    /// files, tRNS applied): the pixels must be equal.
    static func spng(_ bytes: [UInt8], expected: ComparableImage) -> OtherDecoder {
        var image = PIRefImage()
        bytes.withUnsafeBufferPointer { _ = pi_ref_spng_decode($0.baseAddress, $0.count, &image) }
        defer { pi_ref_image_free(&image) }
        let decode = {
            var image = PIRefImage()
            bytes.withUnsafeBufferPointer { _ = pi_ref_spng_decode($0.baseAddress, $0.count, &image) }
            let size = image.size
            pi_ref_image_free(&image)
            return size
        }
        return exactCheck(name: "spng", image, expected: expected, decode: decode)
    }

    /// stb_image on a PNG, asked for 4 channels at the file's depth: the libpng wrapper's layout,
    /// so the pixels must be equal.
    static func stbPNG(_ bytes: [UInt8], expected: ComparableImage) -> OtherDecoder {
        let bits = Int32(expected.bits)
        var image = PIRefImage()
        bytes.withUnsafeBufferPointer { _ = pi_ref_stb_decode($0.baseAddress, $0.count, 4, bits, &image) }
        defer { pi_ref_stb_image_free(&image) }
        let decode = {
            var image = PIRefImage()
            bytes.withUnsafeBufferPointer { _ = pi_ref_stb_decode($0.baseAddress, $0.count, 4, bits, &image) }
            let size = image.size
            pi_ref_stb_image_free(&image)
            return size
        }
        return exactCheck(name: "stb", image, expected: expected, decode: decode)
    }

    /// stb_image on a JPEG, asked for libjpeg-turbo's channel count (3, or 1 for grayscale).
    /// Its decoder is not libjpeg-turbo-exact, so it is timed after a sanity check: same
    /// dimensions and layout, PSNR ≥ `stbJPEGMinimumPSNR`. CMYK files are left out: stb_image
    /// turns them into RGB, so there is no common layout to compare.
    static func stbJPEG(_ bytes: [UInt8], expected: ComparableImage) -> OtherDecoder {
        guard expected.channels == 1 || expected.channels == 3, expected.bits == 8 else {
            return OtherDecoder(name: "stb", check: "not timed: \(expected.channels)-channel JPEG (stb_image converts CMYK to RGB)", decode: nil)
        }
        let channels = Int32(expected.channels)
        var image = PIRefImage()
        bytes.withUnsafeBufferPointer { _ = pi_ref_stb_decode($0.baseAddress, $0.count, channels, 8, &image) }
        defer { pi_ref_stb_image_free(&image) }
        guard let theirs = comparable(image) else {
            return OtherDecoder(name: "stb", check: "not timed: \(message(image))", decode: nil)
        }
        guard theirs.width == expected.width, theirs.height == expected.height, theirs.channels == expected.channels else {
            return OtherDecoder(name: "stb", check: "not timed: stb_image gives \(theirs.width)x\(theirs.height)x\(theirs.channels), libjpeg-turbo \(expected.width)x\(expected.height)x\(expected.channels)", decode: nil)
        }
        let (psnr, maximum) = peakSignalToNoise(theirs.samples, expected.samples)
        let summary = "PSNR \(psnr.isFinite ? fixed(psnr, 1) + " dB" : "∞"), max diff \(maximum) against libjpeg-turbo"
        guard psnr >= stbJPEGMinimumPSNR else {
            return OtherDecoder(name: "stb", check: "not timed: \(summary), below \(fixed(stbJPEGMinimumPSNR, 0)) dB", decode: nil)
        }
        let decode = {
            var image = PIRefImage()
            bytes.withUnsafeBufferPointer { _ = pi_ref_stb_decode($0.baseAddress, $0.count, channels, 8, &image) }
            let size = image.size
            pi_ref_stb_image_free(&image)
            return size
        }
        return OtherDecoder(name: "stb", check: maximum == 0 ? "pixels equal" : summary + " (not bit-exact; timed after this check)", decode: decode)
    }

    /// stb_image on a GIF: every frame decoded and composed (the work PureImage's GIF row does);
    /// frame 0 must equal giflib's frame 0 on a transparent canvas.
    static func stbGIF(_ bytes: [UInt8], expected: ComparableImage) -> OtherDecoder {
        var image = PIRefImage()
        var frames: Int32 = 0
        bytes.withUnsafeBufferPointer { _ = pi_ref_stb_gif_decode($0.baseAddress, $0.count, &image, &frames) }
        defer { pi_ref_stb_image_free(&image) }
        // Frame 0 is the first width × height × 4 bytes: compare that view.
        var firstFrame = image
        if image.status == 0, image.pixels != nil, frames > 0 {
            firstFrame.size = Int(image.width) * Int(image.height) * 4
        }
        let decode = {
            var image = PIRefImage()
            var frames: Int32 = 0
            bytes.withUnsafeBufferPointer { _ = pi_ref_stb_gif_decode($0.baseAddress, $0.count, &image, &frames) }
            let size = image.size
            pi_ref_stb_image_free(&image)
            return size
        }
        let checked = exactCheck(name: "stb", firstFrame, expected: expected, decode: decode)
        guard checked.decode != nil else { return checked }
        return OtherDecoder(name: "stb", check: "pixels equal (frame 0; all \(frames) frames composed)", decode: decode)
    }

    // MARK: - Helpers

    /// "pixels equal" and the timed call, or "not timed: …" when the library failed or differs.
    static func exactCheck(name: String, _ image: PIRefImage, expected: ComparableImage, decode: @escaping () -> Int) -> OtherDecoder {
        guard let theirs = comparable(image) else {
            return OtherDecoder(name: name, check: "not timed: \(message(image))", decode: nil)
        }
        if let difference = ImageComparison.compare(theirs, expected) {
            let text = difference.x < 0
                ? "layout \(theirs.width)x\(theirs.height)x\(theirs.channels)@\(theirs.bits), reference \(expected.width)x\(expected.height)x\(expected.channels)@\(expected.bits)"
                : "first at (\(difference.x),\(difference.y)) channel \(difference.channel), \(difference.differingSamples) samples, max \(difference.maxDifference)"
            return OtherDecoder(name: name, check: "not timed: pixels differ from the reference: \(text)", decode: nil)
        }
        return OtherDecoder(name: name, check: "pixels equal", decode: decode)
    }

    /// A copy of a decoded `PIRefImage`, or nil when the library failed.
    static func comparable(_ image: PIRefImage) -> ComparableImage? {
        guard image.status >= 0, let pixels = image.pixels, image.size > 0 else { return nil }
        return ComparableImage(width: Int(image.width), height: Int(image.height), channels: Int(image.channels),
                               bits: Int(image.bits), samples: Array(UnsafeBufferPointer(start: pixels, count: image.size)))
    }

    static func message(_ image: PIRefImage) -> String {
        let text = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return text.isEmpty ? "failed" : text
    }

    /// PSNR in dB of two equally long 8-bit sample arrays (infinity when equal), and the largest
    /// absolute difference.
    static func peakSignalToNoise(_ a: [UInt8], _ b: [UInt8]) -> (psnr: Double, maximum: Int) {
        precondition(a.count == b.count && !a.isEmpty)
        var squares = 0, maximum = 0
        for index in 0..<a.count {
            let difference = Int(a[index]) - Int(b[index])
            squares += difference * difference
            maximum = max(maximum, abs(difference))
        }
        guard squares > 0 else { return (.infinity, 0) }
        let meanSquare = Double(squares) / Double(a.count)
        return (10 * log10(255.0 * 255.0 / meanSquare), maximum)
    }
}
