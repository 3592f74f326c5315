/// §19 SampleFormat 3 (IEEE floating point) — gray or RGB (+ alpha) samples of 16, 24, 32 or
/// 64 bits, as a float `Bitmap` at full precision: 64-bit samples stay binary64, the others
/// become binary32 (exactly: half floats and Adobe's 24-bit floats — 1 sign bit, 7 exponent
/// bits biased by 63, 16 mantissa bits — are subsets of binary32). Components are big-endian
/// (`ByteOrder.default`), as every multi-byte sample inside the TIFF decoder is.
///
/// libtiff's RGBA interface refuses floating-point images, so there is no RGBA to match;
/// `Bitmap.converted(to:)` maps 0…1 to integers (Docs/Bitmap.md).
extension TIFFRendering {
    static func renderFloat(layout: TIFFImageLayout, planes: [[UInt8]], planeRowBytes: Int, rows: Int,
                            limits: DecodeLimits) throws(DecodeError) -> Bitmap {
        let width = layout.width
        let bytesIn = layout.bitsPerSample / 8
        let bytesOut = bytesIn == 8 ? 8 : 4
        let spp = layout.samplesPerPixel
        let sources: [Int]
        let model: ColorModel
        if layout.photometric == .rgb {
            model = .rgb
            sources = layout.alpha != .none && spp > 3 ? [0, 1, 2, 3] : [0, 1, 2]
        } else {
            model = .gray
            sources = layout.alpha != .none && layout.colorChannels == 1 ? [0, 1] : [0]
        }
        let hasAlpha = sources.count == 2 || sources.count == 4
        let alphaInfo: AlphaInfo = !hasAlpha ? .none : (layout.alpha == .associated ? .premultipliedLast : .last)
        let format = PixelFormat(colorModel: model, bitsPerComponent: 8 * bytesOut, alphaInfo: alphaInfo, componentType: .float)
        let total = try SizeMath.allocationSize(width, rows, sources.count * bytesOut, limits: limits, format: .tiff, offset: nil)
        var out = [UInt8](repeating: 0, count: total)
        var o = 0
        for y in 0..<rows {
            for x in 0..<width {
                for s in sources {
                    let plane = layout.isPlanar ? s : 0
                    let at = y * planeRowBytes + (layout.isPlanar ? x : x * spp + s) * bytesIn
                    var raw: UInt64 = 0
                    for k in 0..<bytesIn { raw = raw << 8 | UInt64(planes[plane][at + k]) }
                    let bits: UInt64
                    switch bytesIn {
                    case 2: bits = UInt64(halfToFloatBits(UInt16(truncatingIfNeeded: raw)))
                    case 3: bits = UInt64(float24ToFloatBits(UInt32(truncatingIfNeeded: raw)))
                    default: bits = raw
                    }
                    for k in 0..<bytesOut { out[o + k] = UInt8(truncatingIfNeeded: bits >> UInt64(8 * (bytesOut - 1 - k))) }
                    o += bytesOut
                }
            }
        }
        return Bitmap(uncheckedWidth: width, height: rows, format: format, bytesPerRow: width * sources.count * bytesOut, bytes: out)
    }

    /// IEEE 754 binary16 → binary32 bits, exactly (subnormals normalised, infinities and NaNs kept).
    static func halfToFloatBits(_ half: UInt16) -> UInt32 {
        let sign = UInt32(half >> 15) << 31
        let exponent = Int(half >> 10 & 0x1F)
        var mantissa = UInt32(half & 0x3FF)
        switch exponent {
        case 0:
            guard mantissa != 0 else { return sign }
            var e = -14
            while mantissa & 0x400 == 0 { mantissa <<= 1; e -= 1 }
            return sign | UInt32(e + 127) << 23 | (mantissa & 0x3FF) << 13
        case 31:
            return sign | 0x7F80_0000 | mantissa << 13
        default:
            return sign | UInt32(exponent - 15 + 127) << 23 | mantissa << 13
        }
    }

    /// Adobe's 24-bit float (sign, 7-bit exponent biased by 63, 16-bit mantissa) → binary32 bits.
    static func float24ToFloatBits(_ value: UInt32) -> UInt32 {
        let sign = (value >> 23 & 1) << 31
        let exponent = Int(value >> 16 & 0x7F)
        var mantissa = value & 0xFFFF
        switch exponent {
        case 0:
            guard mantissa != 0 else { return sign }
            var e = -62
            while mantissa & 0x1_0000 == 0 { mantissa <<= 1; e -= 1 }
            return sign | UInt32(e + 127) << 23 | (mantissa & 0xFFFF) << 7
        case 127:
            return sign | 0x7F80_0000 | mantissa << 7
        default:
            return sign | UInt32(exponent - 63 + 127) << 23 | mantissa << 7
        }
    }
}
