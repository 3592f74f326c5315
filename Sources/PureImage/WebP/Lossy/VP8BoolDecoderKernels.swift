/// RFC 6386 §7 — the boolean entropy decoder.
///
/// A bool is coded with an 8-bit probability `p` (the chance, out of 256, that it is 0). The
/// decoder keeps an interval `range` (128…255 after normalisation) and the next coded bits
/// `value`; the split point is `1 + ((range − 1) × p >> 8)`: below it the bool is 0 and the
/// interval shrinks to `split`, at or above it the bool is 1, `split` is subtracted from both
/// and the interval is `range − split`. Then both are doubled until `range` is at least 128,
/// pulling in one new bit per doubling (§7.3).
///
/// The representation follows libwebp (`VP8BitReader`) so that running out of data is decided
/// exactly as libwebp decides it: `range` holds range − 1, `value` holds the unread bits with
/// `bits` bits below the 8-bit window (`bits < 0`: the window needs more bytes). When a bool is
/// read with `bits < 0` and the partition has no byte left, eight zero bits are supplied once
/// and `isPastEnd` is set — libwebp's `eof_`, which fails the macroblock ("Premature
/// end-of-file"). When the partition continues but its bytes have not arrived, `isStarved` is
/// set instead and the caller rolls back and waits.
///
/// Unsafe for speed (it is the inner loop of everything lossy). Bounds: bytes are read only at
/// `next ..< next + 8` when `next + 8 ≤ min(end, data.count)`, at `next ..< next + 7` when
/// `next + 7 ≤ min(end, data.count)`, or at `next` when `next < min(end, data.count)`; nothing
/// else touches `data`.
struct VP8BoolDecoder {
    private(set) var value: UInt64 = 0
    private(set) var bits = -8
    private(set) var range: UInt32 = 255 - 1
    /// Next byte to load.
    private(set) var next: Int
    /// One past the partition's last byte (as the container declares it).
    let end: Int
    private(set) var isPastEnd = false
    private(set) var isStarved = false

    init(start: Int, end: Int) {
        next = start
        self.end = end
        if start >= end {
            // libwebp loads bytes as the reader is set up, so an empty partition is at its
            // end before any bool is read.
            isPastEnd = true
            bits = 0
        }
    }

    /// Loads more bits: seven bytes at a time while they are there, else one.
    @inline(__always)
    private mutating func load(_ data: UnsafeBufferPointer<UInt8>) {
        let limit = min(end, data.count)
        if next + 8 <= limit, let base = data.baseAddress {
            // Eight bytes read, the first seven used (big-endian: the first byte is the most
            // significant).
            let word = UInt64(bigEndian: UnsafeRawPointer(base + next).loadUnaligned(as: UInt64.self)) &>> 8
            value = value &<< 56 | word
            next &+= 7
            bits &+= 56
        } else if next + 7 <= limit {
            var word: UInt64 = 0
            for i in 0..<7 { word = word << 8 | UInt64(data[next + i]) }
            value = value << 56 | word
            next += 7
            bits += 56
        } else if next < limit {
            value = value << 8 | UInt64(data[next])
            next += 1
            bits += 8
        } else if next >= end {
            if !isPastEnd {
                value <<= 8
                bits += 8
                isPastEnd = true
            } else {
                bits = 0
            }
        } else {
            // The partition goes on, but its bytes have not arrived.
            isStarved = true
            value <<= 8
            bits += 8
        }
    }

    /// RFC 6386 §7.3 `read_bool(d, probability)`.
    @inline(__always)
    mutating func readBool(_ probability: Int, _ data: UnsafeBufferPointer<UInt8>) -> Bool {
        var r = range
        if bits < 0 { load(data) }
        // Wrapping operators: after `load`, 0 ≤ bits ≤ 56 + 8; range − 1 and the probability
        // are below 256, so split < 255, the subtractions cannot go below zero (the window is
        // above split when they run) and the shift is 0 … 7.
        let position = UInt64(truncatingIfNeeded: bits)
        let split = (r &* UInt32(truncatingIfNeeded: probability)) &>> 8
        let window = UInt32(truncatingIfNeeded: value &>> position)
        let bit = window > split
        if bit {
            r &-= split
            value &-= UInt64(split &+ 1) &<< position
        } else {
            r = split &+ 1
        }
        // Normalise: shift until the interval is at least 128 again.
        let shift = r.leadingZeroBitCount &- 24
        r = r &<< UInt32(truncatingIfNeeded: shift)
        bits &-= shift
        range = r &- 1
        return bit
    }

    /// RFC 6386 §7.3 `read_literal(d, n)`: n bools of probability 128, most significant first.
    @inline(__always)
    mutating func readLiteral(_ count: Int, _ data: UnsafeBufferPointer<UInt8>) -> Int {
        var v = 0
        for _ in 0..<count { v = v << 1 | (readBool(128, data) ? 1 : 0) }
        return v
    }

    /// RFC 6386 §9.3 / §9.6 signed value: magnitude (`count` bits), then a sign bool.
    mutating func readSignedLiteral(_ count: Int, _ data: UnsafeBufferPointer<UInt8>) -> Int {
        let magnitude = readLiteral(count, data)
        return readBool(128, data) ? -magnitude : magnitude
    }

    /// A flag (`L(1)`) followed, when set, by a signed value — the frame header's optional
    /// deltas (§9.3, §9.6).
    mutating func readOptionalSigned(_ count: Int, _ data: UnsafeBufferPointer<UInt8>) -> Int {
        readBool(128, data) ? readSignedLiteral(count, data) : 0
    }
}
