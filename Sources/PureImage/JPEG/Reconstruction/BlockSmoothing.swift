/// Inter-block smoothing of a progressive image whose low AC coefficients are not yet exact
/// (T.81 K.8 "smoothing of DC-only images", as libjpeg-turbo 2.1 jdcoefct.c
/// `decompress_smooth_data` extends it to a 5×5 window of DC values and nine coefficients).
///
/// For a block, with DC01…DC25 the quantized DC values of the 5×5 blocks around it (row by
/// row, the block itself is DC13; rows and columns past the image edge repeat the edge), each
/// of the coefficients AC01, AC10, AC20, AC11, AC02 (and, when no AC data at all is known,
/// AC03, AC12, AC21, AC30 and the DC itself) that is still zero and not known exactly is
/// estimated as `num = Q00 · Σ w·DC`, `pred = (Q·128 + |num|) / (Q·256)` with the sign of
/// num, limited to `2^Al − 1` when the coefficient's Al is known. The weights are
/// libjpeg-turbo's; they are listed in `estimate`. Only the copy handed to the IDCT changes.
///
/// libjpeg-turbo 2.1.5 quirks kept: the edge tests (see `smoothRow`); the latch of
/// coefficient bits from before the latest scan is used for iMCU rows after
/// `last_good_iMCU_row`; the second column's DC is fetched once at the first column.
struct BlockSmoothing {
    /// Natural-order positions of Q00, Q01, Q10, Q20, Q11, Q02, Q03, Q12, Q21, Q30 — the DC and
    /// the first nine zig-zag coefficients.
    static let positions = [0, 1, 8, 16, 9, 2, 3, 10, 17, 24]

    let plane: CoefficientStore.Plane
    /// Al per zig-zag coefficient 0…9 (−1 unknown), current and before the latest scan.
    let bits: [Int]
    let previousBits: [Int]
    /// Quantization values at `positions` (all non-zero).
    let q: [Int]
    let v: Int
    let widthInBlocks: Int
    let heightInBlocks: Int
    let paddedHeightInBlocks: Int
    let iMCURows: Int
    let lastGoodIMCURow: Int

    /// Calls `body(bx, coefficients)` for every block of block row `by` (< heightInBlocks) with
    /// the smoothed copy of the block.
    func smoothRow(_ by: Int, body: (Int, UnsafePointer<Int16>) -> Void) {
        let row = by / v, rowInIMCU = by % v
        let blockRows: Int
        if row < iMCURows - 1 {
            blockRows = v
        } else {
            let rest = heightInBlocks % v
            blockRows = rest == 0 ? v : rest
        }
        let lastRow = iMCURows - 1
        let last = paddedHeightInBlocks - 1
        // libjpeg-turbo 2.1.5's edge tests look at the row inside the iMCU row *or* the iMCU
        // row, so two rows up from the first row of iMCU row 1 is taken as one row up, and two
        // rows down from the first row of the second-to-last iMCU row as one row down (when V
        // is 2 or more). Clamped only for safety: these tests keep the rows inside the padded
        // component.
        let prev = rowInIMCU > 0 || row > 0 ? max(by - 1, 0) : by
        let prevPrev = rowInIMCU > 1 || row > 1 ? max(by - 2, 0) : prev
        let next = rowInIMCU < blockRows - 1 || row < lastRow ? min(by + 1, last) : by
        let nextNext = rowInIMCU < blockRows - 2 || row + 1 < lastRow ? min(by + 2, last) : next
        let rows = [prevPrev, prev, by, next, nextNext]
        let known = row > lastGoodIMCURow ? previousBits : bits
        let changeDC = (1...9).allSatisfy { known[$0] == -1 }
        let lastColumn = widthInBlocks - 1
        func dcAt(_ r: Int, _ x: Int) -> Int { Int(plane.block(x: x, y: rows[r])[0]) }
        // dc[r * 5 + i] is libjpeg's DC(5r + i + 1).
        var dc = [Int](repeating: 0, count: 25)
        for r in 0..<5 {
            let value = dcAt(r, 0)
            for i in 0..<5 { dc[r * 5 + i] = value }
        }
        withUnsafeTemporaryAllocation(of: Int16.self, capacity: 64) { workspace in
            guard let work = workspace.baseAddress else { return }
            for bx in 0...lastColumn {
                // Bound: bx ≤ widthInBlocks − 1 < paddedWidthInBlocks.
                work.update(from: plane.block(x: bx, y: by), count: 64)
                if bx == 0 && bx < lastColumn {
                    for r in 0..<5 {
                        let value = dcAt(r, 1)
                        dc[r * 5 + 3] = value
                        dc[r * 5 + 4] = value
                    }
                }
                if bx + 1 < lastColumn {
                    for r in 0..<5 { dc[r * 5 + 4] = dcAt(r, bx + 2) }
                }
                estimate(work, dc: dc, known: known, changeDC: changeDC)
                body(bx, UnsafePointer(work))
                for r in 0..<5 {
                    dc[r * 5] = dc[r * 5 + 1]
                    dc[r * 5 + 1] = dc[r * 5 + 2]
                    dc[r * 5 + 2] = dc[r * 5 + 3]
                    dc[r * 5 + 3] = dc[r * 5 + 4]
                }
            }
        }
    }

    /// The libjpeg-turbo 2.1 estimates; `d(n)` is DCn of the comment above.
    private func estimate(_ work: UnsafeMutablePointer<Int16>, dc: [Int], known: [Int], changeDC: Bool) {
        func d(_ n: Int) -> Int { dc[n - 1] }
        let q00 = q[0]
        func apply(_ index: Int, position: Int, _ sum: Int) {
            let al = known[index]
            guard al != 0, work[position] == 0 else { return }
            work[position] = predict(q00 * sum, q: q[index], al: al)
        }
        // AC01
        apply(1, position: 1, changeDC
              ? -d(1) - d(2) + d(4) + d(5) - 3 * d(6) + 13 * d(7) - 13 * d(9) + 3 * d(10) - 3 * d(11) + 38 * d(12)
                - 38 * d(14) + 3 * d(15) - 3 * d(16) + 13 * d(17) - 13 * d(19) + 3 * d(20) - d(21) - d(22) + d(24) + d(25)
              : -7 * d(11) + 50 * d(12) - 50 * d(14) + 7 * d(15))
        // AC10
        apply(2, position: 8, changeDC
              ? -d(1) - 3 * d(2) - 3 * d(3) - 3 * d(4) - d(5) - d(6) + 13 * d(7) + 38 * d(8) + 13 * d(9) - d(10)
                + d(16) - 13 * d(17) - 38 * d(18) - 13 * d(19) + d(20) + d(21) + 3 * d(22) + 3 * d(23) + 3 * d(24) + d(25)
              : -7 * d(3) + 50 * d(8) - 50 * d(18) + 7 * d(23))
        // AC20
        apply(3, position: 16, changeDC
              ? d(3) + 2 * d(7) + 7 * d(8) + 2 * d(9) - 5 * d(12) - 14 * d(13) - 5 * d(14) + 2 * d(17) + 7 * d(18)
                + 2 * d(19) + d(23)
              : -d(3) + 13 * d(8) - 24 * d(13) + 13 * d(18) - d(23))
        // AC11
        apply(4, position: 9, changeDC
              ? -d(1) + d(5) + 9 * d(7) - 9 * d(9) - 9 * d(17) + 9 * d(19) + d(21) - d(25)
              : d(10) + d(16) - 10 * d(17) + 10 * d(19) - d(2) - d(20) + d(22) - d(24) + d(4) - d(6) + 10 * d(7) - 10 * d(9))
        // AC02
        apply(5, position: 2, changeDC
              ? 2 * d(7) - 5 * d(8) + 2 * d(9) + d(11) + 7 * d(12) - 14 * d(13) + 7 * d(14) + d(15) + 2 * d(17)
                - 5 * d(18) + 2 * d(19)
              : -d(11) + 13 * d(12) - 24 * d(13) + 13 * d(14) - d(15))
        guard changeDC else { return }
        apply(6, position: 3, d(7) - d(9) + 2 * d(12) - 2 * d(14) + d(17) - d(19))                 // AC03
        apply(7, position: 10, d(7) - 3 * d(8) + d(9) - d(17) + 3 * d(18) - d(19))                 // AC12
        apply(8, position: 17, d(7) - d(9) - 3 * d(12) + 3 * d(14) + d(17) - d(19))                // AC21
        apply(9, position: 24, d(7) + 2 * d(8) + d(9) - d(17) - 2 * d(18) - d(19))                 // AC30
        // The DC itself (known to be at least partly there, or smoothing would be off).
        let sum = -2 * d(1) - 6 * d(2) - 8 * d(3) - 6 * d(4) - 2 * d(5) - 6 * d(6) + 6 * d(7) + 42 * d(8)
            + 6 * d(9) - 6 * d(10) - 8 * d(11) + 42 * d(12) + 152 * d(13) + 42 * d(14) - 8 * d(15) - 6 * d(16)
            + 6 * d(17) + 42 * d(18) + 6 * d(19) - 6 * d(20) - 2 * d(21) - 6 * d(22) - 8 * d(23) - 6 * d(24) - 2 * d(25)
        work[0] = predict(q00 * sum, q: q00, al: 0)
    }

    /// `pred = (q·2^7 + |num|) / (q·2^8)`, limited to 2^Al − 1 when Al > 0, signed as num; the
    /// result keeps the low 16 bits (JCOEF).
    private func predict(_ num: Int, q: Int, al: Int) -> Int16 {
        var pred = ((q << 7) + (num >= 0 ? num : -num)) / (q << 8)
        if al > 0 && pred >= 1 << al { pred = (1 << al) - 1 }
        return Int16(truncatingIfNeeded: num >= 0 ? pred : -pred)
    }
}
