extension BaselineScan {
    /// T.81 §G.1.2.2 — AC first scan of the band Ss…Se (one component, one block per MCU).
    ///
    /// RS symbols as in F.2.2.2, except that R < 15 with S = 0 is EOBRUN: `2^R` plus R more
    /// bits blocks (this one included) have no further coefficients in the band (Table G.1).
    /// Coefficients are stored as `value << Al`. A run past Se lands on coefficient 63 via the
    /// extra entries of the natural-order table, as in jdphuff.c `decode_mcu_AC_first`.
    ///
    /// The bit state lives in a local `HotBits` as in `decodeBlock`, with the same tiers: a
    /// code and value within the lookahead (`fastAC`, the value then shifted by Al); a code
    /// within the lookahead whose value, ZRL or EOBRUN bits are in hand; the careful calls for
    /// anything else. Each tier consumes what the careful one would, with fills at the same
    /// points. Values go to `target` (a block, or only its non-zero mask: `ACScanTarget`).
    @inline(__always)
    mutating func decodeACFirst<Target: ACScanTarget>(_ base: UnsafePointer<UInt8>, end: Int, closed: Bool, slot: UnsafePointer<Slot>,
                                                      into target: inout Target, ss: Int, se: Int, al: Int) -> Bool {
        if state.eobRun > 0 {
            state.eobRun -= 1
            return true
        }
        let fast = slot.pointee.ac.fastAC, lookup = slot.pointee.ac.lookup
        var bits = HotBits(state.reader)
        var k = ss
        while k <= se {
            // false: a fill cut short by the end of the bytes so far, so suspend (the bits it
            // did load must not be decoded: a one-shot fill would have loaded more).
            guard bits.refill(&state.reader, base, end: end, closed: closed) else { return false }
            let next = bits.peek(HuffmanTable.fastBits)
            let entry = fast[next]
            if entry != 0 {
                bits.consume(Int(entry & 0xFF))
                // Bound: k ≤ 63 + 15 = 78 < 80 entries (64…79 map to 63).
                k &+= Int((entry >> 8) & 0xFF)
                target.write(Int16(truncatingIfNeeded: Int(entry >> 16) << al), at: k)
                k &+= 1
                continue
            }
            let symbolEntry = lookup[next >> (HuffmanTable.fastBits - HuffmanTable.lookaheadBits)]
            if symbolEntry != 0 {
                let length = Int(symbolEntry >> 8), r = Int(symbolEntry >> 4) & 15, s = Int(symbolEntry) & 15
                // refill left ≥ 17 bits, so `length` (≤ 9) is in hand; the bits after it may not be.
                if s != 0 && bits.bitCount >= length &+ s {
                    bits.consume(length)
                    let value = bits.peek(s)
                    bits.consume(s)
                    k &+= r  // Bound: as above
                    let extended = value < 1 << (s &- 1) ? value &- (1 << s) &+ 1 : value
                    target.write(Int16(truncatingIfNeeded: extended << al), at: k)
                    k &+= 1
                    continue
                }
                if s == 0 && r == 15 {
                    bits.consume(length)
                    k &+= 16  // ZRL: sixteen zeros (this position and fifteen more)
                    continue
                }
                if s == 0 && bits.bitCount >= length &+ r {
                    bits.consume(length)
                    var run = 1 << r
                    if r > 0 {
                        run &+= bits.peek(r)
                        bits.consume(r)
                    }
                    bits.store(into: &state.reader)
                    state.eobRun = run &- 1
                    return true
                }
            }
            bits.store(into: &state.reader)
            let rs = decodeSymbol(slot.pointee.ac, base, end: end, closed: closed)
            guard rs >= 0 else { return false }
            let r = rs >> 4, s = rs & 15
            if s != 0 {
                k += r
                guard let value = receiveExtend(s, base, end: end, closed: closed) else { return false }
                // Bound: k ≤ 63 + 15 = 78 < 80 entries (64…79 map to 63).
                target.write(Int16(truncatingIfNeeded: value << al), at: k)
            } else if r == 15 {
                k += 15  // ZRL: sixteen zeros (this position and fifteen more)
            } else {
                var run = 1 << r
                if r > 0 {
                    guard let extra = receive(r, base, end: end, closed: closed) else { return false }
                    run += extra
                }
                state.eobRun = run - 1
                return true
            }
            bits = HotBits(state.reader)
            k += 1
        }
        bits.store(into: &state.reader)
        return true
    }
}
