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
    /// Safe because: every `output` write is at an index < `capacity` (each copy length is
    /// clamped to `capacity - position`, and `copy` bounds its 8-byte moves); every dictionary
    /// read is at a code < `tableSize` (codes are at most 12 bits); every dictionary string lies
    /// inside `0 ..< position` (`LZWDictionary.invariantsHold`), so copies read decoded bytes.
    /// The arithmetic wraps (`&+`, `&<<`): positions and lengths stay within 0…capacity,
    /// slots within 0…4096 and widths within 1…12, so no sum overflows and no shift reaches
    /// 64 — the overflow checks were a third of the loop's branches.
    mutating func run<Codes: LZWCodeReader>(_ codes: inout Codes, earlyChange: Int,
                                            _ input: UnsafeRawBufferPointer,
                                            into output: UnsafeMutableBufferPointer<UInt8>) -> Stop {
        let capacity = output.count
        if written >= capacity { return .outputFull }
        guard let out = output.baseAddress else { return .outputFull }
        // Everything the loop touches is a local, so the tables can be borrowed mutably below
        // without overlapping access to `self`.
        var position = written
        var width = dictionary.width
        var nextFree = dictionary.nextFree
        var previous = dictionary.previous
        var previousStart = dictionary.previousStart
        var previousLength = dictionary.previousLength
        let clear = clearCode
        let end = endCode
        let resetWidth = minimumCodeSize + 1
        let stop: Stop = dictionary.withTables { start, length in
            var inputIndex = 0
            while true {
                if codes.count < width {
                    codes.refill(input, &inputIndex)
                    if codes.count < width { return .needMoreInput }
                }
                let code = codes.take(width)

                // Where this code's string is written: the next entry (this string plus the
                // next code's first byte) is `stringStart ..< stringStart + stringLength + 1`.
                let stringStart = position
                let stringLength: Int
                if code < clear {
                    out[position] = UInt8(truncatingIfNeeded: code)
                    stringLength = 1
                } else if code > end && code < nextFree {
                    // A defined entry: earlier output, never overlapping `position`.
                    stringLength = min(Int(length[code]), capacity &- position)
                    LZWDecoder.copy(out, from: start[code], to: position, count: stringLength, capacity: capacity)
                } else if code == nextFree && previous >= 0 {
                    // KwKwK: the entry being defined now, previous string + its own first byte.
                    // The previous string ends at `position`, so the head copy does not overlap.
                    stringLength = min(previousLength &+ 1, capacity &- position)
                    let head = min(previousLength, stringLength)
                    LZWDecoder.copy(out, from: previousStart, to: position, count: head, capacity: capacity)
                    if stringLength > head { out[position &+ head] = out[previousStart] }
                } else if code == clear {
                    width = resetWidth
                    nextFree = end &+ 1
                    previous = -1
                    continue
                } else if code == end {
                    return .endCode
                } else {
                    return .invalidCode(code)
                }
                position &+= stringLength

                if previous >= 0 && nextFree < LZWDecoder.tableSize {
                    start[nextFree] = previousStart
                    length[nextFree] = UInt16(truncatingIfNeeded: previousLength &+ 1)
                    nextFree &+= 1
                }
                // Widen when the next free slot (plus the early-change offset) no longer fits.
                // For GIF this is giflib's RunningCode rule (see `LZWDecoder`).
                if nextFree &+ earlyChange >= 1 &<< width && width < LZWDecoder.maxCodeWidth {
                    width &+= 1
                }
                previous = code
                previousStart = stringStart
                previousLength = stringLength
                if position >= capacity { return .outputFull }
            }
        }
        written = position
        dictionary.width = width
        dictionary.nextFree = nextFree
        dictionary.previous = previous
        dictionary.previousStart = previousStart
        dictionary.previousLength = previousLength
        return stop
    }
}
