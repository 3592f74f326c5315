/// RFC 6386 §12 — intra prediction, written into the reconstruction work buffer (see
/// `VP8Reconstruction`), where the row above a block and the column to its left are already in
/// place: reconstructed pixels, or 127 above the frame and 129 left of it (§12.2).
///
/// Unsafe for speed. Bounds: a block of `size` (4, 8 or 16) at `origin` reads row −1 (columns
/// −1 … size − 1, and size … size + 3 for 4×4 blocks) and column −1 (rows 0 … size − 1) and writes
/// rows and columns 0 … size − 1; the work buffer keeps one row above, one column to the left and
/// four columns to the right of every block it predicts (`VP8Reconstruction` layout).
enum VP8PredictionKernels {
    @inline(__always) private static func avg2(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Int(a) + Int(b) + 1) >> 1) }
    @inline(__always) private static func avg3(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        UInt8((Int(a) + 2 * Int(b) + Int(c) + 2) >> 2)
    }

    /// §12.2 / §12.3 — the whole-block modes for 16×16 luma and 8×8 chroma. DC uses only the
    /// edges that exist inside the frame (`hasTop`, `hasLeft`; 128 when neither); V, H and TM use
    /// the buffer's edge values, 127 / 129 outside the frame.
    static func predictBlock(_ mode: Int, size: Int, hasTop: Bool, hasLeft: Bool,
                             _ buffer: UnsafeMutableBufferPointer<UInt8>, _ origin: Int, _ stride: Int) {
        let top = origin - stride
        switch mode {
        case VP8MacroblockModes.vertical:
            for y in 0..<size {
                for x in 0..<size { buffer[origin + y * stride + x] = buffer[top + x] }
            }
        case VP8MacroblockModes.horizontal:
            for y in 0..<size {
                let left = buffer[origin + y * stride - 1]
                for x in 0..<size { buffer[origin + y * stride + x] = left }
            }
        case VP8MacroblockModes.trueMotion:
            let topLeft = Int(buffer[top - 1])
            for y in 0..<size {
                let left = Int(buffer[origin + y * stride - 1]) - topLeft
                for x in 0..<size {
                    buffer[origin + y * stride + x] = VP8TransformKernels.clamp255(left + Int(buffer[top + x]))
                }
            }
        default:
            // DC: (sum + count / 2) / count over the edges present, 128 with none.
            let shift = size == 16 ? 4 : 3
            var sum = 0
            var value: Int
            if hasTop { for x in 0..<size { sum += Int(buffer[top + x]) } }
            if hasLeft { for y in 0..<size { sum += Int(buffer[origin + y * stride - 1]) } }
            switch (hasTop, hasLeft) {
            case (true, true): value = (sum + size) >> (shift + 1)
            case (true, false), (false, true): value = (sum + size / 2) >> shift
            case (false, false): value = 128
            }
            let byte = UInt8(value)
            for y in 0..<size {
                for x in 0..<size { buffer[origin + y * stride + x] = byte }
            }
        }
    }

    /// §12.3 `subblock_intra_predict`: the ten 4×4 modes. A = the 8 pixels above (4 above, 4
    /// above-right), L = the 4 to the left, P = above-left; E = L3 L2 L1 L0 P A0 A1 A2 A3.
    static func predictSubblock(_ mode: UInt8, _ buffer: UnsafeMutableBufferPointer<UInt8>, _ origin: Int, _ stride: Int) {
        let t = origin - stride
        let a0 = buffer[t], a1 = buffer[t + 1], a2 = buffer[t + 2], a3 = buffer[t + 3]
        let a4 = buffer[t + 4], a5 = buffer[t + 5], a6 = buffer[t + 6], a7 = buffer[t + 7]
        let p = buffer[t - 1]
        let l0 = buffer[origin - 1], l1 = buffer[origin + stride - 1]
        let l2 = buffer[origin + 2 * stride - 1], l3 = buffer[origin + 3 * stride - 1]
        @inline(__always) func put(_ x: Int, _ y: Int, _ v: UInt8) { buffer[origin + y * stride + x] = v }
        switch mode {
        case VP8MacroblockModes.bTM:
            let pi = Int(p)
            let lefts = [l0, l1, l2, l3], tops = [a0, a1, a2, a3]
            for y in 0..<4 {
                for x in 0..<4 { put(x, y, VP8TransformKernels.clamp255(Int(lefts[y]) + Int(tops[x]) - pi)) }
            }
        case VP8MacroblockModes.bVE:
            let row = [avg3(p, a0, a1), avg3(a0, a1, a2), avg3(a1, a2, a3), avg3(a2, a3, a4)]
            for y in 0..<4 { for x in 0..<4 { put(x, y, row[x]) } }
        case VP8MacroblockModes.bHE:
            let column = [avg3(p, l0, l1), avg3(l0, l1, l2), avg3(l1, l2, l3), avg3(l2, l3, l3)]
            for y in 0..<4 { for x in 0..<4 { put(x, y, column[y]) } }
        case VP8MacroblockModes.bLD:
            put(0, 0, avg3(a0, a1, a2))
            let v1 = avg3(a1, a2, a3); put(1, 0, v1); put(0, 1, v1)
            let v2 = avg3(a2, a3, a4); put(2, 0, v2); put(1, 1, v2); put(0, 2, v2)
            let v3 = avg3(a3, a4, a5); put(3, 0, v3); put(2, 1, v3); put(1, 2, v3); put(0, 3, v3)
            let v4 = avg3(a4, a5, a6); put(3, 1, v4); put(2, 2, v4); put(1, 3, v4)
            let v5 = avg3(a5, a6, a7); put(3, 2, v5); put(2, 3, v5)
            put(3, 3, avg3(a6, a7, a7))
        case VP8MacroblockModes.bRD:
            put(0, 3, avg3(l3, l2, l1))
            let v1 = avg3(l2, l1, l0); put(1, 3, v1); put(0, 2, v1)
            let v2 = avg3(l1, l0, p); put(2, 3, v2); put(1, 2, v2); put(0, 1, v2)
            let v3 = avg3(l0, p, a0); put(3, 3, v3); put(2, 2, v3); put(1, 1, v3); put(0, 0, v3)
            let v4 = avg3(p, a0, a1); put(3, 2, v4); put(2, 1, v4); put(1, 0, v4)
            let v5 = avg3(a0, a1, a2); put(3, 1, v5); put(2, 0, v5)
            put(3, 0, avg3(a1, a2, a3))
        case VP8MacroblockModes.bVR:
            put(0, 3, avg3(l2, l1, l0))
            put(0, 2, avg3(l1, l0, p))
            let v1 = avg3(l0, p, a0); put(1, 3, v1); put(0, 1, v1)
            let v2 = avg2(p, a0); put(1, 2, v2); put(0, 0, v2)
            let v3 = avg3(p, a0, a1); put(2, 3, v3); put(1, 1, v3)
            let v4 = avg2(a0, a1); put(2, 2, v4); put(1, 0, v4)
            let v5 = avg3(a0, a1, a2); put(3, 3, v5); put(2, 1, v5)
            let v6 = avg2(a1, a2); put(3, 2, v6); put(2, 0, v6)
            put(3, 1, avg3(a1, a2, a3))
            put(3, 0, avg2(a2, a3))
        case VP8MacroblockModes.bVL:
            put(0, 0, avg2(a0, a1))
            put(0, 1, avg3(a0, a1, a2))
            let v1 = avg2(a1, a2); put(0, 2, v1); put(1, 0, v1)
            let v2 = avg3(a1, a2, a3); put(1, 1, v2); put(0, 3, v2)
            let v3 = avg2(a2, a3); put(1, 2, v3); put(2, 0, v3)
            let v4 = avg3(a2, a3, a4); put(2, 1, v4); put(1, 3, v4)
            let v5 = avg2(a3, a4); put(2, 2, v5); put(3, 0, v5)
            let v6 = avg3(a3, a4, a5); put(3, 1, v6); put(2, 3, v6)
            // "Last two values do not strictly follow the pattern."
            put(3, 2, avg3(a4, a5, a6))
            put(3, 3, avg3(a5, a6, a7))
        case VP8MacroblockModes.bHD:
            put(0, 3, avg2(l3, l2))
            put(1, 3, avg3(l3, l2, l1))
            let v1 = avg2(l2, l1); put(0, 2, v1); put(2, 3, v1)
            let v2 = avg3(l2, l1, l0); put(1, 2, v2); put(3, 3, v2)
            let v3 = avg2(l1, l0); put(2, 2, v3); put(0, 1, v3)
            let v4 = avg3(l1, l0, p); put(3, 2, v4); put(1, 1, v4)
            let v5 = avg2(l0, p); put(2, 1, v5); put(0, 0, v5)
            let v6 = avg3(l0, p, a0); put(3, 1, v6); put(1, 0, v6)
            put(2, 0, avg3(p, a0, a1))
            put(3, 0, avg3(a0, a1, a2))
        case VP8MacroblockModes.bHU:
            put(0, 0, avg2(l0, l1))
            put(1, 0, avg3(l0, l1, l2))
            let v1 = avg2(l1, l2); put(2, 0, v1); put(0, 1, v1)
            let v2 = avg3(l1, l2, l3); put(3, 0, v2); put(1, 1, v2)
            let v3 = avg2(l2, l3); put(2, 1, v3); put(0, 2, v3)
            let v4 = avg3(l2, l3, l3); put(3, 1, v4); put(1, 2, v4)
            put(2, 2, l3); put(3, 2, l3); put(0, 3, l3); put(1, 3, l3); put(2, 3, l3); put(3, 3, l3)
        default:
            // B_DC_PRED: (ΣA[0..3] + ΣL + 4) >> 3.
            let sum = Int(a0) + Int(a1) + Int(a2) + Int(a3) + Int(l0) + Int(l1) + Int(l2) + Int(l3)
            let v = UInt8((sum + 4) >> 3)
            for y in 0..<4 { for x in 0..<4 { put(x, y, v) } }
        }
    }
}
