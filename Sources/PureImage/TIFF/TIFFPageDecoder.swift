/// Decodes one page (IFD) band by band, where a band is one row of chunks — a strip, or a row
/// of tiles — across every plane (§8 strips, §15 tiles, §8 PlanarConfiguration). Each band's
/// chunks are decompressed, assembled into band-high sample planes (edge tiles clipped) and
/// rendered into native rows, which either go into the page bitmap or, when streaming
/// (`rowSink`), straight to the caller — then the full-size page never exists.
///
/// Bands are independent of each other (TIFF chunks share nothing but the tags), so decoding
/// them as their bytes arrive gives exactly the pixels of decoding the page at once.
final class TIFFPageDecoder {
    let layout: TIFFImageLayout
    private let endianness: Endianness
    private let limits: DecodeLimits
    private let rowSink: ((Bitmap) -> Void)?

    /// The index of the next band (row of chunks) to decode.
    private(set) var nextBand = 0
    /// The page so far (nil until the first band is decoded, and always when streaming).
    /// Rows at and after `decodedRows` are zero — except in direct mode, where they are not
    /// written yet (a direct decode is one-shot and shows no partial page).
    private(set) var bitmap: Bitmap?
    /// Direct mode (`DecodeOptions.directOutput`): the output each band is converted to as it is
    /// rendered, into a page in that format — no native page, and no conversion pass over it.
    private let directOutput: ImageDecodingOptions.Output?
    /// Direct mode: from the rendered bands' format to the page's (nil: the page is native).
    private var converter: PixelConverter?
    private(set) var warnings: [DecodeWarning] = []
    /// Set when a chunk's bytes run past the end of the input and it decoded short.
    private(set) var truncatedAt: Int?
    /// The decoders kept from chunk to chunk (CCITT's run arrays, LZW's table).
    private var codecs = TIFFChunkCodecs()
    /// Streaming: rendered rows not handed to `rowSink` yet. Bands are gathered up to 64 KiB,
    /// so that a page of tiny strips (one row of one pixel each, say) does not cost a trip
    /// through every consumer per strip.
    private var pendingRows: (first: Bitmap, rows: Int, bytes: [UInt8])?
    /// Chunks reported as having no data; after `reportedMissingLimit` one note stands for
    /// the rest (a few hundred bytes can declare millions of strips).
    private var missingChunks = 0
    /// A chunk buffer handed back after use (`recycle`), with how many leading bytes may be
    /// non-zero: the next chunk of the same size decodes into it after only those are cleared.
    /// Clearing a fresh buffer cost every chunk its declared size — 2 s for a 33 KB file whose
    /// 4 096 one-row strips each declare 8 MB (1 000 samples a pixel) and decode to nothing.
    private var scratch: (bytes: [UInt8], dirty: Int)?
    /// Set by `decodeBandPlanes` when its one plane is a chunk's buffer: that chunk's `dirty`.
    private var planeDirty: Int?

    /// `count` zero bytes: the recycled buffer cleared, or a new one.
    private func zeroedBuffer(_ count: Int) -> [UInt8] {
        chunkBuffer(count, clearing: true).bytes
    }

    /// `count` bytes for a chunk, and how many leading ones may still hold an earlier chunk's
    /// data (`stale`; 0 when cleared here). `clearing: false` is for a codec that writes a prefix
    /// and clears from its end to `stale` itself (`TIFFDecompressor.writesPrefix`): a reused
    /// buffer keeps what it held and a new one is left unfilled — when the chunk decodes whole,
    /// as nearly every one does, clearing it first was a pass for nothing (a page of one-row
    /// strips: every strip).
    private func chunkBuffer(_ count: Int, clearing: Bool) -> (bytes: [UInt8], stale: Int) {
        guard var reused = scratch?.bytes, let dirty = scratch?.dirty, reused.count == count else {
            if !clearing { return (PixelMemory.uninitialized(count: count), count) }
            return (PixelMemory.zeroed(count: count), 0)
        }
        scratch = nil   // `reused` is then the storage's only reference: cleared in place
        let end = min(dirty, count)
        if !clearing { return (reused, end) }
        if end > 0 { reused.withUnsafeMutableBytes { _ = $0[0 ..< end].initializeMemory(as: UInt8.self, repeating: 0) } }
        return (reused, 0)
    }

    /// Keeps `buffer` (a chunk's, done with) for the next chunk; `dirty` as `Outcome.dirty`.
    private func recycle(_ buffer: [UInt8], dirty: Int) {
        scratch = (buffer, dirty)
    }
    private static let reportedMissingLimit = 100

    /// The decode's memory: the page bitmap stays reserved (the decoder keeps the page); each
    /// band's planes are checked against what is left.
    private let budget: MemoryBudget

    /// A page decoded on its own (the samples layer, the libtiff-exact RGBA output), with a
    /// budget of its own.
    convenience init(layout: TIFFImageLayout, endianness: Endianness, limits: DecodeLimits, rowSink: ((Bitmap) -> Void)? = nil) {
        self.init(layout: layout, endianness: endianness, budget: MemoryBudget(limits: limits), rowSink: rowSink)
    }

    init(layout: TIFFImageLayout, endianness: Endianness, budget: MemoryBudget, rowSink: ((Bitmap) -> Void)? = nil,
         directOutput: ImageDecodingOptions.Output? = nil) {
        self.layout = layout
        self.endianness = endianness
        self.limits = budget.limits
        self.budget = budget
        self.rowSink = rowSink
        self.directOutput = rowSink == nil ? directOutput : nil
    }

    var isComplete: Bool { nextBand >= layout.chunksDown }
    var decodedRows: Int { min(layout.height, nextBand * layout.chunkHeight) }

    /// Whether every chunk of the next band lies within the first `available` bytes.
    func nextBandIsPresent(available: Int) -> Bool {
        for index in chunkIndices(band: nextBand) {
            let (end, overflow) = layout.offsets[index].addingReportingOverflow(max(0, layout.byteCounts[index]))
            if overflow || end > available { return false }
        }
        return true
    }

    /// Decodes the next band from `reader` (the whole input so far, or the file). Chunks that
    /// run past the end decode what is there; missing chunks stay zero (libtiff's RGBA
    /// interface leaves them blank too), each with a warning.
    func decodeNextBand(reader: RandomAccessReader) throws(DecodeError) {
        let band = nextBand
        let top = band * layout.chunkHeight
        let rows = min(layout.chunkHeight, layout.height - top)
        if rowSink == nil, try storeUncompressedBand(band, top: top, rows: rows, reader: reader) {
            nextBand += 1
            return
        }
        let rendered: Bitmap
        if layout.isSubsampledYCbCr {
            rendered = try decodeSubsampledYCbCrBand(band, rows: rows, reader: reader)
        } else {
            planeDirty = nil
            let planes = try decodeBandPlanes(band, rows: rows, reader: reader)
            rendered = try TIFFRendering.render(layout: layout, planes: planes, planeRowBytes: layout.planeRowBytes, rows: rows, limits: limits)
            // A plane that is a chunk's own buffer goes back for the next chunk.
            if let dirty = planeDirty, let plane = planes.first { recycle(plane, dirty: dirty) }
        }
        nextBand += 1
        if let rowSink, rendered.bytes.count >= 1 << 16 {
            // A big band (a page in one strip, say) goes out in pieces of about 64 KiB, after
            // the rows gathered before it: the consumer converts a piece at a time rather than
            // the whole band at once, and the band is not copied into the gathered rows.
            flushPendingRows()
            rendered.forEachBand(rowsPerBand: (1 << 16) / max(1, rendered.bytesPerRow)) { _, piece in rowSink(piece) }
            return
        }
        if rowSink != nil {
            // Every band of a page has the first band's format, width and row length.
            var pending = pendingRows ?? (rendered, 0, [])
            pendingRows = nil   // the local is then the array's only reference: appended in place
            pending.rows += rendered.height
            pending.bytes.append(contentsOf: rendered.bytes)
            pendingRows = pending
            if isComplete || pending.bytes.count >= 1 << 16 { flushPendingRows() }
            return
        }
        if bitmap == nil { try startPage(rendered) }
        if let converter, let rowBytes = bitmap?.bytesPerRow {
            // Rows top ..< top + rendered.height of the page (top + rows ≤ layout.height), tight
            // rows of `rowBytes`; the band holds its rows at its own stride.
            rendered.bytes.withUnsafeBytes { band in
                bitmap?.bytes.withUnsafeMutableBytes { page in
                    guard let from = band.baseAddress, let to = page.baseAddress else { return }
                    converter.convert(width: layout.width, rows: rendered.height, from: PixelRows(base: from, bytesPerRow: rendered.bytesPerRow),
                                      into: MutablePixelRows(base: to + top * rowBytes, bytesPerRow: rowBytes))
                }
            }
            return
        }
        // Both are tight rows of the same format and width, so the band is one contiguous copy.
        let start = top * rendered.bytesPerRow
        bitmap?.bytes.replaceSubrange(start ..< start + rendered.bytes.count, with: rendered.bytes)
    }

    /// The rendered format of an uncompressed page whose stored rows are its rendered rows as
    /// they are (`TIFFRendering.formatOfUnchangedSamples`: 8-bit gray, RGB, alpha or CMYK, or
    /// 16-bit in a big-endian file), in strips without a predictor or bit reversal; nil for
    /// every other page.
    private var formatOfStoredRows: PixelFormat? {
        guard layout.compression == 1, !layout.isTiled, layout.chunksAcross == 1, layout.chunkWidth == layout.width,
              layout.predictor == 1, !layout.reversedBits else { return nil }
        return TIFFRendering.formatOfUnchangedSamples(layout, bigEndianSamples: endianness == .bigEndian)
    }

    /// An uncompressed band whose stored rows are its rendered rows (`formatOfStoredRows`) and
    /// whose strip is all in the input: written into the page from the input where it lies —
    /// converted in direct mode, copied otherwise — instead of copied into a chunk buffer first
    /// and from there into the page (libtiff's RGBA interface reads such strips where a mapped
    /// file has them, too). False, with nothing done, for any other band: a short or missing
    /// strip goes the general way, which warns and places what there is.
    private func storeUncompressedBand(_ band: Int, top: Int, rows: Int, reader: RandomAccessReader) throws(DecodeError) -> Bool {
        guard let storedFormat = formatOfStoredRows, band < layout.offsets.count, band < layout.byteCounts.count else { return false }
        let rowBytes = layout.planeRowBytes
        let offset = layout.offsets[band]
        guard let expected = SizeMath.product(rowBytes, rows), layout.byteCounts[band] >= expected,
              offset >= 0, offset <= reader.size - expected else { return false }
        if bitmap == nil {
            try startPage(format: storedFormat, bytesPerRow: rowBytes, significantBits: layout.bitsPerSample)
        }
        // (A native page has the strip's tight rows: the copy below is one run.)
        guard let pageRowBytes = bitmap?.bytesPerRow, converter != nil || pageRowBytes == rowBytes else { return false }
        // (The strip is in the input — checked above — so `chunkBytes` warns of nothing here.)
        guard let chunk = try chunkBytes(band, in: reader), chunk.data.count >= expected else { return false }
        let stored = chunk.data.prefix(expected)
        let converter = self.converter
        stored.withUnsafeBytes { band in
            bitmap?.bytes.withUnsafeMutableBytes { page in
                guard let from = band.baseAddress, let to = page.baseAddress else { return }
                // Rows top ..< top + rows of the page (top + rows ≤ layout.height) at its stride;
                // the strip holds `rows` rows of `rowBytes` (checked above).
                if let converter {
                    converter.convert(width: layout.width, rows: rows, from: PixelRows(base: from, bytesPerRow: rowBytes),
                                      into: MutablePixelRows(base: to + top * pageRowBytes, bytesPerRow: pageRowBytes))
                } else {
                    // A native page: tight rows of the same length, one contiguous copy.
                    (to + top * pageRowBytes).copyMemory(from: from, byteCount: expected)
                }
            }
        }
        return true
    }

    /// The page, in the first band's format or — in direct mode — the output's (every band of a
    /// page has the first band's format). Reserved in the budget for as long as the decoder
    /// keeps the page. A direct page whose every byte the conversion writes is not zero-filled:
    /// every band of the page is decoded before it is handed out.
    private func startPage(_ first: Bitmap) throws(DecodeError) {
        try startPage(format: first.format, bytesPerRow: first.bytesPerRow, significantBits: first.significantBitsPerComponent)
    }

    private func startPage(format native: PixelFormat, bytesPerRow: Int, significantBits: Int) throws(DecodeError) {
        var format = native, rowBytes = bytesPerRow
        if let output = directOutput, let target = output.target(native: native, hasAlpha: layout.alpha != .none),
           target != native, let targetRowBytes = target.minimumBytesPerRow(width: layout.width),
           let made = try? PixelConverter(from: native, significantBits: significantBits, to: target,
                                          pixels: layout.width * layout.height) {
            converter = made
            format = target
            rowBytes = targetRowBytes
        }
        let total = try SizeMath.allocationSize(rowBytes, layout.height, limits: limits, format: .tiff, offset: nil)
        try budget.reserve(total, format: .tiff, offset: nil)
        let bytes = converter?.writesWholeRows == true ? PixelMemory.uninitialized(count: total) : PixelMemory.zeroed(count: total)
        bitmap = Bitmap(uncheckedWidth: layout.width, height: layout.height, format: format, bytesPerRow: rowBytes, bytes: bytes)
    }

    /// Hands the gathered rows to `rowSink` now: before the decoder waits for more input (the
    /// caller sees every row decoded so far) and before an error ends the page.
    func flushPendingRows() {
        guard let pending = pendingRows, let rowSink else { return }
        pendingRows = nil
        rowSink(Bitmap(uncheckedWidth: pending.first.width, height: pending.rows, format: pending.first.format,
                       bytesPerRow: pending.first.bytesPerRow, bytes: pending.bytes))
    }

    /// The chunk indices of a band, plane by plane, left to right.
    private func chunkIndices(band: Int) -> [Int] {
        var indices: [Int] = []
        for plane in 0..<layout.planeCount {
            for across in 0..<layout.chunksAcross {
                indices.append(plane * layout.chunksPerPlane + band * layout.chunksAcross + across)
            }
        }
        return indices
    }

    /// The bytes of chunk `index` that are in the input, or nil (with a warning) when none are.
    /// (The one place chunks are read: from a file read at offsets, this reads the chunk.)
    private func chunkBytes(_ index: Int, in reader: RandomAccessReader) throws(DecodeError) -> (data: ArraySlice<UInt8>, offset: Int, count: Int)? {
        let offset = layout.offsets[index]
        let count = max(0, layout.byteCounts[index])
        let size = reader.size
        let available = offset >= 0 && offset < size ? min(count, size - offset) : 0
        guard available > 0 else {
            missingChunks += 1
            if missingChunks <= Self.reportedMissingLimit {
                warnings.append(DecodeWarning(offset: offset, "strip or tile \(index) has no data in the file"))
            } else if missingChunks == Self.reportedMissingLimit + 1 {
                warnings.append(DecodeWarning(offset: offset, "further strips or tiles without data are not listed"))
            }
            if count > 0 && offset >= size && truncatedAt == nil { truncatedAt = size }
            return nil
        }
        do throws(ByteReaderError) {
            return (try reader.getBytes(at: offset, count: available), offset, count)
        } catch {
            // Only a file read at offsets fails here (inside its size): it shrank, or a read
            // failed — which its reader reports in place of this (`RandomAccessFile.failure`).
            throw DecodeError(.truncated, format: .tiff, offset: error.offset, TIFFError.truncated(inside: "strip or tile \(index)"))
        }
    }

    /// Chunk `index` decompressed into its first `keptRows` rows (of `storedRows` it holds),
    /// byte order normalised and predictor undone; nil when the chunk has no data.
    /// `written`: the bytes the codec produced (the rest of `bytes` is zero).
    private func decodeChunk(_ index: Int, storedRows: Int, keptRows: Int, reader: RandomAccessReader) throws(DecodeError)
        -> (bytes: [UInt8], written: Int, unwritten: [Range<Int>], dirty: Int)? {
        let chunkRowBytes = layout.chunkRowBytes
        if let scheme = layout.ccittScheme, codecs.ccitt == nil {
            codecs.ccitt = try CCITTFaxDecoder(scheme: scheme, width: layout.chunkWidth, limits: limits)
        }
        let expected = try SizeMath.allocationSize(keptRows, chunkRowBytes, limits: limits, format: .tiff, offset: nil)
        guard let chunk = try chunkBytes(index, in: reader) else { return nil }
        // Consumed into the call, so that the codec holds the buffer's only reference and writes
        // it in place (a second one, the tuple's, made every strip a copy).
        let (buffer, stale) = chunkBuffer(expected, clearing: !TIFFDecompressor.writesPrefix(layout.compression))
        var outcome = try TIFFDecompressor.decode(chunk.data, expected: expected, layout: layout, offset: chunk.offset, limits: limits,
                                                  codecs: &codecs, storedRows: storedRows, chunkIndex: index,
                                                  zeroed: consume buffer, stale: stale)
        if let problem = outcome.problem {
            warnings.append(DecodeWarning(offset: chunk.offset, problem))
            if chunk.data.count < chunk.count && outcome.decoded < expected && truncatedAt == nil { truncatedAt = reader.size }
        }
        // libtiff (tif_predict.c) undoes the predictor only when the codec reports
        // success; a chunk that decoded short keeps its differences, and so do we.
        if layout.predictor == 3 {
            if outcome.decoded == expected {
                TIFFDecompressor.undoFloatingPointPredictor(&outcome.bytes, rowBytes: chunkRowBytes, rows: keptRows,
                                                            samplesPerPixel: layout.samplesPerPlane, bitsPerSample: layout.bitsPerSample)
            }
        } else {
            // SGILog and PixarLog produce values, not file bytes (libtiff swaps nothing after them).
            if !layout.codecProducesValues { TIFFDecompressor.normaliseByteOrder(&outcome.bytes, decoded: outcome.decoded, layout: layout, endianness: endianness) }
            if layout.predictor == 2 && outcome.decoded == expected {
                TIFFDecompressor.undoPredictor(&outcome.bytes, rowBytes: chunkRowBytes, rows: keptRows,
                                               samplesPerPixel: layout.samplesPerPlane, bitsPerSample: layout.bitsPerSample)
            }
        }
        // The predictors rewrite every byte, when they run (a chunk decoded whole).
        let dirty = outcome.decoded == expected ? expected : outcome.dirty
        return (outcome.bytes, outcome.decoded, outcome.unwritten, dirty)
    }

    /// Decompresses the band's chunks into `rows`-high planes, `planeRowBytes` per row.
    private func decodeBandPlanes(_ band: Int, rows: Int, reader: RandomAccessReader) throws(DecodeError) -> [[UInt8]] {
        let planeRowBytes = layout.planeRowBytes
        let planeBytes = try SizeMath.allocationSize(planeRowBytes, rows, layout.planeCount,
                                                     limits: limits, format: .tiff, offset: nil) / layout.planeCount
        // The band's planes and its rendered rows (about as large again) live while it is decoded.
        try budget.check(planeBytes * layout.planeCount * 2, format: .tiff, offset: nil)
        let chunkRowBytes = layout.chunkRowBytes
        if layout.planeCount == 1, layout.chunksAcross == 1, chunkRowBytes == planeRowBytes, !layout.isTiled {
            // One strip of one plane: decoded whole, at the plane's row length, it is the plane
            // (no zeroed plane and no copy into it). A short or missing strip goes into a zeroed
            // plane, as the general placement below puts it.
            let chunk = try decodeChunk(band, storedRows: rows, keptRows: rows, reader: reader)
            if let chunk, chunk.bytes.count == planeBytes {
                planeDirty = chunk.dirty
                return [chunk.bytes]
            }
            // The zeroed plane is the page's scratch buffer too (a missing strip declaring 42 MB
            // cost a fresh 42 MB of zeros per band: seconds for a 4 KB file).
            var plane = zeroedBuffer(planeBytes)
            var copied = 0
            if let decoded = chunk?.bytes, chunkRowBytes > 0 {
                // Whole rows only, as the general placement copies them.
                copied = min(rows, decoded.count / chunkRowBytes) * chunkRowBytes
                plane.replaceSubrange(0 ..< copied, with: decoded[0 ..< copied])
            }
            planeDirty = copied
            return [plane]
        }
        var planes = [[UInt8]](repeating: [UInt8](repeating: 0, count: planeBytes), count: layout.planeCount)
        let bitsPerPixel = layout.bitsPerSample * layout.samplesPerPlane
        for plane in 0..<layout.planeCount {
            for across in 0..<layout.chunksAcross {
                let index = plane * layout.chunksPerPlane + band * layout.chunksAcross + across
                // Strips hold only the rows left in the image; tiles are stored whole, but rows
                // below the image are never shown, so only the rows inside it are decoded (a
                // tiny file declaring a 40000 × 40000 tile costs one row).
                guard let chunk = try decodeChunk(index, storedRows: layout.isTiled ? layout.chunkHeight : rows,
                                                  keptRows: rows, reader: reader) else { continue }
                let decoded = chunk.bytes
                defer { recycle(decoded, dirty: chunk.dirty) }
                // Place the chunk: byte column of its left edge (tiles are 16-pixel multiples by
                // §15, so the edge is byte-aligned for every depth; others are refused).
                let leftBits = across * layout.chunkWidth * bitsPerPixel
                guard leftBits % 8 == 0 else {
                    throw DecodeError(.unsupported, format: .tiff, offset: nil,
                                      TIFFError.unsupportedLayout("tile width \(layout.chunkWidth) with \(bitsPerPixel)-bit pixels"))
                }
                let leftByte = leftBits / 8
                let copyBytes = min(chunkRowBytes, planeRowBytes - leftByte)
                guard copyBytes > 0 else { continue }
                let decodedRows = min(rows, decoded.count / max(1, chunkRowBytes))
                decoded.withUnsafeBufferPointer { source in
                    planes[plane].withUnsafeMutableBufferPointer { destination in
                        guard let from = source.baseAddress, let to = destination.baseAddress else { return }
                        for row in 0..<decodedRows {
                            // row < decodedRows, so row × chunkRowBytes + copyBytes ≤ the chunk's
                            // bytes; row < rows and leftByte + copyBytes ≤ planeRowBytes.
                            (to + row * planeRowBytes + leftByte).update(from: from + row * chunkRowBytes, count: copyBytes)
                        }
                    }
                }
            }
        }
        return planes
    }

    /// One strip or tile as libtiff's TIFFReadEncodedStrip / TIFFReadEncodedTile leave its
    /// buffer: `written` leading bytes of `bytes` replace what the buffer held (all of them on
    /// success, the codec's output so far on failure); `rawFailed` when libtiff could not read
    /// the raw data at all (TIFFFillStrip / TIFFFillTile: a byte count of 0, or data past the
    /// end of the file), which leaves its buffer untouched.
    struct LibtiffChunk {
        var bytes: [UInt8]
        var written: Int
        var rawFailed: Bool
        /// Ranges inside `0 ..< written` the codec did not write (`TIFFDecompressor.Outcome`).
        var unwritten: [Range<Int>] = []
    }

    /// The next band's chunks whole, as libtiff decodes them (every row of a tile, rows of
    /// `chunkRowBytes`; wide samples big-endian), plane after plane, left to right. For
    /// libtiff's RGBA arithmetic, which works on these buffers (TIFFLibtiffRGBA.swift).
    func decodeNextBandChunks(reader: RandomAccessReader) throws(DecodeError) -> [LibtiffChunk] {
        let band = nextBand
        let rows = layout.isTiled ? layout.chunkHeight : min(layout.chunkHeight, layout.height - band * layout.chunkHeight)
        let size = try SizeMath.allocationSize(rows, layout.chunkRowBytes, limits: limits, format: .tiff, offset: nil)
        // TIFFFillStrip caps a byte count over 1 MiB at 10 × the full chunk size + 4096.
        let fullChunk = layout.chunkHeight.multipliedReportingOverflow(by: layout.chunkRowBytes)
        var chunks: [LibtiffChunk] = []
        for plane in 0..<layout.planeCount {
            for across in 0..<layout.chunksAcross {
                let index = plane * layout.chunksPerPlane + band * layout.chunksAcross + across
                var count = layout.byteCounts[index]
                if count > 1 << 20, !fullChunk.overflow, fullChunk.partialValue > 0, (count - 4096) / 10 > fullChunk.partialValue {
                    count = fullChunk.partialValue * 10 + 4096
                }
                let offset = layout.offsets[index]
                guard count > 0, offset >= 0, count <= reader.size, offset <= reader.size - count else {
                    // libtiff's "Read error on strip" skips the chunk. Whether the input is
                    // truncated here is decided as in a decode: by what the chunk's own byte
                    // count reaches and decompresses to (`chunkBytes`, `decodeChunk`). Its
                    // samples are not used, and a chunk that fails to decode is skipped all the same.
                    if truncatedAt == nil {
                        do { _ = try decodeChunk(index, storedRows: rows, keptRows: rows, reader: reader) } catch {}
                    }
                    chunks.append(LibtiffChunk(bytes: [], written: 0, rawFailed: true))
                    continue
                }
                let decoded = try decodeChunk(index, storedRows: rows, keptRows: rows, reader: reader)
                // DumpModeDecode copies nothing when the strip holds fewer bytes than asked for.
                let written = layout.compression == 1 && count < size ? 0 : decoded?.written ?? 0
                chunks.append(LibtiffChunk(bytes: decoded?.bytes ?? [UInt8](repeating: 0, count: size), written: written, rawFailed: false,
                                           unwritten: decoded?.unwritten ?? []))
            }
        }
        nextBand += 1
        return chunks
    }

    /// §21 subsampled YCbCr (contiguous): each data unit holds h × v luma samples (row by row)
    /// then one Cb and one Cr shared by those pixels — libtiff's RGBA interface replicates the
    /// chroma over the unit (no interpolation), and so do we. Data units past the image's right
    /// or bottom edge are decoded and dropped.
    private func decodeSubsampledYCbCrBand(_ band: Int, rows: Int, reader: RandomAccessReader) throws(DecodeError) -> Bitmap {
        let width = layout.width
        let (h, v) = layout.ycbcrSubsampling
        let unitBytes = h * v + 2
        let converter = TIFFYCbCrConverter(coefficients: layout.ycbcrCoefficients, referenceBlackWhite: layout.referenceBlackWhite)
        let total = try SizeMath.allocationSize(width, rows, 3, limits: limits, format: .tiff, offset: nil)
        var rgb = [UInt8](repeating: 0, count: total)
        let unitsAcross = (layout.chunkWidth + h - 1) / h
        // Tiles are stored whole (their rows below the image are decoded and dropped).
        let storedRows = layout.isTiled ? layout.chunkHeight : rows
        for (across, chunkData) in try subsampledChunkData(band, rows: rows, reader: reader).enumerated() {
            let left = across * layout.chunkWidth
            guard let data = chunkData else { continue }
            for unitRow in 0..<(storedRows + v - 1) / v {
                for unit in 0..<unitsAcross {
                    let base = (unitRow * unitsAcross + unit) * unitBytes
                    guard base + unitBytes <= data.count else { continue }
                    let cb = Int(data[base + h * v]), cr = Int(data[base + h * v + 1])
                    for dy in 0..<v {
                        let y = unitRow * v + dy
                        guard y < rows else { continue }
                        for dx in 0..<h {
                            let x = left + unit * h + dx
                            guard x < width, unit * h + dx < layout.chunkWidth else { continue }
                            let (r, g, b) = converter.rgb(y: Int(data[base + dy * h + dx]), cb: cb, cr: cr)
                            let o = (y * width + x) * 3
                            rgb[o] = r; rgb[o + 1] = g; rgb[o + 2] = b
                        }
                    }
                }
            }
        }
        return Bitmap(uncheckedWidth: width, height: rows, format: .rgb8, bytesPerRow: width * 3, bytes: rgb)
    }

    /// The decompressed data units of each chunk of a subsampled YCbCr band, left to right (nil
    /// where a chunk has no data). Strips hold `rows` rows, tiles all of theirs.
    private func subsampledChunkData(_ band: Int, rows: Int, reader: RandomAccessReader) throws(DecodeError) -> [[UInt8]?] {
        let storedRows = layout.isTiled ? layout.chunkHeight : rows
        let expected = layout.subsampledChunkBytes(rows: storedRows)
        _ = try SizeMath.allocationSize(expected, limits: limits, format: .tiff, offset: nil)
        var chunks: [[UInt8]?] = []
        for across in 0..<layout.chunksAcross {
            guard let chunk = try chunkBytes(band * layout.chunksAcross + across, in: reader) else {
                chunks.append(nil)
                continue
            }
            let outcome = try TIFFDecompressor.decode(chunk.data, expected: expected, layout: layout, offset: chunk.offset, limits: limits,
                                                      codecs: &codecs, storedRows: storedRows, chunkIndex: band * layout.chunksAcross + across)
            if let problem = outcome.problem {
                warnings.append(DecodeWarning(offset: chunk.offset, problem))
                if chunk.data.count < chunk.count && truncatedAt == nil { truncatedAt = reader.size }
            }
            chunks.append(outcome.bytes)
        }
        return chunks
    }

    /// The next band's samples as the codec and predictor leave them (multi-byte samples
    /// big-endian), before any photometric interpretation: one array per plane, the band's rows
    /// of `layout.planeRowBytes` bytes — or, for subsampled YCbCr, each chunk's data units.
    func decodeNextBandSamples(reader: RandomAccessReader) throws(DecodeError) -> [[UInt8]] {
        let band = nextBand
        let rows = min(layout.chunkHeight, layout.height - band * layout.chunkHeight)
        let samples: [[UInt8]]
        if layout.isSubsampledYCbCr {
            let storedRows = layout.isTiled ? layout.chunkHeight : rows
            let expected = layout.subsampledChunkBytes(rows: storedRows)
            samples = try subsampledChunkData(band, rows: rows, reader: reader).map { $0 ?? [UInt8](repeating: 0, count: expected) }
        } else {
            samples = try decodeBandPlanes(band, rows: rows, reader: reader)
        }
        nextBand += 1
        return samples
    }
}
