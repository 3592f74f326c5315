/// The LZW inner loop and the code readers it is generic over. This is one of the few files
/// allowed unsafe buffers (STYLE.md §20); every access below states the bound that keeps it in
/// range.

/// Takes variable-width codes out of a byte stream in one bit order. `accumulator` and `count`
/// are the whole state (kept by `LZWDecoder` between calls).
protocol LZWCodeReader {
    var accumulator: UInt64 { get }
    /// Valid bits in `accumulator`, 0...63.
    var count: Int { get }
    /// Adds whole bytes from `input[index...]` while at least 8 bits of room remain, advancing
    /// `index`; afterwards `count ≥ 56` or the input is used up.
    mutating func refill(_ input: UnsafeRawBufferPointer, _ index: inout Int)
    /// Removes and returns the next `width`-bit code; requires `count ≥ width`.
    mutating func take(_ width: Int) -> Int
}

/// GIF89a Appendix F: codes packed least significant bit first. New bytes enter above the bits
/// already held; codes leave from the bottom.
struct LSBFirstCodeReader: LZWCodeReader {
    private(set) var accumulator: UInt64
    private(set) var count: Int

    init(accumulator: UInt64, count: Int) {
        self.accumulator = accumulator
        self.count = count
    }

    @inline(__always)
    mutating func refill(_ input: UnsafeRawBufferPointer, _ index: inout Int) {
        if index + 8 <= input.count {
            // One unaligned 8-byte load (index + 8 ≤ input.count): keep the whole bytes that fit
            // above `count` (count + 8 × taken ≤ 63) and mask off the rest.
            // Masking shifts and wrapping sums: 0 ≤ count ≤ 63 before and after, so every shift
            // amount is below 64 and nothing overflows (the checked forms cost a compare and a
            // conditional move per shift in the hottest loop of GIF and TIFF decoding).
            let word = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let taken = (63 &- count) &>> 3
            accumulator |= word &<< UInt64(truncatingIfNeeded: count)
            count &+= taken &<< 3
            accumulator &= (UInt64(1) &<< UInt64(truncatingIfNeeded: count)) &- 1
            index &+= taken
            return
        }
        while count <= 55 && index < input.count {
            accumulator |= UInt64(input[index]) << UInt64(count)
            index += 1
            count += 8
        }
    }

    /// 1 ≤ width ≤ 12 ≤ count ≤ 63: the masking shifts and wrapping differences are exact.
    @inline(__always)
    mutating func take(_ width: Int) -> Int {
        let code = Int(truncatingIfNeeded: accumulator & ((UInt64(1) &<< UInt64(truncatingIfNeeded: width)) &- 1))
        accumulator &>>= UInt64(truncatingIfNeeded: width)
        count &-= width
        return code
    }
}

/// TIFF 6.0 §13: codes packed most significant bit first. New bytes enter below the bits
/// already held (`accumulator` keeps `count` valid bits right-aligned); codes leave from the top.
struct MSBFirstCodeReader: LZWCodeReader {
    private(set) var accumulator: UInt64
    private(set) var count: Int

    init(accumulator: UInt64, count: Int) {
        self.accumulator = accumulator
        self.count = count
    }

    @inline(__always)
    mutating func refill(_ input: UnsafeRawBufferPointer, _ index: inout Int) {
        if index + 8 <= input.count && count <= 55 {
            // One unaligned big-endian 8-byte load (index + 8 ≤ input.count): append the
            // `taken` ≥ 1 whole bytes that fit below the held bits (count + 8 × taken ≤ 63).
            // count ≤ 55, so taken is 1…7 and both shift amounts lie in 8…56: masking shifts
            // and wrapping sums are exact (see `LSBFirstCodeReader.refill`).
            let word = UInt64(bigEndian: input.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let taken = (63 &- count) &>> 3
            let bits = UInt64(truncatingIfNeeded: taken &<< 3)
            accumulator = accumulator &<< bits | word &>> (64 &- bits)
            count &+= taken &<< 3
            index &+= taken
            return
        }
        while count <= 55 && index < input.count {
            accumulator = accumulator << 8 | UInt64(input[index])
            index += 1
            count += 8
        }
    }

    /// 1 ≤ width ≤ 12 ≤ count ≤ 63: the masking shifts and wrapping differences are exact.
    @inline(__always)
    mutating func take(_ width: Int) -> Int {
        count &-= width
        let held = UInt64(truncatingIfNeeded: count)
        let code = Int(truncatingIfNeeded: (accumulator &>> held) & ((UInt64(1) &<< UInt64(truncatingIfNeeded: width)) &- 1))
        accumulator &= (UInt64(1) &<< held) &- 1
        return code
    }
}

extension LZWDecoder {
    /// Copies `count` bytes of earlier output at `source` to `destination`, where
    /// `source + count ≤ destination` (a dictionary string always lies before the write
    /// position). Away from the end of the buffer it moves 8 bytes at a time: the words read
    /// may run past the string into bytes at or after `destination`, but those only land past
    /// `destination + count`, where later codes overwrite them (or past `written`); no byte of
    /// the string itself is overwritten before it is read, since the string lies below
    /// `destination`. Near the end (`destination + count + 8 > capacity`) it copies exactly.
    @inline(__always)
    static func copy(_ out: UnsafeMutablePointer<UInt8>, from source: Int, to destination: Int, count: Int, capacity: Int) {
        // Wrapping arithmetic: every value here is an index below `capacity` plus at most 8.
        if destination &+ count &+ 8 <= capacity {
            var s = source, d = destination, remaining = count
            while remaining > 0 {
                // d + 8 ≤ destination + count + 8 ≤ capacity; s < d.
                let word = UnsafeRawPointer(out + s).loadUnaligned(as: UInt64.self)
                UnsafeMutableRawPointer(out + d).storeBytes(of: word, as: UInt64.self)
                s &+= 8
                d &+= 8
                remaining &-= 8
            }
        } else {
            (out + destination).update(from: out + source, count: count)
        }
    }

    /// The kernel, shared by every variant: `Codes` is the bit order, `earlyChange` is 0 (GIF)
    /// or 1 (TIFF: the width grows one code early).
    ///
    /// Away from the end of the output every literal or defined code takes the same path, with
    /// no branch on which it is: its entry gives the length, the source is chosen between the
    /// literal's word and the earlier output (a select, not a jump), and one 8-byte word is
    /// moved, more only for strings longer than 8. On photographic data most codes are literals
    /// or short strings in no predictable order, so a branch between them was mispredicted on
    /// a large share of codes. Clear and end (length 0), the KwKwK case and invalid codes go
    /// through one rarely taken test each. The loop keeps few values live, so that they stay in
    /// registers: the entry the next code defines is carried packed (`pending`), the word path's
    /// bound is `pauseAt` (which the end-of-output test needs anyway; the capacity is read only
    /// on the exact path), and the literal test is on the length already loaded, not against
    /// the clear code.
    ///
    /// Safe because: every `output` write is at an index < `capacity` (the word path runs only
    /// when `position + length + 8 ≤ pauseAt ≤ capacity`, the exact path clamps each length to
    /// `capacity - position`, and `copy` bounds its 8-byte moves); every table access is at a
    /// code < 4096 (12 bits at most) or at `nextFree` < 4096, inside the 4 096 entries; a literal
    /// word is read for an entry of length 1, which only literals have (codes below the clear
    /// code ≤ 2 048), inside `LZWDictionary.literals`; every dictionary
    /// string lies inside `0 ..< position` (`LZWDictionary.invariantsHold`), so copies read
    /// decoded bytes. The arithmetic wraps (`&+`, `&<<`): positions and lengths stay within
    /// 0…capacity + 8, slots within 0…4096 and widths within 1…12, so no sum overflows and no
    /// shift reaches 64 — the overflow checks were a third of the loop's branches.
    ///
    /// `pauseAt` ≤ `capacity`: decoding stops once `position` reaches it — `.outputFull` when it
    /// is the capacity, else `.paused` with the input not yet taken into the accumulator left
    /// (`consumed` says how much was). The test is the loop's one end-of-output test.
    mutating func run<Codes: LZWCodeReader>(_ codes: inout Codes, earlyChange: Int,
                                            _ input: UnsafeRawBufferPointer,
                                            into output: UnsafeMutableBufferPointer<UInt8>,
                                            pauseAt: Int) -> (stop: Stop, consumed: Int) {
        let capacity = output.count
        if written >= capacity { return (.outputFull, 0) }
        guard let out = output.baseAddress, pauseAt <= capacity else { return (.outputFull, 0) }
        if written >= pauseAt { return (.paused, 0) }
        // The loop works on locals of the closure only (the state is copied in before and out
        // after): a captured variable is reached through a pointer that every byte store to
        // `out` might alias, so the compiler would keep it in memory, not in a register.
        var state = (written: written, width: dictionary.width, nextFree: dictionary.nextFree,
                     previousStart: dictionary.previousStart, previousLength: dictionary.previousLength, codes: codes,
                     consumed: 0)
        let clear = clearCode
        let resetWidth = minimumCodeSize + 1
        let stop: Stop = dictionary.withTable { table in
            LZWDictionary.literals.withUnsafeBufferPointer { literalWords in
                guard let literals = literalWords.baseAddress else { return .outputFull }
                var codes = state.codes
                var position = state.written
                var width = state.width
                var nextFree = state.nextFree
                // The entry the next code defines: the previous string one byte longer
                // (`start << 16 | length + 1`); 0 when there is no previous string (at the start
                // and after a clear code: the next code defines nothing). One register, not two.
                var pending = state.previousLength > 0
                    ? LZWDictionary.entry(start: state.previousStart, length: state.previousLength &+ 1) : 0
                // The next free slot at which the width grows; `Int.max` once it is 12 bits.
                var widenAt = width < LZWDecoder.maxCodeWidth ? (1 &<< width) &- earlyChange : Int.max
                var inputIndex = 0
                let stop: Stop
                decoding: while true {
                    if codes.count < width {
                        codes.refill(input, &inputIndex)
                        if codes.count < width { stop = .needMoreInput; break decoding }
                    }
                    let code = codes.take(width)
                    let entry = table[code]
                    var stringLength = Int(truncatingIfNeeded: entry & 0xFFFF)
                    let stringStart = position

                    if code < nextFree && stringLength != 0 {
                        if position &+ stringLength &+ 8 <= pauseAt {
                            // A literal's word or the string's first 8 bytes of earlier output
                            // (which never reach `position`: the string ends at or before it).
                            let earlier = UnsafeRawPointer(out + Int(truncatingIfNeeded: entry &>> 16))
                            // Literals are the only entries of length 1 (a defined string is at
                            // least 2 bytes).
                            let source = stringLength == 1 ? UnsafeRawPointer(literals + code) : earlier
                            let word = source.loadUnaligned(as: UInt64.self)
                            UnsafeMutableRawPointer(out + position).storeBytes(of: word, as: UInt64.self)
                            if stringLength > 8 {
                                LZWDecoder.copy(out, from: Int(truncatingIfNeeded: entry &>> 16) &+ 8, to: position &+ 8,
                                                count: stringLength &- 8, capacity: capacity)
                            }
                        } else {
                            // Near the pause position or the end of the output: exact copies,
                            // clamped to the output.
                            stringLength = min(stringLength, capacity &- position)
                            if code < clear {
                                out[position] = UInt8(truncatingIfNeeded: code)
                            } else {
                                LZWDecoder.copy(out, from: Int(truncatingIfNeeded: entry &>> 16), to: position, count: stringLength, capacity: capacity)
                            }
                        }
                    } else if code == nextFree && pending != 0 {
                        // KwKwK: the entry being defined now, previous string + its own first
                        // byte. The previous string ends at `position`, so the head copy does
                        // not overlap.
                        let previousStart = Int(truncatingIfNeeded: pending &>> 16)
                        let previousLength = Int(truncatingIfNeeded: pending & 0xFFFF) &- 1
                        stringLength = min(previousLength &+ 1, capacity &- position)
                        let head = min(previousLength, stringLength)
                        LZWDecoder.copy(out, from: previousStart, to: position, count: head, capacity: capacity)
                        if stringLength > head { out[position &+ head] = out[previousStart] }
                    } else if code == clear {
                        width = resetWidth
                        widenAt = width < LZWDecoder.maxCodeWidth ? (1 &<< width) &- earlyChange : Int.max
                        nextFree = clear &+ 2
                        pending = 0
                        continue
                    } else if code == clear &+ 1 {
                        stop = .endCode
                        break decoding
                    } else {
                        stop = .invalidCode(code)
                        break decoding
                    }
                    position &+= stringLength

                    if pending != 0 && nextFree < LZWDecoder.tableSize {
                        table[nextFree] = pending
                        nextFree &+= 1
                    }
                    // Widen when the next free slot (plus the early-change offset) no longer
                    // fits. For GIF this is giflib's RunningCode rule (see `LZWDecoder`).
                    if nextFree >= widenAt {
                        width &+= 1
                        widenAt = width < LZWDecoder.maxCodeWidth ? (1 &<< width) &- earlyChange : Int.max
                    }
                    pending = LZWDictionary.entry(start: stringStart, length: stringLength &+ 1)
                    if position >= pauseAt { stop = position >= capacity ? .outputFull : .paused; break decoding }
                }
                let previousLength = Int(truncatingIfNeeded: pending & 0xFFFF)
                state = (position, width, nextFree, Int(truncatingIfNeeded: pending &>> 16),
                         previousLength > 0 ? previousLength &- 1 : 0, codes, inputIndex)
                return stop
            }
        }
        codes = state.codes
        written = state.written
        dictionary.width = state.width
        dictionary.nextFree = state.nextFree
        dictionary.previousStart = state.previousStart
        dictionary.previousLength = state.previousLength
        return (stop, state.consumed)
    }
}
