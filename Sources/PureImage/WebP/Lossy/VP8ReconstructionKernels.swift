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
        // `top*` can take this row's bottom rows right after each macroblock: the next one reads
        // `top` only from its own columns on (its above-left pixel comes from the work area).
        work.withUnsafeMutableBufferPointer { w in
        topY.withUnsafeMutableBufferPointer { tY in
        topU.withUnsafeMutableBufferPointer { tU in
        topV.withUnsafeMutableBufferPointer { tV in
        planes.y.withUnsafeMutableBufferPointer { pY in
        planes.u.withUnsafeMutableBufferPointer { pU in
        planes.v.withUnsafeMutableBufferPointer { pV in
            guard let work = w.baseAddress, let topY = tY.baseAddress, let topU = tU.baseAddress, let topV = tV.baseAddress,
                  let planeY = pY.baseAddress, let planeU = pU.baseAddress, let planeV = pV.baseAddress else { return }
            // Block origins in the work area: row −1 and column −1 are the edges prediction reads.
            let y = work + yo, u = work + uo, v = work + vo
            for x in 0..<mbWidth {
                let m = modes[x]
                // Left column: 129 at the frame's left edge, else the previous macroblock's
                // last column (rows −1 … 15, so P comes along from its above row).
                if x == 0 {
                    for r in 0..<16 { y[r &* ys &- 1] = 129 }
                    for r in 0..<8 { u[r &* cs &- 1] = 129; v[r &* cs &- 1] = 129 }
                    let corner: UInt8 = row > 0 ? 129 : 127
                    y[-ys - 1] = corner; u[-cs - 1] = corner; v[-cs - 1] = corner
                } else {
                    for r in -1..<16 { y[r &* ys &- 1] = y[r &* ys &+ 15] }
                    for r in -1..<8 { u[r &* cs &- 1] = u[r &* cs &+ 7]; v[r &* cs &- 1] = v[r &* cs &+ 7] }
                }
                // Above row.
                if row == 0 {
                    (y - ys).update(repeating: 127, count: 20)
                    (u - cs).update(repeating: 127, count: 8)
                    (v - cs).update(repeating: 127, count: 8)
                } else {
                    Self.copy(16, from: topY + x &* 16, to: y - ys)
                    Self.copy(8, from: topU + x &* 8, to: u - cs)
                    Self.copy(8, from: topV + x &* 8, to: v - cs)
                    // Above-right: the next macroblock's above row, or the last pixel repeated.
                    if x + 1 < mbWidth {
                        Self.copy(4, from: topY + (x &* 16 &+ 16), to: y - ys + 16)
                    } else {
                        (y - ys + 16).update(repeating: topY[x &* 16 &+ 15], count: 4)
                    }
                }
                let codes = residuals[x].transforms
                residuals[x].coefficients.withUnsafeMutableBufferPointer { coefficients in
                    if m.hasSubblockModes {
                        // The right column of subblocks sees the macroblock's above-right pixels.
                        Self.copy(4, from: y - ys + 16, to: y + 3 * ys + 16)
                        Self.copy(4, from: y - ys + 16, to: y + 7 * ys + 16)
                        Self.copy(4, from: y - ys + 16, to: y + 11 * ys + 16)
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
                let toY = planeY + lumaStart + x &* 16, toU = planeU + chromaStart + x &* 8, toV = planeV + chromaStart + x &* 8
                for r in 0..<16 { Self.copy(16, from: y + r &* ys, to: toY + r &* planeYStride) }
                for r in 0..<8 {
                    Self.copy(8, from: u + r &* cs, to: toU + r &* planeCStride)
                    Self.copy(8, from: v + r &* cs, to: toV + r &* planeCStride)
                }
                Self.copy(16, from: y + 15 * ys, to: topY + x &* 16)
                Self.copy(8, from: u + 7 * cs, to: topU + x &* 8)
                Self.copy(8, from: v + 7 * cs, to: topV + x &* 8)
            }
        }
        }
        }
        }
        }
        }
        }
    }

    /// `count` bytes (a constant at every call, so the copy becomes a few moves).
    @inline(__always)
    private static func copy(_ count: Int, from source: UnsafeMutablePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(destination).copyMemory(from: source, byteCount: count)
    }
}
