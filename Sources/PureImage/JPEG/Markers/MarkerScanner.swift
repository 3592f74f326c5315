/// Finding the next marker: T.81 §B.1.1.2 ("Any marker may optionally be preceded by any
/// number of fill bytes … X'FF'") plus libjpeg-turbo's leniency for garbage between segments
/// (jdmarker.c `next_marker`): bytes before the 0xFF are skipped and counted, `FF 00` pairs
/// are skipped as data, and the warning "Corrupt JPEG data: N extraneous bytes before marker
/// 0xXX" is given instead of an error.
enum MarkerScanner {
    enum Result: Equatable {
        /// `offset`: the 0xFF before the code (the last fill byte); `next`: the byte after the code.
        case marker(code: UInt8, offset: Int, next: Int, discarded: Int)
        /// The bytes ran out first; `discarded` bytes were skipped on the way.
        case endOfBytes(discarded: Int)
    }

    /// Bound: every index read is `< end`, and `end ≤ bytes.count` is the caller's promise.
    static func next(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Result {
        var p = start
        var discarded = 0
        while true {
            while p < end && bytes[p] != 0xFF {
                p += 1
                discarded += 1
            }
            guard p < end else { return .endOfBytes(discarded: discarded) }
            var q = p + 1
            while q < end && bytes[q] == 0xFF { q += 1 }
            guard q < end else { return .endOfBytes(discarded: discarded) }
            if bytes[q] != 0 {
                return .marker(code: bytes[q], offset: q - 1, next: q + 1, discarded: discarded)
            }
            discarded += 2
            p = q + 1
        }
    }
}
