/// The 16-bit lane operations the lossy WebP kernels share (`VP8ColorLaneKernels`,
/// `VP8LoopFilterLaneKernels`), each written so that it compiles to a few SSE2 instructions.
///
/// Why not the standard library's SIMD functions: in this module, `pointwiseMin`,
/// `pointwiseMax` and `init(truncatingIfNeeded:)` between SIMD types are compiled as
/// out-of-line calls to their generic specialisations (measured: 90 calls in the loop filter
/// and conversion kernels, a tenth of the lossy decode's time), which also hide the arithmetic
/// around them from LLVM. The concrete-type operators (`&+`, `&*`, `&>>`, `&`, …) and shuffles
/// built from lanes are inlined. So: widening and narrowing are shuffles with zero
/// (`punpcklbw` / even bytes), and comparisons, minimum, maximum and clamp are arithmetic on
/// the sign of a difference (four SSE2 instructions each, no branch).
///
/// Unsafe: a named kernel (STYLE.md item 20). `load` reads 8 bytes at `p` and `store` writes 8
/// bytes at `p`; their callers state why those bytes lie inside their buffers.
enum VP8Lanes {
    typealias Signed = SIMD8<Int16>
    typealias Unsigned = SIMD8<UInt16>

    /// Eight bytes at `p` widened to 16-bit lanes.
    @inline(__always) static func load(_ p: UnsafePointer<UInt8>) -> Unsigned {
        let b = UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt8>.self)
        return unsafeBitCast(SIMD16<UInt8>(b[0], 0, b[1], 0, b[2], 0, b[3], 0, b[4], 0, b[5], 0, b[6], 0, b[7], 0),
                             to: Unsigned.self)
    }
    @inline(__always) static func loadSigned(_ p: UnsafePointer<UInt8>) -> Signed { unsafeBitCast(load(p), to: Signed.self) }

    /// Lanes holding 0…255 narrowed to eight bytes and stored at `p`.
    @inline(__always) static func store(_ x: Signed, _ p: UnsafeMutablePointer<UInt8>) {
        let b = unsafeBitCast(x, to: SIMD16<UInt8>.self)
        UnsafeMutableRawPointer(p).storeBytes(of: SIMD8<UInt8>(b[0], b[2], b[4], b[6], b[8], b[10], b[12], b[14]),
                                              as: SIMD8<UInt8>.self)
    }

    // Comparisons by the sign of a difference: exact when the difference fits in Int16, which
    // holds for every pair these kernels compare (values within ±16383; each caller's comment
    // gives its ranges). A `.>` comparison would be one `pcmpgtw`, but its `SIMDMask` result,
    // bit-cast to lanes, was compiled through scalar registers here.

    /// All ones in the lanes where a > b, zero elsewhere.
    @inline(__always) static func greater(_ a: Signed, _ b: Signed) -> Signed { (b &- a) &>> 15 }
    @inline(__always) static func select(_ mask: Signed, _ yes: Signed, _ no: Signed) -> Signed { (yes & mask) | (no & ~mask) }
    @inline(__always) static func maximum(_ a: Signed, _ b: Signed) -> Signed {
        let d = a &- b
        return b &+ (d & ~(d &>> 15))
    }
    @inline(__always) static func minimum(_ a: Signed, _ b: Signed) -> Signed {
        let d = a &- b
        return b &+ (d & (d &>> 15))
    }
    @inline(__always) static func clamp(_ x: Signed, _ low: Int16, _ high: Int16) -> Signed {
        minimum(maximum(x, Signed(repeating: low)), Signed(repeating: high))
    }
    /// |x| for x > −32768.
    @inline(__always) static func magnitude(_ x: Signed) -> Signed {
        let sign = x &>> 15
        return (x ^ sign) &- sign
    }
}
