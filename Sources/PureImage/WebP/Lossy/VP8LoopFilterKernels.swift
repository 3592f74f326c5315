/// RFC 6386 §15 — the loop filter, on the reconstructed planes.
///
/// An edge is filtered position by position along it. Across the edge, p3 p2 p1 p0 | q0 q1 q2 q3
/// are the pixels on either side (`at` is q0, `across` the step from p0 to q0). With the edge
/// limit E (2 × level + interior limit, + 4 on macroblock edges), the interior limit I and the
/// high-edge-variance threshold:
///
/// - simple filter (§15.2): if |p0 − q0| × 2 + |p1 − q1| / 2 ≤ E, adjust p0 and q0 by the
///   common adjustment with the outer taps;
/// - normal filter (§15.3): also every |p3 − p2|, |p2 − p1|, |p1 − p0|, |q1 − q0|, |q2 − q1|,
///   |q3 − q2| ≤ I. Then, when |p1 − p0| or |q1 − q0| exceeds the threshold ("high edge
///   variance"), as the simple filter; otherwise on macroblock edges p2…q2 move by
///   (27w + 63) >> 7, (18w + 63) >> 7, (9w + 63) >> 7, and on subblock edges p1…q1 by the common
///   adjustment without outer taps, p1 and q1 by half of it.
///
/// The arithmetic is libwebp's (`dsp/dec.c`), equal to the RFC's: the edge test is written
/// 4·|p0 − q0| + |p1 − q1| ≤ 2E + 1 (the same for integers), and clamping is to signed 8 bits
/// (`sclip1`), to [−16, 15] after the shift (`sclip2`), and to pixels (`clip1`).
///
/// Unsafe for speed. Bounds: the callers filter only edges whose four pixels on each side lie in
/// the planes — macroblock edges at x > 0 / y > 0 and subblock edges inside a macroblock, whose
/// planes are whole macroblocks in size. Every pointer is formed inside the plane (never one
/// step past the last position: LLVM treats out-of-bounds pointer arithmetic as undefined, and
/// an earlier version that stepped past the plane's end was miscompiled).
enum VP8LoopFilterKernels {
    @inline(__always) static func clampSigned(_ v: Int) -> Int { v < -128 ? -128 : v > 127 ? 127 : v }   // sclip1
    @inline(__always) static func clampStep(_ v: Int) -> Int { v < -16 ? -16 : v > 15 ? 15 : v }       // sclip2
    @inline(__always) static func clampPixel(_ v: Int) -> UInt8 { UInt8(truncatingIfNeeded: v < 0 ? 0 : v > 255 ? 255 : v) }  // clip1
    @inline(__always) private static func absolute(_ v: Int) -> Int { v < 0 ? 0 &- v : v }

    /// The common adjustment with outer taps: p0 += (a + 3) >> 3, q0 −= (a + 4) >> 3.
    @inline(__always)
    private static func filter2(_ q: UnsafeMutablePointer<UInt8>, _ s: Int) {
        let p1 = Int(q[0 &- 2 &* s]), p0 = Int(q[0 &- s]), q0 = Int(q[0]), q1 = Int(q[s])
        let a = 3 &* (q0 &- p0) &+ clampSigned(p1 &- q1)
        let a1 = clampStep((a &+ 4) &>> 3)
        let a2 = clampStep((a &+ 3) &>> 3)
        q[0 &- s] = clampPixel(p0 &+ a2)
        q[0] = clampPixel(q0 &- a1)
    }

    /// Subblock edge without high variance: p1 … q1.
    @inline(__always)
    private static func filter4(_ q: UnsafeMutablePointer<UInt8>, _ s: Int) {
        let p1 = Int(q[0 &- 2 &* s]), p0 = Int(q[0 &- s]), q0 = Int(q[0]), q1 = Int(q[s])
        let a = 3 &* (q0 &- p0)
        let a1 = clampStep((a &+ 4) &>> 3)
        let a2 = clampStep((a &+ 3) &>> 3)
        let a3 = (a1 &+ 1) &>> 1
        q[0 &- 2 &* s] = clampPixel(p1 &+ a3)
        q[0 &- s] = clampPixel(p0 &+ a2)
        q[0] = clampPixel(q0 &- a1)
        q[s] = clampPixel(q1 &- a3)
    }

    /// Macroblock edge without high variance: p2 … q2.
    @inline(__always)
    private static func filter6(_ q: UnsafeMutablePointer<UInt8>, _ s: Int) {
        let p2 = Int(q[0 &- 3 &* s]), p1 = Int(q[0 &- 2 &* s]), p0 = Int(q[0 &- s])
        let q0 = Int(q[0]), q1 = Int(q[s]), q2 = Int(q[2 &* s])
        let a = clampSigned(3 &* (q0 &- p0) &+ clampSigned(p1 &- q1))
        let a1 = (27 &* a &+ 63) &>> 7
        let a2 = (18 &* a &+ 63) &>> 7
        let a3 = (9 &* a &+ 63) &>> 7
        q[0 &- 3 &* s] = clampPixel(p2 &+ a3)
        q[0 &- 2 &* s] = clampPixel(p1 &+ a2)
        q[0 &- s] = clampPixel(p0 &+ a1)
        q[0] = clampPixel(q0 &- a1)
        q[s] = clampPixel(q1 &- a2)
        q[2 &* s] = clampPixel(q2 &- a3)
    }

    @inline(__always)
    private static func edgeTest(_ q: UnsafeMutablePointer<UInt8>, _ s: Int, _ limit2: Int) -> Bool {
        let p1 = Int(q[0 &- 2 &* s]), p0 = Int(q[0 &- s]), q0 = Int(q[0]), q1 = Int(q[s])
        return 4 &* absolute(p0 &- q0) &+ absolute(p1 &- q1) <= limit2
    }

    /// The normal filter's test; returns 0 (no filter), 1 (high edge variance) or 2.
    @inline(__always)
    private static func normalTest(_ q: UnsafeMutablePointer<UInt8>, _ s: Int, _ limit2: Int, _ interior: Int, _ hev: Int) -> Int {
        let p3 = Int(q[0 &- 4 &* s]), p2 = Int(q[0 &- 3 &* s]), p1 = Int(q[0 &- 2 &* s]), p0 = Int(q[0 &- s])
        let q0 = Int(q[0]), q1 = Int(q[s]), q2 = Int(q[2 &* s]), q3 = Int(q[3 &* s])
        guard 4 &* absolute(p0 &- q0) &+ absolute(p1 &- q1) <= limit2 else { return 0 }
        let dp1 = absolute(p1 &- p0), dq1 = absolute(q1 &- q0)
        guard absolute(p3 &- p2) <= interior, absolute(p2 &- p1) <= interior, dp1 <= interior,
              absolute(q3 &- q2) <= interior, absolute(q2 &- q1) <= interior, dq1 <= interior else { return 0 }
        return dp1 > hev || dq1 > hev ? 1 : 2
    }

    /// §15.2 simple filter along `count` positions of one edge (`along` steps between them).
    static func simple(_ b: UnsafeMutableBufferPointer<UInt8>, at: Int, across: Int, along: Int, count: Int, limit: Int) {
        guard let base = b.baseAddress else { return }
        let limit2 = 2 * limit + 1
        for i in 0..<count {
            // Each position's pointer is formed from the base: stepping one past the last
            // position could leave the buffer, which pointer arithmetic must never do.
            let q = base + (at &+ i &* along)
            if edgeTest(q, across, limit2) { filter2(q, across) }
        }
    }

    /// §15.3 normal filter on a macroblock edge.
    static func macroblockEdge(_ b: UnsafeMutableBufferPointer<UInt8>, at: Int, across: Int, along: Int, count: Int,
                               limit: Int, interior: Int, hevThreshold: Int) {
        guard let base = b.baseAddress else { return }
        let limit2 = 2 * limit + 1
        for i in 0..<count {
            let q = base + (at &+ i &* along)
            switch normalTest(q, across, limit2, interior, hevThreshold) {
            case 1: filter2(q, across)
            case 2: filter6(q, across)
            default: break
            }
        }
    }

    /// §15.3 normal filter on a subblock edge.
    static func subblockEdge(_ b: UnsafeMutableBufferPointer<UInt8>, at: Int, across: Int, along: Int, count: Int,
                             limit: Int, interior: Int, hevThreshold: Int) {
        guard let base = b.baseAddress else { return }
        let limit2 = 2 * limit + 1
        for i in 0..<count {
            let q = base + (at &+ i &* along)
            switch normalTest(q, across, limit2, interior, hevThreshold) {
            case 1: filter2(q, across)
            case 2: filter4(q, across)
            default: break
            }
        }
    }
}
