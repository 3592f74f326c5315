/// Where a progressive AC scan (T.81 G.1.2.2, G.1.2.3) puts what it decodes for one block.
///
/// The scans' parsing reads one thing from a block — which coefficients of the band are
/// already non-zero, in a refinement — so the same decoding loops (`decodeACFirst`,
/// `decodeACRefine`) serve two targets:
/// - `CoefficientBlockTarget`: the block's 64 coefficients (every decode that renders them);
/// - `NonZeroMaskTarget`: only the block's non-zero mask, for the first pass of a banded decode
///   (`CoefficientBands`), where the values are decoded again when the block's band comes.
///   Taking the mask as it is — instead of expanding it into a scratch block and gathering
///   it back from the block after the scan — is most of that pass's saving.
///
/// Zigzag index `k` of a write is at most 79: a run past Se reaches 64…79, which the natural
/// order table maps to position 63 (jdphuff.c's `jpeg_natural_order` extra entries), so the
/// value lands on coefficient 63, zigzag index 63.
protocol ACScanTarget {
    /// Bit k set when the coefficient at zigzag index k is non-zero (bit 0, the DC term, is not
    /// meaningful: the AC scans never read it).
    var nonZero: UInt64 { get }
    /// Stores `value` at zigzag index `k ≤ 79` (see above).
    mutating func write(_ value: Int16, at k: Int)
    /// Whether correction bits change the target. They change magnitudes only, never whether
    /// a coefficient is non-zero (`RefineMask.correct`), so a mask drops them.
    var appliesCorrections: Bool { get }
    /// A refinement's correction bit for the non-zero coefficient at zigzag index `k ≤ 63`.
    mutating func correct(at k: Int, bit: Int, p1: Int16, m1: Int16)
}

/// A coefficient block (64 Int16, natural order).
/// Bounds: `block` points at 64 writable Int16; `natural` at the 80-entry natural-order table
/// (entries < 64), so every `k ≤ 79` maps inside the block.
struct CoefficientBlockTarget: ACScanTarget {
    let block: UnsafeMutablePointer<Int16>
    let natural: UnsafePointer<UInt8>
    /// False for a component whose IDCT reads only the DC term (`Slot.acNeeded`).
    let appliesCorrections: Bool

    var nonZero: UInt64 {
        @inline(__always) get { RefineMask.nonZero(block) }
    }

    @inline(__always) func write(_ value: Int16, at k: Int) {
        block[Int(natural[k])] = value
    }

    @inline(__always) func correct(at k: Int, bit: Int, p1: Int16, m1: Int16) {
        RefineMask.correct(block, natural, at: k, bit: bit, p1: p1, m1: m1)
    }
}

/// Only which coefficients are non-zero. A write sets or clears its bit as the value it
/// stores in a block would make it (a first scan's `value << Al` can wrap to 0 on corrupt
/// data, and a write replaces what the coefficient held), so the mask stays what
/// `RefineMask.nonZero` would read from the decoded block at every point of every scan.
struct NonZeroMaskTarget: ACScanTarget {
    var nonZero: UInt64

    @inline(__always) mutating func write(_ value: Int16, at k: Int) {
        let bit: UInt64 = 1 &<< UInt64(min(k, 63))
        nonZero = value != 0 ? nonZero | bit : nonZero & ~bit
    }

    var appliesCorrections: Bool {
        @inline(__always) get { false }
    }

    @inline(__always) func correct(at k: Int, bit: Int, p1: Int16, m1: Int16) {}
}
