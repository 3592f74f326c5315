/// RFC 6386 §14.3–§14.5 — the inverse WHT and DCT, and adding the residue to the prediction.
///
/// The arithmetic is the RFC's (`vp8_short_inv_walsh4x4_c`, `short_idct4x4llm_c`, with
/// 20091 = cos(π/8)·√2 − 1 and 35468 = sin(π/8)·√2 in 16-bit fixed point), and each block goes
/// through the variant libwebp picks for it (`DoTransform`): nothing, DC only, "AC3" (the first
/// three zigzag coefficients) or the full transform. For coefficients a valid encoder produces
/// the variants agree exactly; they differ only when 16-bit intermediates overflow, because
/// libwebp's full transform on x86-64 (`Transform_SSE2`, what Debian's libwebp runs) computes in
/// 16-bit lanes that wrap, while the DC and AC3 variants compute in 32-bit `int`. Both are
/// reproduced, so damaged or adversarial streams decode as libwebp decodes them.
///
/// Unsafe for speed. Bounds: a block's 16 coefficients are at `coefficients[offset ..< offset +
/// 16]` (offset = block × 16 ≤ 368 of 384); its 4×4 pixels at `pixels[origin + y × stride + x]`
/// for x, y < 4, inside the caller's work buffer (see `VP8Reconstruction`).
enum VP8TransformKernels {
    @inline(__always) static func clamp255(_ v: Int) -> UInt8 { UInt8(v < 0 ? 0 : v > 255 ? 255 : v) }

    /// RFC 6386 §14.4: x × sin(π/8)·√2 and x × cos(π/8)·√2 in 16-bit fixed point.
    @inline(__always) static func mul35468(_ x: Int) -> Int { (x * 35468) >> 16 }
    @inline(__always) static func mul85627(_ x: Int) -> Int { ((x * 20091) >> 16) + x }

    /// §14.3 inverse WHT of the Y2 block: 32-bit intermediates, outputs stored as 16-bit
    /// values at every 16th entry (the DC of each luma block).
    static func inverseWHT(_ input: UnsafeMutableBufferPointer<Int16>, into out: UnsafeMutableBufferPointer<Int16>) {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 16) { tmp in
            inverseWHT(input, tmp, into: out)
        }
    }

    @inline(__always)
    private static func inverseWHT(_ input: UnsafeMutableBufferPointer<Int16>, _ tmp: UnsafeMutableBufferPointer<Int>,
                                   into out: UnsafeMutableBufferPointer<Int16>) {
        for i in 0..<4 {
            let a0 = Int(input[i]) + Int(input[12 + i])
            let a1 = Int(input[4 + i]) + Int(input[8 + i])
            let a2 = Int(input[4 + i]) - Int(input[8 + i])
            let a3 = Int(input[i]) - Int(input[12 + i])
            tmp[i] = a0 + a1
            tmp[8 + i] = a0 - a1
            tmp[4 + i] = a3 + a2
            tmp[12 + i] = a3 - a2
        }
        for i in 0..<4 {
            let dc = tmp[i * 4] + 3
            let a0 = dc + tmp[i * 4 + 3]
            let a1 = tmp[i * 4 + 1] + tmp[i * 4 + 2]
            let a2 = tmp[i * 4 + 1] - tmp[i * 4 + 2]
            let a3 = dc - tmp[i * 4 + 3]
            out[(i * 4 + 0) * 16] = Int16(truncatingIfNeeded: (a0 + a1) >> 3)
            out[(i * 4 + 1) * 16] = Int16(truncatingIfNeeded: (a3 + a2) >> 3)
            out[(i * 4 + 2) * 16] = Int16(truncatingIfNeeded: (a0 - a1) >> 3)
            out[(i * 4 + 3) * 16] = Int16(truncatingIfNeeded: (a3 - a2) >> 3)
        }
    }

    /// Only the DC: every pixel gets (dc + 4) >> 3 (32-bit, libwebp's `TransformDC`).
    @inline(__always)
    static func addDC(_ c: UnsafeMutableBufferPointer<Int16>, _ offset: Int,
                      _ pixels: UnsafeMutableBufferPointer<UInt8>, _ origin: Int, _ stride: Int) {
        let value = (Int(c[offset]) + 4) >> 3
        for y in 0..<4 {
            for x in 0..<4 {
                let i = origin + y * stride + x
                pixels[i] = clamp255(Int(pixels[i]) + value)
            }
        }
    }

    /// Coefficients 0, 1 and 4 only (32-bit, libwebp's `TransformAC3`).
    @inline(__always)
    static func addAC3(_ c: UnsafeMutableBufferPointer<Int16>, _ offset: Int,
                       _ pixels: UnsafeMutableBufferPointer<UInt8>, _ origin: Int, _ stride: Int) {
        let a = Int(c[offset]) + 4
        let c4 = mul35468(Int(c[offset + 4])), d4 = mul85627(Int(c[offset + 4]))
        let c1 = mul35468(Int(c[offset + 1])), d1 = mul85627(Int(c[offset + 1]))
        @inline(__always) func row(_ y: Int, _ dc: Int) {
            let i = origin + y * stride
            pixels[i] = clamp255(Int(pixels[i]) + ((dc + d1) >> 3))
            pixels[i + 1] = clamp255(Int(pixels[i + 1]) + ((dc + c1) >> 3))
            pixels[i + 2] = clamp255(Int(pixels[i + 2]) + ((dc - c1) >> 3))
            pixels[i + 3] = clamp255(Int(pixels[i + 3]) + ((dc - d1) >> 3))
        }
        row(0, a + d4); row(1, a + c4); row(2, a - c4); row(3, a - d4)
    }

    /// 16-bit lane arithmetic of `Transform_SSE2`: every sum wraps to 16 bits, and the two
    /// multiplications are `mulhi(x, 20091) + x` and `mulhi(x, −30068) + x`.
    @inline(__always) private static func w(_ v: Int) -> Int { Int(Int16(truncatingIfNeeded: v)) }
    @inline(__always) private static func mulhi(_ x: Int, _ k: Int) -> Int { (x * k) >> 16 }

    /// §14.4 full inverse DCT, vertical pass then horizontal, (x + 4) >> 3, added to the
    /// prediction with clamping.
    @inline(__always)
    static func addFull(_ c: UnsafeMutableBufferPointer<Int16>, _ offset: Int,
                        _ pixels: UnsafeMutableBufferPointer<UInt8>, _ origin: Int, _ stride: Int) {
        var t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &t) { raw in
            let tmp = raw.bindMemory(to: Int.self)
            for i in 0..<4 {
                let in0 = Int(c[offset + i]), in1 = Int(c[offset + 4 + i])
                let in2 = Int(c[offset + 8 + i]), in3 = Int(c[offset + 12 + i])
                let a = w(in0 + in2)
                let b = w(in0 - in2)
                let cc = w(w(in1 - in3) + w(mulhi(in1, -30068) - mulhi(in3, 20091)))
                let d = w(w(in1 + in3) + w(mulhi(in1, 20091) + mulhi(in3, -30068)))
                // Row i of the transposed result holds column i's four outputs.
                tmp[i * 4 + 0] = w(a + d)
                tmp[i * 4 + 1] = w(b + cc)
                tmp[i * 4 + 2] = w(b - cc)
                tmp[i * 4 + 3] = w(a - d)
            }
            for y in 0..<4 {
                let t0 = tmp[y], t1 = tmp[4 + y], t2 = tmp[8 + y], t3 = tmp[12 + y]
                let dc = w(t0 + 4)
                let a = w(dc + t2)
                let b = w(dc - t2)
                let cc = w(w(t1 - t3) + w(mulhi(t1, -30068) - mulhi(t3, 20091)))
                let d = w(w(t1 + t3) + w(mulhi(t1, 20091) + mulhi(t3, -30068)))
                let row = origin + y * stride
                pixels[row] = clamp255(Int(pixels[row]) + (w(a + d) >> 3))
                pixels[row + 1] = clamp255(Int(pixels[row + 1]) + (w(b + cc) >> 3))
                pixels[row + 2] = clamp255(Int(pixels[row + 2]) + (w(b - cc) >> 3))
                pixels[row + 3] = clamp255(Int(pixels[row + 3]) + (w(a - d) >> 3))
            }
        }
    }

    /// A luma block through the variant its transform code asks for (libwebp's `DoTransform`).
    @inline(__always)
    static func addLuma(code: UInt8, _ c: UnsafeMutableBufferPointer<Int16>, _ offset: Int,
                        _ pixels: UnsafeMutableBufferPointer<UInt8>, _ origin: Int, _ stride: Int) {
        switch code {
        case 3: addFull(c, offset, pixels, origin, stride)
        case 2: addAC3(c, offset, pixels, origin, stride)
        case 1: addDC(c, offset, pixels, origin, stride)
        default: break
        }
    }

    /// The four blocks of one chroma plane (libwebp's `DoUVTransform`): all four through the
    /// full transform when any of them has more than a DC, else the DC of each non-zero one.
    @inline(__always)
    static func addChroma(codes: ArraySlice<UInt8>, _ c: UnsafeMutableBufferPointer<Int16>, _ offset: Int,
                          _ pixels: UnsafeMutableBufferPointer<UInt8>, _ origin: Int, _ stride: Int) {
        let full = codes.contains { $0 >= 2 }
        let any = codes.contains { $0 != 0 }
        guard any else { return }
        for block in 0..<4 {
            let blockOrigin = origin + (block >> 1) * 4 * stride + (block & 1) * 4
            if full {
                addFull(c, offset + block * 16, pixels, blockOrigin, stride)
            } else if c[offset + block * 16] != 0 {
                addDC(c, offset + block * 16, pixels, blockOrigin, stride)
            }
        }
    }
}
