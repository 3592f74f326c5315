/// Painting a decoded row's runs into its bits: white runs stay 0, black runs become 1
/// (libtiff's `_TIFFFax3fillruns`; the photometric interpretation gives the bits their meaning
/// later). Bits past the row's width are never touched.
extension CCITTFaxDecoder {
    /// Paints the current row's runs at byte `rowStart` of `output` (nil: decoded, not kept).
    /// Like libtiff, it first closes an odd list of runs with an empty black run and cuts runs
    /// that reach past the width in the run array itself — the next row reads them as its
    /// reference.
    mutating func paintRow(into output: inout [UInt8], at rowStart: Int?) {
        var end = pa
        if (pa - current) & 1 == 1 {
            // An odd count is below the (even) capacity, so runs[pa] is inside the array.
            runs[pa] = 0
            end += 1
        }
        let lastX = UInt32(bitPattern: width)
        let rowBytes = (Int(width) + 7) / 8
        let paintable = rowStart.map { $0 >= 0 && $0 + rowBytes <= output.count } ?? false
        var x: UInt32 = 0
        var index = current
        output.withUnsafeMutableBufferPointer { buffer in
            while index < end {
                var white = runs[index]
                if UInt64(x) + UInt64(white) > UInt64(lastX) {
                    white = lastX - x
                    runs[index] = white
                }
                x += white
                var black = runs[index + 1]
                if UInt64(x) + UInt64(black) > UInt64(lastX) {
                    black = lastX - x
                    runs[index + 1] = black
                }
                if black > 0, paintable, let rowStart, let base = buffer.baseAddress {
                    // x + black ≤ width, so the bits set lie within the row's rowBytes bytes,
                    // which `paintable` checked are inside the buffer.
                    Self.setBits(base + rowStart, from: Int(x), count: Int(black))
                }
                x += black
                index += 2
            }
        }
    }

    /// Sets bits `from ..< from + count` of the row at `row` (bit 0 = most significant of byte 0).
    /// The caller guarantees the bits lie inside the row.
    @inline(__always)
    static func setBits(_ row: UnsafeMutablePointer<UInt8>, from start: Int, count: Int) {
        var byte = start >> 3
        let offset = start & 7
        var left = count
        if offset + left <= 8 {
            row[byte] |= UInt8(truncatingIfNeeded: (0xFF00 >> left) & 0xFF) >> offset
            return
        }
        if offset != 0 {
            row[byte] |= 0xFF >> offset
            left -= 8 - offset
            byte += 1
        }
        let whole = left >> 3
        if whole > 0 {
            (row + byte).update(repeating: 0xFF, count: whole)
            byte += whole
            left &= 7
        }
        if left > 0 {
            row[byte] |= UInt8(truncatingIfNeeded: 0xFF00 >> left)
        }
    }
}
