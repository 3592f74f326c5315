/// The resampler's working memory, allocated zeroed once and freed by `deallocate()` (called
/// from `StreamingResampler.deinit`), so the per-row path touches no array and pays no
/// exclusivity check. Sizes:
/// - the filter tables as `ResampleFilter.axis` made them, the horizontal weights as pairs
///   (`horizontalPairStride` vectors per destination pixel, each two weights in every lane
///   pair; the last second weight zero when a pixel has an odd number of taps);
/// - `ringHigh` and `ringLow`, `ringRows` rows of `ringRowLength` values — room for four per
///   destination pixel; an opaque source uses three (`ResampleKernels` explains the split of
///   each value into 12-bit parts);
/// - `filtered` and `boxSum`, one destination row (`destinationWidth × 4`);
/// - `pixelPairs` and `boxedRow`, one boxed source row (`boxedWidth` entries, `× 4` bytes);
/// - `opaqueRow`, one destination row of RGB8 for an opaque source (else empty);
/// - `verticalHigh`, `verticalLow` and `verticalWeightPairs`, one destination row's taps
///   rounded up to an even count.
/// Every index the kernels compute stays within these (see each kernel).
struct ResampleBuffers {
    let horizontalStarts: UnsafeMutableBufferPointer<Int32>
    let horizontalCounts: UnsafeMutableBufferPointer<Int32>
    let horizontalWeightPairs: UnsafeMutableBufferPointer<SIMD8<Int16>>
    let horizontalPairStride: Int
    let verticalStarts: UnsafeMutableBufferPointer<Int32>
    let verticalCounts: UnsafeMutableBufferPointer<Int32>
    let verticalWeights: UnsafeMutableBufferPointer<Int32>
    /// Values from one ring row to the next: four per destination pixel, plus one (an opaque
    /// row keeps three a pixel, and the horizontal pass's last four-lane store then reaches one
    /// value past them).
    let ringRowLength: Int
    let ringHigh: UnsafeMutableBufferPointer<Int16>
    let ringLow: UnsafeMutableBufferPointer<Int16>
    let filtered: UnsafeMutableBufferPointer<Int32>
    let boxSum: UnsafeMutableBufferPointer<Double>
    let verticalHigh: UnsafeMutableBufferPointer<UnsafePointer<Int16>>
    let verticalLow: UnsafeMutableBufferPointer<UnsafePointer<Int16>>
    let verticalWeightPairs: UnsafeMutableBufferPointer<UInt32>
    let pixelPairs: UnsafeMutableBufferPointer<SIMD8<Int16>>
    let boxedRow: UnsafeMutableBufferPointer<UInt8>
    /// An opaque destination row as RGB8, before it is expanded to its layout.
    let opaqueRow: UnsafeMutableBufferPointer<UInt8>

    init(horizontal: ResampleFilter.Axis, vertical: ResampleFilter.Axis, ringRows: Int, destinationWidth: Int, boxedWidth: Int, opaque: Bool) {
        func copy<T>(_ values: [T]) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, values.count))
            _ = buffer.initialize(from: values)
            return buffer
        }
        func zeroed<T: Numeric>(_ count: Int, _ type: T.Type) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, count))
            buffer.initialize(repeating: 0)
            return UnsafeMutableBufferPointer(rebasing: buffer[0 ..< count])
        }
        horizontalStarts = copy(horizontal.starts)
        horizontalCounts = copy(horizontal.counts)
        let pairStride = (horizontal.stride + 1) / 2
        horizontalPairStride = pairStride
        var pairs = [SIMD8<Int16>](repeating: SIMD8(repeating: 0), count: horizontal.starts.count * pairStride)
        for i in 0 ..< horizontal.starts.count {
            let weights = horizontal.weights[i * horizontal.stride ..< (i + 1) * horizontal.stride]
            for k in 0 ..< pairStride {
                let first = weights.startIndex + 2 * k
                pairs[i * pairStride + k] = ResampleKernels.broadcast(ResampleKernels.weightPair(weights[first],
                                                                                                  first + 1 < weights.endIndex ? weights[first + 1] : 0))
            }
        }
        horizontalWeightPairs = copy(pairs)
        verticalStarts = copy(vertical.starts)
        verticalCounts = copy(vertical.counts)
        verticalWeights = copy(vertical.weights)
        let row = destinationWidth * 4
        ringRowLength = destinationWidth * 4 + 1
        ringHigh = zeroed(ringRows * ringRowLength, Int16.self)
        ringLow = zeroed(ringRows * ringRowLength, Int16.self)
        filtered = zeroed(row, Int32.self)
        boxSum = zeroed(row, Double.self)
        let taps = vertical.stride + 1
        verticalHigh = .allocate(capacity: taps)
        verticalLow = .allocate(capacity: taps)
        verticalWeightPairs = zeroed((taps + 1) / 2, UInt32.self)
        pixelPairs = .allocate(capacity: max(1, boxedWidth))
        pixelPairs.initialize(repeating: SIMD8(repeating: 0))
        boxedRow = zeroed(boxedWidth * 4, UInt8.self)
        opaqueRow = zeroed(opaque ? destinationWidth * 3 : 0, UInt8.self)
    }

    func deallocate() {
        for buffer in [horizontalStarts, horizontalCounts, verticalStarts, verticalCounts, verticalWeights] { buffer.deallocate() }
        horizontalWeightPairs.deallocate(); verticalWeightPairs.deallocate()
        ringHigh.deallocate(); ringLow.deallocate(); filtered.deallocate(); boxSum.deallocate()
        verticalHigh.deallocate(); verticalLow.deallocate(); pixelPairs.deallocate(); boxedRow.deallocate(); opaqueRow.deallocate()
    }
}
