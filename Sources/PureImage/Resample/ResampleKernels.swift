/// The resampler's inner loops (`StreamingResampler`), on unsafe buffers so they compile to
/// tight, vectorisable loops. Each states the bounds its caller guarantees.
enum ResampleKernels {
    /// Horizontal Lanczos pass of one premultiplied RGBA8 row into `out` (`destination × 4`
    /// Int32, 14-bit fixed point). Bounds: `starts[i] + counts[i] ≤` the row's pixels (clipped
    /// in `ResampleFilter.axis`), `counts[i] ≤ stride`, and `out.count == destination × 4`.
    static func horizontal(_ row: UnsafeBufferPointer<UInt8>, axis: ResampleFilter.Axis, into out: UnsafeMutableBufferPointer<Int32>) {
        let width = out.count / 4
        let stride = axis.stride
        axis.weights.withUnsafeBufferPointer { weights in
        axis.starts.withUnsafeBufferPointer { starts in
        axis.counts.withUnsafeBufferPointer { counts in
            for i in 0..<width {
                var r: Int32 = 0, g: Int32 = 0, b: Int32 = 0, a: Int32 = 0
                let start = Int(starts[i]), count = Int(counts[i])
                // |Σ w·v| ≤ 255 · Σ|w| < 2^31: the weights sum to 2^14 and their absolute
                // values to less than 1.3 · 2^14 (Lanczos-3's negative lobes), so Int32 holds it.
                for k in 0..<count {
                    let w = weights[i * stride + k]
                    let p = (start + k) * 4
                    r &+= w &* Int32(row[p]); g &+= w &* Int32(row[p + 1])
                    b &+= w &* Int32(row[p + 2]); a &+= w &* Int32(row[p + 3])
                }
                let o = i * 4
                out[o] = r; out[o + 1] = g; out[o + 2] = b; out[o + 3] = a
            }
        }}}
    }

    /// The box stage: each output pixel is the rounded mean of `factor` consecutive source
    /// pixels (fewer for the last). Bounds: `row` holds `width × 4` bytes and `out` holds
    /// `ceil(width / factor) × 4`.
    static func boxAverage(_ row: UnsafeBufferPointer<UInt8>, width: Int, factor: Int, into out: UnsafeMutableBufferPointer<UInt8>) {
        var j = 0, x = 0
        while x < width {
            let end = min(width, x + factor), count = end - x
            var r = 0, g = 0, b = 0, a = 0
            for p in x..<end {
                r += Int(row[p * 4]); g += Int(row[p * 4 + 1]); b += Int(row[p * 4 + 2]); a += Int(row[p * 4 + 3])
            }
            out[j * 4] = UInt8((r + count / 2) / count); out[j * 4 + 1] = UInt8((g + count / 2) / count)
            out[j * 4 + 2] = UInt8((b + count / 2) / count); out[j * 4 + 3] = UInt8((a + count / 2) / count)
            j += 1
            x = end
        }
    }

    /// `sum += row`, element by element (equal lengths).
    static func add(_ row: UnsafeBufferPointer<Int32>, into sum: UnsafeMutableBufferPointer<Int64>) {
        for i in 0..<min(row.count, sum.count) { sum[i] &+= Int64(row[i]) }
    }

    /// `out = round(sum / count)` (halves away from −∞), then `sum = 0`. Equal lengths.
    static func average(_ sum: UnsafeMutableBufferPointer<Int64>, count: Int, into out: UnsafeMutableBufferPointer<Int32>) {
        let twice = Int64(2 * count)
        for i in 0..<min(out.count, sum.count) {
            let n = 2 * sum[i] + Int64(count)
            out[i] = Int32(truncatingIfNeeded: n >= 0 ? n / twice : -((-n + twice - 1) / twice))
            sum[i] = 0
        }
    }

    /// Vertical Lanczos pass for destination row `r`: the `taps` ring rows from `firstRow`,
    /// weighted, summed in `accumulator` (tap by tap, each over the whole row — no division per
    /// pixel, so the inner loop vectorises), then rounded, clamped to 0...255 and colours to at
    /// most alpha into row `r` of `out`. Bounds: every ring row index is taken modulo
    /// `ringRows`, `accumulator.count` is a destination row (`width × 4`), `out` holds row `r`.
    static func vertical(ring: UnsafeBufferPointer<Int32>, ringRows: Int, firstRow: Int, taps: Int,
                         weights: UnsafeBufferPointer<Int32>, accumulator: UnsafeMutableBufferPointer<Int64>,
                         destinationRow r: Int, into out: UnsafeMutableBufferPointer<UInt8>) {
        let width = accumulator.count
        for i in 0..<width { accumulator[i] = 0 }
        var slot = firstRow % ringRows
        for k in 0..<taps {
            let w = Int64(weights[k])
            let base = slot * width
            for i in 0..<width { accumulator[i] &+= w &* Int64(ring[base + i]) }
            slot += 1
            if slot == ringRows { slot = 0 }
        }
        // Two 14-bit weight factors: round and drop 28 bits, clamp to 0...255.
        @inline(__always) func clamp(_ v: Int64) -> Int64 { min(255, max(0, (v &+ (1 << 27)) >> 28)) }
        let outBase = r * width
        var x = 0
        while x < width {
            let alpha = clamp(accumulator[x + 3])
            out[outBase + x] = UInt8(min(alpha, clamp(accumulator[x])))
            out[outBase + x + 1] = UInt8(min(alpha, clamp(accumulator[x + 1])))
            out[outBase + x + 2] = UInt8(min(alpha, clamp(accumulator[x + 2])))
            out[outBase + x + 3] = UInt8(alpha)
            x += 4
        }
    }
}
