/// Pixel-format conversions shared by the WebP codecs.
///
/// Unsafe for speed. Bounds: `argbToRGBA` writes `4 × rows.count` bytes and requires `out` to
/// hold exactly that many (the raster hands out `count` rows of `width × 4` bytes for `count`
/// rows of `width` ARGB pixels).
enum WebPPixelKernels {
    /// ARGB words (alpha in bits 24–31) to R, G, B, A bytes: swapping red and blue gives the
    /// little-endian word of R, G, B, A, stored four bytes at a time.
    static func argbToRGBA(_ rows: [UInt32], into out: UnsafeMutableBufferPointer<UInt8>) {
        precondition(out.count == rows.count * 4)
        guard let base = out.baseAddress else { return }
        let raw = UnsafeMutableRawPointer(base)
        rows.withUnsafeBufferPointer { argb in
            var o = 0
            for pixel in argb {
                let rgba = (pixel & 0xFF00_FF00) | ((pixel >> 16) & 0xFF) | ((pixel & 0xFF) << 16)
                raw.storeBytes(of: rgba.littleEndian, toByteOffset: o, as: UInt32.self)
                o &+= 4
            }
        }
    }
}
