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
    mutating func decodeACRefine(_ base: UnsafePointer<UInt8>, end: Int, closed: Bool, slot: Slot,
                                 block: UnsafeMutablePointer<Int16>, ss: Int, se: Int, al: Int) -> Bool {
        let natural = JPEGZigZag.naturalPointer
        let p1 = Int16(truncatingIfNeeded: 1 << al)
        let m1 = Int16(truncatingIfNeeded: -1 << al)
        newNonZeroBlock = block
        var k = ss
        if state.eobRun == 0 {
            while k <= se {
                let rs = decodeSymbol(slot.ac, base, end: end, closed: closed)
                guard rs >= 0 else { return false }
                var r = rs >> 4
                var s = rs & 15
                var newValue: Int16 = 0
                if s != 0 {
                    if s != 1 {
                        state.badCodes += 1
                        if state.badCodes == 1 { RestartMarkers.record((state.reader.position, "Corrupt JPEG data: bad Huffman code"), in: &warnings) }
                    }
                    guard let sign = receive(1, base, end: end, closed: closed) else { return false }
                    newValue = sign != 0 ? p1 : m1
                    s = 1
                } else if r != 15 {
                    var run = 1 << r
                    if r > 0 {
                        guard let extra = receive(r, base, end: end, closed: closed) else { return false }
                        run += extra
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
                        guard let bit = receive(1, base, end: end, closed: closed) else { return false }
                        if bit != 0 && coefficient & p1 == 0 {
                            block[position] = coefficient >= 0 ? coefficient &+ p1 : coefficient &+ m1
                        }
                    } else {
                        r -= 1
                        if r < 0 { break }
                    }
                    k += 1
                } while k <= se
                if s != 0 {
                    // Bound: k ≤ se + 1 ≤ 64 < 80 entries (64 maps to 63).
                    let position = Int(natural[k])
                    block[position] = newValue
                    newNonZero.append(position)
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
                    guard let bit = receive(1, base, end: end, closed: closed) else { return false }
                    if bit != 0 && coefficient & p1 == 0 {
                        block[position] = coefficient >= 0 ? coefficient &+ p1 : coefficient &+ m1
                    }
                }
                k += 1
            }
            state.eobRun -= 1
        }
        return true
    }
}
