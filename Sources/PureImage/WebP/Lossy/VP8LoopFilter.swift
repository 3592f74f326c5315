/// RFC 6386 §15.1 — the order in which a macroblock row's edges are filtered.
///
/// Macroblocks are filtered in raster order after the row is rebuilt; in each: the left
/// macroblock edge (not at the frame's left), the three inner vertical subblock edges (when
/// `filtersInnerEdges`), the top macroblock edge (not on the first row), the three inner
/// horizontal edges. The simple filter touches luma only; the normal filter luma and both
/// chroma planes (inner chroma edges at 4). A macroblock's inner edges are filtered when it is
/// B_PRED or has non-zero coefficients (libwebp: `f_inner_ = is_i4x4 | !skip`).
enum VP8LoopFilter {
    struct MacroblockFilter {
        var strength: VP8FilterStrength
        var filtersInnerEdges: Bool
    }

    static func filterRow(_ row: Int, filterType: Int, filters: [MacroblockFilter], mbWidth: Int,
                          yPlane: inout [UInt8], uPlane: inout [UInt8], vPlane: inout [UInt8]) {
        guard filterType > 0 else { return }
        let ys = mbWidth * 16, cs = mbWidth * 8
        yPlane.withUnsafeMutableBufferPointer { pY in
        uPlane.withUnsafeMutableBufferPointer { pU in
        vPlane.withUnsafeMutableBufferPointer { pV in
            for x in 0..<mbWidth {
                let f = filters[x]
                let limit = f.strength.limit
                guard limit > 0 else { continue }
                let y0 = row * 16 * ys + x * 16
                if filterType == 1 {
                    if x > 0 { VP8LoopFilterKernels.simple(pY, at: y0, across: 1, along: ys, count: 16, limit: limit + 4) }
                    if f.filtersInnerEdges {
                        for i in 1...3 { VP8LoopFilterKernels.simple(pY, at: y0 + 4 * i, across: 1, along: ys, count: 16, limit: limit) }
                    }
                    if row > 0 { VP8LoopFilterKernels.simple(pY, at: y0, across: ys, along: 1, count: 16, limit: limit + 4) }
                    if f.filtersInnerEdges {
                        for i in 1...3 { VP8LoopFilterKernels.simple(pY, at: y0 + 4 * i * ys, across: ys, along: 1, count: 16, limit: limit) }
                    }
                    continue
                }
                let interior = f.strength.interiorLimit, hev = f.strength.hevThreshold
                let c0 = row * 8 * cs + x * 8
                if x > 0 {
                    VP8LoopFilterKernels.macroblockEdge(pY, at: y0, across: 1, along: ys, count: 16, limit: limit + 4, interior: interior, hevThreshold: hev)
                    VP8LoopFilterKernels.macroblockEdge(pU, at: c0, across: 1, along: cs, count: 8, limit: limit + 4, interior: interior, hevThreshold: hev)
                    VP8LoopFilterKernels.macroblockEdge(pV, at: c0, across: 1, along: cs, count: 8, limit: limit + 4, interior: interior, hevThreshold: hev)
                }
                if f.filtersInnerEdges {
                    for i in 1...3 {
                        VP8LoopFilterKernels.subblockEdge(pY, at: y0 + 4 * i, across: 1, along: ys, count: 16, limit: limit, interior: interior, hevThreshold: hev)
                    }
                    VP8LoopFilterKernels.subblockEdge(pU, at: c0 + 4, across: 1, along: cs, count: 8, limit: limit, interior: interior, hevThreshold: hev)
                    VP8LoopFilterKernels.subblockEdge(pV, at: c0 + 4, across: 1, along: cs, count: 8, limit: limit, interior: interior, hevThreshold: hev)
                }
                if row > 0 {
                    VP8LoopFilterKernels.macroblockEdge(pY, at: y0, across: ys, along: 1, count: 16, limit: limit + 4, interior: interior, hevThreshold: hev)
                    VP8LoopFilterKernels.macroblockEdge(pU, at: c0, across: cs, along: 1, count: 8, limit: limit + 4, interior: interior, hevThreshold: hev)
                    VP8LoopFilterKernels.macroblockEdge(pV, at: c0, across: cs, along: 1, count: 8, limit: limit + 4, interior: interior, hevThreshold: hev)
                }
                if f.filtersInnerEdges {
                    for i in 1...3 {
                        VP8LoopFilterKernels.subblockEdge(pY, at: y0 + 4 * i * ys, across: ys, along: 1, count: 16, limit: limit, interior: interior, hevThreshold: hev)
                    }
                    VP8LoopFilterKernels.subblockEdge(pU, at: c0 + 4 * cs, across: cs, along: 1, count: 8, limit: limit, interior: interior, hevThreshold: hev)
                    VP8LoopFilterKernels.subblockEdge(pV, at: c0 + 4 * cs, across: cs, along: 1, count: 8, limit: limit, interior: interior, hevThreshold: hev)
                }
            }
        }
        }
        }
    }
}
