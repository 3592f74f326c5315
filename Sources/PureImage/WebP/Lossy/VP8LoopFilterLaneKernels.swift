/// `VP8LoopFilterKernels` on eight positions of an edge at once, in 16-bit lanes: the same
/// tests and the same arithmetic, without a branch per position (`VP8LoopFilterLaneTests`
/// compares the two on random and extreme neighbourhoods for every filter, limit and
/// threshold). The scalar kernels stay the readable reference.
///
/// Lane i holds position i along the edge; the eight vectors p3 … q3 are the pixels across it.
/// A horizontal edge (pixels across it a row apart) loads them as eight rows; a vertical edge
/// loads eight rows of eight bytes and transposes them (the JPEG IDCT's 8×8 transpose), and
/// transposes back to store.
///
/// **Exactness in 16 bits.** Every intermediate is small: differences of pixels are within
/// ±255, the edge test's 4·|p0 − q0| + |p1 − q1| ≤ 1275, the filters' `a` within ±893 before
/// clamping, 27 × 127 + 63 = 3492. Arithmetic shifts of Int16 lanes round toward −∞ like the
/// scalar `>>`; every compared or clamped value lies within ±1275, inside `VP8Lanes`'
/// comparison range. A lane's choice (filter or not, high edge variance or not) is a mask of
/// `VP8Lanes.greater`, applied with `VP8Lanes.select`.
///
/// Unsafe: a named kernel (STYLE.md item 20). Bounds: the callers pass edges (the offset `at`
/// of position 0's q0 in the plane `b`) whose four pixels on each side lie in the plane for all
/// eight positions (macroblock edges at x > 0 / y > 0,
/// inner edges at 4, 8, 12 inside a macroblock) — the pixels the scalar normal filter reads.
/// The simple filter reads the same eight pixels across (it changes only p0 and q0).
enum VP8LoopFilterLaneKernels {
    typealias Lanes = SIMD8<Int16>
    typealias Across = IDCTLaneKernels.Block

    enum Filter { case simple, subblock, macroblock }

    struct Thresholds {
        /// 2 × the edge limit + 1 (`4·|p0 − q0| + |p1 − q1|` must not exceed it).
        var edge: Int16
        var interior: Int16
        var highEdgeVariance: Int16
        init(limit: Int, interior: Int, highEdgeVariance: Int) {
            edge = Int16(truncatingIfNeeded: 2 * limit + 1)
            self.interior = Int16(truncatingIfNeeded: interior)
            self.highEdgeVariance = Int16(truncatingIfNeeded: highEdgeVariance)
        }
    }

    private typealias L = VP8Lanes
    @inline(__always) private static func magnitude(_ x: Lanes) -> Lanes { L.magnitude(x) }
    @inline(__always) private static func clamp(_ x: Lanes, _ low: Int16, _ high: Int16) -> Lanes { L.clamp(x, low, high) }
    @inline(__always) private static func greater(_ a: Lanes, _ b: Lanes) -> Lanes { L.greater(a, b) }
    @inline(__always) private static func select(_ mask: Lanes, _ yes: Lanes, _ no: Lanes) -> Lanes { L.select(mask, yes, no) }

    // MARK: The filter

    /// Filters the eight positions of `v` (p3 … q3) in place, as `VP8LoopFilterKernels` does
    /// position by position.
    @inline(__always)
    static func filter(_ v: inout Across, _ kind: Filter, _ t: Thresholds) {
        let (p3, p2, p1, p0, q0, q1, q2, q3) = v
        let outer = magnitude(p0 &- q0) &* 4 &+ magnitude(p1 &- q1)
        var apply = ~greater(outer, Lanes(repeating: t.edge))
        // The common adjustment with outer taps (the simple filter, and high edge variance).
        let a = (q0 &- p0) &* 3 &+ clamp(p1 &- q1, -128, 127)
        let step0 = clamp((a &+ 4) &>> 3, -16, 15), step1 = clamp((a &+ 3) &>> 3, -16, 15)
        let twoTapP0 = clamp(p0 &+ step1, 0, 255), twoTapQ0 = clamp(q0 &- step0, 0, 255)
        if kind == .simple {
            v.3 = select(apply, twoTapP0, p0)
            v.4 = select(apply, twoTapQ0, q0)
            return
        }
        let interior = Lanes(repeating: t.interior)
        let dp1 = magnitude(p1 &- p0), dq1 = magnitude(q1 &- q0)
        let rough = greater(magnitude(p3 &- p2), interior) | greater(magnitude(p2 &- p1), interior) | greater(dp1, interior)
            | greater(magnitude(q3 &- q2), interior) | greater(magnitude(q2 &- q1), interior) | greater(dq1, interior)
        apply &= ~rough
        let hevThreshold = Lanes(repeating: t.highEdgeVariance)
        let highVariance = greater(dp1, hevThreshold) | greater(dq1, hevThreshold)
        let twoTap = apply & highVariance, wide = apply & ~highVariance
        if kind == .subblock {
            let b = (q0 &- p0) &* 3
            let b0 = clamp((b &+ 4) &>> 3, -16, 15), b1 = clamp((b &+ 3) &>> 3, -16, 15)
            let b2 = (b0 &+ 1) &>> 1
            v.2 = select(wide, clamp(p1 &+ b2, 0, 255), p1)
            v.3 = select(wide, clamp(p0 &+ b1, 0, 255), select(twoTap, twoTapP0, p0))
            v.4 = select(wide, clamp(q0 &- b0, 0, 255), select(twoTap, twoTapQ0, q0))
            v.5 = select(wide, clamp(q1 &- b2, 0, 255), q1)
        } else {
            let w = clamp(a, -128, 127)
            let w0 = (w &* 27 &+ 63) &>> 7, w1 = (w &* 18 &+ 63) &>> 7, w2 = (w &* 9 &+ 63) &>> 7
            v.1 = select(wide, clamp(p2 &+ w2, 0, 255), p2)
            v.2 = select(wide, clamp(p1 &+ w1, 0, 255), p1)
            v.3 = select(wide, clamp(p0 &+ w0, 0, 255), select(twoTap, twoTapP0, p0))
            v.4 = select(wide, clamp(q0 &- w0, 0, 255), select(twoTap, twoTapQ0, q0))
            v.5 = select(wide, clamp(q1 &- w1, 0, 255), q1)
            v.6 = select(wide, clamp(q2 &- w2, 0, 255), q2)
        }
    }

    // MARK: Edges

    /// Eight positions of a horizontal edge: q0 of position i is `b[at + i]`, the pixels across
    /// it `stride` apart (rows −4 … 3 from q0's).
    static func horizontalEdge(_ b: UnsafeMutableBufferPointer<UInt8>, at: Int, stride: Int, _ kind: Filter, _ t: Thresholds) {
        guard let base = b.baseAddress else { return }
        let q = base + at
        var v: Across = (L.loadSigned(q - 4 &* stride), L.loadSigned(q - 3 &* stride), L.loadSigned(q - 2 &* stride),
                         L.loadSigned(q - stride), L.loadSigned(q), L.loadSigned(q + stride),
                         L.loadSigned(q + 2 &* stride), L.loadSigned(q + 3 &* stride))
        filter(&v, kind, t)
        L.store(v.1, q - 3 &* stride); L.store(v.2, q - 2 &* stride); L.store(v.3, q - stride)
        L.store(v.4, q); L.store(v.5, q + stride); L.store(v.6, q + 2 &* stride)
    }

    /// Eight positions of a vertical edge: q0 of position i is `b[at + i · stride]`, the pixels
    /// across it consecutive (bytes −4 … 3 from q0 in each row).
    static func verticalEdge(_ b: UnsafeMutableBufferPointer<UInt8>, at: Int, stride: Int, _ kind: Filter, _ t: Thresholds) {
        guard let base = b.baseAddress else { return }
        let start = base + (at &- 4)
        let rows: Across = (L.loadSigned(start), L.loadSigned(start + stride), L.loadSigned(start + 2 &* stride),
                            L.loadSigned(start + 3 &* stride), L.loadSigned(start + 4 &* stride), L.loadSigned(start + 5 &* stride),
                            L.loadSigned(start + 6 &* stride), L.loadSigned(start + 7 &* stride))
        var v = IDCTLaneKernels.transpose(rows)
        filter(&v, kind, t)
        let back = IDCTLaneKernels.transpose(v)
        L.store(back.0, start); L.store(back.1, start + stride); L.store(back.2, start + 2 &* stride)
        L.store(back.3, start + 3 &* stride); L.store(back.4, start + 4 &* stride); L.store(back.5, start + 5 &* stride)
        L.store(back.6, start + 6 &* stride); L.store(back.7, start + 7 &* stride)
    }
}
