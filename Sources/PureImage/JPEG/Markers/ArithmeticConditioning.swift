/// T.81 §B.2.4.3 — Arithmetic conditioning table-specification syntax (DAC). Arithmetic
/// frames are refused, but a DAC segment elsewhere is still checked as libjpeg-turbo's
/// `get_dac` checks it: index < 32, and for DC entries L ≤ U.
enum ArithmeticConditioning {
    /// T.81 §B.2.4.3 (DAC), checked as libjpeg's `get_dac` even though arithmetic frames are refused.
    static func check(_ segment: JPEGSegment) throws(DecodeError) {
        var remaining = segment.declaredLength - 2
        var at = 0
        while remaining > 0 && at + 1 < segment.body.count {
            let index = segment.byte(at), value = segment.byte(at + 1)
            remaining -= 2
            guard index < 32 else { throw segment.malformed(.badArithmeticConditioning(index: index, value: value), at: at) }
            if index < 16 && value & 15 > value >> 4 {
                throw segment.malformed(.badArithmeticConditioning(index: index, value: value), at: at)
            }
            at += 2
        }
        guard remaining == 0 else { throw segment.malformed(.badSegmentLength(marker: segment.marker, length: segment.declaredLength)) }
    }
}
