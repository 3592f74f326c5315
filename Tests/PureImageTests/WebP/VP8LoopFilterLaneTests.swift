import Testing
@testable import PureImage

/// The lane loop filter against the scalar reference (`VP8LoopFilterKernels`), bit for bit:
/// random neighbourhoods shaped to reach every branch (flat sides with a step, rough sides,
/// high edge variance, extremes at 0 and 255), every filter kind, both edge orientations,
/// random limits and thresholds. The whole buffer is compared, so a store outside the edge's
/// pixels would show too.
@Suite struct VP8LoopFilterLaneTests {
    static let width = 24

    /// A 24 × 24 plane: a level on each side of the edge with noise of a random amplitude,
    /// sometimes pushed to the extremes.
    static func plane(_ g: inout JPEGIDCTLaneTests.SplitMix64, vertical: Bool) -> [UInt8] {
        let left = Int(g.next() % 256), step = Int(g.next() % 64) - 32
        let noise = [0, 1, 2, 4, 8, 40, 255][Int(g.next() % 7)]
        return (0..<(width * width)).map { i in
            let across = vertical ? i % width : i / width
            let base = across < 8 ? left : left + step
            let jitter = noise == 0 ? 0 : Int(g.next() % UInt64(2 * noise + 1)) - noise
            return UInt8(clamping: base + jitter)
        }
    }

    @Test(arguments: [VP8LoopFilterLaneKernels.Filter.simple, .subblock, .macroblock])
    func lanesEqualTheScalarFilter(_ kind: VP8LoopFilterLaneKernels.Filter) {
        var g = JPEGIDCTLaneTests.SplitMix64(seed: kind == .simple ? 1 : kind == .subblock ? 2 : 3)
        var failures: [String] = []
        var changed = 0, trials = 0
        for trial in 0..<60_000 {
            let vertical = trial & 1 == 0
            let original = Self.plane(&g, vertical: vertical)
            let limit = Int(g.next() % 200), interior = Int(g.next() % 64), hev = Int(g.next() % 4)
            var scalar = original, lanes = original
            // The edge: q0 at column 8 of rows 4…11 (vertical) or row 8 of columns 4…11.
            let at = vertical ? 4 * Self.width + 8 : 8 * Self.width + 4
            let across = vertical ? 1 : Self.width, along = vertical ? Self.width : 1
            scalar.withUnsafeMutableBufferPointer { b in
                switch kind {
                case .simple: VP8LoopFilterKernels.simple(b, at: at, across: across, along: along, count: 8, limit: limit)
                case .subblock: VP8LoopFilterKernels.subblockEdge(b, at: at, across: across, along: along, count: 8,
                                                                  limit: limit, interior: interior, hevThreshold: hev)
                case .macroblock: VP8LoopFilterKernels.macroblockEdge(b, at: at, across: across, along: along, count: 8,
                                                                      limit: limit, interior: interior, hevThreshold: hev)
                }
            }
            lanes.withUnsafeMutableBufferPointer { b in
                let t = VP8LoopFilterLaneKernels.Thresholds(limit: limit, interior: interior, highEdgeVariance: hev)
                if vertical {
                    VP8LoopFilterLaneKernels.verticalEdge(b, at: at, stride: Self.width, kind, t)
                } else {
                    VP8LoopFilterLaneKernels.horizontalEdge(b, at: at, stride: Self.width, kind, t)
                }
            }
            trials += 1
            if scalar != original { changed += 1 }
            if scalar != lanes && failures.count < 10 { failures.append("trial \(trial) limit \(limit) interior \(interior) hev \(hev)") }
        }
        #expect(failures.isEmpty, "\(failures)")
        // The neighbourhoods must exercise the filter, not only its refusals.
        #expect(changed > trials / 10, "\(changed) of \(trials) filtered")
    }
}
