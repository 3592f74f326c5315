/// The inverse DCT of T.81 §A.3.3, computed exactly as libjpeg-turbo 2.1's `jpeg_idct_islow`
/// (jidctint.c: the Loeffler–Ligtenberg–Moschytz factorisation, 13-bit constants, 2 extra
/// bits between the passes) and its reduced-size `jpeg_idct_4x4`, `_2x2`, `_1x1` (jidctred.c).
/// See Docs/JPEG.md "IDCT" for the arithmetic.
///
/// Every kernel: `coefficients` holds 64 dequantizable values in natural order, `quant` the 64
/// multipliers (natural order, already narrowed to Int16 as libjpeg-turbo's SIMD build stores
/// them), `output` receives an N×N block at `stride` bytes per row. The caller guarantees
/// N rows of N bytes at `output` (the plane is a whole number of blocks); `workspace` has 64
/// Int32s (128 for the SIMD-exact kernels). Unsafe: this file is a named kernel (STYLE.md item 20).
enum IDCTKernels {
    // FIX(x) = round(x · 2^13), jidctint.c / jidctred.c.
    static let fix0_211164243 = 1730
    static let fix0_298631336 = 2446
    static let fix0_390180644 = 3196
    static let fix0_509795579 = 4176
    static let fix0_541196100 = 4433
    static let fix0_601344887 = 4926
    static let fix0_720959822 = 5906
    static let fix0_765366865 = 6270
    static let fix0_850430095 = 6967
    static let fix0_899976223 = 7373
    static let fix1_061594337 = 8697
    static let fix1_175875602 = 9633
    static let fix1_272758580 = 10426
    static let fix1_451774981 = 11893
    static let fix1_501321110 = 12299
    static let fix1_847759065 = 15137
    static let fix1_961570560 = 16069
    static let fix2_053119869 = 16819
    static let fix2_172734803 = 17799
    static let fix2_562915447 = 20995
    static let fix3_072711026 = 25172
    static let fix3_624509785 = 29692

    static let constBits = 13
    static let pass1Bits = 2

    /// libjpeg's post-IDCT range limit (`IDCT_range_limit`, indexed by `x & 1023`): x + 128
    /// clamped to 0…255 for −512 ≤ x < 512; larger magnitudes wrap, as in libjpeg.
    static let rangeLimit: [UInt8] = (0..<1024).map { index in
        switch index {
        case 0..<128: return UInt8(index + 128)
        case 128..<512: return 255
        case 512..<896: return 0
        default: return UInt8(index - 896)
        }
    }

    /// `rangeLimit` as a never-freed table for the kernels.
    nonisolated(unsafe) static let rangeLimitPointer: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 1024)
        for (index, value) in rangeLimit.enumerated() { table[index] = value }
        return UnsafePointer(table)
    }()

    /// DESCALE(x, n): round right shift, arithmetic.
    @inline(__always) static func descale(_ x: Int, _ n: Int) -> Int { (x + (1 << (n - 1))) >> n }

    // MARK: - The arithmetic of libjpeg-turbo's x86-64 SIMD kernels
    //
    // libjpeg-turbo 2.1.5 on x86-64 runs `jsimd_idct_islow_avx2` and `jsimd_idct_4x4_sse2` /
    // `jsimd_idct_2x2_sse2` instead of the C code. For every coefficient a valid encoder
    // produces they compute the C formulas exactly; they differ only when damaged data
    // overflows 16 bits: the dequantized coefficient keeps its low 16 bits (`pmullw`), sums of
    // two inputs wrap at 16 bits (`paddw`), pass results saturate to 16 bits (`packssdw`), and
    // output samples saturate to 0…255 instead of wrapping through `range_limit`. These
    // kernels follow the SIMD arithmetic, so damaged files match the reference too.

    /// Low 16 bits, sign-extended (pmullw / paddw / psllw results).
    @inline(__always) static func wrap16(_ x: Int32) -> Int32 { Int32(Int16(truncatingIfNeeded: x)) }
    /// packssdw.
    @inline(__always) static func saturate16(_ x: Int32) -> Int32 { min(max(x, -32768), 32767) }
    /// packssdw + packsswb + paddb 128.
    @inline(__always) static func sample(_ x: Int32) -> UInt8 { UInt8(truncatingIfNeeded: min(max(x, -128), 127) + 128) }

    /// The 1-D 8-point IDCT of `jsimd_idct_islow_avx2`'s DODCT macro: the jidctint.c
    /// butterflies regrouped so that every multiplication pairs two 16-bit inputs.
    @inline(__always)
    static func islow1D(_ i0: Int32, _ i1: Int32, _ i2: Int32, _ i3: Int32, _ i4: Int32, _ i5: Int32, _ i6: Int32, _ i7: Int32,
                        shift: Int32) -> (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) {
        let f054 = Int32(fix0_541196100), f076 = Int32(fix0_765366865), f184 = Int32(fix1_847759065)
        let f117 = Int32(fix1_175875602), f196 = Int32(fix1_961570560), f039 = Int32(fix0_390180644)
        let f029 = Int32(fix0_298631336), f089 = Int32(fix0_899976223), f205 = Int32(fix2_053119869)
        let f256 = Int32(fix2_562915447), f150 = Int32(fix1_501321110), f307 = Int32(fix3_072711026)
        // Even part.
        let tmp3 = i2 &* (f054 + f076) &+ i6 &* f054
        let tmp2 = i2 &* f054 &+ i6 &* (f054 - f184)
        let tmp0 = wrap16(i0 &+ i4) << 13
        let tmp1 = wrap16(i0 &- i4) << 13
        let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3, tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2
        // Odd part.
        let z3 = wrap16(i7 &+ i3), z4 = wrap16(i5 &+ i1)
        let z3p = z3 &* (f117 - f196) &+ z4 &* f117
        let z4p = z3 &* f117 &+ z4 &* (f117 - f039)
        let o0 = i7 &* (f029 - f089) &+ i1 &* -f089 &+ z3p
        let o1 = i5 &* (f205 - f256) &+ i3 &* -f256 &+ z4p
        let o3 = i7 &* -f089 &+ i1 &* (f150 - f089) &+ z4p
        let o2 = i5 &* -f256 &+ i3 &* (f307 - f256) &+ z3p
        let round = Int32(1) << (shift - 1)
        return ((tmp10 &+ o3 &+ round) >> shift, (tmp11 &+ o2 &+ round) >> shift,
                (tmp12 &+ o1 &+ round) >> shift, (tmp13 &+ o0 &+ round) >> shift,
                (tmp13 &- o0 &+ round) >> shift, (tmp12 &- o1 &+ round) >> shift,
                (tmp11 &- o2 &+ round) >> shift, (tmp10 &- o3 &+ round) >> shift)
    }

    /// Dequantizes into `ws[64..<128]` (low 16 bits of coefficient × multiplier) and tells
    /// whether every coefficient outside row 0 is zero (the SIMD kernels' "AC terms all
    /// zero" test is over the whole block, rows 1…7, or rows 1–3 and 5–7 for 4×4).
    @inline(__always)
    static func dequantize(_ c: UnsafePointer<Int16>, _ q: UnsafePointer<Int32>, into d: UnsafeMutablePointer<Int32>) {
        for k in 0..<64 { d[k] = wrap16(Int32(c[k]) &* q[k]) }
    }

    /// 8×8 output: `jpeg_idct_islow` as computed by `jsimd_idct_islow_avx2`.
    /// `ws` holds 128 Int32s.
    static func islow(_ coefficients: UnsafePointer<Int16>, _ quant: UnsafePointer<Int32>, _ output: UnsafeMutablePointer<UInt8>,
                      stride: Int, workspace ws: UnsafeMutablePointer<Int32>, range: UnsafePointer<UInt8>) {
        let d = ws + 64
        dequantize(coefficients, quant, into: d)
        var acZero = true
        for k in 8..<64 where coefficients[k] != 0 { acZero = false; break }
        if acZero && coefficients[1] == 0 && coefficients[2] == 0 && coefficients[3] == 0 && coefficients[4] == 0
            && coefficients[5] == 0 && coefficients[6] == 0 && coefficients[7] == 0 {
            // DC only: both passes reduce to one value (the SIMD shortcut, then a row whose
            // inputs 1…7 are zero: (w0 << 13 + 2^17) >> 18).
            let value = sample(((wrap16(d[0] << pass1Bits) << 13) &+ (1 << 17)) >> 18)
            for row in 0..<8 { (output + row * stride).update(repeating: value, count: 8) }
            return
        }
        if acZero {
            for column in 0..<8 {
                let dc = wrap16(d[column] << pass1Bits)
                for row in 0..<8 { ws[row * 8 + column] = dc }
            }
        } else {
            for column in 0..<8 {
                let x = d + column
                let r = islow1D(x[0], x[8], x[16], x[24], x[32], x[40], x[48], x[56], shift: 11)
                let w = ws + column
                w[0] = saturate16(r.0); w[8] = saturate16(r.1); w[16] = saturate16(r.2); w[24] = saturate16(r.3)
                w[32] = saturate16(r.4); w[40] = saturate16(r.5); w[48] = saturate16(r.6); w[56] = saturate16(r.7)
            }
        }
        for row in 0..<8 {
            let w = ws + row * 8, out = output + row * stride
            if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[4] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
                // Same arithmetic as the full row with zero inputs 1…7.
                out.update(repeating: sample(((w[0] << 13) &+ (1 << 17)) >> 18), count: 8)
                continue
            }
            let r = islow1D(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], shift: 18)
            out[0] = sample(r.0); out[1] = sample(r.1); out[2] = sample(r.2); out[3] = sample(r.3)
            out[4] = sample(r.4); out[5] = sample(r.5); out[6] = sample(r.6); out[7] = sample(r.7)
        }
    }

    /// The 8-to-4 step of jidctred.c (`jsimd_idct_4x4_sse2` pairing): outputs 0…3.
    @inline(__always)
    static func reduced4(_ i0: Int32, _ i1: Int32, _ i2: Int32, _ i3: Int32, _ i5: Int32, _ i6: Int32, _ i7: Int32,
                         shift: Int32) -> (Int32, Int32, Int32, Int32) {
        let odd2 = i1 &* Int32(fix2_562915447) &+ i3 &* Int32(fix0_899976223) &+ i5 &* -Int32(fix0_601344887) &+ i7 &* -Int32(fix0_509795579)
        let odd0 = i1 &* Int32(fix1_061594337) &+ i3 &* -Int32(fix2_172734803) &+ i5 &* Int32(fix1_451774981) &+ i7 &* -Int32(fix0_211164243)
        let even0 = i0 << 14
        let even2 = i2 &* Int32(fix1_847759065) &+ i6 &* -Int32(fix0_765366865)
        let tmp10 = even0 &+ even2, tmp12 = even0 &- even2
        let round = Int32(1) << (shift - 1)
        return ((tmp10 &+ odd2 &+ round) >> shift, (tmp12 &+ odd0 &+ round) >> shift,
                (tmp12 &- odd0 &+ round) >> shift, (tmp10 &- odd2 &+ round) >> shift)
    }

    /// 4×4 output: `jpeg_idct_4x4` as computed by `jsimd_idct_4x4_sse2` (coefficient row and
    /// column 4 do not contribute). `ws` holds 128 Int32s.
    static func reduced4x4(_ coefficients: UnsafePointer<Int16>, _ quant: UnsafePointer<Int32>, _ output: UnsafeMutablePointer<UInt8>,
                           stride: Int, workspace ws: UnsafeMutablePointer<Int32>, range: UnsafePointer<UInt8>) {
        let d = ws + 64
        dequantize(coefficients, quant, into: d)
        var acZero = true
        for k in 8..<64 where k >> 3 != 4 && coefficients[k] != 0 { acZero = false; break }
        if acZero {
            for column in 0..<8 {
                let dc = wrap16(d[column] << pass1Bits)
                for row in 0..<4 { ws[row * 8 + column] = dc }
            }
        } else {
            for column in 0..<8 {
                let x = d + column
                let r = reduced4(x[0], x[8], x[16], x[24], x[40], x[48], x[56], shift: 12)
                let w = ws + column
                w[0] = saturate16(r.0); w[8] = saturate16(r.1); w[16] = saturate16(r.2); w[24] = saturate16(r.3)
            }
        }
        for row in 0..<4 {
            let w = ws + row * 8, out = output + row * stride
            let r = reduced4(w[0], w[1], w[2], w[3], w[5], w[6], w[7], shift: 19)
            out[0] = sample(r.0); out[1] = sample(r.1); out[2] = sample(r.2); out[3] = sample(r.3)
        }
    }

    /// 2×2 output: `jpeg_idct_2x2` as computed by `jsimd_idct_2x2_sse2` (columns/rows 0, 1,
    /// 3, 5, 7; the odd inputs of pass 2 saturate to 16 bits, the even one does not).
    static func reduced2x2(_ coefficients: UnsafePointer<Int16>, _ quant: UnsafePointer<Int32>, _ output: UnsafeMutablePointer<UInt8>,
                           stride: Int, workspace ws: UnsafeMutablePointer<Int32>, range: UnsafePointer<UInt8>) {
        let d = ws + 64
        dequantize(coefficients, quant, into: d)
        let f362 = Int32(fix3_624509785), f127 = Int32(fix1_272758580), f085 = Int32(fix0_850430095), f072 = Int32(fix0_720959822)
        for column in 0..<8 where column == 0 || column & 1 == 1 {
            let x = d + column
            let odd = x[8] &* f362 &+ x[24] &* -f127 &+ x[40] &* f085 &+ x[56] &* -f072
            let even = x[0] << 15
            ws[column] = (even &+ odd &+ (1 << 12)) >> 13
            ws[8 + column] = (even &- odd &+ (1 << 12)) >> 13
        }
        for row in 0..<2 {
            let w = ws + row * 8, out = output + row * stride
            let odd = saturate16(w[1]) &* f362 &+ saturate16(w[3]) &* -f127 &+ saturate16(w[5]) &* f085 &+ saturate16(w[7]) &* -f072
            let even = w[0] &<< 15
            out[0] = sample((even &+ odd &+ (1 << 19)) >> 20)
            out[1] = sample((even &- odd &+ (1 << 19)) >> 20)
        }
    }

    /// 1×1 output (`jpeg_idct_1x1`): the DC term divided by 8, rounded.
    static func reduced1x1(_ coefficients: UnsafePointer<Int16>, _ quant: UnsafePointer<Int32>, _ output: UnsafeMutablePointer<UInt8>,
                           stride: Int, workspace ws: UnsafeMutablePointer<Int32>, range: UnsafePointer<UInt8>) {
        output[0] = dcOnly(coefficients[0], quant[0], range: range)
    }

    /// The sample of `reduced1x1`, from the DC coefficient and its multiplier. The product
    /// wraps to 32 bits like libjpeg's int; `& 1023` keeps the index inside the table.
    @inline(__always)
    static func dcOnly(_ dc: Int16, _ multiplier: Int32, range: UnsafePointer<UInt8>) -> UInt8 {
        let value = Int(Int32(truncatingIfNeeded: Int(dc) &* Int(multiplier)))
        return range[descale(value, 3) & 1023]
    }
}
