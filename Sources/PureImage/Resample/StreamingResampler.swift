/// A separable Lanczos-3 resampler that takes source rows one at a time, top to bottom, and
/// never needs more of the source than the rows its vertical filter spans.
///
/// ```
///  source row y ──► horizontal pass ──► ring of filtered rows ──► vertical pass ──► destination row
///  (RGBA8, premultiplied)  (dest width, Int32)   (≥ filter height)    (when its last source row is in)
/// ```
/// Memory: the destination plus `ring` rows of `destinationWidth × 4` Int32 — for a 1/8
/// reduction about 50 rows. Band boundaries of the decoder are invisible here: the ring carries
/// the filter across them, which is what SDWebImage's 2-row seam overlap approximates.
///
/// Filtering runs on premultiplied RGBA so transparent pixels do not bleed their colour into
/// their neighbours; results are clamped to 0...255 and colours to at most alpha.
final class StreamingResampler {
    let sourceWidth: Int, sourceHeight: Int
    let destinationWidth: Int, destinationHeight: Int
    private let horizontal: ResampleFilter.Axis
    private let vertical: ResampleFilter.Axis
    private let ringRows: Int
    private var ring: [Int32]
    /// Premultiplied RGBA8, `destinationWidth × 4` bytes per row.
    private(set) var destination: [UInt8]
    private var nextSourceRow = 0
    private var nextDestinationRow = 0

    /// `sourceExtent`: the picture's size in source pixels when it is not whole (a JPEG decoded
    /// at a DCT scale: source size / denominator); nil when it is the source size.
    init(sourceWidth: Int, sourceHeight: Int, destinationWidth: Int, destinationHeight: Int,
         sourceExtent: (width: Double, height: Double)? = nil) {
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.destinationWidth = destinationWidth
        self.destinationHeight = destinationHeight
        horizontal = ResampleFilter.axis(sourceSize: sourceWidth, destinationSize: destinationWidth, sourceExtent: sourceExtent?.width)
        vertical = ResampleFilter.axis(sourceSize: sourceHeight, destinationSize: destinationHeight, sourceExtent: sourceExtent?.height)
        ringRows = vertical.stride + 1
        ring = [Int32](repeating: 0, count: ringRows * destinationWidth * 4)
        destination = [UInt8](repeating: 0, count: destinationWidth * destinationHeight * 4)
    }

    var isComplete: Bool { nextDestinationRow == destinationHeight }

    /// Takes the next source row (premultiplied RGBA8, `sourceWidth × 4` bytes).
    func consume(_ row: UnsafeBufferPointer<UInt8>) {
        // The unchecked reads below rely on a full row; callers always pass one.
        guard nextSourceRow < sourceHeight, row.count >= sourceWidth * 4 else { return }
        let slot = nextSourceRow % ringRows
        let width = destinationWidth
        horizontal.weights.withUnsafeBufferPointer { weights in
        horizontal.starts.withUnsafeBufferPointer { starts in
        horizontal.counts.withUnsafeBufferPointer { counts in
        ring.withUnsafeMutableBufferPointer { ring in
            // Bounds: starts[i] + counts[i] ≤ sourceWidth (clipped in ResampleFilter.axis) and
            // row holds sourceWidth × 4 bytes; slot < ringRows.
            let base = slot * width * 4
            let stride = horizontal.stride
            for i in 0..<width {
                var r: Int32 = 0, g: Int32 = 0, b: Int32 = 0, a: Int32 = 0
                let start = Int(starts[i]), count = Int(counts[i])
                for k in 0..<count {
                    let w = weights[i * stride + k]
                    let p = (start + k) * 4
                    r &+= w &* Int32(row[p]); g &+= w &* Int32(row[p + 1])
                    b &+= w &* Int32(row[p + 2]); a &+= w &* Int32(row[p + 3])
                }
                let o = base + i * 4
                ring[o] = r; ring[o + 1] = g; ring[o + 2] = b; ring[o + 3] = a
            }
        }}}}
        nextSourceRow += 1
        emitReadyRows()
    }

    /// Writes every destination row whose source rows have all arrived.
    private func emitReadyRows() {
        let width = destinationWidth
        while nextDestinationRow < destinationHeight {
            let r = nextDestinationRow
            let start = Int(vertical.starts[r]), count = Int(vertical.counts[r])
            guard start + count <= nextSourceRow else { return }
            vertical.weights.withUnsafeBufferPointer { weights in
            ring.withUnsafeBufferPointer { ring in
            destination.withUnsafeMutableBufferPointer { out in
                // Rows start ..< start + count are still in the ring: count < ringRows, and
                // no row newer than start + count − 1 has been written over them.
                let outBase = r * width * 4
                for x in 0..<width {
                    var accumulator: (Int64, Int64, Int64, Int64) = (0, 0, 0, 0)
                    for k in 0..<count {
                        let w = Int64(weights[r * vertical.stride + k])
                        let o = ((start + k) % ringRows) * width * 4 + x * 4
                        accumulator.0 += w * Int64(ring[o]); accumulator.1 += w * Int64(ring[o + 1])
                        accumulator.2 += w * Int64(ring[o + 2]); accumulator.3 += w * Int64(ring[o + 3])
                    }
                    // Two 14-bit weight factors: round and drop 28 bits, clamp to 0...255.
                    func clamp(_ v: Int64) -> Int64 { min(255, max(0, (v + (1 << 27)) >> 28)) }
                    let alpha = clamp(accumulator.3)
                    out[outBase + x * 4] = UInt8(min(alpha, clamp(accumulator.0)))
                    out[outBase + x * 4 + 1] = UInt8(min(alpha, clamp(accumulator.1)))
                    out[outBase + x * 4 + 2] = UInt8(min(alpha, clamp(accumulator.2)))
                    out[outBase + x * 4 + 3] = UInt8(alpha)
                }
            }}}
            nextDestinationRow += 1
        }
    }

    /// The result as a premultiplied RGBA8 bitmap (complete once every source row was consumed).
    /// The destination storage moves into the bitmap (the resampler keeps no reference), so the
    /// caller can convert it in place without a copy.
    func takeBitmap() -> Bitmap {
        let bytes = destination
        destination = []
        return Bitmap(uncheckedWidth: destinationWidth, height: destinationHeight, format: .rgba8Premultiplied,
                      bytesPerRow: destinationWidth * 4, bytes: bytes)
    }
}
