/// RFC 9649 §3.1 — the lossless bitstream is read least significant bit first: "bits are read
/// from the stream in the order they are stored, starting from the least significant bit of
/// each byte", and multi-bit values are assembled little-endian.
///
/// ```
///   bytes:   b0 = 0bHGFEDCBA   b1 = 0bPONMLKJI
///   ReadBits(3) → CBA (A is bit 0), then ReadBits(6) → JIHGFED
/// ```
///
/// The reader keeps up to 64 bits in `window` (bit 0 is the next bit), refilled a byte at a time
/// from `bytes[next ..< end]`. Reading past `end` yields zero bits and sets `isExhausted` — the
/// same condition as libwebp's end-of-stream (`eos_`): more bits consumed than the data holds.
/// What that means (wait for more data, or the stream is cut short) is the caller's decision.
///
/// This safe version reads headers, transforms and code lengths; the pixel loop copies its state
/// into `VP8LPixelKernels` and back.
struct VP8LBitReader {
    let bytes: [UInt8]
    /// One past the last byte that may be read.
    let end: Int
    /// The next byte to load into `window`.
    var next: Int
    /// Unconsumed bits, next bit in bit 0.
    var window: UInt64 = 0
    /// Valid bits in `window`.
    var count: Int = 0
    /// More bits were consumed than `bytes[start ..< end]` holds.
    var isExhausted = false

    init(_ bytes: [UInt8], start: Int, end: Int) {
        self.bytes = bytes
        self.end = min(end, bytes.count)
        self.next = start
    }

    /// Absolute bit position of the next bit (for messages and resumption).
    var bitPosition: Int { next * 8 - count }

    @inline(__always)
    mutating func refill() {
        while count <= 56 && next < end {
            window |= UInt64(bytes[next]) << UInt64(count)
            next += 1
            count += 8
        }
    }

    /// The next `n` (≤ 32) bits without consuming them; zeros past the end.
    @inline(__always)
    mutating func peek(_ n: Int) -> UInt32 {
        if count < n { refill() }
        return UInt32(truncatingIfNeeded: window & ((1 << UInt64(n)) - 1))
    }

    /// Consumes `n` bits (after a `peek` that made them visible).
    @inline(__always)
    mutating func skip(_ n: Int) {
        if n > count {
            isExhausted = true
            window = 0
            count = 0
        } else {
            window >>= UInt64(n)
            count -= n
        }
    }

    /// RFC 9649 §3.1 `ReadBits(n)`, n ≤ 32.
    @inline(__always)
    mutating func readBits(_ n: Int) -> Int {
        guard n > 0 else { return 0 }
        let value = peek(n)
        skip(n)
        return Int(value)
    }

    /// Reads one symbol of `code` (RFC 9649 §3.7.2.2: "ReadSymbol").
    @inline(__always)
    mutating func readSymbol(_ code: VP8LPrefixCode) -> Int {
        readSymbol(table: code.table, base: 0)
    }

    /// Reads one symbol with the two-level table at `table[base...]` (see `VP8LPrefixCode`).
    @inline(__always)
    mutating func readSymbol(table: [UInt32], base: Int) -> Int {
        let bits = peek(VP8LPrefixCode.maxLength)
        let entry = table[base + Int(bits & VP8LPrefixCode.rootMask)]
        let length = Int(entry & 0xFF)
        if length <= VP8LPrefixCode.rootBits {
            skip(length)
            return Int(entry >> 16)
        }
        let subBits = length - VP8LPrefixCode.rootBits
        let index = Int((bits >> UInt32(VP8LPrefixCode.rootBits)) & ((1 << UInt32(subBits)) - 1))
        let leaf = table[base + Int(entry >> 16) + index]
        skip(VP8LPrefixCode.rootBits + Int(leaf & 0xFF))
        return Int(leaf >> 16)
    }
}
