/// Bit masks over a block's zigzag indices (bit k = index k) for the AC refinement walk
/// (`decodeACRefine`), and the one kernel that builds them from a block's coefficients.
enum RefineMask {
    /// Indices `first ... last` (0 when first > last). Bound: 0 ≤ first, last ≤ 63.
    @inline(__always)
    static func indices(from first: Int, through last: Int) -> UInt64 {
        guard first <= last else { return 0 }
        return (UInt64.max &>> UInt64(63 &- last)) & (UInt64.max &<< UInt64(first))
    }

    /// Indices `first ..< stop` (0 when first ≥ stop). Bound: 0 ≤ first ≤ 63, stop ≤ 64.
    @inline(__always)
    static func indices(from first: Int, below stop: Int) -> UInt64 {
        stop <= first ? 0 : indices(from: first, through: stop &- 1)
    }

    /// Which of the block's 64 coefficients are non-zero, bit k for zigzag index k.
    ///
    /// Two steps, no branch: 16-lane compares give one byte flag (0 or 1) per coefficient in
    /// natural order, a multiply gathers eight flags into a byte (bit i = lane i: the flag in
    /// byte i times the constant's byte 7 − i, which is 2^i, lands on bit 56 + i; the eight
    /// products hit distinct bits, so nothing carries), and `zigzagBits` moves each nibble of
    /// the natural-order mask to the zigzag indices of its four positions. The AC scans'
    /// header check (`ProgressiveState.startScan`: 1 ≤ Ss ≤ Se ≤ 63) keeps every index a
    /// caller masks with inside 0…63. About 70 instructions where a loop over the zigzag
    /// table took ~190 cycles a block.
    ///
    /// Bound: `block` points at 64 readable `Int16` (a coefficient block).
    @inline(__always)
    static func nonZero(_ block: UnsafePointer<Int16>) -> UInt64 {
        let raw = UnsafeRawPointer(block)
        var natural: UInt64 = 0
        for quarter in 0..<4 {
            let lanes = raw.loadUnaligned(fromByteOffset: quarter &* 32, as: SIMD16<UInt16>.self)
            // x | −x has its top bit set exactly when x ≠ 0 (−32768 included).
            let bits = (lanes | (SIMD16<UInt16>.zero &- lanes)) &>> 15
            // Lane by lane, not the standard library's generic conversion (see `LaneConversions`).
            @inline(__always) func flag(_ i: Int) -> UInt8 { UInt8(truncatingIfNeeded: bits[i]) }
            let flags = SIMD16(flag(0), flag(1), flag(2), flag(3), flag(4), flag(5), flag(6), flag(7),
                               flag(8), flag(9), flag(10), flag(11), flag(12), flag(13), flag(14), flag(15))
            let halves = unsafeBitCast(flags, to: SIMD2<UInt64>.self)
            let low = (halves[0] &* 0x0102_0408_1020_4080) &>> 56
            let high = (halves[1] &* 0x0102_0408_1020_4080) &>> 56
            natural |= (low | high &<< 8) &<< UInt64(quarter &* 16)
        }
        let table = zigzagBits
        var zigzag: UInt64 = 0
        for nibble in 0..<16 {
            // Bound: nibble < 16, the 4-bit value < 16: entry < 256 of the table's 256.
            zigzag |= table[nibble &<< 4 | Int(truncatingIfNeeded: natural &>> UInt64(nibble &* 4)) & 15]
        }
        return zigzag
    }

    /// Entry `n × 16 + v`: the zigzag-index bits of the natural positions 4n + j for the set
    /// bits j of v (T.81 Figure A.6's order, `JPEGZigZag.natural` inverted). 2 KiB, never freed.
    nonisolated(unsafe) static let zigzagBits: UnsafePointer<UInt64> = {
        var zigzagIndex = [Int](repeating: 0, count: 64)
        for k in 0..<64 { zigzagIndex[JPEGZigZag.natural[k]] = k }
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: 256)
        for nibble in 0..<16 {
            for value in 0..<16 {
                var bits: UInt64 = 0
                for j in 0..<4 where value & (1 << j) != 0 { bits |= 1 << UInt64(zigzagIndex[nibble * 4 + j]) }
                table[nibble * 16 + value] = bits
            }
        }
        return UnsafePointer(table)
    }()

    /// The correction at zigzag index `k` (≤ 63, a non-zero coefficient): with `bit` set and
    /// 2^Al not yet in the magnitude, the magnitude gains 2^Al (jdphuff.c; wrapping like its
    /// JCOEF arithmetic on corrupt input). Written without a branch on the bit.
    @inline(__always)
    static func correct(_ block: UnsafeMutablePointer<Int16>, _ natural: UnsafePointer<UInt8>, at k: Int, bit: Int, p1: Int16, m1: Int16) {
        let position = Int(natural[k])
        let coefficient = block[position]
        let step = coefficient >= 0 ? p1 : m1
        let applies = bit != 0 && coefficient & p1 == 0
        block[position] = coefficient &+ (applies ? step : 0)
    }

    /// The index of set bit number `rank` of `x` (0 = the lowest), or 64 when `x` has no more
    /// than `rank` set bits: where the corrections left after taking `rank` of them start,
    /// when a mask drops them (`takeCorrections`) — a piece of up to 32, where clearing one
    /// bit a step was a loop as long as the piece. The broadword select of Vigna ("Broadword
    /// implementation of rank/select queries", 2008), without a branch on the data: bit counts
    /// per byte, their running sums by one multiply, the byte holding the bit by a bytewise
    /// compare, then a table for the bit inside it. (The walk's skip over R zeros keeps its
    /// loop: R is mostly 0 there, and this measured slower.) Bound: `rank` ≥ 0 (≥ 64 gives 64).
    @inline(__always)
    static func indexOfSetBit(_ x: UInt64, rank: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        // Bits set in each byte (0…8), then in bytes 0…i in byte i (0…64: fits 7 bits).
        var counts = x &- ((x &>> 1) & 0x5555_5555_5555_5555)
        counts = (counts & 0x3333_3333_3333_3333) &+ ((counts &>> 2) & 0x3333_3333_3333_3333)
        counts = (counts &+ (counts &>> 4)) & 0x0F0F_0F0F_0F0F_0F0F
        let running = counts &* ones
        // Bytes whose running count is ≤ rank (a prefix: the counts never fall) have their high
        // bit set here: (rank | 0x80) − running keeps bit 7 exactly when running ≤ rank, and no
        // byte borrows from the next (each difference stays in 0…0xFF).
        let clamped = UInt64(min(rank, 127))
        let below = ((clamped &* ones | highs) &- running) & highs
        let byte = Int(truncatingIfNeeded: ((below &>> 7) &* ones) &>> 56)   // 0…8
        guard byte < 8 else { return 64 }
        // Set bits in the bytes before it, then the rank inside it (< 8, as byte's count > it).
        let before = byte == 0 ? 0 : Int(truncatingIfNeeded: (running &>> UInt64(byte &* 8 &- 8)) & 0xFF)
        let inside = Int(truncatingIfNeeded: (x &>> UInt64(byte &* 8)) & 0xFF)
        // Bound: inside < 256 and clamped − before < 8, so the entry is < 2048.
        return byte &* 8 &+ Int(selectInByte[inside &<< 3 | (Int(clamped) &- before)])
    }

    /// Entry `v × 8 + r`: the index of set bit number r of the byte v (8 when it has none). 2 KiB,
    /// never freed.
    nonisolated(unsafe) static let selectInByte: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 2048)
        for value in 0..<256 {
            var rank = 0
            for r in 0..<8 { table[value * 8 + r] = 8 }
            for bit in 0..<8 where value & (1 << bit) != 0 {
                table[value * 8 + rank] = UInt8(bit)
                rank += 1
            }
        }
        return UnsafePointer(table)
    }()
}
