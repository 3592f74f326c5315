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

    /// Filters macroblock row `row`, the current row of `planes` (its top edges reach into the
    /// rows above it in the window).
    static func filterRow(_ row: Int, filterType: Int, filters: [MacroblockFilter], mbWidth: Int,
                          planes: inout VP8PlaneWindow) {
        guard filterType > 0 else { return }
        let ys = mbWidth * 16, cs = mbWidth * 8
        let lumaStart = planes.lumaStart, chromaStart = planes.chromaStart
        precondition(filters.count >= mbWidth && planes.lumaStride == ys && planes.chromaStride == cs
                     && VP8PlaneWindow.rowsAbove >= 4
                     && planes.y.count >= lumaStart + 16 * ys && min(planes.u.count, planes.v.count) >= chromaStart + 8 * cs)
        typealias Lanes = VP8LoopFilterLaneKernels
        planes.y.withUnsafeMutableBufferPointer { pY in
        planes.u.withUnsafeMutableBufferPointer { pU in
        planes.v.withUnsafeMutableBufferPointer { pV in
            // Luma edges are 16 positions long (two runs of eight lanes), chroma edges eight.
            typealias Plane = UnsafeMutableBufferPointer<UInt8>
            func vertical(_ b: Plane, _ at: Int, _ stride: Int, _ length: Int, _ kind: Lanes.Filter, _ t: Lanes.Thresholds) {
                Lanes.verticalEdge(b, at: at, stride: stride, kind, t)
                if length == 16 { Lanes.verticalEdge(b, at: at + 8 * stride, stride: stride, kind, t) }
            }
            func horizontal(_ b: Plane, _ at: Int, _ stride: Int, _ length: Int, _ kind: Lanes.Filter, _ t: Lanes.Thresholds) {
                Lanes.horizontalEdge(b, at: at, stride: stride, kind, t)
                if length == 16 { Lanes.horizontalEdge(b, at: at + 8, stride: stride, kind, t) }
            }
            for x in 0..<mbWidth {
                let f = filters[x]
                let limit = f.strength.limit
                guard limit > 0 else { continue }
                let interior = f.strength.interiorLimit, hev = f.strength.hevThreshold
                let outer = Lanes.Thresholds(limit: limit + 4, interior: interior, highEdgeVariance: hev)
                let inner = Lanes.Thresholds(limit: limit, interior: interior, highEdgeVariance: hev)
                let y0 = lumaStart + x * 16
                if filterType == 1 {
                    if x > 0 { vertical(pY, y0, ys, 16, .simple, outer) }
                    if f.filtersInnerEdges { for i in 1...3 { vertical(pY, y0 + 4 * i, ys, 16, .simple, inner) } }
                    if row > 0 { horizontal(pY, y0, ys, 16, .simple, outer) }
                    if f.filtersInnerEdges { for i in 1...3 { horizontal(pY, y0 + 4 * i * ys, ys, 16, .simple, inner) } }
                    continue
                }
                let c0 = chromaStart + x * 8
                if x > 0 {
                    vertical(pY, y0, ys, 16, .macroblock, outer)
                    vertical(pU, c0, cs, 8, .macroblock, outer)
                    vertical(pV, c0, cs, 8, .macroblock, outer)
                }
                if f.filtersInnerEdges {
                    for i in 1...3 { vertical(pY, y0 + 4 * i, ys, 16, .subblock, inner) }
                    vertical(pU, c0 + 4, cs, 8, .subblock, inner)
                    vertical(pV, c0 + 4, cs, 8, .subblock, inner)
                }
                if row > 0 {
                    horizontal(pY, y0, ys, 16, .macroblock, outer)
                    horizontal(pU, c0, cs, 8, .macroblock, outer)
                    horizontal(pV, c0, cs, 8, .macroblock, outer)
                }
                if f.filtersInnerEdges {
                    for i in 1...3 { horizontal(pY, y0 + 4 * i * ys, ys, 16, .subblock, inner) }
                    horizontal(pU, c0 + 4 * cs, cs, 8, .subblock, inner)
                    horizontal(pV, c0 + 4 * cs, cs, 8, .subblock, inner)
                }
            }
        }
        }
        }
    }
}
