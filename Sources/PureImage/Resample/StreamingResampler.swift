/// A separable Lanczos-3 resampler that takes source rows one at a time, top to bottom, and
/// never needs more of the source than the rows its vertical filter spans.
///
/// ```
///  source row y ─► [box] ─► horizontal pass ─► [box] ─► ring of filtered rows ─► vertical pass ─► destination row
///  (RGBA8, premultiplied)     (dest width, Int32)          (≥ filter height)       (when its last row is in; in `layout`)
/// ```
/// Memory: the destination plus `ring` rows of `destinationWidth × 4` values (two Int16 parts) and the filter
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
    private let verticalStride: Int
    /// The horizontal pass keeps every pixel (same width, one tap of weight 2^14 each): it is
    /// then a shift by 14 bits — common for tall images and thumbnails of narrow ones.
    private let horizontalIsIdentity: Bool
    private let ringRows: Int
    /// Every working buffer, allocated once (`ResampleBuffers`, in the kernel file): the hot
    /// per-row path then touches no array and pays no exclusivity check.
    private let buffers: ResampleBuffers
    /// Where finished destination rows go (in `layout`, tight rows).
    enum Output {
        /// Kept in one destination image (`takeBitmap()`).
        case whole
        /// Handed out in bands of `rowsPerBand` rows (the last band may be shorter) as they are
        /// finished, top to bottom: `deliver(firstRow, rows, count)`. The resampler then keeps one
        /// band, not the destination — what lets a downscale write a file of any size.
        case bands(rowsPerBand: Int, deliver: (_ firstRow: Int, _ rows: UnsafeBufferPointer<UInt8>, _ count: Int) -> Void)
    }
    private let output: Output
    /// The format destination rows are written in.
    let layout: ResampledLayout
    /// For an opaque source: RGB8 rows to `layout` (see `init`).
    private let expand: PixelConverter?
    /// Values the ring keeps per pixel: 3 for an opaque source (until blank rows arrive), else 4.
    private(set) var valuesPerPixel: Int
    /// Pixels in `layout`, `destinationWidth × 4` bytes per row: the whole destination, or one
    /// band of it (`Output.bands`) whose first row is `bandFirstRow`.
    private(set) var destination: [UInt8]
    private let rowsPerBand: Int
    private var bandFirstRow = 0
    private var boxCount = 0
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
         sourceExtent: (width: Double, height: Double)? = nil, budget: MemoryBudget = MemoryBudget(limits: .default),
         layout: ResampledLayout = .rgbaPremultiplied, opaque: Bool = false, output: Output = .whole) throws(DecodeError) {
        guard sourceWidth > 0, sourceHeight > 0, destinationWidth > 0, destinationHeight > 0 else {
            throw DecodeError(.limitExceeded, format: nil, offset: nil,
                              LimitReason.tooManyPixels(width: destinationWidth, height: destinationHeight, limit: budget.limits.maxPixels))
        }
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.destinationWidth = destinationWidth
        self.destinationHeight = destinationHeight
        self.output = output
        self.layout = layout
        switch output {
        case .whole: rowsPerBand = destinationHeight
        case .bands(let rows, _): rowsPerBand = min(max(1, rows), destinationHeight)
        }
        let extentX = sourceExtent?.width ?? Double(sourceWidth), extentY = sourceExtent?.height ?? Double(sourceHeight)
        boxX = Self.boxFactor(extent: extentX, destination: destinationWidth)
        boxY = Self.boxFactor(extent: extentY, destination: destinationHeight)
        let boxedWidth = (sourceWidth + boxX - 1) / boxX, boxedHeight = (sourceHeight + boxY - 1) / boxY
        let strideX = ResampleFilter.stride(sourceExtent: extentX / Double(boxX), destinationSize: destinationWidth)
        let strideY = ResampleFilter.stride(sourceExtent: extentY / Double(boxY), destinationSize: destinationHeight)
        ringRows = strideY + 1
        // Tables (weights, starts, counts: Int32, and the horizontal weights in pairs), ring,
        // filtered row, box sum, vertical taps, boxed row and its pixel pairs, destination; nil
        // when a product overflows.
        let parts: [Int?] = [
            SizeMath.product(destinationWidth, strideX + 2, 8), SizeMath.product(destinationHeight, strideY + 2, 4),
            SizeMath.product(ringRows, destinationWidth, 16), SizeMath.product(destinationWidth, 16 + 32), SizeMath.product(strideY + 2, 20),
            SizeMath.product(boxedWidth, 4 + 16), SizeMath.product(destinationWidth, rowsPerBand, 4),
            SizeMath.product(ringRows, 4), SizeMath.product(destinationWidth, 3),
        ]
        let total = parts.reduce(Optional(0)) { sum, part in
            guard let sum, let part else { return nil }
            let (result, overflow) = sum.addingReportingOverflow(part)
            return overflow ? nil : result
        }
        try budget.reserve(total, format: nil, offset: nil)
        self.budget = budget
        reservedBytes = total ?? 0
        let horizontal = ResampleFilter.axis(sourceSize: boxedWidth, destinationSize: destinationWidth,
                                             sourceExtent: boxX > 1 || sourceExtent != nil ? extentX / Double(boxX) : nil)
        let vertical = ResampleFilter.axis(sourceSize: boxedHeight, destinationSize: destinationHeight,
                                           sourceExtent: boxY > 1 || sourceExtent != nil ? extentY / Double(boxY) : nil)
        horizontalIsIdentity = boxX == 1 && destinationWidth == sourceWidth
            && (0..<destinationWidth).allSatisfy { horizontal.starts[$0] == $0 && horizontal.counts[$0] == 1 && horizontal.weights[$0 * horizontal.stride] == 1 << 14 }
        verticalStride = vertical.stride
        // An opaque source keeps three values a pixel (its alpha sums are 255 · 2^28 exactly,
        // so every pixel's alpha is 255 and no colour is clamped by it), and its rows are
        // expanded from RGB8 to the layout with alpha 255 (or skip) by a conversion kernel.
        expand = opaque ? try? PixelConverter(from: .rgb8, significantBits: 8, to: layout.format, pixels: destinationWidth) : nil
        valuesPerPixel = expand != nil ? 3 : 4
        buffers = ResampleBuffers(horizontal: horizontal, vertical: vertical, ringRows: ringRows,
                                  destinationWidth: destinationWidth, boxedWidth: boxedWidth, opaque: expand != nil)
        destination = PixelMemory.zeroed(count: destinationWidth * rowsPerBand * 4)
    }

    deinit {
        buffers.deallocate()
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
        consume(rows: row, count: 1)
    }

    /// Takes the next `count` source rows, back to back in `rows` (`sourceWidth × 4` bytes
    /// each). A source may have hundreds of millions of rows of a pixel or two, so the per-row
    /// path is a few kernel calls on preallocated buffers.
    func consume(rows: UnsafeBufferPointer<UInt8>, count: Int) {
        let rowBytes = sourceWidth * 4
        // The kernels rely on whole rows; callers always pass them.
        let count = min(count, sourceHeight - nextSourceRow, rows.count / max(1, rowBytes))
        guard count > 0 else { return }
        let b = buffers
        if horizontalIsIdentity && boxY > 1 {
            consumeIntoVerticalBox(rows: rows, rowBytes: rowBytes, count: count)
            return
        }
        for y in 0..<count {
            var row = UnsafeBufferPointer(rebasing: rows[y * rowBytes ..< (y + 1) * rowBytes])
            if boxX > 1 {
                ResampleKernels.boxAverage(row, width: sourceWidth, factor: boxX, into: b.boxedRow)
                row = UnsafeBufferPointer(b.boxedRow)
            }
            nextSourceRow += 1
            if horizontalIsIdentity {
                ResampleKernels.widen(row, into: b.filtered)
                enterFilteredRow(blank: false)
                continue
            }
            if boxY == 1 {
                // Straight into the ring's next row (what `writeRingRow` would copy there).
                ResampleKernels.horizontalRow(row, b, intoRingRow: nextRingRow % ringRows, channels: valuesPerPixel,
                                              destinationWidth: destinationWidth)
                nextRingRow += 1
                emitReadyRows()
            } else {
                ResampleKernels.horizontalRow(row, b, destinationWidth: destinationWidth)
                enterFilteredRow(blank: false)
            }
        }
    }

    /// `consume` when the horizontal pass is the identity and a vertical box follows (tall,
    /// narrow sources): each run of rows inside one box group is summed in one kernel call —
    /// the same exact sums `enterFilteredRow` makes row by row.
    private func consumeIntoVerticalBox(rows: UnsafeBufferPointer<UInt8>, rowBytes: Int, count: Int) {
        var y = 0
        while y < count {
            let take = min(count - y, boxY - boxCount)
            ResampleKernels.addWidenedRows(UnsafeBufferPointer(rebasing: rows[y * rowBytes ..< (y + take) * rowBytes]), rowBytes: rowBytes,
                                           count: take, scale: Double(1 << 14), into: buffers.boxSum)
            y += take
            nextSourceRow += take
            boxCount += take
            closeBoxGroupIfComplete()
        }
    }

    /// Takes `count` transparent source rows (what a truncated file never delivered): their
    /// horizontal pass is all zeros, so only the vertical stages run — O(destination) work
    /// however many rows are missing.
    func consumeBlankRows(_ count: Int) {
        var remaining = min(count, sourceHeight - nextSourceRow)
        if remaining > 0 && valuesPerPixel == 3 {
            // Transparent rows in an opaque ring: it takes alpha back (255 in every row so far).
            ResampleKernels.expandOpaqueRing(buffers, ringRows: ringRows, pixels: destinationWidth)
            valuesPerPixel = 4
        }
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
        if !blank { ResampleKernels.add(UnsafeBufferPointer(buffers.filtered), into: buffers.boxSum) }
        boxCount += 1
        closeBoxGroupIfComplete()
    }

    /// A vertical box group ends after `boxY` rows, or with the last source row (a shorter
    /// group): its average enters the ring.
    private func closeBoxGroupIfComplete() {
        guard boxCount == boxY || nextSourceRow == sourceHeight else { return }
        ResampleKernels.average(buffers.boxSum, count: boxCount, into: buffers.filtered)
        boxCount = 0
        writeRingRow(blank: false)
    }

    /// Writes `filtered` (or zeros) as the next row of the vertical stage, then emits every
    /// destination row it completes.
    private func writeRingRow(blank: Bool) {
        ResampleKernels.splitIntoRing(blank ? nil : UnsafeBufferPointer(buffers.filtered), high: buffers.ringHigh, low: buffers.ringLow,
                                      row: nextRingRow % ringRows, length: buffers.ringRowLength, pixels: destinationWidth,
                                      channels: valuesPerPixel)
        nextRingRow += 1
        emitReadyRows()
    }

    /// Writes every destination row whose source rows have all arrived.
    private func emitReadyRows() {
        let b = buffers
        while nextDestinationRow < destinationHeight {
            let r = nextDestinationRow
            let start = Int(b.verticalStarts[r]), count = Int(b.verticalCounts[r])
            guard start + count <= nextRingRow else { return }
            // Rows start ..< start + count are still in the ring: count < ringRows, and no row
            // newer than start + count − 1 has been written over them.
            destination.withUnsafeMutableBufferPointer { out in
                // Row r − bandFirstRow of `destination` (a whole image, or the current band).
                let rowBytes = destinationWidth * 4
                ResampleKernels.verticalRow(b, firstRingRow: start, taps: count, ringRows: ringRows, weightsAt: r * verticalStride,
                                            destinationWidth: destinationWidth, channels: valuesPerPixel, layout: layout, expand: expand,
                                            into: UnsafeMutableBufferPointer(rebasing: out[(r - bandFirstRow) * rowBytes ..< (r - bandFirstRow + 1) * rowBytes]))
            }
            nextDestinationRow += 1
            if nextDestinationRow - bandFirstRow == rowsPerBand || nextDestinationRow == destinationHeight { deliverBand() }
        }
    }

    /// `Output.bands`: the band just completed goes out, and its storage takes the next band.
    private func deliverBand() {
        guard case .bands(_, let deliver) = output else { return }
        let count = nextDestinationRow - bandFirstRow
        destination.withUnsafeBufferPointer { deliver(bandFirstRow, UnsafeBufferPointer(rebasing: $0[0 ..< count * destinationWidth * 4]), count) }
        bandFirstRow = nextDestinationRow
    }

    /// The result as a bitmap in `layout` (complete once every source row was consumed;
    /// `Output.whole` only: with bands, it holds the last band).
    /// The destination storage moves into the bitmap (the resampler keeps no reference), so the
    /// caller can convert it in place without a copy.
    func takeBitmap() -> Bitmap {
        let bytes = destination
        destination = []
        return Bitmap(uncheckedWidth: destinationWidth, height: destinationHeight, format: layout.format,
                      bytesPerRow: destinationWidth * 4, bytes: bytes)
    }
}
