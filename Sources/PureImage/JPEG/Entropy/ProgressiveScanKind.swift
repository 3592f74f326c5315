/// The five kinds of Huffman scan a frame can hold: sequential (Annex F) and the four of the
/// progressive mode (T.81 G.1.2), chosen from the scan header's Ss, Se, Ah, Al:
///
/// | kind | Ss | Se | Ah | decodes | file |
/// |---|---|---|---|---|---|
/// | DC first | 0 | 0 | 0 | DIFF, as F.2.2.1, then `DC << Al` | `ProgressiveDCFirst.swift` |
/// | DC refinement | 0 | 0 | Al + 1 | one bit: bit Al of the DC | `ProgressiveDCRefine.swift` |
/// | AC first | 1…63 | Ss…63 | 0 | band Ss…Se, `value << Al`, EOB runs | `ProgressiveACFirst.swift` |
/// | AC refinement | 1…63 | Ss…63 | Al + 1 | bit Al of the band, new ±1 coefficients | `ProgressiveACRefine.swift` |
///
/// Each file extends `BaselineScan`, which keeps the shared machinery: the MCU walk of A.2,
/// restart intervals (the EOB run restarts with them, G.1.2.2), suspension and the
/// insufficient-data rule.
enum ScanKind: Equatable {
    case sequential
    case dcFirst(al: Int)
    case dcRefine(al: Int)
    case acFirst(ss: Int, se: Int, al: Int)
    case acRefine(ss: Int, se: Int, al: Int)

    /// Ah = 0 starts a band, Ah ≠ 0 refines it (G.1.1.1.1); Ss = 0 is the DC band.
    init(ss: Int, se: Int, ah: Int, al: Int) {
        switch (ss == 0, ah == 0) {
        case (true, true): self = .dcFirst(al: al)
        case (true, false): self = .dcRefine(al: al)
        case (false, true): self = .acFirst(ss: ss, se: se, al: al)
        case (false, false): self = .acRefine(ss: ss, se: se, al: al)
        }
    }
}

extension BaselineScan {
    /// One block of a progressive scan; false means "suspend" (the MCU is retried).
    @inline(__always)
    mutating func decodeProgressiveBlock(_ base: UnsafePointer<UInt8>, end: Int, closed: Bool, slot: UnsafePointer<Slot>,
                                         block: UnsafeMutablePointer<Int16>) -> Bool {
        switch kind {
        case .sequential: return false
        case .dcFirst(let al): return decodeDCFirst(base, end: end, closed: closed, slot: slot, block: block, al: al)
        case .dcRefine(let al): return decodeDCRefine(base, end: end, closed: closed, block: block, al: al)
        case .acFirst(let ss, let se, let al):
            var target = CoefficientBlockTarget(block: block, natural: natural, appliesCorrections: slot.pointee.acNeeded)
            return decodeACFirst(base, end: end, closed: closed, slot: slot, into: &target, ss: ss, se: se, al: al)
        case .acRefine(let ss, let se, let al):
            newNonZeroBlock = block   // where `run` undoes the new coefficients of a retried MCU
            var target = CoefficientBlockTarget(block: block, natural: natural, appliesCorrections: slot.pointee.acNeeded)
            return decodeACRefine(base, end: end, closed: closed, slot: slot, into: &target, ss: ss, se: se, al: al)
        }
    }

    /// RECEIVE(count) of F.2.2.1 without EXTEND; nil means "suspend". `1 ≤ count ≤ 16`.
    @inline(__always)
    mutating func receive(_ count: Int, _ base: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Int? {
        guard ensure(count, base, end: end, closed: closed) else { return nil }
        let bits = state.reader.peek(count)
        state.reader.consume(count)
        return bits
    }
}
