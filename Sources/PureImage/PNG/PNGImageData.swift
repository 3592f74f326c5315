/// PNG §10 + §9 + §8: the compressed image data of one image (the main image, or one APNG
/// frame) turned into unfiltered scanlines, fed in pieces of any size.
///
/// Stages: zlib stream (IDAT/fdAT bodies, any split) → inflate straight into a block of
/// scanlines (filter byte + row bytes each) → unfilter each complete scanline in place against
/// the one above it in the same pass → store into `pixels` (row-major, stored sample format,
/// tight rows). Nothing is buffered beyond the block (≈ 128 KiB) and one scanline besides the
/// output itself.
///
/// Why a block and not one scanline at a time (as libpng inflates): every `inflate` call ends by
/// copying what it produced into zlib's 32 KiB window, and runs its last 258 output bytes
/// through the slow decoding loop. Called per 6 KB scanline that was a copy of the whole image
/// and 4 % of it decoded slowly: inflating a 2000×1500 RGB image took 49.4 ms a scanline at a
/// time and 43.2 ms in 128 KiB blocks (system zlib 1.2.13). Rows still complete at exactly the
/// input bytes they did before (inflate produces all it can from the input it has either way),
/// so incremental and one-shot decodes see the same rows.
final class PNGImageData {
    let header: PNGHeader
    let rowBytes: Int
    private let passes: [PNGPass]
    private let offsetBase: Int

    /// Unfiltered samples in stored format, `rowBytes × rowsStored` bytes. Non-interlaced images
    /// grow row by row (so a header that lies about the height costs nothing); Adam7 images are
    /// allocated whole at the first scanline, since passes write everywhere.
    private(set) var pixels: [UInt8] = []
    /// Non-interlaced: rows stored so far. Adam7: `header.height` once allocated.
    private(set) var rowsStored = 0

    private var passIndex = 0
    private var rowInPass = 0
    /// Scanlines of the current pass being inflated: `blockRows` of `scanlineBytes` (filter
    /// byte + row bytes) each, `filled` bytes inflated so far, the first `rowsUnfiltered` of
    /// them already unfiltered and stored.
    private var block: [UInt8] = []
    private var scanlineBytes = 0
    private var blockRows = 0
    private var filled = 0
    private var rowsUnfiltered = 0
    /// The last unfiltered scanline of the previous block, for the next block's first row
    /// (empty on a pass's first row: the row above it counts as zeros).
    private var previous: [UInt8] = []
    /// Scanlines per block: as many as fit in `blockTarget` bytes, at least one.
    private let blockCapacityRows: Int
    static let blockTarget = 128 * 1024
    private let inflater = ZlibInflater()
    private(set) var streamEnded = false
    /// True once every scanline of every pass has been unfiltered.
    private(set) var isComplete = false
    /// Passes completely stored (Adam7: 0...7; non-interlaced: 0 or 1).
    var completedPasses: Int { passIndex }
    /// Rows done in the pass being decoded.
    var rowsInCurrentPass: Int { rowInPass }
    private(set) var sawExtraData = false
    private let limits: DecodeLimits
    private let budget: MemoryBudget
    /// The stored rows and two scanlines, reserved at creation (the rows are what a decode that
    /// gets to the end will hold), released in `deinit`.
    private var reservedBytes: Int

    /// Streaming mode (the downscaler): each finished row of the image, top to bottom, in stored
    /// sample format, is handed here instead of being kept. Adam7 rows can only be final once
    /// pass 7 is done, so an interlaced image is still assembled whole and then handed over row
    /// by row and released.
    var rowSink: ((Int, ArraySlice<UInt8>) -> Void)?

    /// `offsetBase` is added to the counts of compressed bytes to quote file offsets in errors.
    init(header: PNGHeader, budget: MemoryBudget, offsetBase: Int, streaming: Bool = false) throws(DecodeError) {
        let limits = budget.limits
        self.header = header
        self.limits = limits
        self.budget = budget
        self.offsetBase = offsetBase
        guard let rowBytes = SizeMath.rowBytes(width: header.width, bitsPerPixel: header.bitsPerPixel) else {
            throw DecodeError(.limitExceeded, format: .png, offset: offsetBase,
                              LimitReason.tooManyPixels(width: header.width, height: header.height, limit: limits.maxPixels))
        }
        self.rowBytes = rowBytes
        // Checked before any allocation: the whole output, at the stored sample size.
        _ = try SizeMath.checkImage(width: header.width, height: header.height,
                                    bytesPerPixel: max(1, header.filterBytesPerPixel), limits: limits, format: .png, offset: offsetBase)
        let stored = try SizeMath.allocationSize(rowBytes, header.height, limits: limits, format: .png, offset: offsetBase)
        // Streaming non-interlaced rows leave one by one; Adam7 must assemble the whole image.
        // Scanline buffers: the block and the previous scanline (pass rows are never wider
        // than the image's).
        blockCapacityRows = max(1, Self.blockTarget / (rowBytes + 1))
        let blockBytes = try SizeMath.allocationSize(rowBytes + 1, min(blockCapacityRows, header.height) + 1, limits: limits,
                                                     format: .png, offset: offsetBase)
        reservedBytes = (streaming && !header.interlaced ? 0 : stored) + blockBytes
        try budget.reserve(reservedBytes, format: .png, offset: offsetBase)
        passes = PNGPass.passes(width: header.width, height: header.height, interlaced: header.interlaced).filter { !$0.isEmpty }
        startPass()
    }

    deinit {
        budget.release(reservedBytes)
    }

    /// Drops the stored rows once a complete image has been turned into its bitmap (which may
    /// share them), so the decode counts them once.
    func releaseRows() {
        guard isComplete else { return }
        pixels = []
        budget.release(reservedBytes)
        reservedBytes = 0
    }

    private func startPass() {
        guard passIndex < passes.count else {
            isComplete = true
            block = []; previous = []
            if let rowSink, header.interlaced {
                for y in 0..<header.height { rowSink(y, pixels[y * rowBytes ..< (y + 1) * rowBytes]) }
                pixels = []
            }
            return
        }
        let pass = passes[passIndex]
        scanlineBytes = (pass.width * header.bitsPerPixel + 7) / 8 + 1
        previous = []
        rowInPass = 0
        startBlock()
    }

    /// The next block of the current pass: up to `blockCapacityRows` of its remaining rows.
    private func startBlock() {
        blockRows = min(blockCapacityRows, passes[passIndex].height - rowInPass)
        let bytes = blockRows * scanlineBytes
        if block.count < bytes { block = [UInt8](repeating: 0, count: bytes) }
        filled = 0
        rowsUnfiltered = 0
    }

    /// Feeds compressed bytes. `fileOffset` is the offset of `compressed`'s first byte.
    func feed(_ compressed: UnsafeRawBufferPointer, fileOffset: Int) throws(DecodeError) {
        var position = 0
        var scratch = [UInt8](repeating: 0, count: 0)
        while true {
            if streamEnded {
                if position < compressed.count { sawExtraData = true }  // bytes after the zlib end
                return
            }
            let rest = UnsafeRawBufferPointer(rebasing: compressed[position...])
            let step: (consumed: Int, produced: Int, status: ZlibInflater.Status)
            if isComplete {
                // All scanlines are in; drain to the stream end, noting any excess output.
                if scratch.isEmpty { scratch = [UInt8](repeating: 0, count: 1024) }
                step = scratch.withUnsafeMutableBytes { inflater.inflate(input: rest, output: $0) }
                if step.produced > 0 { sawExtraData = true }
            } else {
                let start = filled, end = blockRows * scanlineBytes
                step = block.withUnsafeMutableBytes { out in
                    inflater.inflate(input: rest, output: UnsafeMutableRawBufferPointer(rebasing: out[start ..< end]))
                }
                filled += step.produced
            }
            if case .corrupt(let message) = step.status {
                // Where zlib stopped: the last byte it read (it reads a byte only when it needs
                // its bits, and gives back whole bytes it read ahead), whatever the pieces.
                throw DecodeError(.malformed, format: .png, offset: fileOffset + position + max(0, step.consumed - 1),
                                  PNGError.corruptImageData(message))
            }
            position += step.consumed
            if step.status == .streamEnd { streamEnded = true }
            if !isComplete && filled >= (rowsUnfiltered + 1) * scanlineBytes {
                try finishScanlines(offset: fileOffset + position)
                continue
            }
            if step.consumed == 0 && step.produced == 0 && step.status != .streamEnd { return }
        }
    }

    /// §9.2 unfilters every complete scanline of the block not done yet, in place, stores it,
    /// and moves on to the next block (or pass) when the block is done.
    private func finishScanlines(offset: Int) throws(DecodeError) {
        while !isComplete && filled >= (rowsUnfiltered + 1) * scanlineBytes {
            let start = rowsUnfiltered * scanlineBytes
            let filterType = block[start]
            let ok = block.withUnsafeMutableBufferPointer { scanlines in
                previous.withUnsafeBufferPointer { kept in
                    // The row above: the block's previous scanline, or the one kept from the
                    // previous block (empty on a pass's first row). Both lie before `start`
                    // or in another array, so the two buffers never overlap.
                    let above = rowsUnfiltered > 0 ? UnsafeBufferPointer(rebasing: scanlines[(start - scanlineBytes + 1) ..< start])
                        : kept.isEmpty ? kept : UnsafeBufferPointer(rebasing: kept[1...])
                    return PNGUnfilter.unfilter(type: filterType, row: UnsafeMutableBufferPointer(rebasing: scanlines[(start + 1) ..< (start + scanlineBytes)]),
                                                previous: above, bpp: header.filterBytesPerPixel)
                }
            }
            guard ok else {
                throw DecodeError(.malformed, format: .png, offset: offset, PNGError.invalidFilterType(filterType, row: rowInPass))
            }
            store(passes[passIndex], row: rowInPass, from: start + 1)
            rowsUnfiltered += 1
            rowInPass += 1
            if rowInPass == passes[passIndex].height {
                passIndex += 1
                startPass()
            } else if rowsUnfiltered == blockRows {
                previous = Array(block[start ..< start + scanlineBytes])
                startBlock()
            }
        }
    }

    /// Places the unfiltered scanline at `block[start...]` (row bytes of `pass`) into `pixels`.
    private func store(_ pass: PNGPass, row: Int, from start: Int) {
        let passRowBytes = scanlineBytes - 1
        if !header.interlaced {
            if let rowSink {
                rowSink(rowsStored, block[start ..< start + passRowBytes])
                rowsStored += 1
                return
            }
            if pixels.isEmpty { PixelMemory.reserve(&pixels, capacity: rowBytes * header.height) }
            pixels.append(contentsOf: block[start ..< start + passRowBytes])
            rowsStored += 1
            return
        }
        if pixels.isEmpty {
            pixels = PixelMemory.zeroed(count: rowBytes * header.height)
            rowsStored = header.height
        }
        let y = pass.yStart + row * pass.yStep
        let bits = header.bitsPerPixel
        let rowStart = y * rowBytes
        block.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { destination in
                // x = xStart + i·xStep < width for i < pass.width, so every write is inside row y.
                if bits >= 8 {
                    let bytes = bits / 8
                    for i in 0..<pass.width {
                        let from = start + i * bytes
                        let to = rowStart + (pass.xStart + i * pass.xStep) * bytes
                        for k in 0..<bytes { destination[to + k] = source[from + k] }
                    }
                } else {
                    let packedSource = UnsafeBufferPointer(rebasing: source[start ..< start + passRowBytes])
                    for i in 0..<pass.width {
                        let value = GeneralConversion.packedSample(packedSource, row: 0, x: i, bits: bits)
                        GeneralConversion.storePackedSample(value, destination, row: rowStart, x: pass.xStart + i * pass.xStep, bits: bits)
                    }
                }
            }
        }
    }

    /// Streaming a truncated image that is not interlaced: the rows the file never reached go
    /// to the sink as scanlines of zero samples — what the one-shot image holds for them — so
    /// they are expanded like every other row (a zero sample is not a tRNS colour key: such a row
    /// is opaque black, not transparent). An interlaced image hands nothing over until it is
    /// complete; a truncated one is decoded whole by the caller instead.
    func sendMissingRowsAsZero() {
        guard let rowSink, !header.interlaced, !isComplete, rowsStored > 0 else { return }
        let zeroRow = ArraySlice([UInt8](repeating: 0, count: rowBytes))
        while rowsStored < header.height {
            rowSink(rowsStored, zeroRow)
            rowsStored += 1
        }
    }

    /// Scanlines still missing, counted over all passes (for "not enough image data").
    var scanlinesMissing: Int {
        guard !isComplete else { return 0 }
        var missing = passes[passIndex].height - rowInPass
        for pass in passes[(passIndex + 1)...] { missing += pass.height }
        return missing
    }

    /// What has been decoded so far, for display while data arrives: the stored rows of a
    /// non-interlaced image; for Adam7, every pixel of the passes so far replicated over the
    /// block it stands for (libpng's "rectangle" display: pass 1 pixels fill 8×8 blocks, pass 2
    /// 4×8, pass 3 4×4, pass 4 2×4, pass 5 2×2, pass 6 1×2, pass 7 1×1). Returns the full-size
    /// buffer and how many rows from the top hold decoded data.
    func progressiveRendering() -> (pixels: [UInt8], decodedRows: Int)? {
        guard !pixels.isEmpty else { return nil }
        guard header.interlaced else { return (paddedPixels(), rowsStored) }
        if isComplete { return (pixels, header.height) }
        var out = [UInt8](repeating: 0, count: pixels.count)
        let bits = header.bitsPerPixel
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { destination in
                for (index, pass) in passes.enumerated() where index <= passIndex {
                    let rows = index < passIndex ? pass.height : rowInPass
                    // The block a pass's pixel stands for: from its own position up to the next
                    // pixel of the same pass, or to the offset of the pass that splits it.
                    let blockWidth = pass.xStart > 0 ? pass.xStart : pass.xStep
                    let blockHeight = pass.yStart > 0 ? pass.yStart : pass.yStep
                    for row in 0..<rows {
                        let y = pass.yStart + row * pass.yStep
                        for column in 0..<pass.width {
                            let x = pass.xStart + column * pass.xStep
                            // Block clipped to the image; x < width and y < height by pass geometry.
                            for by in y ..< min(header.height, y + blockHeight) {
                                for bx in x ..< min(header.width, x + blockWidth) {
                                    if bits >= 8 {
                                        let size = bits / 8
                                        let from = y * rowBytes + x * size, to = by * rowBytes + bx * size
                                        for k in 0..<size { destination[to + k] = source[from + k] }
                                    } else {
                                        let value = GeneralConversion.packedSample(source, row: y * rowBytes, x: x, bits: bits)
                                        GeneralConversion.storePackedSample(value, destination, row: by * rowBytes, x: bx, bits: bits)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        let decodedRows = passIndex > 0 ? header.height : min(header.height, rowInPass * 8)
        return (out, decodedRows)
    }

    /// The stored rows padded with zero rows to the full height (for truncated images).
    func paddedPixels() -> [UInt8] {
        if pixels.count == rowBytes * header.height { return pixels }
        var padded = pixels
        padded.append(contentsOf: repeatElement(0, count: rowBytes * header.height - pixels.count))
        return padded
    }
}
