/// The 8×8 islow IDCT of `IDCTKernels.islow`, computed on eight columns (pass 1) and eight
/// rows (pass 2) at once, in 16-bit lanes as libjpeg-turbo's SSE2 and AVX2 kernels compute it.
/// Every lane does the scalar kernel's operations with the same wrapping and saturation, so
/// the output is bit-identical (`JPEGIDCTLaneTests` checks this on random, adversarial and
/// extreme blocks); the scalar kernel stays the readable reference.
///
/// Pass 1 takes coefficient rows as vectors (lane = column); its results are transposed so
/// that pass 2 works with lane = row, and transposed back to store rows of eight bytes.
///
/// Why this is fast on the SSE2 baseline: every product pairs two 16-bit inputs with two
/// constants and is summed (`a·x + b·y`), written as sign-extensions of `SIMD8<Int16>` lanes
/// multiplied in 32 bits. LLVM compiles exactly that shape to `punpcklwd`/`punpckhwd` +
/// `pmaddwd` (four instructions for eight 32-bit sums, checked with objdump), and the sums of
/// two inputs that the reference wraps at 16 bits are `SIMD8<Int16>` adds (`paddw`). Pass 1's
/// saturation (`LaneConversions.saturated16`, sign masks) followed by the narrowing compiles to
/// one `packssdw` per eight values: LLVM proves the masks redundant with the pack. (A test for
/// blocks that fit 16 bits, which then only truncated, made the common case slower: the
/// truncation of 21-bit values took a shift pair per four lanes before the pack, and the test
/// itself 25 instructions; removing both took 57 of the dense block's 668.) Lane types are
/// converted with `LaneConversions` (why not the standard library's: see there).
/// Measured (random dense blocks, one core, default x86-64 target): 105 ns a block against
/// 345–400 ns for the scalar kernel.
///
/// Unsafe: a named kernel (STYLE.md item 20). Bounds: `coefficients` and `quant` hold 64
/// values; `output` has 8 rows of 8 bytes at `stride` (the caller's block lies inside its plane,
/// as for the scalar kernels).
enum IDCTLaneKernels {
    typealias Short = SIMD8<Int16>
    typealias Lane = SIMD8<Int32>
    typealias Block = (Short, Short, Short, Short, Short, Short, Short, Short)

    @inline(__always) static func widen(_ x: Short) -> Lane { LaneConversions.widen(x) }

    /// a·x + b·y in 32 bits: one `pmaddwd` per four lanes.
    @inline(__always) static func pair(_ a: Short, _ x: Int32, _ b: Short, _ y: Int32) -> Lane {
        widen(a) &* x &+ widen(b) &* y
    }

    /// Clamp to −128…127 and add 128, as `IDCTKernels.sample`: x + 128 clamped to 0…255 (pass
    /// 2's values lie in −2^13…2^13 − 1, so adding 128 does not wrap).
    @inline(__always) static func sample(_ x: Short) -> SIMD8<UInt8> { LaneConversions.clampedBytes(x &+ 128) }

    typealias Wide = (Lane, Lane, Lane, Lane, Lane, Lane, Lane, Lane)

    /// `IDCTKernels.islow1D` on eight independent lanes: the eight results, rounded and
    /// shifted, in 32 bits (each pass narrows them its own way).
    @inline(__always)
    static func islow1D(_ i0: Short, _ i1: Short, _ i2: Short, _ i3: Short, _ i4: Short, _ i5: Short, _ i6: Short, _ i7: Short,
                        shift: Int32) -> Wide {
        typealias K = IDCTKernels
        let f054 = Int32(K.fix0_541196100), f076 = Int32(K.fix0_765366865), f184 = Int32(K.fix1_847759065)
        let f117 = Int32(K.fix1_175875602), f196 = Int32(K.fix1_961570560), f039 = Int32(K.fix0_390180644)
        let f029 = Int32(K.fix0_298631336), f089 = Int32(K.fix0_899976223), f205 = Int32(K.fix2_053119869)
        let f256 = Int32(K.fix2_562915447), f150 = Int32(K.fix1_501321110), f307 = Int32(K.fix3_072711026)
        // Even part.
        let tmp3 = pair(i2, f054 + f076, i6, f054)
        let tmp2 = pair(i2, f054, i6, f054 - f184)
        let tmp0 = widen(i0 &+ i4) &<< 13
        let tmp1 = widen(i0 &- i4) &<< 13
        let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3, tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2
        // Odd part.
        let z3 = i7 &+ i3, z4 = i5 &+ i1
        let z3p = pair(z3, f117 - f196, z4, f117)
        let z4p = pair(z3, f117, z4, f117 - f039)
        let o0 = pair(i7, f029 - f089, i1, -f089) &+ z3p
        let o1 = pair(i5, f205 - f256, i3, -f256) &+ z4p
        let o3 = pair(i7, -f089, i1, f150 - f089) &+ z4p
        let o2 = pair(i5, -f256, i3, f307 - f256) &+ z3p
        let round = Lane(repeating: Int32(1) &<< (shift &- 1))
        return ((tmp10 &+ o3 &+ round) &>> shift, (tmp11 &+ o2 &+ round) &>> shift,
                (tmp12 &+ o1 &+ round) &>> shift, (tmp13 &+ o0 &+ round) &>> shift,
                (tmp13 &- o0 &+ round) &>> shift, (tmp12 &- o1 &+ round) &>> shift,
                (tmp11 &- o2 &+ round) &>> shift, (tmp10 &- o3 &+ round) &>> shift)
    }

    /// Pass 1's narrowing, the reference's `packssdw` (saturating), and one `packssdw` in the
    /// compiled code. Its values are 32-bit sums shifted right by 11, so |x| ≤ 2^20: far inside
    /// the range `saturated16` needs.
    @inline(__always) static func saturate16(_ x: Lane) -> Short { LaneConversions.narrow(LaneConversions.saturated16(x)) }

    @inline(__always) static func saturate16(_ r: Wide) -> Block {
        (saturate16(r.0), saturate16(r.1), saturate16(r.2), saturate16(r.3),
         saturate16(r.4), saturate16(r.5), saturate16(r.6), saturate16(r.7))
    }

    /// All lanes zero, tested on the two 64-bit halves (the generic `==` on a vector compiled
    /// to a loop over its lanes).
    @inline(__always) static func isZero(_ x: Short) -> Bool {
        let words = unsafeBitCast(x, to: SIMD2<UInt64>.self)
        return words[0] | words[1] == 0
    }

    /// Pass 2's narrowing. Its results are 32-bit values shifted right by 18, so they lie in
    /// −2^13…2^13 − 1 and truncation to 16 bits is exact: the reference's saturation to 16
    /// bits cannot change them, and the clamp to samples then runs on 16-bit lanes (`sample`:
    /// one `packuswb`).
    @inline(__always) static func truncate16(_ r: Wide) -> Block {
        typealias L = LaneConversions
        return (L.narrow(r.0), L.narrow(r.1), L.narrow(r.2), L.narrow(r.3), L.narrow(r.4), L.narrow(r.5), L.narrow(r.6), L.narrow(r.7))
    }

    // Interleaves of two vectors' low or high halves, by 16, 32 and 64 bits: `punpck{l,h}{wd,dq,qdq}`.
    @inline(__always) static func low16(_ a: Short, _ b: Short) -> Short { Short(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3]) }
    @inline(__always) static func high16(_ a: Short, _ b: Short) -> Short { Short(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7]) }
    @inline(__always) static func low32(_ a: Short, _ b: Short) -> Short {
        let x = unsafeBitCast(a, to: SIMD4<Int32>.self), y = unsafeBitCast(b, to: SIMD4<Int32>.self)
        return unsafeBitCast(SIMD4(x[0], y[0], x[1], y[1]), to: Short.self)
    }
    @inline(__always) static func high32(_ a: Short, _ b: Short) -> Short {
        let x = unsafeBitCast(a, to: SIMD4<Int32>.self), y = unsafeBitCast(b, to: SIMD4<Int32>.self)
        return unsafeBitCast(SIMD4(x[2], y[2], x[3], y[3]), to: Short.self)
    }
    @inline(__always) static func low64(_ a: Short, _ b: Short) -> Short {
        let x = unsafeBitCast(a, to: SIMD2<Int64>.self), y = unsafeBitCast(b, to: SIMD2<Int64>.self)
        return unsafeBitCast(SIMD2(x[0], y[0]), to: Short.self)
    }
    @inline(__always) static func high64(_ a: Short, _ b: Short) -> Short {
        let x = unsafeBitCast(a, to: SIMD2<Int64>.self), y = unsafeBitCast(b, to: SIMD2<Int64>.self)
        return unsafeBitCast(SIMD2(x[1], y[1]), to: Short.self)
    }

    /// The 8×8 transpose (lane j of result k is lane k of input j) in three interleave stages,
    /// as libjpeg-turbo's SIMD kernels do it: 24 unpack instructions. (Gathering each column
    /// lane by lane gave LLVM blends and scalar moves instead: 165 ns a block against 400 ns
    /// for the scalar kernel, where this gives 105 ns, random dense blocks.)
    @inline(__always) static func transpose(_ m: Block) -> Block {
        // Rows 2i and 2i + 1 interleaved by 16 bits: each 32-bit unit holds a column pair.
        let a0 = low16(m.0, m.1), a1 = high16(m.0, m.1), a2 = low16(m.2, m.3), a3 = high16(m.2, m.3)
        let a4 = low16(m.4, m.5), a5 = high16(m.4, m.5), a6 = low16(m.6, m.7), a7 = high16(m.6, m.7)
        // By 32 bits: each 64-bit unit holds four rows of one column.
        let b0 = low32(a0, a2), b1 = high32(a0, a2), b2 = low32(a1, a3), b3 = high32(a1, a3)
        let b4 = low32(a4, a6), b5 = high32(a4, a6), b6 = low32(a5, a7), b7 = high32(a5, a7)
        // By 64 bits: rows 0–3 and 4–7 of each column joined.
        return (low64(b0, b4), high64(b0, b4), low64(b1, b5), high64(b1, b5),
                low64(b2, b6), high64(b2, b6), low64(b3, b7), high64(b3, b7))
    }

    /// 8×8 output, bit-identical to `IDCTKernels.islow` (including its shortcuts, which change
    /// the arithmetic of damaged blocks: an all-zero AC part wraps where the full pass saturates).
    /// `quant16` holds the 64 multipliers narrowed to Int16 (the reference multiplies in 16
    /// bits too: the low 16 bits of the product are those of the 16-bit product, `pmullw`).
    static func islow(_ coefficients: UnsafePointer<Int16>, _ quant16: UnsafeRawPointer, _ output: UnsafeMutablePointer<UInt8>,
                      stride: Int, workspace ws: UnsafeMutablePointer<Int32>, range: UnsafePointer<UInt8>) {
        let c = UnsafeRawPointer(coefficients)
        @inline(__always) func coefficientRow(_ k: Int) -> Short { c.loadUnaligned(fromByteOffset: k * 16, as: Short.self) }
        @inline(__always) func dequantizedRow(_ k: Int) -> Short {
            coefficientRow(k) &* quant16.loadUnaligned(fromByteOffset: k * 16, as: Short.self)
        }
        let row0 = dequantizedRow(0)
        let acOr = coefficientRow(1) | coefficientRow(2) | coefficientRow(3) | coefficientRow(4)
            | coefficientRow(5) | coefficientRow(6) | coefficientRow(7)
        let pass1: Block
        if isZero(acOr) {
            if isZero(coefficientRow(0) & Short(0, -1, -1, -1, -1, -1, -1, -1)) {
                // DC only: (wrap16(dc << 2) << 13 + 2^17) >> 18 everywhere.
                let value = IDCTKernels.sample(((Int32(row0[0] &<< 2) &<< 13) &+ (1 << 17)) &>> 18)
                let eight = SIMD8<UInt8>(repeating: value)
                for row in 0..<8 { UnsafeMutableRawPointer(output).storeBytes(of: eight, toByteOffset: row &* stride, as: SIMD8<UInt8>.self) }
                return
            }
            // Rows 1…7 zero: every pass-1 row is the DC row times 4, wrapped (`psllw`).
            let dc = row0 &<< 2
            pass1 = (dc, dc, dc, dc, dc, dc, dc, dc)
        } else {
            let wide = islow1D(row0, dequantizedRow(1), dequantizedRow(2), dequantizedRow(3),
                               dequantizedRow(4), dequantizedRow(5), dequantizedRow(6), dequantizedRow(7), shift: 11)
            pass1 = saturate16(wide)
        }
        // Lane j of column k is row j's input k. The scalar kernel's shortcut for rows whose
        // inputs 1…7 are zero computes what the full transform gives them, so it is not needed.
        let columns = transpose(pass1)
        let r = transpose(truncate16(islow1D(columns.0, columns.1, columns.2, columns.3, columns.4, columns.5, columns.6, columns.7, shift: 18)))
        // After the transpose back, r.j is output row j.
        // Row offsets in wrapping arithmetic: 7 × stride lies inside the caller's plane.
        let o = UnsafeMutableRawPointer(output)
        o.storeBytes(of: sample(r.0), toByteOffset: 0, as: SIMD8<UInt8>.self)
        o.storeBytes(of: sample(r.1), toByteOffset: stride, as: SIMD8<UInt8>.self)
        o.storeBytes(of: sample(r.2), toByteOffset: 2 &* stride, as: SIMD8<UInt8>.self)
        o.storeBytes(of: sample(r.3), toByteOffset: 3 &* stride, as: SIMD8<UInt8>.self)
        o.storeBytes(of: sample(r.4), toByteOffset: 4 &* stride, as: SIMD8<UInt8>.self)
        o.storeBytes(of: sample(r.5), toByteOffset: 5 &* stride, as: SIMD8<UInt8>.self)
        o.storeBytes(of: sample(r.6), toByteOffset: 6 &* stride, as: SIMD8<UInt8>.self)
        o.storeBytes(of: sample(r.7), toByteOffset: 7 &* stride, as: SIMD8<UInt8>.self)
    }
}
