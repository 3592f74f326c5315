/// T.81 §B.2.4.3 — Arithmetic conditioning table-specification syntax (DAC).
///
/// ```
///  La(16) { Tc(4) Tb(4) Cs(8) } × n
/// ```
/// For a DC table (Tc 0) Cs holds U in its high and L in its low nibble: the bounds of the DC
/// difference categories of F.1.4.4.1.2. For an AC table (Tc 1) Cs is Kx, the position that
/// splits the AC magnitude statistics (F.1.4.4.2). Without a DAC segment the defaults L = 0,
/// U = 1, Kx = 5 apply (F.1.4.4.1.2, F.1.4.4.2.1); libjpeg-turbo resets them at SOI.
struct ArithmeticConditioning: Equatable {
    var dcL = [Int](repeating: 0, count: 16)
    var dcU = [Int](repeating: 1, count: 16)
    var acK = [Int](repeating: 5, count: 16)

    /// Applies a DAC segment, checked as libjpeg-turbo's `get_dac`: the combined index
    /// Tc·16 + Tb below 32 and, for DC entries, L ≤ U; the lengths must add up. Arithmetic
    /// scans may name any of 16 tables (Td, Ta are 4 bits; libjpeg's NUM_ARITH_TBLS is 16).
    mutating func apply(_ segment: JPEGSegment) throws(DecodeError) {
        var remaining = segment.declaredLength - 2
        var at = 0
        while remaining > 0 && at + 1 < segment.body.count {
            let index = segment.byte(at), value = segment.byte(at + 1)
            remaining -= 2
            guard index < 32 else { throw segment.malformed(.badArithmeticConditioning(index: index, value: value), at: at) }
            if index >= 16 {
                acK[index - 16] = value
            } else {
                let lower = value & 15, upper = value >> 4
                guard lower <= upper else { throw segment.malformed(.badArithmeticConditioning(index: index, value: value), at: at) }
                dcL[index] = lower
                dcU[index] = upper
            }
            at += 2
        }
        guard remaining == 0 else { throw segment.malformed(.badSegmentLength(marker: segment.marker, length: segment.declaredLength)) }
    }
}
