/// The horizontal stage of h2v2 fancy upsampling (`UpsamplingKernels.h2v2Fancy`, 4:2:0 chroma)
/// eight column sums at a time, in 16-bit lanes: the same integer formulas, so the same bytes
/// (`JPEGUpsamplingLaneTests` compares them with the scalar kernel on every width up to 300).
/// The scalar kernel stays the readable reference and does the row's two edge columns, whose
/// outer neighbour is the column itself.
///
/// Each step computes the even outputs (3·x[i] + x[i − 1] + 8) >> 4 and the odd ones
/// (3·x[i] + x[i + 1] + 7) >> 4 of eight columns and stores them as one 16-byte vector whose
/// 16-bit lane k is even[k] | odd[k] << 8: on a little-endian machine that is the byte pair
/// (even[k], odd[k]), outputs 2k and 2k + 1, with no shuffle. The compiler's version of the
/// scalar loop interleaved with unpacks, masks and a pack: 22 instructions per eight columns,
/// loads and loop included, where this takes 17. Every lane holds at most 16 · 255 + 8, so
/// nothing wraps, and a result ≤ 255 has no bits above the low byte for the OR to mix.
/// h2v1 (4:2:2) keeps the compiler's version: written this way, its byte inputs (loaded three
/// times, one byte apart) were merged by LLVM into one load and shuffles, 29 instructions a step.
///
/// Unsafe: a named kernel (STYLE.md item 20). Bounds: the body's step at i (1 ≤ i ≤ width − 9)
/// reads inputs i − 1 … i + 8 and writes outputs 2i … 2i + 15, inside a row of `width` inputs
/// and `2 × width` outputs; the last step is placed at width − 9, overlapping the one before
/// (the overlapped outputs are written twice with the same values). Rows narrower than ten
/// samples go through the scalar kernel.
enum UpsamplingLaneKernels {
    typealias Words = SIMD8<UInt16>

    /// Outputs 2i … 2i + 15 from the column sums i − 1 … i + 8: (3c + left + 8) >> 4 and
    /// (3c + right + 7) >> 4 as byte pairs.
    @inline(__always)
    static func storePairs(left: Words, center: Words, right: Words, _ output: UnsafeMutablePointer<UInt8>) {
        let center3 = center &+ center &+ center
        let even = (center3 &+ left &+ 8) &>> 4
        let odd = (center3 &+ right &+ 7) &>> 4
        UnsafeMutableRawPointer(output).storeBytes(of: even | odd &<< 8, as: Words.self)
    }

    /// `UpsamplingKernels.h2v2Fancy`: the column sums as there (a loop the compiler vectorises
    /// well), then the horizontal filter on them in lanes. `width` > 2.
    static func h2v2Fancy(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int, sums: UnsafeMutablePointer<UInt16>,
                          _ output: UnsafeMutablePointer<UInt8>) {
        #if _endian(little)
        guard width >= 10 else { return UpsamplingKernels.h2v2Fancy(near: near, far: far, width: width, sums: sums, output) }
        UpsamplingKernels.columnSums(near: near, far: far, width: width, sums)
        let s = UnsafeRawPointer(sums)
        @inline(__always) func step(_ i: Int) {
            storePairs(left: s.loadUnaligned(fromByteOffset: 2 &* (i &- 1), as: Words.self),
                       center: s.loadUnaligned(fromByteOffset: 2 &* i, as: Words.self),
                       right: s.loadUnaligned(fromByteOffset: 2 &* (i &+ 1), as: Words.self), output + 2 &* i)
        }
        var i = 1
        while i &+ 9 <= width { step(i); i &+= 8 }
        if i < width &- 1 { step(width &- 9) }
        UpsamplingKernels.h2v2FancyEdges(sums: sums, width: width, output)
        #else
        UpsamplingKernels.h2v2Fancy(near: near, far: far, width: width, sums: sums, output)
        #endif
    }
}
