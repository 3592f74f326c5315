/// The per-byte loops of the ALPH chunk: taking the alpha out of the lossless stream's green
/// channel, and undoing the filters.
///
/// Unsafe for speed. Bounds: `green` writes `count` bytes at `offset` after checking that they
/// lie inside `plane`; `unfilter` works on a plane of exactly `width × height` bytes (checked),
/// each row reading itself and the row above.
enum WebPAlphaKernels {
    /// Bits 8–15 (green) of `count` ARGB words, into `plane[offset ..< offset + count]`.
    static func green(of rows: [UInt32], count: Int, into plane: inout [UInt8], at offset: Int) {
        precondition(count >= 0 && count <= rows.count && offset >= 0 && offset <= plane.count - count)
        rows.withUnsafeBufferPointer { rows in
        plane.withUnsafeMutableBufferPointer { plane in
            guard let source = rows.baseAddress, let destination = plane.baseAddress else { return }
            let out = destination + offset
            for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: source[i] &>> 8) }
        }
        }
    }

    /// RFC 9649 §2.7.1.2 filtering methods, undone row by row: the predictor is the left pixel
    /// (horizontal), the pixel above (vertical) or clip(left + above − above-left) (gradient);
    /// the top-left pixel is predicted from 0, the rest of the first row from the left, the
    /// first pixel of other rows from the pixel above (libwebp's `WebPUnfilters`).
    static func unfilter(_ plane: inout [UInt8], width: Int, height: Int, filter: Int) {
        guard filter != 0, width > 0, height > 0 else { return }
        precondition(plane.count == width * height)
        plane.withUnsafeMutableBufferPointer { buffer in
            guard let p = buffer.baseAddress else { return }
            var left: UInt8 = 0
            for x in 0..<width { p[x] = p[x] &+ left; left = p[x] }
            for y in 1..<height {
                let row = p + y &* width, above = row - width
                switch filter {
                case 1:
                    var left = above[0]
                    for x in 0..<width { row[x] = row[x] &+ left; left = row[x] }
                case 2:
                    for x in 0..<width { row[x] = row[x] &+ above[x] }
                default:
                    var left = Int(above[0]), topLeft = Int(above[0])
                    for x in 0..<width {
                        let top = Int(above[x])
                        let g = left &+ top &- topLeft
                        let predictor = g < 0 ? 0 : g > 255 ? 255 : g
                        left = (Int(row[x]) &+ predictor) & 0xFF
                        row[x] = UInt8(truncatingIfNeeded: left)
                        topLeft = top
                    }
                }
            }
        }
    }
}
