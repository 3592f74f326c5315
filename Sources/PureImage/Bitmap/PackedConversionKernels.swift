/// Packed 1-, 2- and 4-bit pixels (gray or indexed: scanned documents, fax, small palettes)
/// into any 4-byte, 8-bit format — the display format and RGBA among them. Each of the 2^bits
/// values is converted once by `GeneralConversion` (so the pixels are exactly what it gives),
/// then every pixel is a table look-up: a 1-bit fax page is 8 look-ups per source byte instead
/// of 8 trips through the general per-pixel path.
extension Bitmap {
    func lookUpPackedSamples(into result: inout Bitmap) {
        // The tables cost about as much as converting 2048 pixels one by one: small bitmaps —
        // the one-row bands of a TIFF of one pixel per strip, say — go the general way (the
        // same pixels, which is what the tables hold).
        guard width * height >= 2048 else {
            GeneralConversion(from: format, to: result.format).run(from: self, into: &result)
            return
        }
        let bits = format.bitsPerComponent
        let levels = 1 << bits
        // One row holding every value 0 ..< levels, packed most significant bits first.
        var values = [UInt8](repeating: 0, count: (levels * bits + 7) / 8)
        for value in 0..<levels {
            let bit = value * bits
            values[bit / 8] |= UInt8(value << (8 - bits - bit % 8))
        }
        let row = Bitmap(uncheckedWidth: levels, height: 1, format: format, bytesPerRow: values.count, bytes: values)
        var table = Bitmap(uncheckedWidth: levels, height: 1, format: result.format, bytesPerRow: 4 * levels,
                           bytes: [UInt8](repeating: 0, count: 4 * levels))
        GeneralConversion(from: format, to: result.format).run(from: row, into: &table)
        var words = [UInt32](repeating: 0, count: levels)
        for value in 0..<levels {
            for k in 0..<4 { words[value] |= UInt32(table.bytes[4 * value + k]) << UInt32(8 * k) }
        }
        // Every source byte's pixels at once: 256 rows of `perByte` words (8 KiB for 1-bit).
        let perByte = 8 / bits
        let mask = UInt8(levels - 1)
        var expanded = [UInt32](repeating: 0, count: 256 * perByte)
        for byte in 0..<256 {
            for k in 0..<perByte {
                expanded[byte * perByte + k] = UInt32(littleEndian: words[Int((UInt8(byte) >> UInt8(8 - bits - k * bits)) & mask)])
            }
        }
        let sourceRowBytes = bytesPerRow, targetRowBytes = result.bytesPerRow
        let rows = height, columns = width
        let wholeBytes = columns / perByte, tail = columns % perByte
        bytes.withUnsafeBufferPointer { source in
            expanded.withUnsafeBufferPointer { expanded in
                result.bytes.withUnsafeMutableBufferPointer { target in
                    guard let s0 = source.baseAddress, let t0 = target.baseAddress, let e = expanded.baseAddress else { return }
                    // Row y: ceil(columns × bits / 8) = wholeBytes (+ 1 with a tail) source bytes at
                    // y × sourceRowBytes and 4 × columns target bytes at y × targetRowBytes, both
                    // inside their buffers; a byte indexes one of the 256 rows of `expanded`.
                    for y in 0..<rows {
                        let s = s0 + y * sourceRowBytes
                        let t = UnsafeMutableRawPointer(t0 + y * targetRowBytes)
                        for index in 0..<wholeBytes {
                            t.advanced(by: index * perByte * 4).copyMemory(from: e + Int(s[index]) * perByte, byteCount: perByte * 4)
                        }
                        if tail > 0 {
                            t.advanced(by: wholeBytes * perByte * 4).copyMemory(from: e + Int(s[wholeBytes]) * perByte, byteCount: tail * 4)
                        }
                    }
                }
            }
        }
    }
}
