extension BaselineScan {
    /// T.81 §G.1.2.1 — DC first scan: the DIFF of F.2.2.1 (same DC tables, same predictor per
    /// component), and the coefficient is the point-transformed value `DC << Al` (G.1.1.1.2).
    /// The result keeps its low 16 bits, as jdphuff.c `decode_mcu_DC_first` stores a JCOEF.
    @inline(__always)
    mutating func decodeDCFirst(_ base: UnsafePointer<UInt8>, end: Int, closed: Bool, slot: UnsafePointer<Slot>,
                                block: UnsafeMutablePointer<Int16>, al: Int) -> Bool {
        let t = decodeSymbol(slot.pointee.dc, base, end: end, closed: closed)
        guard t >= 0 else { return false }
        var diff: Int32 = 0
        if t != 0 {
            guard let value = receiveExtend(t, base, end: end, closed: closed) else { return false }
            diff = Int32(truncatingIfNeeded: value)
        }
        let last = state.predictors[slot.pointee.scanIndex]
        // jdphuff.c refuses a DC that overflows a C int (JERR_BAD_DCT_COEF).
        if (last >= 0 && diff > Int32.max - last) || (last < 0 && diff < Int32.min - last) {
            dcOverflow = true
        }
        let dc = last &+ diff
        state.predictors[slot.pointee.scanIndex] = dc
        block[0] = Int16(truncatingIfNeeded: Int64(dc) << Int64(al))
        return true
    }
}
