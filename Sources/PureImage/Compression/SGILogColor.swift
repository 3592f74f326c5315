#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// LogLuv code values to luminance, XYZ and display RGB — the arithmetic of libtiff's tif_luv.c,
/// in its precisions (double, stored as float where libtiff stores float) and with the C
/// library's exp and sqrt, so 8-bit output equals libtiff's byte for byte.
enum SGILogColor {
    /// The neutral (u', v') and the 8-bit (u', v') scale of the 32-bit encoding. Parsed at run
    /// time (strtod), as a C compiler reads them, not as Swift literals.
    static let uNeutral = Double("0.210526316") ?? 0
    static let vNeutral = Double("0.473684211") ?? 0
    static let uvScale = 410.0

    /// 16-bit LogL: Y = 2^((Le + ½) / 256 − 64), signed by bit 15; Le = 0 is black.
    static func luminance16(_ p16: Int16) -> Double {
        let le = Int(p16) & 0x7FFF
        if le == 0 { return 0 }
        let y = exp(M_LN2 / 256.0 * (Double(le) + 0.5) - M_LN2 * 64.0)
        return Int(p16) & 0x8000 == 0 ? y : -y
    }

    /// 10-bit LogL of the 24-bit encoding: Y = 2^((Le + ½) / 64 − 12).
    static func luminance10(_ p10: Int) -> Double {
        p10 == 0 ? 0 : exp(M_LN2 / 64.0 * (Double(p10) + 0.5) - M_LN2 * 12.0)
    }

    /// The centre of grid square `code` (SGILogUVGrid), or nil for a code outside the grid.
    static func uvDecode(_ code: Int) -> (u: Double, v: Double)? {
        guard code >= 0, code < SGILogUVGrid.squareCount else { return nil }
        let cumulative = SGILogUVGrid.cumulative
        var lower = 0, upper = cumulative.count
        while upper - lower > 1 {
            let middle = (lower + upper) >> 1
            let offset = code - cumulative[middle]
            if offset > 0 { lower = middle } else if offset < 0 { upper = middle } else { lower = middle; break }
        }
        let ui = code - cumulative[lower]
        let size = Double(SGILogUVGrid.squareSize)
        return (Double(SGILogUVGrid.ustart[lower]) + (Double(ui) + 0.5) * size,
                Double(SGILogUVGrid.vStart) + (Double(lower) + 0.5) * size)
    }

    /// (u', v') and luminance to XYZ, stored as float (libtiff's LogLuv32toXYZ tail).
    private static func xyz(u: Double, v: Double, luminance: Double) -> [Float] {
        let s = 1.0 / (6.0 * u - 16.0 * v + 12.0)
        let x = 9.0 * u * s
        let y = 4.0 * v * s
        return [Float(x / y * luminance), Float(luminance), Float((1.0 - x - y) / y * luminance)]
    }

    static func xyz32(_ p: UInt32) -> [Float] {
        let luminance = luminance16(Int16(truncatingIfNeeded: Int32(bitPattern: p) >> 16))
        if luminance <= 0 { return [0, 0, 0] }
        let u = 1.0 / uvScale * (Double(p >> 8 & 0xFF) + 0.5)
        let v = 1.0 / uvScale * (Double(p & 0xFF) + 0.5)
        return xyz(u: u, v: v, luminance: luminance)
    }

    static func xyz24(_ p: UInt32) -> [Float] {
        let luminance = luminance10(Int(p >> 14 & 0x3FF))
        if luminance <= 0 { return [0, 0, 0] }
        let (u, v) = uvDecode(Int(p & 0x3FFF)) ?? (uNeutral, vNeutral)
        return xyz(u: u, v: v, luminance: luminance)
    }

    /// 16-bit L, u' × 2^15, v' × 2^15 (truncated toward zero, as C's conversion to int16).
    static func luv48From32(_ p: UInt32) -> [Int16] {
        let u = 1.0 / uvScale * (Double(p >> 8 & 0xFF) + 0.5)
        let v = 1.0 / uvScale * (Double(p & 0xFF) + 0.5)
        return [Int16(truncatingIfNeeded: p >> 16), Int16(truncatingIfNeeded: Int(u * 32768)), Int16(truncatingIfNeeded: Int(v * 32768))]
    }

    static func luv48From24(_ p: UInt32) -> [Int16] {
        let (u, v) = uvDecode(Int(p & 0x3FFF)) ?? (uNeutral, vNeutral)
        return [Int16(truncatingIfNeeded: Int(p >> 12 & 0xFFD) + 13314),
                Int16(truncatingIfNeeded: Int(u * 32768)), Int16(truncatingIfNeeded: Int(v * 32768))]
    }

    /// libtiff's display mapping: 0 at or below 0, 255 at or above 1, else ⌊256 √c⌋ (gamma 2).
    static func gamma2Byte(_ c: Double) -> UInt8 {
        c <= 0 ? 0 : (c >= 1 ? 255 : UInt8(truncatingIfNeeded: Int(256.0 * sqrt(c))))
    }

    /// XYZ → linear RGB for CCIR-709 primaries, libtiff's coefficients (parsed, not literals).
    static let matrix: [Double] = "2.690 -1.276 -0.414 -1.022 1.978 0.044 0.061 -0.224 1.163"
        .split(separator: " ").map { Double(String($0)) ?? 0 }

    /// XYZtoRGB24: CCIR-709 primaries, then gamma 2.
    static func rgb24(_ xyz: [Float]) -> [UInt8] {
        let x = Double(xyz[0]), y = Double(xyz[1]), z = Double(xyz[2])
        let m = matrix
        let r = m[0] * x + m[1] * y + m[2] * z
        let g = m[3] * x + m[4] * y + m[5] * z
        let b = m[6] * x + m[7] * y + m[8] * z
        return [gamma2Byte(r), gamma2Byte(g), gamma2Byte(b)]
    }
}
