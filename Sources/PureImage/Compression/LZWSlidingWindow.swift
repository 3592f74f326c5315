/// LZW decoding into a window of the output instead of all of it, for a streaming decode that
/// hands rows out as they are finished (`GIFFirstFrameStream`).
///
/// The decoder's dictionary strings are places in its own earlier output (`LZWDecoder`: "the
/// dictionary without per-code allocation"), and a code defined at the start of an image may
/// be used at its end (a full table is kept until a clear code), so the output cannot simply be
/// cut. Sliding keeps what the dictionary still needs: the strings of the codes defined since
/// the last clear that start before the cut are copied, merged where they overlap, to the front
/// of the new buffer (at most 4 093 strings of at most 4 095 bytes, in practice a few KiB),
/// then the output from the cut on follows, and every entry is moved to its string's new place.
/// Entry k + 1 always starts where code k's output was written, at or after
/// `previousStart`, so the cut never passes `previousStart`. The kernel then goes on exactly as
/// if the output had never moved: the same codes give the same bytes.

/// What a slide keeps, worked out before anything moves (`LZWDecoder.planSlide`), so that the
/// caller can size the new buffer and count it in a memory budget first.
struct LZWSlidePlan {
    /// The cut: the one asked for, lowered to `previousStart` when the previous code's string
    /// lies before it.
    let cut: Int
    /// The byte ranges before the cut that the dictionary's strings occupy, sorted and merged
    /// where they overlap or touch.
    let pinned: [Range<Int>]
    /// The strings of the codes defined since the last clear.
    let strings: [(code: Int, start: Int, length: Int)]
    /// The bytes kept: the pinned ranges and the output from the cut on.
    let keptBytes: Int
}

extension LZWDecoder {
    /// The slide that drops `output[0 ..< requestedCut]` but the dictionary's strings in it.
    func planSlide(droppingBefore requestedCut: Int) -> LZWSlidePlan {
        var cut = max(0, min(requestedCut, written))
        if dictionary.previousLength > 0 { cut = min(cut, dictionary.previousStart) }
        let strings = dictionary.definedStrings(endCode: endCode)
        var ranges: [Range<Int>] = []
        for string in strings.filter({ $0.start < cut }).sorted(by: { $0.start < $1.start }) {
            let range = string.start ..< string.start + string.length
            if let last = ranges.last, range.lowerBound <= last.upperBound {
                ranges[ranges.count - 1] = last.lowerBound ..< max(last.upperBound, range.upperBound)
            } else {
                ranges.append(range)
            }
        }
        return LZWSlidePlan(cut: cut, pinned: ranges, strings: strings,
                            keptBytes: ranges.reduce(0) { $0 + $1.count } + written - cut)
    }

    /// Makes `plan` (from `planSlide`, with nothing decoded since): drops `output[0 ..< plan.cut]`
    /// but the pinned ranges; returns the cut and the bytes kept before it (`pinned`): output
    /// byte `i ≥ cut` is afterwards at `i - cut + pinned`. `output` is then at least
    /// `plan.keptBytes + room` long, and never shorter than before.
    mutating func slide(_ output: inout [UInt8], as plan: LZWSlidePlan, room: Int) -> (cut: Int, pinned: Int) {
        let cut = plan.cut, ranges = plan.pinned
        var next: [UInt8] = []
        next.reserveCapacity(max(output.count, plan.keptBytes + room))
        var newStarts: [Int] = []
        for range in ranges {
            newStarts.append(next.count)
            next.append(contentsOf: output[range])
        }
        let pinned = next.count
        next.append(contentsOf: output[cut ..< written])
        next.append(contentsOf: repeatElement(0, count: max(output.count, next.count + room) - next.count))

        for string in plan.strings {
            if string.start >= cut {
                dictionary.move(string.code, to: string.start - cut + pinned)
                continue
            }
            // The merged range holding the string: the last one starting at or before it.
            var low = 0, high = ranges.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if ranges[middle].lowerBound <= string.start { low = middle } else { high = middle - 1 }
            }
            dictionary.move(string.code, to: newStarts[low] + string.start - ranges[low].lowerBound)
        }
        dictionary.forgetUndefined()
        if dictionary.previousLength > 0 { dictionary.previousStart += pinned - cut }
        written += pinned - cut
        output = next
        return (cut, pinned)
    }
}
