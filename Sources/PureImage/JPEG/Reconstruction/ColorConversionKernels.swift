/// Colour conversion exactly as libjpeg-turbo 2.1's jdcolor.c (T.871 JFIF §7 equations in
/// 16-bit fixed point with ONE_HALF rounding):
///
///     R = Y + ((91881 · Cr' + 2^15) >> 16)                      (1.40200 · 2^16 = 91881)
///     G = Y + ((−22554 · Cb' − 46802 · Cr' + 2^15) >> 16)       (0.34414, 0.71414)
///     B = Y + ((116130 · Cb' + 2^15) >> 16)                     (1.77200)       Cb' = Cb − 128, Cr' = Cr − 128
///
/// each clamped to 0…255. jdcolor.c keeps the four products in tables indexed by Cb and Cr;
/// here they are computed, which gives the same integers (every product and sum fits in 32
/// bits: |116130 · 128| < 2^24) and lets the compiler turn the loops into vector code, where
/// table look-ups cannot be. YCCK → CMYK converts YCC to RGB, outputs 255 − R, G, B, and
/// copies K.
///
/// Unsafe kernel file: every function reads `width` samples per input row and writes
/// `width × channels` bytes to `output`.
enum ColorConversionKernels {
    @inline(__always) static func clamp(_ value: Int32) -> UInt8 { UInt8(truncatingIfNeeded: min(max(value, 0), 255)) }

    @inline(__always) static func red(_ luma: Int32, _ cr: Int32) -> Int32 { luma + ((91881 &* cr &+ 32768) >> 16) }
    @inline(__always) static func green(_ luma: Int32, _ cb: Int32, _ cr: Int32) -> Int32 {
        luma + ((-22554 &* cb &- 46802 &* cr &+ 32768) >> 16)
    }
    @inline(__always) static func blue(_ luma: Int32, _ cb: Int32) -> Int32 { luma + ((116130 &* cb &+ 32768) >> 16) }

    /// Bound: `i < width`, so inputs are read at 0…width − 1 and outputs written at
    /// 0…3 · width − 1.
    static func yccToRGB(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, width: Int,
                         _ output: UnsafeMutablePointer<UInt8>) {
        for i in 0..<width {
            let luma = Int32(y[i]), blueDifference = Int32(cb[i]) - 128, redDifference = Int32(cr[i]) - 128
            output[3 * i] = clamp(red(luma, redDifference))
            output[3 * i + 1] = clamp(green(luma, blueDifference, redDifference))
            output[3 * i + 2] = clamp(blue(luma, blueDifference))
        }
    }

    /// Bound: as `yccToRGB`, 4 · width bytes out.
    static func ycckToCMYK(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, _ k: UnsafePointer<UInt8>,
                           width: Int, _ output: UnsafeMutablePointer<UInt8>) {
        for i in 0..<width {
            let luma = Int32(y[i]), blueDifference = Int32(cb[i]) - 128, redDifference = Int32(cr[i]) - 128
            output[4 * i] = clamp(255 - red(luma, redDifference))
            output[4 * i + 1] = clamp(255 - green(luma, blueDifference, redDifference))
            output[4 * i + 2] = clamp(255 - blue(luma, blueDifference))
            output[4 * i + 3] = k[i]
        }
    }

    /// RGB (Adobe transform 0, or 'R','G','B' ids) and CMYK as stored: interleave (any sample
    /// size).
    static func interleave<Sample>(_ rows: [UnsafePointer<Sample>], width: Int, _ output: UnsafeMutablePointer<Sample>) {
        let channels = rows.count
        for (c, row) in rows.enumerated() {
            var o = output + c
            for i in 0..<width { o.pointee = row[i]; o += channels }
        }
    }
}
