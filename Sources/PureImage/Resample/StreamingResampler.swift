/// A separable Lanczos-3 resampler that takes source rows one at a time, top to bottom, and
/// never needs more of the source than the rows its vertical filter spans.
///
/// ```
///  source row y ─► [box] ─► horizontal pass ─► [box] ─► ring of filtered rows ─► vertical pass ─► destination row
///  (RGBA8, premultiplied)     (dest width, Int32)          (≥ filter height)       (when its last row is in)
/// ```
/// Memory: the destination plus `ring` rows of `destinationWidth × 4` Int32 and the filter
/// tables, all O(destination) — for a 1/8 reduction about 50 rows. Band boundaries of the
/// decoder are invisible here: the ring carries the filter across them, which is what
/// SDWebImage's 2-row seam overlap approximates.
///
/// Reductions beyond `boxThreshold` on an axis first average whole groups of source pixels
/// (`box`), so the Lanczos stage never reduces by more than 16: its taps — and so its tables,
/// its ring and the time to build them — stay bounded whatever the source claims (a 1 × 2^28
/// image thumbnailed to 48 rows would otherwise need 2^28 × 6 weights). Pillow's thumbnails do
/// the same (`reduce` by an integer factor before resampling, `reducing_gap`).
///
/// Filtering runs on premultiplied RGBA so transparent pixels do not bleed their colour into
/// their neighbours; results are clamped to 0...255 and colours to at most alpha.
final class StreamingResampler {
    /// Reductions larger than this on an axis get a box stage first.
    static let boxThreshold = 16.0

    let sourceWidth: Int, sourceHeight: Int
    let destinationWidth: Int, destinationHeight: Int
    /// Source pixels averaged into one by the box stage, per axis (1: no box stage).
    private let boxX: Int, boxY: Int
    private let horizontal: ResampleFilter.Axis
    private let vertical: ResampleFilter.Axis
    private let ringRows: Int
    private var ring: [Int32]
    /// Premultiplied RGBA8, `destinationWidth × 4` bytes per row.
    private(set) var destination: [UInt8]
    /// One horizontally filtered row, and the vertical box's running sum of them.
    private var filtered: [Int32]
    private var boxSum: [Int64]
    private var boxCount = 0
    /// The box-averaged source row (horizontal box stage).
    private var boxedRow: [UInt8]
    /// The vertical pass's accumulators, one destination row.
    private var accumulator: [Int64]
    private var nextSourceRow = 0
    /// Rows entered into the ring (after the vertical box stage).
    private var nextRingRow = 0
    private var nextDestinationRow = 0
    private let budget: MemoryBudget
    private let reservedBytes: Int

    /// `sourceExtent`: the picture's size in source pixels when it is not whole (a JPEG decoded
    /// at a DCT scale: source size / denominator); nil when it is the source size. Every buffer
    /// is reserved in `budget` before it is allocated.
    init(sourceWidth: Int, sourceHeight: Int, destinationWidth: Int, destinationHeight: Int,
         sourceExtent: (width: Double, height: Double)? = nil, budget: MemoryBudget = MemoryBudget(limits: .default)) throws(DecodeError) {
        guard sourceWidth > 0, sourceHeight > 0, destinationWidth > 0, destinationHeight > 0 else {
            throw DecodeError(.limitExceeded, format: nil, offset: nil,
                              LimitReason.tooManyPixels(width: destinationWidth, height: destinationHeight, limit: budget.limits.maxPixels))
        }
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.destinationWidth = destinationWidth
        self.destinationHeight = destinationHeight
        let extentX = sourceExtent?.width ?? Double(sourceWidth), extentY = sourceExtent?.height ?? Double(sourceHeight)
        boxX = Self.boxFactor(extent: extentX, destination: destinationWidth)
        boxY = Self.boxFactor(extent: extentY, destination: destinationHeight)
        let boxedWidth = (sourceWidth + boxX - 1) / boxX, boxedHeight = (sourceHeight + boxY - 1) / boxY
        let strideX = ResampleFilter.stride(sourceExtent: extentX / Double(boxX), destinationSize: destinationWidth)
        let strideY = ResampleFilter.stride(sourceExtent: extentY / Double(boxY), destinationSize: destinationHeight)
        ringRows = strideY + 1
        // Tables (weights, starts, counts), ring, filtered row, box sum, accumulator, boxed
        // row and destination; nil when a product overflows.
        let parts: [Int?] = [
            SizeMath.product(destinationWidth, strideX + 2, 4), SizeMath.product(destinationHeight, strideY + 2, 4),
            SizeMath.product(ringRows, destinationWidth, 16), SizeMath.product(destinationWidth, 16 + 32 + 32),
            SizeMath.product(boxedWidth, 4), SizeMath.product(destinationWidth, destinationHeight, 4),
        ]
        let total = parts.reduce(Optional(0)) { sum, part in
            guard let sum, let part else { return nil }
            let (result, overflow) = sum.addingReportingOverflow(part)
            return overflow ? nil : result
        }
        try budget.reserve(total, format: nil, offset: nil)
        self.budget = budget
        reservedBytes = total ?? 0
        horizontal = ResampleFilter.axis(sourceSize: boxedWidth, destinationSize: destinationWidth,
                                         sourceExtent: boxX > 1 || sourceExtent != nil ? extentX / Double(boxX) : nil)
        vertical = ResampleFilter.axis(sourceSize: boxedHeight, destinationSize: destinationHeight,
                                       sourceExtent: boxY > 1 || sourceExtent != nil ? extentY / Double(boxY) : nil)
        ring = [Int32](repeating: 0, count: ringRows * destinationWidth * 4)
        destination = [UInt8](repeating: 0, count: destinationWidth * destinationHeight * 4)
        filtered = [Int32](repeating: 0, count: destinationWidth * 4)
        boxSum = boxY > 1 ? [Int64](repeating: 0, count: destinationWidth * 4) : []
        boxedRow = boxX > 1 ? [UInt8](repeating: 0, count: boxedWidth * 4) : []
        accumulator = [Int64](repeating: 0, count: destinationWidth * 4)
    }

    deinit {
        budget.release(reservedBytes)
    }

    /// The box factor for an axis: none up to `boxThreshold`, else the whole number of source
    /// pixels that leaves the Lanczos stage a reduction between 8 and 16.
    static func boxFactor(extent: Double, destination: Int) -> Int {
        let scale = extent / Double(destination)
        return scale > boxThreshold ? max(2, Int(scale / 8)) : 1
    }

    var isComplete: Bool { nextDestinationRow == destinationHeight }

    /// Takes the next source row (premultiplied RGBA8, `sourceWidth × 4` bytes).
    func consume(_ row: UnsafeBufferPointer<UInt8>) {
        // The unchecked reads below rely on a full row; callers always pass one.
        guard nextSourceRow < sourceHeight, row.count >= sourceWidth * 4 else { return }
        if boxX > 1 {
            boxedRow.withUnsafeMutableBufferPointer { boxed in
                ResampleKernels.boxAverage(row, width: sourceWidth, factor: boxX, into: boxed)
            }
            boxedRow.withUnsafeBufferPointer { boxed in
                filtered.withUnsafeMutableBufferPointer { out in ResampleKernels.horizontal(boxed, axis: horizontal, into: out) }
            }
        } else {
            filtered.withUnsafeMutableBufferPointer { out in ResampleKernels.horizontal(row, axis: horizontal, into: out) }
        }
        nextSourceRow += 1
        enterFilteredRow(blank: false)
    }

    /// Takes `count` transparent source rows (what a truncated file never delivered): their
    /// horizontal pass is all zeros, so only the vertical stages run — O(destination) work
    /// however many rows are missing.
    func consumeBlankRows(_ count: Int) {
        var remaining = min(count, sourceHeight - nextSourceRow)
        while remaining > 0 {
            // With a vertical box, whole groups of blank rows add nothing to its sum.
            let take = boxY > 1 ? min(remaining, boxY - boxCount) : 1
            nextSourceRow += take
            remaining -= take
            if boxY > 1 {
                boxCount += take - 1
            }
            enterFilteredRow(blank: true)
        }
    }

    /// After the horizontal stage: through the vertical box (if any) into the ring.
    private func enterFilteredRow(blank: Bool) {
        guard boxY > 1 else {
            writeRingRow(blank: blank)
            return
        }
        if !blank {
            boxSum.withUnsafeMutableBufferPointer { sum in
                filtered.withUnsafeBufferPointer { row in ResampleKernels.add(row, into: sum) }
            }
        }
        boxCount += 1
        // A group ends after `boxY` rows, or with the last source row (a shorter group).
        guard boxCount == boxY || nextSourceRow == sourceHeight else { return }
        let count = boxCount
        filtered.withUnsafeMutableBufferPointer { out in
            boxSum.withUnsafeMutableBufferPointer { sum in ResampleKernels.average(sum, count: count, into: out) }
        }
        boxCount = 0
        writeRingRow(blank: false)
    }

    /// Writes `filtered` (or zeros) as the next row of the vertical stage, then emits every
    /// destination row it completes.
    private func writeRingRow(blank: Bool) {
        let width = destinationWidth * 4
        let base = (nextRingRow % ringRows) * width
        ring.withUnsafeMutableBufferPointer { ring in
            filtered.withUnsafeBufferPointer { row in
                for i in 0..<width { ring[base + i] = blank ? 0 : row[i] }
            }
        }
        nextRingRow += 1
        emitReadyRows()
    }

    /// Writes every destination row whose source rows have all arrived.
    private func emitReadyRows() {
        while nextDestinationRow < destinationHeight {
            let r = nextDestinationRow
            let start = Int(vertical.starts[r]), count = Int(vertical.counts[r])
            guard start + count <= nextRingRow else { return }
            // Rows start ..< start + count are still in the ring: count < ringRows, and no row
            // newer than start + count − 1 has been written over them.
            accumulator.withUnsafeMutableBufferPointer { accumulator in
                ring.withUnsafeBufferPointer { ring in
                    vertical.weights.withUnsafeBufferPointer { weights in
                        destination.withUnsafeMutableBufferPointer { out in
                            ResampleKernels.vertical(ring: ring, ringRows: ringRows, firstRow: start, taps: count,
                                                     weights: UnsafeBufferPointer(rebasing: weights[r * vertical.stride ..< r * vertical.stride + count]),
                                                     accumulator: accumulator, destinationRow: r, into: out)
                        }
                    }
                }
            }
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
