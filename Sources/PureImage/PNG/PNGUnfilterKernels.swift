/// PNG §9.2 filter types, reversed. Each kernel rewrites one scanline in place.
///
/// Notation of §9.2, for the byte being reconstructed at index i:
/// `x` = filtered byte, `a` = reconstructed byte bpp to the left (0 for the first pixel),
/// `b` = byte above (0 on a pass's first row), `c` = byte above-left.
///
/// | type | name    | Recon(x)                         |
/// |------|---------|----------------------------------|
/// | 0    | None    | x                                |
/// | 1    | Sub     | x + a                            |
/// | 2    | Up      | x + b                            |
/// | 3    | Average | x + floor((a + b) / 2)           |
/// | 4    | Paeth   | x + PaethPredictor(a, b, c)      |
/// All additions are modulo 256.
///
/// Safety: `row` and `previous` have the same count (`previous` may be empty, meaning "row
/// above is all zeros"); every index below is in `0..<row.count`, and `i - bpp` is used only
/// when `i ≥ bpp`.
enum PNGUnfilter {
    /// §9.4 PaethPredictor: the neighbour closest to p = a + b − c, ties broken a, then b, then c.
    /// |p − a| = |b − c|, |p − b| = |a − c|, |p − c| = |a + b − 2c|.
    @inline(__always)
    static func paethPredictor(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let ia = Int(a), ib = Int(b), ic = Int(c)
        let pa = abs(ib - ic), pb = abs(ia - ic), pc = abs(ia + ib - 2 * ic)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// Reverses filter `type` on `row`. Returns false for a type outside 0...4.
    static func unfilter(type: UInt8, row: UnsafeMutableBufferPointer<UInt8>, previous: UnsafeBufferPointer<UInt8>, bpp: Int) -> Bool {
        let count = row.count
        let hasPrevious = previous.count == count
        switch type {
        case 0:
            return true
        case 1:
            var i = bpp
            while i < count { row[i] &+= row[i - bpp]; i += 1 }
            return true
        case 2:
            guard hasPrevious else { return true }   // Up with a zero row above is None.
            for i in 0..<count { row[i] &+= previous[i] }
            return true
        case 3:
            if hasPrevious {
                for i in 0..<min(bpp, count) { row[i] &+= previous[i] >> 1 }
                var i = bpp
                while i < count {
                    row[i] &+= UInt8((UInt16(row[i - bpp]) + UInt16(previous[i])) >> 1)
                    i += 1
                }
            } else {
                var i = bpp
                while i < count { row[i] &+= row[i - bpp] >> 1; i += 1 }
            }
            return true
        case 4:
            if hasPrevious {
                // First pixel: a = c = 0, so the predictor is b.
                for i in 0..<min(bpp, count) { row[i] &+= previous[i] }
                var i = bpp
                while i < count {
                    row[i] &+= paethPredictor(row[i - bpp], previous[i], previous[i - bpp])
                    i += 1
                }
            } else {
                // b = c = 0: the predictor is a (Sub).
                var i = bpp
                while i < count { row[i] &+= row[i - bpp]; i += 1 }
            }
            return true
        default:
            return false
        }
    }
}
