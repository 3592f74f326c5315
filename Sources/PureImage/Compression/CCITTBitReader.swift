/// Reads a CCITT strip or tile bit by bit, first bit = most significant bit of each byte
/// (FillOrder 2 data is bit-reversed before it gets here).
///
/// ```
/// bytes   1011 0010  0110 ....
/// window  1011001001 10....   ← peek(4) = 1011, skip(4), peek(3) = 001 …
/// ```
///
/// **The end of the data** follows libtiff's decoder exactly, because where a damaged or
/// short strip stops decoding depends on it. A code is looked up by first asking for a fixed
/// number of bits (`need`: 7, 12 or 13). When fewer are left the reader pads with zeros up to
/// that number and carries on; only when *no* bit is left at a `need` is it the end. The
/// padding moves the end: `paddedEnd` is the bit position where the (real or padded) bits run
/// out, initially 8 × byte count.
///
/// ```
/// 3 real bits left, need(12) → paddedEnd = position + 12 (9 zero bits made up)
/// a 5-bit code consumed       → 7 bits left before paddedEnd
/// need(12)                    → paddedEnd = position + 12 again
/// … until a code consumes exactly the bits left: the next need() is the end
/// ```
///
/// The reader also keeps libtiff's own accumulator count (`BitsAvail`) and read pointer (`cp`),
/// which only CCITT RLEW's word alignment looks at: libtiff loads a byte only when a `need`
/// finds too few bits (NeedBits8 / NeedBits16), so how many bits it holds — and where `cp` is —
/// depends on the order of the requests, not just on the position.
struct CCITTBitReader {
    private let bytes: ArraySlice<UInt8>
    /// Bits consumed since the start of the chunk.
    private(set) var position = 0
    /// Where the bits run out (see the type's comment).
    private var paddedEnd: Int
    /// The bits from `position` on, most significant first; beyond the data they are zero.
    private var window: UInt64 = 0
    /// Valid bits in `window` (real bits or the zeros after the data).
    private var windowBits = 0
    /// The next byte to load into `window`.
    private var nextByte: Int
    /// libtiff's `BitsAvail` (real or padded bits it holds) and `cp - start` (bytes it loaded).
    private(set) var libtiffHeldBits = 0
    private(set) var libtiffLoadedBytes = 0

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        paddedEnd = 8 * bytes.count
        nextByte = bytes.startIndex
    }

    /// Makes `count` (1…16) bits available. False when no bit at all is left: the end.
    @inline(__always)
    mutating func need(_ count: Int) -> Bool {
        if paddedEnd - position < count {
            if paddedEnd == position { return false }
            paddedEnd = position + count
        }
        if windowBits < count { refill() }
        if libtiffHeldBits < count { loadLikeLibtiff(count) }
        return true
    }

    /// NeedBits16 (NeedBits8 is the same for `count` ≤ 8): up to two bytes, then zeros.
    private mutating func loadLikeLibtiff(_ count: Int) {
        for _ in 0..<2 where libtiffHeldBits < count {
            if libtiffLoadedBytes == bytes.count {
                libtiffHeldBits = count
                return
            }
            libtiffLoadedBytes += 1
            libtiffHeldBits += 8
        }
    }

    /// Loads whole bytes until at least 57 bits are in the window (zeros past the data).
    @inline(__always)
    private mutating func refill() {
        while windowBits <= 56 {
            let byte: UInt8 = nextByte < bytes.endIndex ? bytes[nextByte] : 0
            window |= UInt64(byte) << (56 - windowBits)
            windowBits += 8
            nextByte += 1
        }
    }

    /// The next `count` bits as a number (first bit most significant). `need(count)` first.
    @inline(__always)
    func peek(_ count: Int) -> Int { Int(truncatingIfNeeded: window >> (64 - count)) }

    /// Consumes `count` bits, `count` ≤ what the last `need` made available.
    @inline(__always)
    mutating func skip(_ count: Int) {
        window <<= count
        windowBits -= count
        position += count
        libtiffHeldBits -= count
    }

    /// Consumes `count` (0…16) bits without a `need` first (libtiff's byte alignment of
    /// modified Huffman rows); bits past the padded end count as zeros.
    mutating func discard(_ count: Int) {
        if windowBits < count { refill() }
        skip(count)
    }

    /// libtiff's `cp++` at the end of an RLEW row: the next byte is passed over without being
    /// loaded. Only when libtiff holds no bits (so that byte is the next one here too) and has
    /// not reached the end of the data.
    mutating func passOverByteLikeLibtiff() {
        guard libtiffHeldBits == 0, libtiffLoadedBytes < bytes.count else { return }
        if windowBits < 8 { refill() }
        window <<= 8
        windowBits -= 8
        position += 8
        libtiffLoadedBytes += 1
    }
}
