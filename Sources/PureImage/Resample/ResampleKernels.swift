/// The resampler's inner loops (`StreamingResampler`), on unsafe buffers so they compile to
/// tight, vectorised loops. Each states the bounds its caller guarantees.
///
/// Arithmetic is integer arithmetic carried in floating point, exactly: the 14-bit weights and
/// 8-bit samples give horizontal sums whose every partial sum is an integer below
/// 255 · 1.3 · 2^14 < 2^23, exact in `Float` (24-bit mantissa); the vertical products and sums
/// stay below 2^53, exact in `Double`. So the results are bit for bit those of the Int32/Int64
/// formulation, while SSE2 — which has no 32- or 64-bit lane multiply — multiplies four floats
/// or two doubles at once.
enum ResampleKernels {
    /// Horizontal Lanczos pass of one premultiplied RGBA8 row into `out` (`destination × 4`
    /// values, 14-bit fixed point held as exact `Float` integers). The row is widened to
    /// `Float` once into `widened` (each source pixel feeds about six destination pixels).
    /// Bounds: `starts[i] + counts[i] ≤` the row's pixels (clipped in `ResampleFilter.axis`),
    /// `counts[i] ≤ stride`, `weights.count ≥ destination × stride`, `widened.count ≥
    /// row.count`, and `out.count == destination × 4`.
    static func horizontal(_ row: UnsafeBufferPointer<UInt8>, widened: UnsafeMutableBufferPointer<Float>,
                           starts: UnsafeBufferPointer<Int32>, counts: UnsafeBufferPointer<Int32>,
                           weights: UnsafeBufferPointer<Float>, stride: Int, into out: UnsafeMutableBufferPointer<Float>) {
        guard let weightBase = weights.baseAddress, let target = out.baseAddress, let floats = widened.baseAddress else { return }
        for i in 0..<min(row.count, widened.count) { floats[i] = Float(row[i]) }
        let source = UnsafeRawPointer(floats)
        @inline(__always) func pixel(_ index: Int) -> SIMD4<Float> {
            source.loadUnaligned(fromByteOffset: index &* 16, as: SIMD4<Float>.self)
        }
        let width = out.count / 4
        for i in 0..<width {
            let start = Int(starts[i]), count = Int(counts[i])
            let w = weightBase + i &* stride
            // Four running sums, so the additions do not wait on one another (the order of exact
            // integer additions does not change their sum).
            var sum0 = SIMD4<Float>(repeating: 0), sum1 = sum0, sum2 = sum0, sum3 = sum0
            var k = 0
            while k &+ 4 <= count {
                sum0 += w[k] * pixel(start &+ k)
                sum1 += w[k &+ 1] * pixel(start &+ k &+ 1)
                sum2 += w[k &+ 2] * pixel(start &+ k &+ 2)
                sum3 += w[k &+ 3] * pixel(start &+ k &+ 3)
                k &+= 4
            }
            while k < count {
                sum0 += w[k] * pixel(start &+ k)
                k &+= 1
            }
            UnsafeMutableRawPointer(target + i &* 4).storeBytes(of: (sum0 + sum1) + (sum2 + sum3), as: SIMD4<Float>.self)
        }
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

    /// `sum += row`, element by element (equal lengths). Sums of exact integers below 2^53.
    static func add(_ row: UnsafeBufferPointer<Float>, into sum: UnsafeMutableBufferPointer<Double>) {
        for i in 0..<min(row.count, sum.count) { sum[i] += Double(row[i]) }
    }

    /// `out = round(sum / count)` (halves towards +∞, in integers), then `sum = 0`. Equal lengths.
    static func average(_ sum: UnsafeMutableBufferPointer<Double>, count: Int, into out: UnsafeMutableBufferPointer<Float>) {
        let twice = Int64(2 * count)
        for i in 0..<min(out.count, sum.count) {
            let n = 2 * Int64(sum[i]) + Int64(count)
            out[i] = Float(n >= 0 ? n / twice : -((-n + twice - 1) / twice))
            sum[i] = 0
        }
    }

    /// Vertical Lanczos pass for destination row `r`: the `taps` ring rows from `firstRow`,
    /// weighted, summed in `accumulator` (tap by tap, each over the whole row: no division per
    /// pixel, and the inner loop vectorises), then rounded, clamped to 0...255 and colours to
    /// at most alpha into row `r` of `out`. Bounds: ring rows are taken modulo `ringRows`,
    /// `accumulator.count` is a destination row (`width × 4`), `out` holds row `r`.
    static func vertical(ring: UnsafeBufferPointer<Float>, ringRows: Int, firstRow: Int, taps: Int,
                         weights: UnsafeBufferPointer<Int32>, accumulator: UnsafeMutableBufferPointer<Double>,
                         destinationRow r: Int, into out: UnsafeMutableBufferPointer<UInt8>) {
        let width = accumulator.count
        guard let sums = accumulator.baseAddress, let rows = ring.baseAddress else { return }
        let pixels = width / 4
        // Four channels of a pixel at a time; `width` is a whole number of RGBA pixels.
        let sumVectors = UnsafeMutableRawPointer(sums)
        for p in 0..<pixels { sumVectors.storeBytes(of: SIMD4<Double>(repeating: 0), toByteOffset: p &* 32, as: SIMD4<Double>.self) }
        var slot = firstRow % ringRows
        for k in 0..<taps {
            let w = Double(weights[k])
            let row = UnsafeRawPointer(rows + slot &* width)
            for p in 0..<pixels {
                let value = SIMD4<Double>(row.loadUnaligned(fromByteOffset: p &* 16, as: SIMD4<Float>.self))
                let sum = sumVectors.loadUnaligned(fromByteOffset: p &* 32, as: SIMD4<Double>.self)
                sumVectors.storeBytes(of: sum + w * value, toByteOffset: p &* 32, as: SIMD4<Double>.self)
            }
            slot += 1
            if slot == ringRows { slot = 0 }
        }
        // Two 14-bit weight factors: round and drop 28 bits ((v + 2^27) >> 28, a floor), clamp.
        @inline(__always) func clamp(_ v: Double) -> UInt8 {
            UInt8(min(255, max(0, ((v + 134_217_728) * (1.0 / 268_435_456)).rounded(.down))))
        }
        let outBase = r * width
        var x = 0
        while x < width {
            let alpha = clamp(accumulator[x + 3])
            out[outBase + x] = min(alpha, clamp(accumulator[x]))
            out[outBase + x + 1] = min(alpha, clamp(accumulator[x + 1]))
            out[outBase + x + 2] = min(alpha, clamp(accumulator[x + 2]))
            out[outBase + x + 3] = alpha
            x += 4
        }
    }
}

/// The resampler's working memory, allocated zeroed once and freed by `deallocate()` (called
/// from `StreamingResampler.deinit`). Sizes: the filter tables as `ResampleFilter.axis` made
/// them; `ring`, `ringRows × destinationWidth × 4`; `filtered`, `boxSum` and `accumulator`, one
/// destination row (`destinationWidth × 4`); `widened` and `boxedRow`, one boxed source row
/// (`boxedWidth × 4`). Every index the kernels compute stays within these (see each kernel).
struct ResampleBuffers {
    let horizontalStarts: UnsafeMutableBufferPointer<Int32>
    let horizontalCounts: UnsafeMutableBufferPointer<Int32>
    let horizontalWeights: UnsafeMutableBufferPointer<Float>
    let verticalStarts: UnsafeMutableBufferPointer<Int32>
    let verticalCounts: UnsafeMutableBufferPointer<Int32>
    let verticalWeights: UnsafeMutableBufferPointer<Int32>
    let ring: UnsafeMutableBufferPointer<Float>
    let filtered: UnsafeMutableBufferPointer<Float>
    let boxSum: UnsafeMutableBufferPointer<Double>
    let accumulator: UnsafeMutableBufferPointer<Double>
    let widened: UnsafeMutableBufferPointer<Float>
    let boxedRow: UnsafeMutableBufferPointer<UInt8>

    init(horizontal: ResampleFilter.Axis, vertical: ResampleFilter.Axis, ringRows: Int, destinationWidth: Int, boxedWidth: Int) {
        func copy<T>(_ values: [T]) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, values.count))
            _ = buffer.initialize(from: values)
            return buffer
        }
        func zeroed<T: Numeric>(_ count: Int, _ type: T.Type) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, count))
            buffer.initialize(repeating: 0)
            return buffer
        }
        horizontalStarts = copy(horizontal.starts)
        horizontalCounts = copy(horizontal.counts)
        horizontalWeights = copy(horizontal.weights.map(Float.init))
        verticalStarts = copy(vertical.starts)
        verticalCounts = copy(vertical.counts)
        verticalWeights = copy(vertical.weights)
        let row = destinationWidth * 4
        ring = UnsafeMutableBufferPointer(rebasing: zeroed(ringRows * row, Float.self)[0 ..< ringRows * row])
        filtered = UnsafeMutableBufferPointer(rebasing: zeroed(row, Float.self)[0 ..< row])
        boxSum = UnsafeMutableBufferPointer(rebasing: zeroed(row, Double.self)[0 ..< row])
        accumulator = UnsafeMutableBufferPointer(rebasing: zeroed(row, Double.self)[0 ..< row])
        widened = UnsafeMutableBufferPointer(rebasing: zeroed(boxedWidth * 4, Float.self)[0 ..< boxedWidth * 4])
        boxedRow = UnsafeMutableBufferPointer(rebasing: zeroed(boxedWidth * 4, UInt8.self)[0 ..< boxedWidth * 4])
    }

    func deallocate() {
        for buffer in [horizontalStarts, horizontalCounts, verticalStarts, verticalCounts, verticalWeights] { buffer.deallocate() }
        horizontalWeights.deallocate(); ring.deallocate(); filtered.deallocate(); widened.deallocate()
        boxSum.deallocate(); accumulator.deallocate(); boxedRow.deallocate()
    }
}

extension ResampleKernels {
    /// `out[i] = row[i] × scale` (exact: 255 × 2^14 < 2^24). Equal lengths.
    static func widen(_ row: UnsafeBufferPointer<UInt8>, scale: Float, into out: UnsafeMutableBufferPointer<Float>) {
        for i in 0..<min(row.count, out.count) { out[i] = Float(row[i]) * scale }
    }

    /// `sum += rows[k] × scale` for each of `count` rows of `rowBytes` bytes back to back in
    /// `rows` — `widen` then `add`, row by row, in one loop: the sums are the same exact integers
    /// (below 2^53) whatever the order. For sources of a pixel or two per row, where the calls
    /// per row would cost more than the arithmetic. Bounds: `rows` holds `count × rowBytes`
    /// bytes; `sum` holds `rowBytes` values.
    static func addWidenedRows(_ rows: UnsafeBufferPointer<UInt8>, rowBytes: Int, count: Int, scale: Double,
                               into sum: UnsafeMutableBufferPointer<Double>) {
        guard let source = rows.baseAddress, let target = sum.baseAddress,
              rowBytes <= sum.count, count * rowBytes <= rows.count else { return }
        if rowBytes == 4 {
            // One pixel per row: four integer running sums (each below count × 255 < 2^53).
            var total = SIMD4<UInt64>(repeating: 0)
            for k in 0..<count {
                let p = source + k &* 4
                total &+= SIMD4<UInt64>(UInt64(p[0]), UInt64(p[1]), UInt64(p[2]), UInt64(p[3]))
            }
            for i in 0..<4 { target[i] += Double(total[i]) * scale }
            return
        }
        for k in 0..<count {
            let row = source + k &* rowBytes
            for i in 0..<rowBytes { target[i] += Double(row[i]) * scale }
        }
    }

    /// Row `row` of the ring (`width` values) becomes `values`, or zeros.
    static func copyRow(_ values: UnsafeBufferPointer<Float>?, toRing ring: UnsafeMutableBufferPointer<Float>, row: Int, width: Int) {
        let base = row * width
        if let values {
            for i in 0..<width { ring[base &+ i] = values[i] }
        } else {
            for i in 0..<width { ring[base &+ i] = 0 }
        }
    }
}
