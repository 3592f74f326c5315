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
        guard let base = buffer.baseAddress, size == 8 || size == 16 else { return }
        let block = base + origin, top = block - stride
        switch mode {
        case VP8MacroblockModes.vertical:
            for y in 0..<size { copyRow(size, from: top, to: block + y &* stride) }
        case VP8MacroblockModes.horizontal:
            for y in 0..<size { fillRow(size, with: block[y &* stride &- 1], at: block + y &* stride) }
        case VP8MacroblockModes.trueMotion:
            // clamp(L + A − P), eight columns at a time in 16-bit lanes (sums lie in −255 … 510).
            let topLeft = VP8Lanes.Signed(repeating: Int16(top[-1]))
            var column = 0
            while column < size {
                let above = VP8Lanes.loadSigned(top + column) &- topLeft
                for y in 0..<size {
                    let row = block + y &* stride
                    let left = VP8Lanes.Signed(repeating: Int16(row[-1]))
                    VP8Lanes.store(VP8Lanes.clamp(above &+ left, 0, 255), row + column)
                }
                column &+= 8
            }
        default:
            // DC: (sum + count / 2) / count over the edges present, 128 with none.
            let shift = size == 16 ? 4 : 3
            var sum = 0
            if hasTop { for x in 0..<size { sum &+= Int(top[x]) } }
            if hasLeft { for y in 0..<size { sum &+= Int(block[y &* stride &- 1]) } }
            let value: Int
            switch (hasTop, hasLeft) {
            case (true, true): value = (sum + size) >> (shift + 1)
            case (true, false), (false, true): value = (sum + size / 2) >> shift
            case (false, false): value = 128
            }
            // At most 255: an average of bytes.
            let byte = UInt8(truncatingIfNeeded: value)
            for y in 0..<size { fillRow(size, with: byte, at: block + y &* stride) }
        }
    }

    /// One row of a 16- or 8-wide block, as a constant-size copy (a couple of moves).
    @inline(__always) private static func copyRow(_ size: Int, from source: UnsafeMutablePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>) {
        if size == 16 {
            UnsafeMutableRawPointer(destination).copyMemory(from: source, byteCount: 16)
        } else {
            UnsafeMutableRawPointer(destination).copyMemory(from: source, byteCount: 8)
        }
    }

    @inline(__always) private static func fillRow(_ size: Int, with value: UInt8, at destination: UnsafeMutablePointer<UInt8>) {
        if size == 16 {
            UnsafeMutableRawPointer(destination).storeBytes(of: SIMD16<UInt8>(repeating: value), as: SIMD16<UInt8>.self)
        } else {
            UnsafeMutableRawPointer(destination).storeBytes(of: SIMD8<UInt8>(repeating: value), as: SIMD8<UInt8>.self)
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
            @inline(__always) func row(_ y: Int, _ left: UInt8) {
                let l = Int(left) &- Int(p)
                put(0, y, VP8TransformKernels.clamp255(l &+ Int(a0))); put(1, y, VP8TransformKernels.clamp255(l &+ Int(a1)))
                put(2, y, VP8TransformKernels.clamp255(l &+ Int(a2))); put(3, y, VP8TransformKernels.clamp255(l &+ Int(a3)))
            }
            row(0, l0); row(1, l1); row(2, l2); row(3, l3)
        case VP8MacroblockModes.bVE:
            let v0 = avg3(p, a0, a1), v1 = avg3(a0, a1, a2), v2 = avg3(a1, a2, a3), v3 = avg3(a2, a3, a4)
            for y in 0..<4 { put(0, y, v0); put(1, y, v1); put(2, y, v2); put(3, y, v3) }
        case VP8MacroblockModes.bHE:
            let column = (avg3(p, l0, l1), avg3(l0, l1, l2), avg3(l1, l2, l3), avg3(l2, l3, l3))
            for x in 0..<4 { put(x, 0, column.0); put(x, 1, column.1); put(x, 2, column.2); put(x, 3, column.3) }
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
