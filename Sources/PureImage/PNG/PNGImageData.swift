/// PNG §10 + §9 + §8: the compressed image data of one image (the main image, or one APNG
/// frame) turned into unfiltered scanlines, fed in pieces of any size.
///
/// Stages: zlib stream (IDAT/fdAT bodies, any split) → inflate straight into the current
/// scanline buffer (filter byte + row bytes) → unfilter against the previous scanline of the
/// same pass → store into `pixels` (row-major, stored sample format, tight rows). Nothing is
/// buffered beyond two scanlines besides the output itself.
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
    private var current: [UInt8] = []
    private var previous: [UInt8] = []
    private var filled = 0
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
        reservedBytes = (streaming && !header.interlaced ? 0 : stored) + 2 * (rowBytes + 1)
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
            current = []; previous = []
            if let rowSink, header.interlaced {
                for y in 0..<header.height { rowSink(y, pixels[y * rowBytes ..< (y + 1) * rowBytes]) }
                pixels = []
            }
            return
        }
        let pass = passes[passIndex]
        let passRowBytes = (pass.width * header.bitsPerPixel + 7) / 8
        current = [UInt8](repeating: 0, count: passRowBytes + 1)
        previous = []
        filled = 0
        rowInPass = 0
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
                let start = filled
                step = current.withUnsafeMutableBytes { out in
                    inflater.inflate(input: rest, output: UnsafeMutableRawBufferPointer(rebasing: out[start...]))
                }
                filled += step.produced
            }
            if case .corrupt(let message) = step.status {
                throw DecodeError(.malformed, format: .png, offset: fileOffset + position, PNGError.corruptImageData(message))
            }
            position += step.consumed
            if step.status == .streamEnd { streamEnded = true }
            if !isComplete && filled == current.count {
                try finishScanline(offset: fileOffset + position)
                continue
            }
            if step.consumed == 0 && step.produced == 0 && step.status != .streamEnd { return }
        }
    }

    /// §9.2 unfilter the full scanline in `current`, store it, and move to the next one.
    private func finishScanline(offset: Int) throws(DecodeError) {
        let filterType = current[0]
        let ok = current.withUnsafeMutableBufferPointer { row in
            previous.withUnsafeBufferPointer { above in
                PNGUnfilter.unfilter(type: filterType, row: UnsafeMutableBufferPointer(rebasing: row[1...]),
                                     previous: above.isEmpty ? above : UnsafeBufferPointer(rebasing: above[1...]),
                                     bpp: header.filterBytesPerPixel)
            }
        }
        guard ok else {
            throw DecodeError(.malformed, format: .png, offset: offset, PNGError.invalidFilterType(filterType, row: rowInPass))
        }
        store(passes[passIndex], row: rowInPass)
        swap(&current, &previous)
        if current.count != previous.count { current = [UInt8](repeating: 0, count: previous.count) }
        filled = 0
        rowInPass += 1
        if rowInPass == passes[passIndex].height {
            passIndex += 1
            startPass()
        }
    }

    /// Places the unfiltered scanline (in `current[1...]`) into `pixels`.
    private func store(_ pass: PNGPass, row: Int) {
        if !header.interlaced {
            if let rowSink {
                rowSink(rowsStored, current[1...])
                rowsStored += 1
                return
            }
            if pixels.isEmpty { pixels.reserveCapacity(rowBytes * header.height) }
            pixels.append(contentsOf: current[1...])
            rowsStored += 1
            return
        }
        if pixels.isEmpty {
            pixels = [UInt8](repeating: 0, count: rowBytes * header.height)
            rowsStored = header.height
        }
        let y = pass.yStart + row * pass.yStep
        let bits = header.bitsPerPixel
        let rowStart = y * rowBytes
        current.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { destination in
                // x = xStart + i·xStep < width for i < pass.width, so every write is inside row y.
                if bits >= 8 {
                    let bytes = bits / 8
                    for i in 0..<pass.width {
                        let from = 1 + i * bytes
                        let to = rowStart + (pass.xStart + i * pass.xStep) * bytes
                        for k in 0..<bytes { destination[to + k] = source[from + k] }
                    }
                } else {
                    let packedSource = UnsafeBufferPointer(rebasing: source[1...])
                    for i in 0..<pass.width {
                        let value = GeneralConversion.packedSample(packedSource, row: 0, x: i, bits: bits)
                        GeneralConversion.storePackedSample(value, destination, row: rowStart, x: pass.xStart + i * pass.xStep, bits: bits)
                    }
                }
            }
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
