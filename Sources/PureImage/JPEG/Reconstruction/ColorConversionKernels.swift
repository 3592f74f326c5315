/// Colour conversion exactly as libjpeg-turbo 2.1's jdcolor.c (T.871 JFIF §7 equations in
/// 16-bit fixed point with ONE_HALF rounding):
///
///     R = Y + round(1.40200 · Cr')
///     G = Y + ((−0.34414 · Cb' − 0.71414 · Cr' + ½) >> 16)      (Cb' = Cb − 128, Cr' = Cr − 128)
///     B = Y + round(1.77200 · Cb')
///
/// each clamped to 0…255. YCCK → CMYK converts YCC to RGB, outputs 255 − R, G, B, and copies K.
/// Unsafe kernel file: every function reads `width` samples per input row and writes
/// `width × channels` bytes to `output`.
enum ColorConversionKernels {
    static let crToR: [Int32] = (0..<256).map { Int32((91881 * ($0 - 128) + 32768) >> 16) }
    static let cbToB: [Int32] = (0..<256).map { Int32((116130 * ($0 - 128) + 32768) >> 16) }
    static let crToG: [Int32] = (0..<256).map { Int32(-46802 * ($0 - 128)) }
    static let cbToG: [Int32] = (0..<256).map { Int32(-22554 * ($0 - 128) + 32768) }

    @inline(__always) static func clamp(_ value: Int32) -> UInt8 { UInt8(min(max(value, 0), 255)) }

    struct Tables {
        let crToR: UnsafePointer<Int32>
        let cbToB: UnsafePointer<Int32>
        let crToG: UnsafePointer<Int32>
        let cbToG: UnsafePointer<Int32>
    }

    static func yccToRGB(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, width: Int,
                         _ output: UnsafeMutablePointer<UInt8>, tables t: Tables) {
        var o = output
        for i in 0..<width {
            let luma = Int32(y[i]), blue = Int(cb[i]), red = Int(cr[i])
            o[0] = clamp(luma + t.crToR[red])
            o[1] = clamp(luma + ((t.cbToG[blue] + t.crToG[red]) >> 16))
            o[2] = clamp(luma + t.cbToB[blue])
            o += 3
        }
    }

    static func ycckToCMYK(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, _ k: UnsafePointer<UInt8>,
                           width: Int, _ output: UnsafeMutablePointer<UInt8>, tables t: Tables) {
        var o = output
        for i in 0..<width {
            let luma = Int32(y[i]), blue = Int(cb[i]), red = Int(cr[i])
            o[0] = clamp(255 - (luma + t.crToR[red]))
            o[1] = clamp(255 - (luma + ((t.cbToG[blue] + t.crToG[red]) >> 16)))
            o[2] = clamp(255 - (luma + t.cbToB[blue]))
            o[3] = k[i]
            o += 4
        }
    }

    /// RGB (Adobe transform 0, or 'R','G','B' ids) and CMYK as stored: interleave.
    static func interleave(_ rows: [UnsafePointer<UInt8>], width: Int, _ output: UnsafeMutablePointer<UInt8>) {
        let channels = rows.count
        for (c, row) in rows.enumerated() {
            var o = output + c
            for i in 0..<width { o.pointee = row[i]; o += channels }
        }
    }
}
