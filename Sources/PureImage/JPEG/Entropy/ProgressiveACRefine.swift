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
    /// The walk is done on masks rather than coefficient by coefficient: `nonZero` has bit k
    /// set when the coefficient at zigzag index k is non-zero, so a run of R zero coefficients
    /// ends at the (R+1)-th clear bit, and the correction bits on the way are one per set bit
    /// before it — taken from the bit state in one piece when they are in hand. Testing each
    /// coefficient on the way, as jdphuff.c does, is a branch the processor cannot predict
    /// (which coefficients are non-zero is the image itself); it was half of a progressive
    /// decode's time. The mask is exact: a coefficient the walk has not reached yet has not
    /// been written in this block (corrections and the new value go to indices already walked),
    /// so its bit says what the coefficient-by-coefficient walk would have read there.
    ///
    /// Values go to `target` (`ACScanTarget`): a block's coefficients, or only its non-zero
    /// mask. A target that does not apply corrections — the mask, and a block whose IDCT reads
    /// only the DC term (1×1, at 1/8 scale: `Slot.acNeeded` false) — takes its correction bits
    /// and drops them: they change magnitudes, never which coefficients are non-zero (the only
    /// thing later scans read of them), and block smoothing's estimate of the DC reads
    /// neighbours' DC terms only.
    ///
    /// The bit state lives in a local `HotBits` as in `decodeBlock`: symbols whose code is
    /// within the lookahead and single bits (sign, correction, EOBRUN extension) are taken on
    /// it when they are in hand; anything else goes through the careful calls, which fill at
    /// the same points.
    mutating func decodeACRefine<Target: ACScanTarget>(_ base: UnsafePointer<UInt8>, end: Int, closed: Bool, slot: UnsafePointer<Slot>,
                                                       into target: inout Target, ss: Int, se: Int, al: Int) -> Bool {
        let natural = self.natural
        let lookup = slot.pointee.ac.lookup
        let p1 = Int16(truncatingIfNeeded: 1 << al)
        let m1 = Int16(truncatingIfNeeded: -1 << al)
        var bits = HotBits(state.reader)
        // Bound: the scan header keeps 1 ≤ Ss ≤ Se ≤ 63, so every range below lies in 0…63.
        var nonZero = target.nonZero & RefineMask.indices(from: ss, through: se)
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
                let r = rs >> 4
                let s = rs & 15
                var newValue: Int16 = 0
                if s != 0 {
                    if s != 1 {
                        state.badCodes += 1
                        if state.badCodes == 1 { RestartMarkers.record((state.reader.position, "Corrupt JPEG data: bad Huffman code"), in: &warnings) }
                    }
                    guard let sign = bits.bit(&state.reader, base, end: end, closed: closed) else { return false }
                    newValue = sign != 0 ? p1 : m1
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
                // Skip r zero-history coefficients, correcting the non-zero ones on the way: the
                // walk stops at the (r+1)-th zero from k, or runs past the band (se + 1) when
                // there are not that many.
                var zeros = ~nonZero & RefineMask.indices(from: k, through: se)
                var skip = r
                while skip > 0 && zeros != 0 {
                    zeros &= zeros &- 1
                    skip &-= 1
                }
                let stop = zeros == 0 ? se + 1 : zeros.trailingZeroBitCount   // ≤ se + 1 ≤ 64
                guard takeCorrections(nonZero & RefineMask.indices(from: k, below: stop), &bits, base, end: end,
                                      closed: closed, target: &target, p1: p1, m1: m1) else { return false }
                k = stop
                if s != 0 {
                    // Bound: k ≤ se + 1 ≤ 64 < 80 entries (64 maps to 63). Past the band (no
                    // zero left for it) the value lands where jdphuff.c puts it: natural[se + 1].
                    target.write(newValue, at: k)
                    if k <= se { nonZero |= 1 &<< UInt64(k) }   // (past the band it is never read)
                    if recordsUndo { newNonZero.append(Int(natural[k])) }  // only an MCU that may suspend retries
                }
                k += 1
            }
        }
        if state.eobRun > 0 {
            // The rest of the band in a block covered by an EOB run: corrections only.
            if k <= se {
                guard takeCorrections(nonZero & RefineMask.indices(from: k, through: se), &bits, base, end: end,
                                      closed: closed, target: &target, p1: p1, m1: m1) else { return false }
            }
            state.eobRun -= 1
        }
        bits.store(into: &state.reader)
        return true
    }

    /// One correction bit for each coefficient in `corrections` (zigzag indices, ascending):
    /// if the bit is set and the coefficient lacks 2^Al, its magnitude gains 2^Al. Bits in
    /// hand are taken up to 32 at a time; when none is, the careful single-bit read fills (and
    /// may ask to suspend: false), exactly where the coefficient-by-coefficient walk would.
    /// When the target does not apply corrections, the bits are consumed in the same pieces
    /// and dropped.
    @inline(__always)
    private mutating func takeCorrections<Target: ACScanTarget>(_ corrections: UInt64, _ bits: inout HotBits, _ base: UnsafePointer<UInt8>,
                                                                end: Int, closed: Bool, target: inout Target, p1: Int16, m1: Int16) -> Bool {
        let applies = target.appliesCorrections
        var pending = corrections
        while pending != 0 {
            if bits.bitCount == 0 {
                guard let bit = bits.bit(&state.reader, base, end: end, closed: closed) else { return false }
                if applies { target.correct(at: pending.trailingZeroBitCount, bit: bit, p1: p1, m1: m1) }
                pending &= pending &- 1
                continue
            }
            // 1 ≤ count ≤ 32 ≤ 64: `peek` and `consume` take that many.
            let count = min(pending.nonzeroBitCount, bits.bitCount, 32)
            guard applies else {
                bits.consume(count)
                pending &= UInt64.max << RefineMask.indexOfSetBit(pending, rank: count)   // (64: all taken, 0)
                continue
            }
            let word = bits.peek(count)
            bits.consume(count)
            var shift = count
            repeat {
                shift &-= 1
                target.correct(at: pending.trailingZeroBitCount, bit: (word &>> shift) & 1, p1: p1, m1: m1)
                pending &= pending &- 1
            } while shift > 0
        }
        return true
    }
}
