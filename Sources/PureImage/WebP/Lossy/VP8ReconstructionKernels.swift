/// RFC 6386 §12 + §14.5 — rebuilding a row of macroblocks: prediction plus residue, into the
/// frame's planes.
///
/// Each macroblock is rebuilt in a small work buffer that holds, around the 16×16 luma block
/// and the two 8×8 chroma blocks, the row above (and, for luma, four pixels above-right) and the
/// column to the left — the pixels prediction reads (§12): reconstructed but not yet
/// loop-filtered, since the loop filter runs after the row (§15 and libwebp's order). They come
/// from the previous macroblock of the row (left) and from `top`, the unfiltered last rows of
/// the macroblock row above, saved before that row was filtered. Outside the frame they are
/// 127 above (the above-left pixel too) and 129 on the left (§12); the above-right pixels of
/// the rightmost macroblock repeat the pixel above its last column, and the right column of
/// subblocks uses the macroblock's above-right pixels for all four rows (§12.3).
///
/// ```
///   work buffer, luma (stride 32):   col −1  0 … 15  16 … 19
///                            row −1:   P     A         above-right
///                            rows 0…15: L     block
/// ```
/// Unsafe for speed. Bounds: the luma block's origin is at row 1, column 8 of a 17 × 32 area,
/// so rows −1 … 15 and columns −1 … 19 are inside it; each chroma block's origin is at row 1,
/// column 8 of a 9 × 16 area (rows −1 … 7, columns −1 … 7). Plane writes are at macroblock
/// `x < mbWidth` of the window's current macroblock row (checked on entry).
struct VP8ReconstructionKernels {
    static let yStride = 32
    static let uvStride = 16
    static let yOrigin = 32 + 8
    static let uOrigin = 17 * 32 + 16 + 8
    static let vOrigin = 17 * 32 + 9 * 16 + 16 + 8

    private var work = [UInt8](repeating: 0, count: 17 * 32 + 2 * 9 * 16)

    /// Rebuilds macroblock row `row` into the current macroblock row of `planes`; `top*` are
    /// the unfiltered last rows of the row above (ignored for row 0) and receive this row's.
    mutating func reconstructRow(_ row: Int, mbWidth: Int, modes: [VP8MacroblockModes], residuals: inout [VP8Residual],
                                 topY: inout [UInt8], topU: inout [UInt8], topV: inout [UInt8],
                                 into planes: inout VP8PlaneWindow) {
        let ys = Self.yStride, cs = Self.uvStride
        let yo = Self.yOrigin, uo = Self.uOrigin, vo = Self.vOrigin
        let planeYStride = mbWidth * 16, planeCStride = mbWidth * 8
        let lumaStart = planes.lumaStart, chromaStart = planes.chromaStart
        precondition(planes.lumaStride == planeYStride && planes.chromaStride == planeCStride
                     && modes.count >= mbWidth && residuals.count >= mbWidth
                     && min(topY.count, 2 * topU.count, 2 * topV.count) >= planeYStride
                     && planes.y.count >= lumaStart + 16 * planeYStride
                     && min(planes.u.count, planes.v.count) >= chromaStart + 8 * planeCStride)
        // The new bottom rows must not replace `top` before the next macroblock has read its
        // above-left pixel from it, so they are collected here first.
        var nextTopY = topY, nextTopU = topU, nextTopV = topV
        work.withUnsafeMutableBufferPointer { w in
        topY.withUnsafeBufferPointer { tY in
        topU.withUnsafeBufferPointer { tU in
        topV.withUnsafeBufferPointer { tV in
        planes.y.withUnsafeMutableBufferPointer { pY in
        planes.u.withUnsafeMutableBufferPointer { pU in
        planes.v.withUnsafeMutableBufferPointer { pV in
            for x in 0..<mbWidth {
                let m = modes[x]
                // Left column: 129 at the frame's left edge, else the previous macroblock's
                // last column (rows −1 … 15, so P comes along from its above row).
                if x == 0 {
                    for r in 0..<16 { w[yo + r * ys - 1] = 129 }
                    for r in 0..<8 { w[uo + r * cs - 1] = 129; w[vo + r * cs - 1] = 129 }
                    let corner: UInt8 = row > 0 ? 129 : 127
                    w[yo - ys - 1] = corner; w[uo - cs - 1] = corner; w[vo - cs - 1] = corner
                } else {
                    for r in -1..<16 { w[yo + r * ys - 1] = w[yo + r * ys + 15] }
                    for r in -1..<8 { w[uo + r * cs - 1] = w[uo + r * cs + 7]; w[vo + r * cs - 1] = w[vo + r * cs + 7] }
                }
                // Above row.
                if row == 0 {
                    for c in 0..<20 { w[yo - ys + c] = 127 }
                    for c in 0..<8 { w[uo - cs + c] = 127; w[vo - cs + c] = 127 }
                } else {
                    for c in 0..<16 { w[yo - ys + c] = tY[x * 16 + c] }
                    for c in 0..<8 { w[uo - cs + c] = tU[x * 8 + c]; w[vo - cs + c] = tV[x * 8 + c] }
                    // Above-right: the next macroblock's above row, or the last pixel repeated.
                    for c in 16..<20 { w[yo - ys + c] = x + 1 < mbWidth ? tY[x * 16 + c] : tY[x * 16 + 15] }
                }
                let codes = residuals[x].transforms
                residuals[x].coefficients.withUnsafeMutableBufferPointer { coefficients in
                    if m.hasSubblockModes {
                        // The right column of subblocks sees the macroblock's above-right pixels.
                        for r in [3, 7, 11] {
                            for c in 16..<20 { w[yo + r * ys + c] = w[yo - ys + c] }
                        }
                        for block in 0..<16 {
                            let origin = yo + (block >> 2) * 4 * ys + (block & 3) * 4
                            VP8PredictionKernels.predictSubblock(m.subblockModes[block], w, origin, ys)
                            VP8TransformKernels.addLuma(code: codes[block], coefficients, block * 16, w, origin, ys)
                        }
                    } else {
                        VP8PredictionKernels.predictBlock(m.lumaMode, size: 16, hasTop: row > 0, hasLeft: x > 0, w, yo, ys)
                        for block in 0..<16 {
                            let origin = yo + (block >> 2) * 4 * ys + (block & 3) * 4
                            VP8TransformKernels.addLuma(code: codes[block], coefficients, block * 16, w, origin, ys)
                        }
                    }
                    VP8PredictionKernels.predictBlock(m.chromaMode, size: 8, hasTop: row > 0, hasLeft: x > 0, w, uo, cs)
                    VP8PredictionKernels.predictBlock(m.chromaMode, size: 8, hasTop: row > 0, hasLeft: x > 0, w, vo, cs)
                    VP8TransformKernels.addChroma(codes: codes[16..<20], coefficients, 256, w, uo, cs)
                    VP8TransformKernels.addChroma(codes: codes[20..<24], coefficients, 320, w, vo, cs)
                }
                // Out to the planes, and the bottom rows for the next macroblock row.
                for r in 0..<16 {
                    let to = lumaStart + r * planeYStride + x * 16
                    for c in 0..<16 { pY[to + c] = w[yo + r * ys + c] }
                }
                for r in 0..<8 {
                    let to = chromaStart + r * planeCStride + x * 8
                    for c in 0..<8 { pU[to + c] = w[uo + r * cs + c]; pV[to + c] = w[vo + r * cs + c] }
                }
                for c in 0..<16 { nextTopY[x * 16 + c] = w[yo + 15 * ys + c] }
                for c in 0..<8 { nextTopU[x * 8 + c] = w[uo + 7 * cs + c]; nextTopV[x * 8 + c] = w[vo + 7 * cs + c] }
            }
        }
        }
        }
        }
        }
        }
        }
        topY = nextTopY
        topU = nextTopU
        topV = nextTopV
    }
}
