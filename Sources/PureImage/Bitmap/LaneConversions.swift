/// Conversions between vector lane types for the lane kernels, written out lane by lane. The
/// compiler turns each into one or two vector instructions, or folds it into the operation
/// around it (sign extensions into `pmaddwd` and `pmulhw`, a narrowing of shifted values into
/// `packssdw`, the byte clamp into `packuswb`), as it does for the standard library's generic
/// `init(truncatingIfNeeded:)`, `pointwiseMin` and `pointwiseMax`.
///
/// Why not those: the optimizer leaves each of them as a call to one shared specialization,
/// which the code generator inlines only into functions of the source file the specialization
/// happens to be emitted in (the first that uses it). A new user in another file can move it:
/// when `YCCLaneKernels` started using them, `IDCTLaneKernels.islow` compiled its 83
/// conversions as calls and the IDCT took 30 % longer. These are `@inline(__always)` and not
/// generic, so they are inlined everywhere; `scripts/kernel-calls.sh` (run by CI) fails when
/// library code calls a standard-library SIMD function.
enum LaneConversions {
    /// Int16 → Int32, sign-extended.
    @inline(__always) static func widen(_ x: SIMD8<Int16>) -> SIMD8<Int32> {
        SIMD8(Int32(x[0]), Int32(x[1]), Int32(x[2]), Int32(x[3]), Int32(x[4]), Int32(x[5]), Int32(x[6]), Int32(x[7]))
    }

    /// Int32 → Int16, the low 16 bits of each lane.
    @inline(__always) static func narrow(_ x: SIMD8<Int32>) -> SIMD8<Int16> {
        SIMD8(Int16(truncatingIfNeeded: x[0]), Int16(truncatingIfNeeded: x[1]), Int16(truncatingIfNeeded: x[2]),
              Int16(truncatingIfNeeded: x[3]), Int16(truncatingIfNeeded: x[4]), Int16(truncatingIfNeeded: x[5]),
              Int16(truncatingIfNeeded: x[6]), Int16(truncatingIfNeeded: x[7]))
    }

    /// Every lane clamped to −32768…32767 (still 32-bit): the excess over each bound is kept
    /// only where it is negative, by a mask of its sign. Bound: lanes within −2^31 + 32768 …
    /// 2^31 − 1 − 32767 − 32768, where no step wraps (the IDCT's sums are far inside).
    @inline(__always) static func saturated16(_ x: SIMD8<Int32>) -> SIMD8<Int32> {
        let over = x &- 32767
        let belowTop = 32767 &+ (over & (over &>> 31))               // min(x, 32767)
        let aboveBottom = belowTop &+ 32768
        return -32768 &+ (aboveBottom & ~(aboveBottom &>> 31))     // max(…, −32768)
    }

    /// Bytes 0…7 of `x` (`half` 0) or 8…15 (`half` 1), zero-extended.
    @inline(__always) static func shorts(_ x: SIMD16<UInt8>, half: Int) -> SIMD8<Int16> {
        let b = 8 &* half
        return SIMD8(Int16(x[b]), Int16(x[b &+ 1]), Int16(x[b &+ 2]), Int16(x[b &+ 3]),
                     Int16(x[b &+ 4]), Int16(x[b &+ 5]), Int16(x[b &+ 6]), Int16(x[b &+ 7]))
    }

    /// Every lane clamped to 0…255: a negative lane masked to 0 by its sign, a lane above 255
    /// set to all ones by the sign of 255 − x, then cut to its low byte. Bound: lanes ≥ −32768
    /// + 255 (255 − x must not wrap); callers' values lie within a few hundred of 0…255.
    @inline(__always) static func clamped(_ x: SIMD8<Int16>) -> SIMD8<Int16> {
        let positive = x & ~(x &>> 15)
        return (positive | ((255 &- positive) &>> 15)) & 255
    }

    /// Eight lanes clamped to 0…255, as bytes.
    @inline(__always) static func clampedBytes(_ x: SIMD8<Int16>) -> SIMD8<UInt8> {
        let c = clamped(x)
        return SIMD8(UInt8(truncatingIfNeeded: c[0]), UInt8(truncatingIfNeeded: c[1]), UInt8(truncatingIfNeeded: c[2]),
                     UInt8(truncatingIfNeeded: c[3]), UInt8(truncatingIfNeeded: c[4]), UInt8(truncatingIfNeeded: c[5]),
                     UInt8(truncatingIfNeeded: c[6]), UInt8(truncatingIfNeeded: c[7]))
    }

    /// Sixteen lanes clamped to 0…255, as bytes (`packuswb`).
    @inline(__always) static func clampedBytes(_ low: SIMD8<Int16>, _ high: SIMD8<Int16>) -> SIMD16<UInt8> {
        let a = clamped(low), b = clamped(high)
        @inline(__always) func byte(_ x: Int16) -> UInt8 { UInt8(truncatingIfNeeded: x) }
        return SIMD16(byte(a[0]), byte(a[1]), byte(a[2]), byte(a[3]), byte(a[4]), byte(a[5]), byte(a[6]), byte(a[7]),
                      byte(b[0]), byte(b[1]), byte(b[2]), byte(b[3]), byte(b[4]), byte(b[5]), byte(b[6]), byte(b[7]))
    }
}
