extension BaselineScan {
    /// T.81 §G.1.2.2 — AC first scan of the band Ss…Se (one component, one block per MCU).
    ///
    /// RS symbols as in F.2.2.2, except that R < 15 with S = 0 is EOBRUN: `2^R` plus R more
    /// bits blocks (this one included) have no further coefficients in the band (Table G.1).
    /// Coefficients are stored as `value << Al`. A run past Se lands on coefficient 63 via the
    /// extra entries of the natural-order table, as in jdphuff.c `decode_mcu_AC_first`.
    @inline(__always)
    mutating func decodeACFirst(_ base: UnsafePointer<UInt8>, end: Int, closed: Bool, slot: Slot,
                                block: UnsafeMutablePointer<Int16>, ss: Int, se: Int, al: Int) -> Bool {
        if state.eobRun > 0 {
            state.eobRun -= 1
            return true
        }
        let natural = JPEGZigZag.naturalPointer
        var k = ss
        while k <= se {
            let rs = decodeSymbol(slot.ac, base, end: end, closed: closed)
            guard rs >= 0 else { return false }
            let r = rs >> 4, s = rs & 15
            if s != 0 {
                k += r
                guard let value = receiveExtend(s, base, end: end, closed: closed) else { return false }
                // Bound: k ≤ 63 + 15 = 78 < 80 entries (64…79 map to 63).
                block[Int(natural[k])] = Int16(truncatingIfNeeded: value << al)
            } else if r == 15 {
                k += 15  // ZRL: sixteen zeros (this position and fifteen more)
            } else {
                var run = 1 << r
                if r > 0 {
                    guard let extra = receive(r, base, end: end, closed: closed) else { return false }
                    run += extra
                }
                state.eobRun = run - 1
                break
            }
            k += 1
        }
        return true
    }
}
