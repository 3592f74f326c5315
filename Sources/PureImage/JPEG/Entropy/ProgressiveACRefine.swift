extension BaselineScan {
    /// T.81 §G.1.2.3 — AC successive-approximation refinement of the band Ss…Se.
    ///
    /// Each RS symbol has S = 0 (a ZRL or an EOB run, as in the first scan) or S = 1: one
    /// sign bit for a coefficient that becomes ±2^Al. Walking the band, every coefficient that
    /// is already non-zero takes one correction bit (if set, its magnitude gains 2^Al), and R
    /// counts only the coefficients still zero. Coefficients in blocks covered by an EOB run
    /// still take their correction bits. Follows jdphuff.c `decode_mcu_AC_refine`: an S other
    /// than 0 or 1 is a warning and read as 1; `(coef & p1) == 0` guards each correction, which
    /// makes a retried MCU harmless except for new coefficients (undone in `run`).
    ///
    /// The bit state lives in a local `HotBits` as in `decodeBlock`: symbols whose code is
    /// within the lookahead and single bits (sign, correction, EOBRUN extension) are taken on
    /// it when they are in hand; anything else goes through the careful calls, which fill at
    /// the same points.
    mutating func decodeACRefine(_ base: UnsafePointer<UInt8>, end: Int, closed: Bool, slot: UnsafePointer<Slot>,
                                 block: UnsafeMutablePointer<Int16>, ss: Int, se: Int, al: Int) -> Bool {
        let natural = self.natural
        let lookup = slot.pointee.ac.lookup
        let p1 = Int16(truncatingIfNeeded: 1 << al)
        let m1 = Int16(truncatingIfNeeded: -1 << al)
        newNonZeroBlock = block
        var bits = HotBits(state.reader)
        var k = ss
        if state.eobRun == 0 {
            while k <= se {
                // The RS symbol: on the local bits when its code is within the lookahead.
                var rs = -1
                // false: a fill cut short by the end of the bytes so far, so suspend (the bits it
                // did load must not be decoded: a one-shot fill would have loaded more).
                guard bits.refill(&state.reader, base, end: end, closed: closed) else { return false }
                let entry = lookup[bits.peek(HuffmanTable.lookaheadBits)]
                if entry != 0 {
                    bits.consume(Int(entry >> 8))
                    rs = Int(entry & 0xFF)
                }
                if rs < 0 {
                    bits.store(into: &state.reader)
                    rs = decodeSymbol(slot.pointee.ac, base, end: end, closed: closed)
                    guard rs >= 0 else { return false }
                    bits = HotBits(state.reader)
                }
                var r = rs >> 4
                var s = rs & 15
                var newValue: Int16 = 0
                if s != 0 {
                    if s != 1 {
                        state.badCodes += 1
                        if state.badCodes == 1 { RestartMarkers.record((state.reader.position, "Corrupt JPEG data: bad Huffman code"), in: &warnings) }
                    }
                    guard let sign = bits.bit(&state.reader, base, end: end, closed: closed) else { return false }
                    newValue = sign != 0 ? p1 : m1
                    s = 1
                } else if r != 15 {
                    var run = 1 << r
                    if r > 0 {
                        if bits.bitCount >= r {
                            run += bits.peek(r)
                            bits.consume(r)
                        } else {
                            bits.store(into: &state.reader)
                            guard let extra = receive(r, base, end: end, closed: closed) else { return false }
                            bits = HotBits(state.reader)
                            run += extra
                        }
                    }
                    state.eobRun = run
                    break
                }
                // Skip r zero-history coefficients, correcting the non-zero ones on the way.
                repeat {
                    // Bound: k ≤ se ≤ 63 inside this loop.
                    let position = Int(natural[k])
                    let coefficient = block[position]
                    if coefficient != 0 {
                        guard let correction = bits.bit(&state.reader, base, end: end, closed: closed) else { return false }
                        if correction != 0 && coefficient & p1 == 0 {
                            block[position] = coefficient >= 0 ? coefficient &+ p1 : coefficient &+ m1
                        }
                    } else {
                        r &-= 1
                        if r < 0 { break }
                    }
                    k &+= 1  // Bound: k ≤ se + 1 ≤ 64
                } while k <= se
                if s != 0 {
                    // Bound: k ≤ se + 1 ≤ 64 < 80 entries (64 maps to 63).
                    let position = Int(natural[k])
                    block[position] = newValue
                    if recordsUndo { newNonZero.append(position) }  // only an MCU that may suspend retries
                }
                k += 1
            }
        }
        if state.eobRun > 0 {
            // The rest of the band in a block covered by an EOB run: corrections only.
            while k <= se {
                let position = Int(natural[k])
                let coefficient = block[position]
                if coefficient != 0 {
                    guard let correction = bits.bit(&state.reader, base, end: end, closed: closed) else { return false }
                    if correction != 0 && coefficient & p1 == 0 {
                        block[position] = coefficient >= 0 ? coefficient &+ p1 : coefficient &+ m1
                    }
                }
                k &+= 1
            }
            state.eobRun -= 1
        }
        bits.store(into: &state.reader)
        return true
    }
}
