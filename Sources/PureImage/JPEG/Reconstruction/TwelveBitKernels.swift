/// The reconstruction stages for 12-bit samples (T.81 extended process, P = 12), computed as
/// libjpeg-turbo 3 computes them. Its 12-bit code is the 8-bit C code compiled with
/// `BITS_IN_JSAMPLE` 12 and no SIMD, so these are the plain C formulas:
///
/// | stage | what changes from 8 bits |
/// |---|---|
/// | islow IDCT (jidctint.c) | 1 extra bit between the passes (PASS1_BITS 1, not 2): pass shifts 12 and 17; 64-bit products |
/// | reduced IDCTs (jidctred.c) | the same PASS1_BITS change in their shifts |
/// | range limit | samples 0…4095 centred on 2048; the index wraps at 16384 (RANGE_MASK) |
/// | dequantisation | the 16-bit DQT value as is (the 8-bit SIMD build narrows it to Int16) |
/// | YCbCr → RGB (jdcolor.c) | the same fixed-point products around 2048, clamped to 0…4095 |
/// | upsampling (jdsample.c) | the same triangle filters on wider samples |
///
/// Samples are `UInt16` holding 0…4095. Unsafe kernel file: each function's bounds are the
/// 8-bit kernels' (`IDCTKernels`, `UpsamplingKernels`, `ColorConversionKernels`), with samples
/// of two bytes.
enum TwelveBitKernels {
    static let maximum = 4095
    static let center = 2048
    static let constBits = 13
    static let pass1Bits = 1

    /// `IDCT_range_limit` indexed by `x & 16383`: x + 2048 clamped to 0…4095 for
    /// −8192 ≤ x < 8192; larger magnitudes wrap first, as in libjpeg.
    nonisolated(unsafe) static let rangeLimit: UnsafePointer<UInt16> = {
        let table = UnsafeMutablePointer<UInt16>.allocate(capacity: 16384)
        for index in 0..<16384 {
            switch index {
            case 0..<2048: table[index] = UInt16(index + 2048)
            case 2048..<8192: table[index] = 4095
            case 8192..<14336: table[index] = 0
            default: table[index] = UInt16(index - 14336)
            }
        }
        return UnsafePointer(table)
    }()

    @inline(__always) static func descale(_ x: Int, _ n: Int) -> Int { (x + (1 << (n - 1))) >> n }
    @inline(__always) static func sample(_ x: Int) -> UInt16 { rangeLimit[x & 16383] }

    /// The 1-D 8-point IDCT of jidctint.c (Loeffler–Ligtenberg–Moschytz, 12 multiplications),
    /// before the final descale: outputs 0…7 scaled by 2^13.
    @inline(__always)
    static func islow1D(_ i0: Int, _ i1: Int, _ i2: Int, _ i3: Int, _ i4: Int, _ i5: Int, _ i6: Int, _ i7: Int)
        -> (Int, Int, Int, Int, Int, Int, Int, Int) {
        // Even part: the rotation by √2·c(−6), then inputs 0 and 4.
        let z1 = (i2 + i6) * IDCTKernels.fix0_541196100
        let tmp2 = z1 + i6 * -IDCTKernels.fix1_847759065
        let tmp3 = z1 + i2 * IDCTKernels.fix0_765366865
        let tmp0 = (i0 + i4) << constBits
        let tmp1 = (i0 - i4) << constBits
        let tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3, tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2
        // Odd part.
        let z5 = (i7 + i5 + i3 + i1) * IDCTKernels.fix1_175875602
        let a1 = (i7 + i1) * -IDCTKernels.fix0_899976223
        let a2 = (i5 + i3) * -IDCTKernels.fix2_562915447
        let a3 = (i7 + i3) * -IDCTKernels.fix1_961570560 + z5
        let a4 = (i5 + i1) * -IDCTKernels.fix0_390180644 + z5
        let o0 = i7 * IDCTKernels.fix0_298631336 + a1 + a3
        let o1 = i5 * IDCTKernels.fix2_053119869 + a2 + a4
        let o2 = i3 * IDCTKernels.fix3_072711026 + a2 + a3
        let o3 = i1 * IDCTKernels.fix1_501321110 + a1 + a4
        return (tmp10 + o3, tmp11 + o2, tmp12 + o1, tmp13 + o0, tmp13 - o0, tmp12 - o1, tmp11 - o2, tmp10 - o3)
    }

    /// 8×8 output (`jpeg_idct_islow` at 12 bits), with its column and row shortcuts (they give
    /// the values the full computation gives). `ws` holds 64 Int32s.
    static func islow(_ coefficients: UnsafePointer<Int16>, _ quant: UnsafePointer<Int32>, _ output: UnsafeMutablePointer<UInt16>,
                      stride: Int, workspace ws: UnsafeMutablePointer<Int32>) {
        @inline(__always) func dq(_ k: Int) -> Int { Int(coefficients[k]) * Int(quant[k]) }
        for column in 0..<8 {
            let c = column
            if coefficients[c + 8] == 0 && coefficients[c + 16] == 0 && coefficients[c + 24] == 0 && coefficients[c + 32] == 0
                && coefficients[c + 40] == 0 && coefficients[c + 48] == 0 && coefficients[c + 56] == 0 {
                let dc = Int32(truncatingIfNeeded: dq(c) << pass1Bits)
                for row in 0..<8 { ws[row * 8 + c] = dc }
                continue
            }
            let r = islow1D(dq(c), dq(c + 8), dq(c + 16), dq(c + 24), dq(c + 32), dq(c + 40), dq(c + 48), dq(c + 56))
            let shift = constBits - pass1Bits
            ws[c] = Int32(truncatingIfNeeded: descale(r.0, shift)); ws[c + 8] = Int32(truncatingIfNeeded: descale(r.1, shift))
            ws[c + 16] = Int32(truncatingIfNeeded: descale(r.2, shift)); ws[c + 24] = Int32(truncatingIfNeeded: descale(r.3, shift))
            ws[c + 32] = Int32(truncatingIfNeeded: descale(r.4, shift)); ws[c + 40] = Int32(truncatingIfNeeded: descale(r.5, shift))
            ws[c + 48] = Int32(truncatingIfNeeded: descale(r.6, shift)); ws[c + 56] = Int32(truncatingIfNeeded: descale(r.7, shift))
        }
        let shift = constBits + pass1Bits + 3
        for row in 0..<8 {
            let w = ws + row * 8, out = output + row * stride
            if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[4] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
                out.update(repeating: sample(descale(Int(w[0]), pass1Bits + 3)), count: 8)
                continue
            }
            let r = islow1D(Int(w[0]), Int(w[1]), Int(w[2]), Int(w[3]), Int(w[4]), Int(w[5]), Int(w[6]), Int(w[7]))
            out[0] = sample(descale(r.0, shift)); out[1] = sample(descale(r.1, shift))
            out[2] = sample(descale(r.2, shift)); out[3] = sample(descale(r.3, shift))
            out[4] = sample(descale(r.4, shift)); out[5] = sample(descale(r.5, shift))
            out[6] = sample(descale(r.6, shift)); out[7] = sample(descale(r.7, shift))
        }
    }

    /// jidctred.c's 8-to-4 step (inputs 0, 1, 2, 3, 5, 6, 7; input 4 does not contribute):
    /// outputs 0…3, scaled by 2^(13+1).
    @inline(__always)
    static func reduced4(_ i0: Int, _ i1: Int, _ i2: Int, _ i3: Int, _ i5: Int, _ i6: Int, _ i7: Int) -> (Int, Int, Int, Int) {
        let even0 = i0 << (constBits + 1)
        let even2 = i2 * IDCTKernels.fix1_847759065 - i6 * IDCTKernels.fix0_765366865
        let tmp10 = even0 + even2, tmp12 = even0 - even2
        let odd0 = -i7 * IDCTKernels.fix0_211164243 + i5 * IDCTKernels.fix1_451774981
            - i3 * IDCTKernels.fix2_172734803 + i1 * IDCTKernels.fix1_061594337
        let odd2 = -i7 * IDCTKernels.fix0_509795579 - i5 * IDCTKernels.fix0_601344887
            + i3 * IDCTKernels.fix0_899976223 + i1 * IDCTKernels.fix2_562915447
        return (tmp10 + odd2, tmp12 + odd0, tmp12 - odd0, tmp10 - odd2)
    }

    /// 4×4 output (`jpeg_idct_4x4` at 12 bits). `ws` holds 64 Int32s.
    static func reduced4x4(_ coefficients: UnsafePointer<Int16>, _ quant: UnsafePointer<Int32>, _ output: UnsafeMutablePointer<UInt16>,
                           stride: Int, workspace ws: UnsafeMutablePointer<Int32>) {
        @inline(__always) func dq(_ k: Int) -> Int { Int(coefficients[k]) * Int(quant[k]) }
        for column in 0..<8 where column != 4 {
            let c = column
            if coefficients[c + 8] == 0 && coefficients[c + 16] == 0 && coefficients[c + 24] == 0
                && coefficients[c + 40] == 0 && coefficients[c + 48] == 0 && coefficients[c + 56] == 0 {
                let dc = Int32(truncatingIfNeeded: dq(c) << pass1Bits)
                for row in 0..<4 { ws[row * 8 + c] = dc }
                continue
            }
            let r = reduced4(dq(c), dq(c + 8), dq(c + 16), dq(c + 24), dq(c + 40), dq(c + 48), dq(c + 56))
            let shift = constBits - pass1Bits + 1
            ws[c] = Int32(truncatingIfNeeded: descale(r.0, shift)); ws[c + 8] = Int32(truncatingIfNeeded: descale(r.1, shift))
            ws[c + 16] = Int32(truncatingIfNeeded: descale(r.2, shift)); ws[c + 24] = Int32(truncatingIfNeeded: descale(r.3, shift))
        }
        for row in 0..<4 {
            let w = ws + row * 8, out = output + row * stride
            if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
                out.update(repeating: sample(descale(Int(w[0]), pass1Bits + 3)), count: 4)
                continue
            }
            let r = reduced4(Int(w[0]), Int(w[1]), Int(w[2]), Int(w[3]), Int(w[5]), Int(w[6]), Int(w[7]))
            let shift = constBits + pass1Bits + 4
            out[0] = sample(descale(r.0, shift)); out[1] = sample(descale(r.1, shift))
            out[2] = sample(descale(r.2, shift)); out[3] = sample(descale(r.3, shift))
        }
    }

    /// jidctred.c's 8-to-2 step (inputs 0, 1, 3, 5, 7), scaled by 2^(13+2).
    @inline(__always)
    static func reduced2(_ i0: Int, _ i1: Int, _ i3: Int, _ i5: Int, _ i7: Int) -> (Int, Int) {
        let even = i0 << (constBits + 2)
        let odd = -i7 * IDCTKernels.fix0_720959822 + i5 * IDCTKernels.fix0_850430095
            - i3 * IDCTKernels.fix1_272758580 + i1 * IDCTKernels.fix3_624509785
        return (even + odd, even - odd)
    }

    /// 2×2 output (`jpeg_idct_2x2` at 12 bits). `ws` holds 64 Int32s.
    static func reduced2x2(_ coefficients: UnsafePointer<Int16>, _ quant: UnsafePointer<Int32>, _ output: UnsafeMutablePointer<UInt16>,
                           stride: Int, workspace ws: UnsafeMutablePointer<Int32>) {
        @inline(__always) func dq(_ k: Int) -> Int { Int(coefficients[k]) * Int(quant[k]) }
        for column in [0, 1, 3, 5, 7] {
            let c = column
            if coefficients[c + 8] == 0 && coefficients[c + 24] == 0 && coefficients[c + 40] == 0 && coefficients[c + 56] == 0 {
                let dc = Int32(truncatingIfNeeded: dq(c) << pass1Bits)
                ws[c] = dc
                ws[c + 8] = dc
                continue
            }
            let r = reduced2(dq(c), dq(c + 8), dq(c + 24), dq(c + 40), dq(c + 56))
            let shift = constBits - pass1Bits + 2
            ws[c] = Int32(truncatingIfNeeded: descale(r.0, shift))
            ws[c + 8] = Int32(truncatingIfNeeded: descale(r.1, shift))
        }
        for row in 0..<2 {
            let w = ws + row * 8, out = output + row * stride
            if w[1] == 0 && w[3] == 0 && w[5] == 0 && w[7] == 0 {
                out.update(repeating: sample(descale(Int(w[0]), pass1Bits + 3)), count: 2)
                continue
            }
            let r = reduced2(Int(w[0]), Int(w[1]), Int(w[3]), Int(w[5]), Int(w[7]))
            let shift = constBits + pass1Bits + 5
            out[0] = sample(descale(r.0, shift))
            out[1] = sample(descale(r.1, shift))
        }
    }

    /// 1×1 output (`jpeg_idct_1x1`): the dequantised DC divided by 8, rounded, range-limited.
    static func reduced1x1(_ coefficients: UnsafePointer<Int16>, _ quant: UnsafePointer<Int32>, _ output: UnsafeMutablePointer<UInt16>,
                           stride: Int, workspace ws: UnsafeMutablePointer<Int32>) {
        output[0] = dcOnly(coefficients[0], quant[0])
    }

    /// The sample of `reduced1x1`, from the DC coefficient and its multiplier.
    @inline(__always)
    static func dcOnly(_ dc: Int16, _ multiplier: Int32) -> UInt16 {
        sample(descale(Int(Int32(truncatingIfNeeded: Int(dc) &* Int(multiplier))), 3))
    }

    // MARK: - Upsampling (jdsample.c), the 8-bit filters on 12-bit samples

    /// `h2v1_fancy_upsample`. `width` > 2.
    static func h2v1Fancy(_ input: UnsafePointer<UInt16>, width: Int, _ output: UnsafeMutablePointer<UInt16>) {
        @inline(__always) func s(_ i: Int) -> Int { Int(input[i]) }
        output[0] = input[0]
        output[1] = UInt16(truncatingIfNeeded: (s(0) * 3 + s(1) + 2) >> 2)
        for i in 1..<(width - 1) {
            output[2 * i] = UInt16(truncatingIfNeeded: (s(i) * 3 + s(i - 1) + 1) >> 2)
            output[2 * i + 1] = UInt16(truncatingIfNeeded: (s(i) * 3 + s(i + 1) + 2) >> 2)
        }
        output[2 * width - 2] = UInt16(truncatingIfNeeded: (s(width - 1) * 3 + s(width - 2) + 1) >> 2)
        output[2 * width - 1] = input[width - 1]
    }

    /// `h1v2_fancy_upsample`: bias 1 for the upper output row of a pair, 2 for the lower.
    static func h1v2Fancy(near: UnsafePointer<UInt16>, far: UnsafePointer<UInt16>, width: Int, bias: Int, _ output: UnsafeMutablePointer<UInt16>) {
        for i in 0..<width { output[i] = UInt16(truncatingIfNeeded: (Int(near[i]) * 3 + Int(far[i]) + bias) >> 2) }
    }

    /// `h2v2_fancy_upsample`: column sums 3·near + far, then the h2v1 filter on them, /16.
    /// `width` > 2.
    static func h2v2Fancy(near: UnsafePointer<UInt16>, far: UnsafePointer<UInt16>, width: Int, _ output: UnsafeMutablePointer<UInt16>) {
        @inline(__always) func sum(_ i: Int) -> Int { Int(near[i]) * 3 + Int(far[i]) }
        output[0] = UInt16(truncatingIfNeeded: (sum(0) * 4 + 8) >> 4)
        output[1] = UInt16(truncatingIfNeeded: (sum(0) * 3 + sum(1) + 7) >> 4)
        for i in 1..<(width - 1) {
            output[2 * i] = UInt16(truncatingIfNeeded: (sum(i) * 3 + sum(i - 1) + 8) >> 4)
            output[2 * i + 1] = UInt16(truncatingIfNeeded: (sum(i) * 3 + sum(i + 1) + 7) >> 4)
        }
        output[2 * width - 2] = UInt16(truncatingIfNeeded: (sum(width - 1) * 3 + sum(width - 2) + 8) >> 4)
        output[2 * width - 1] = UInt16(truncatingIfNeeded: (sum(width - 1) * 4 + 7) >> 4)
    }

    // MARK: - Colour (jdcolor.c at 12 bits)

    @inline(__always) static func clamp(_ value: Int) -> UInt16 { UInt16(truncatingIfNeeded: min(max(value, 0), maximum)) }
    @inline(__always) static func red(_ luma: Int, _ cr: Int) -> Int { luma + ((91881 * cr + 32768) >> 16) }
    @inline(__always) static func green(_ luma: Int, _ cb: Int, _ cr: Int) -> Int { luma + ((-22554 * cb - 46802 * cr + 32768) >> 16) }
    @inline(__always) static func blue(_ luma: Int, _ cb: Int) -> Int { luma + ((116130 * cb + 32768) >> 16) }

    static func yccToRGB(_ y: UnsafePointer<UInt16>, _ cb: UnsafePointer<UInt16>, _ cr: UnsafePointer<UInt16>, width: Int,
                         _ output: UnsafeMutablePointer<UInt16>) {
        for i in 0..<width {
            let luma = Int(y[i]), blueDifference = Int(cb[i]) - center, redDifference = Int(cr[i]) - center
            output[3 * i] = clamp(red(luma, redDifference))
            output[3 * i + 1] = clamp(green(luma, blueDifference, redDifference))
            output[3 * i + 2] = clamp(blue(luma, blueDifference))
        }
    }

    static func ycckToCMYK(_ y: UnsafePointer<UInt16>, _ cb: UnsafePointer<UInt16>, _ cr: UnsafePointer<UInt16>, _ k: UnsafePointer<UInt16>,
                           width: Int, _ output: UnsafeMutablePointer<UInt16>) {
        for i in 0..<width {
            let luma = Int(y[i]), blueDifference = Int(cb[i]) - center, redDifference = Int(cr[i]) - center
            output[4 * i] = clamp(maximum - red(luma, redDifference))
            output[4 * i + 1] = clamp(maximum - green(luma, blueDifference, redDifference))
            output[4 * i + 2] = clamp(maximum - blue(luma, blueDifference))
            output[4 * i + 3] = k[i]
        }
    }
}
