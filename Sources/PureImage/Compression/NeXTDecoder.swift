/// NeXT 2-bit grey compression (TIFF compression 32766; no TIFF 6.0 section — NeXTstep's own
/// scheme, which libtiff reads in tif_next.c). Each row of 2-bit samples starts white (every
/// byte 0xFF) and is then coded by its first byte:
///
/// ```
/// 0x00                 literal row: the next `rowBytes` bytes are the row
/// 0x40 off₁₆ n₁₆ bytes  literal span: n bytes placed at byte `off` (big-endian counts)
/// other                run mode: this byte and those after it are runs, gg nnnnnn = n
///                      pixels (0…63) of grey g, until the row's pixels are filled
/// ```
///
/// Exactly libtiff 4.5's decoder, including how it fails: a row that runs out of data, or a span
/// reaching past the row, stops the chunk (the rows so far kept, the rest white) and libtiff
/// reports the chunk as failed; data that ends *between* rows ends the chunk successfully, the
/// remaining rows white. A run that ends inside a byte leaves that byte's later pixels 0 (the
/// byte's first pixel assigns it whole).
enum NeXTDecoder {
    /// Decodes `rows` rows of `rowBytes` bytes (`pixelsPerRow` pixels each: the image width, or
    /// the tile width) into `chunk`, which is made white first. Nil, or the problem that made
    /// libtiff fail the chunk.
    static func decode(_ input: ArraySlice<UInt8>, rows: Int, rowBytes: Int, pixelsPerRow: Int,
                       into chunk: inout [UInt8]) -> String? {
        let total = rows * rowBytes
        chunk = [UInt8](repeating: 0xFF, count: total)
        var next = input.startIndex
        let end = input.endIndex
        var row = 0
        while next < end && row < rows {
            let base = row * rowBytes
            let opcode = input[next]
            next += 1
            switch opcode {
            case 0x00:
                guard end - next >= rowBytes else { return "not enough data for row \(row)" }
                chunk.replaceSubrange(base ..< base + rowBytes, with: input[next ..< next + rowBytes])
                next += rowBytes
            case 0x40:
                guard end - next >= 4 else { return "not enough data for row \(row)" }
                let offset = Int(input[next]) << 8 | Int(input[next + 1])
                let count = Int(input[next + 2]) << 8 | Int(input[next + 3])
                guard end - next >= 4 + count, offset + count <= rowBytes else {
                    return "literal span of \(count) bytes at \(offset) does not fit row \(row)"
                }
                chunk.replaceSubrange(base + offset ..< base + offset + count, with: input[next + 4 ..< next + 4 + count])
                next += 4 + count
            default:
                var code = Int(opcode)
                var pixels = 0
                var byte = 0
                while true {
                    let grey = UInt8((code >> 6) & 3)
                    var count = code & 0x3F
                    // libtiff stops a run at the row's pixels or bytes, whichever comes first.
                    while count > 0 && pixels < pixelsPerRow && byte < rowBytes {
                        count -= 1
                        switch pixels & 3 {
                        case 0: chunk[base + byte] = grey << 6
                        case 1: chunk[base + byte] |= grey << 4
                        case 2: chunk[base + byte] |= grey << 2
                        default:
                            chunk[base + byte] |= grey
                            byte += 1
                        }
                        pixels += 1
                    }
                    if pixels >= pixelsPerRow { break }
                    if byte >= rowBytes { return "runs past the end of row \(row)" }
                    guard next < end else { return "not enough data for row \(row)" }
                    code = Int(input[next])
                    next += 1
                }
            }
            row += 1
        }
        return nil
    }
}
