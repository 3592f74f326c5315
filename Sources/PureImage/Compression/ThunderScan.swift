/// ThunderScan 4-bit compression (TIFF compression 32809; described in the TIFF 6.0 draft
/// appendices and by libtiff's tif_thunder.c, whose decoder this follows, recovery included).
///
/// Each byte is a 2-bit code and 6 bits of data, decoded against the last pixel of the row
/// (0 at the start of every row):
///
/// | code | meaning                                                                          |
/// |------|----------------------------------------------------------------------------------|
/// | 00   | repeat the last pixel n times (n = the 6 data bits; n = 0 does nothing)          |
/// | 01   | three pixels, each the last one plus a 2-bit delta (0, +1, skip, −1)             |
/// | 10   | two pixels, each the last one plus a 3-bit delta (0, +1, +2, +3, skip, −3, −2, −1) |
/// | 11   | one raw pixel: the low 4 data bits                                               |
///
/// Deltas wrap modulo 16; a "skip" delta writes no pixel. Pixels are packed two per byte, high
/// nibble first; each row starts on a byte and holds `width` pixels.
///
/// Example: `C5 43 8F` after a row start decodes as raw 5; then 2-bit deltas 0, 0, −1 → 5, 5,
/// 4; then 3-bit deltas +1, −1 → 5, 4. Row bytes: `55 54 54`.
///
/// A row whose codes give fewer or more than `width` pixels is an error in libtiff (the strip
/// read fails; the rest of that row, from its last whole byte, is zero). A run that reaches the
/// end of the row writes nothing beyond completing a half-filled byte (libtiff's behaviour, kept
/// for identical output: the pixels it covers stay zero).
enum ThunderScan {
    private static let twoBitDeltas = [0, 1, 0, -1]
    private static let threeBitDeltas = [0, 1, 2, 3, 0, -3, -2, -1]
    private static let twoBitSkip = 2
    private static let threeBitSkip = 4

    /// Decodes `rows` rows of `width` 4-bit pixels, `rowBytes` apart, into `output` (at least
    /// `rows × rowBytes` bytes, zero on entry). Returns the bytes of whole rows written (the
    /// failing row's decoded part included), libtiff's message when a row fails, and the byte
    /// ranges of runs libtiff counts without writing (left zero here).
    static func decode(_ input: ArraySlice<UInt8>, width: Int, rows: Int, rowBytes: Int,
                       into output: inout [UInt8]) -> (written: Int, problem: String?, unwritten: [Range<Int>]) {
        var read = input.startIndex
        var unwritten: [Range<Int>] = []
        for row in 0..<rows {
            let start = row * rowBytes
            guard start + (width + 1) / 2 <= output.count else { return (start, "row \(row) does not fit the strip", unwritten) }
            var writer = NibbleWriter(start: start)
            var last = 0
            while read < input.endIndex && writer.pixels < width {
                let byte = Int(input[read])
                read += 1
                let data = byte & 0x3F
                switch byte >> 6 {
                case 0:
                    guard data > 0 else { continue }
                    // libtiff completes a half-filled byte first, then checks the rest of the
                    // run against the row: a run that reaches the row's end is counted but not
                    // written (libtiff 4.5 tests `npixels < maxpixels`, so a run ending exactly
                    // at the last pixel leaves those bytes as they were — zero here; one that
                    // ends past it is "Too much data").
                    var count = data
                    if writer.pixels & 1 == 1 {
                        writer.put(last, into: &output)
                        count -= 1
                    }
                    if writer.pixels + count >= width {
                        if writer.pixels + count == width { unwritten.append(writer.byteIndex ..< start + (width + 1) / 2) }
                        writer.pixels += count
                        continue
                    }
                    for _ in 0..<count { writer.put(last, into: &output) }
                case 1:
                    for shift in stride(from: 4, through: 0, by: -2) {
                        let delta = (data >> shift) & 3
                        if delta != twoBitSkip { last = (last + twoBitDeltas[delta]) & 0xF; writer.put(last, width: width, into: &output) }
                    }
                case 2:
                    for shift in stride(from: 3, through: 0, by: -3) {
                        let delta = (data >> shift) & 7
                        if delta != threeBitSkip { last = (last + threeBitDeltas[delta]) & 0xF; writer.put(last, width: width, into: &output) }
                    }
                default:
                    last = data & 0xF
                    writer.put(last, width: width, into: &output)
                }
            }
            if writer.pixels != width {
                // libtiff zeroes the rest of the row and fails the strip.
                let rowEnd = start + (width + 1) / 2
                let from = min(writer.byteIndex, rowEnd)
                for index in from ..< rowEnd { output[index] = 0 }
                let which = writer.pixels < width ? "not enough" : "too much"
                return (from, "\(which) data at row \(row) (\(writer.pixels) of \(width) pixels)", unwritten)
            }
        }
        return (rows * rowBytes, nil, unwritten)
    }

    /// Packs 4-bit pixels high nibble first from `start`.
    private struct NibbleWriter {
        var pixels = 0
        var byteIndex: Int

        init(start: Int) { byteIndex = start }

        /// A pixel of a run: the run's length was checked against the row (or, completing a
        /// half-filled byte, `pixels < width` holds).
        mutating func put(_ value: Int, into output: inout [UInt8]) {
            if pixels & 1 == 1 {
                output[byteIndex] |= UInt8(value)
                byteIndex += 1
            } else {
                output[byteIndex] = UInt8(value << 4)
            }
            pixels += 1
        }

        /// A delta or raw pixel: dropped once the row is full (libtiff's SETPIXEL).
        mutating func put(_ value: Int, width: Int, into output: inout [UInt8]) {
            guard pixels < width else { return }
            put(value, into: &output)
        }
    }
}
