/// Packed 1-, 2- and 4-bit pixels (gray or indexed: scanned documents, fax, small palettes)
/// into any 4-byte, 8-bit format — the display format and RGBA among them. Each of the 2^bits
/// values is converted once by `GeneralConversion` (so the pixels are exactly what it gives),
/// then every pixel is a table look-up: a 1-bit fax page is 8 look-ups per source byte instead
/// of 8 trips through the general per-pixel path.
extension Bitmap {
    /// Below this many pixels the tables cost more than they save (they cost about as much as
    /// converting 2048 pixels one by one): the one-row bands of a TIFF of one pixel per strip,
    /// say, go the general way — the same pixels, which is what the tables hold.
    static let packedLookUpMinimumPixels = 2048

    /// Every source byte's pixels as target words: 256 rows of `8 / bits` words (8 KiB for
    /// 1-bit). Each of the 2^bits values is converted by `GeneralConversion`.
    static func packedLookUpTable(from format: PixelFormat, to target: PixelFormat) -> [UInt32] {
        let bits = format.bitsPerComponent
        let levels = 1 << bits
        // One row holding every value 0 ..< levels, packed most significant bits first.
        var values = [UInt8](repeating: 0, count: (levels * bits + 7) / 8)
        for value in 0..<levels {
            let bit = value * bits
            values[bit / 8] |= UInt8(value << (8 - bits - bit % 8))
        }
        let row = Bitmap(uncheckedWidth: levels, height: 1, format: format, bytesPerRow: values.count, bytes: values)
        var table = Bitmap(uncheckedWidth: levels, height: 1, format: target, bytesPerRow: 4 * levels,
                           bytes: [UInt8](repeating: 0, count: 4 * levels))
        GeneralConversion(from: format, to: target).run(from: row, into: &table)
        var words = [UInt32](repeating: 0, count: levels)
        for value in 0..<levels {
            for k in 0..<4 { words[value] |= UInt32(table.bytes[4 * value + k]) << UInt32(8 * k) }
        }
        let perByte = 8 / bits
        let mask = UInt8(levels - 1)
        var expanded = [UInt32](repeating: 0, count: 256 * perByte)
        for byte in 0..<256 {
            for k in 0..<perByte {
                expanded[byte * perByte + k] = UInt32(littleEndian: words[Int((UInt8(byte) >> UInt8(8 - bits - k * bits)) & mask)])
            }
        }
        return expanded
    }

    /// Writes every pixel of `height` rows of `width` packed pixels (4 × width bytes at
    /// y × target.bytesPerRow; padding after them is left alone). A whole source byte is one
    /// fixed-size copy of its pixels' words: 32 bytes for 1-bit, 16 for 2-bit, 8 for 4-bit.
    static func writePackedLookUp(_ expanded: [UInt32], bits: Int, width columns: Int, height rows: Int,
                                  from source: PixelRows, into target: MutablePixelRows) {
        let perByte = 8 / bits
        let sourceRowBytes = source.bytesPerRow, targetRowBytes = target.bytesPerRow
        let wholeBytes = columns / perByte, tail = columns % perByte
        expanded.withUnsafeBytes { expanded in
            guard let e = expanded.baseAddress else { return }
            let s0 = source.base.assumingMemoryBound(to: UInt8.self), t0 = target.base
            // Row y: ceil(columns × bits / 8) = wholeBytes (+ 1 with a tail) source bytes at
            // y × sourceRowBytes and 4 × columns target bytes at y × targetRowBytes, both inside
            // their buffers (the caller's guarantee, `PixelConverter.convert`); a byte indexes
            // one of the 256 rows of `expanded`, each 4 × perByte bytes.
            for y in 0..<rows {
                let s = s0 + y * sourceRowBytes
                let t = t0 + y * targetRowBytes
                switch perByte {
                case 8:
                    for index in 0..<wholeBytes {
                        let from = e + Int(s[index]) * 32
                        t.storeBytes(of: from.loadUnaligned(as: SIMD16<UInt8>.self), toByteOffset: index * 32, as: SIMD16<UInt8>.self)
                        t.storeBytes(of: from.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self), toByteOffset: index * 32 + 16,
                                     as: SIMD16<UInt8>.self)
                    }
                case 4:
                    for index in 0..<wholeBytes {
                        t.storeBytes(of: (e + Int(s[index]) * 16).loadUnaligned(as: SIMD16<UInt8>.self), toByteOffset: index * 16,
                                     as: SIMD16<UInt8>.self)
                    }
                default:
                    for index in 0..<wholeBytes {
                        t.storeBytes(of: (e + Int(s[index]) * 8).loadUnaligned(as: UInt64.self), toByteOffset: index * 8, as: UInt64.self)
                    }
                }
                if tail > 0 {
                    (t + wholeBytes * perByte * 4).copyMemory(from: e + Int(s[wholeBytes]) * perByte * 4, byteCount: tail * 4)
                }
            }
        }
    }
}
