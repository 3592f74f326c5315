/// The PNG (and APNG) decoder: a resumable state machine over the chunk stream (PNG §5).
///
/// ```
///  signature ─► chunkHeader ─┬─► chunkBody ──────────────────────────┐ (whole chunk + CRC)
///                   ▲        ├─► fdATSequence ─► imageData ─► imageDataCRC
///                   │        └─► imageData (IDAT streamed) ─► imageDataCRC
///                   └──────────────────────────────────────────────────┘
///  IEND (or end of input) ─► done
/// ```
/// Image data (IDAT, fdAT) is streamed into `PNGImageData` as it arrives; every other chunk is
/// parsed once its body and CRC are all present. Each state needs a fixed number of bytes, so
/// "not enough yet" is decided by `InputBuffer.demand` alone.
final class PNGDecoder: FormatDecoder {
    private struct Chunk {
        let type: PNGChunkType
        let length: Int
        /// Offset of the chunk's length field.
        let offset: Int
        var dataOffset: Int { offset + 8 }
    }

    private enum State {
        case signature
        case chunkHeader
        case chunkBody(Chunk)
        case fdATSequence(Chunk)
        case imageData(Chunk, remaining: Int, crc: UInt32)
        case imageDataCRC(Chunk, crc: UInt32)
        /// Properties only: image data (and its CRC) passed over without being read.
        case skippedData(Chunk, remaining: Int)
        case done
    }

    private let options: DecodeOptions
    private var state = State.signature
    private var order = PNGChunkOrder()

    private var header: PNGHeader?
    private var palette: Palette?
    private var transparency: PNGTransparency?
    private(set) var properties: ImageProperties?

    /// The main image (IDAT) stream.
    private var mainImage: PNGImageData?
    private var mainImageBitmap: Bitmap?
    /// Streaming mode: the main image's rows have all gone to `rowSink`.
    private var mainImageStreamed = false
    /// Properties only: the first IDAT has been seen (its data is skipped, so `mainImage` stays nil).
    private var mainImageSeen = false
    /// Whether the IDAT stream has begun, in either mode.
    private var imageDataStarted: Bool { mainImage != nil || mainImageSeen }

    // APNG state. `animation` is nil for still images and after an animation error (the file
    // then shows its default image, as browsers do).
    private var animation: APNGAnimationControl?
    /// Set once an APNG rule is broken; from then on animation chunks are ignored.
    private var animationInvalid = false
    private var nextSequenceNumber: UInt32 = 0
    private var pendingControl: APNGFrameControl?
    private var defaultImageIsFrame = false
    private var frameControls: [APNGFrameControl] = []
    /// Every decoded frame's zlib stream (its fdAT payloads without their sequence numbers),
    /// kept compressed and inflated again when the frame is drawn, as GIF keeps its LZW codes:
    /// a decode checks every frame once, then holds the compressed animation and one canvas.
    /// Frame 0, when it is the default image, is `mainImageBitmap` (its stream stays empty).
    private var frameStreams: [[UInt8]] = []
    /// Bytes of `frameStreams`, reserved in `budget`.
    private var frameStreamBytes = 0
    private var currentFrame: (control: APNGFrameControl, data: PNGImageData)?
    /// The zlib stream of `currentFrame` so far.
    private var currentFrameStream: [UInt8] = []
    /// Properties only: the fcTL whose first fdAT has not come yet (it makes the frame).
    private var frameAwaitingData: APNGFrameControl?
    private var compositorCache: (index: Int, compositor: APNGCompositor)?
    /// Whether the compositor's canvases are reserved in `budget` (once, for the decoder's life).
    private var compositorReserved = false

    private(set) var truncation: DecodeError?
    private(set) var warnings: [DecodeWarning] = []

    /// What this decode holds at once, against `options.limits.maxMemoryBytes`.
    let budget: MemoryBudget

    init(options: DecodeOptions) {
        self.options = options
        budget = MemoryBudget(limits: options.limits)
    }

    /// Streaming mode for the downscaler: every row of the (default) image is handed over as a
    /// one-row native bitmap, top to bottom, and no full-size bitmap is ever built. Set before
    /// the first `advance`; APNG animation chunks are then ignored (the default image streams).
    var rowSink: ((Bitmap) -> Void)?

    // MARK: - FormatDecoder

    var isAnimated: Bool { animation != nil && !frameControls.isEmpty }

    /// The image IDAT holds (the APNG "default image"), whether or not it is an animation frame:
    /// what a decoder without APNG support (libpng) shows.
    var defaultImage: Bitmap? { mainImageBitmap }

    var completedFrameCount: Int {
        if isAnimated { return frameStreams.count }
        return mainImageBitmap == nil ? 0 : 1
    }

    var availableFrameCount: Int {
        if isAnimated { return frameStreams.count }
        return mainImageBitmap != nil ? 1 : 0
    }

    func frame(at index: Int) throws(DecodeError) -> Bitmap {
        guard index >= 0, index < availableFrameCount else {
            throw DecodeError(.malformed, format: .png, offset: nil, ContainerError.frameOutOfRange(index: index, count: availableFrameCount))
        }
        guard isAnimated, let header else {
            // A still image: the main image. (availableFrameCount > 0 implies it exists.)
            guard let mainImageBitmap else {
                throw DecodeError(.malformed, format: .png, offset: nil, ContainerError.frameOutOfRange(index: index, count: 0))
            }
            return mainImageBitmap
        }
        var cache = compositorCache
        if cache.map({ $0.index >= index }) ?? true {
            if !compositorReserved {
                // The canvas and the region a `previous` dispose saves (at most a canvas).
                let canvasBytes = SizeMath.product(header.width, header.height, header.bitDepth == 16 ? 16 : 8)
                try budget.reserve(canvasBytes, format: .png, offset: 16)   // IHDR's size
                compositorReserved = true
            }
            cache = (-1, APNGCompositor(width: header.width, height: header.height, sixteenBit: header.bitDepth == 16))
        }
        guard var (done, compositor) = cache else { return try frameImage(index) }
        while done < index {
            done += 1
            compositor.draw(try frameImage(done), control: frameControls[done], isFirst: done == 0)
        }
        compositorCache = (done, compositor)
        return compositor.canvas
    }

    /// The image being decoded (the main image, or the APNG frame in progress composed over
    /// the canvas so far), as far as its data has arrived.
    func partialFrame() -> PartialFrame? {
        if let frame = currentFrame, let header, animation != nil, !frameStreams.isEmpty,
           let rendering = frame.data.progressiveRendering() {
            // The canvas after the previous frame, with the decoded rows of this one drawn by
            // its blend op (rows not yet decoded leave the canvas as it is).
            guard var compositor = try? compositorAfter(frame: frameStreams.count - 1) else { return nil }
            let rows = min(rendering.decodedRows, frame.control.height)
            if rows > 0 {
                let native = PNGPixelExpansion.nativeBitmap(header: frame.data.header, rows: rendering.pixels, palette: palette, transparency: transparency)
                if let partial = try? native.converted(to: APNGCompositor.canvasFormat(sixteenBit: header.bitDepth == 16))
                    .cropped(toX: 0, y: 0, width: frame.control.width, height: rows) {
                    compositor.draw(partial, control: frame.control.withHeight(rows), isFirst: false)
                }
            }
            return PartialFrame(bitmap: compositor.canvas, decodedRows: header.height, frameIndex: frameStreams.count)
        }
        guard mainImageBitmap == nil, let mainImage, let rendering = mainImage.progressiveRendering() else { return nil }
        let bitmap = PNGPixelExpansion.nativeBitmap(header: mainImage.header, rows: rendering.pixels, palette: palette, transparency: transparency)
        return PartialFrame(bitmap: bitmap, decodedRows: rendering.decodedRows, frameIndex: 0)
    }

    /// A compositor showing animation frame `index` (composed from the start, or from the cache).
    private func compositorAfter(frame index: Int) throws(DecodeError) -> APNGCompositor {
        _ = try self.frame(at: index)
        guard let cache = compositorCache, cache.index == index else {
            throw DecodeError(.malformed, format: .png, offset: nil, ContainerError.frameOutOfRange(index: index, count: frameStreams.count))
        }
        return cache.compositor
    }

    func advance(_ input: inout InputBuffer) throws(DecodeError) -> DecodeProgress {
        while true {
            switch state {
            case .done:
                return .finished

            case .signature:
                switch input.demand(8) {
                case .needMoreInput: return .needMoreInput
                case .truncated:
                    throw DecodeError(.truncated, format: .png, offset: input.writeIndex, PNGError.truncated(inside: "the signature"))
                case .ready:
                    let signature = Array(try bytes(input.consume(8), count: 8))
                    guard signature == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
                        throw DecodeError(.malformed, format: .png, offset: 0, PNGError.badSignature(found: signature))
                    }
                    state = .chunkHeader
                }

            case .chunkHeader:
                switch input.demand(8) {
                case .needMoreInput: return .needMoreInput
                case .truncated: return try endOfInput(inside: "a chunk header", at: input.writeIndex)
                case .ready:
                    let offset = input.readIndex
                    var reader = input.consume(8)
                    let length = try read { () throws(ByteReaderError) in try reader.readUInt32(.bigEndian) }
                    let type = PNGChunkType(code: try read { () throws(ByteReaderError) in try reader.readUInt32(.bigEndian) })
                    guard type.isValid else {
                        throw DecodeError(.malformed, format: .png, offset: offset + 4,
                                          PNGError.invalidChunkType(bytes: [type.bytes.0, type.bytes.1, type.bytes.2, type.bytes.3]))
                    }
                    // §5.3: "The length … shall not exceed 2^31 − 1 bytes."
                    guard length <= 0x7FFF_FFFF else {
                        throw DecodeError(.malformed, format: .png, offset: offset, PNGError.chunkTooLong(type: type.description, length: length))
                    }
                    let chunk = Chunk(type: type, length: Int(length), offset: offset)
                    state = try beginChunk(chunk)
                }

            case .chunkBody(let chunk):
                switch input.demand(chunk.length + 4) {
                case .needMoreInput: return .needMoreInput
                case .truncated: return try endOfInput(inside: "chunk \(chunk.type)", at: input.writeIndex)
                case .ready:
                    let data = try bytes(input.consume(chunk.length), count: chunk.length)
                    var crcReader = input.consume(4)
                    let stored = try read { () throws(ByteReaderError) in try crcReader.readUInt32(.bigEndian) }
                    let computed = CRC32.checksum(data, initial: CRC32.checksum(typeBytes(chunk.type)))
                    if stored != computed {
                        let error = PNGError.crcMismatch(type: chunk.type.description, stored: stored, computed: computed)
                        if chunk.type.isCritical || !options.pngIgnoreAncillaryCRCErrors {
                            throw DecodeError(.malformed, format: .png, offset: chunk.dataOffset + chunk.length, error)
                        }
                        warn(at: chunk.dataOffset + chunk.length, "\(error); chunk ignored")
                        state = .chunkHeader
                        continue
                    }
                    state = try process(chunk, data: data)
                }

            case .fdATSequence(let chunk):
                switch input.demand(4) {
                case .needMoreInput: return .needMoreInput
                case .truncated: return try endOfInput(inside: "chunk fdAT", at: input.writeIndex)
                case .ready:
                    var reader = input.consume(4)
                    let sequence = try read { () throws(ByteReaderError) in try reader.readUInt32(.bigEndian) }
                    let sequenceBytes: [UInt8] = [UInt8(sequence >> 24), UInt8((sequence >> 16) & 0xFF), UInt8((sequence >> 8) & 0xFF), UInt8(sequence & 0xFF)]
                    let crc = CRC32.checksum(sequenceBytes, initial: CRC32.checksum(typeBytes(chunk.type)))
                    if !animationInvalid && !checkSequence(sequence, at: chunk.dataOffset) { currentFrame = nil }
                    if options.propertiesOnly {
                        // A frame is described once its data begins.
                        if let control = frameAwaitingData {
                            frameAwaitingData = nil
                            describeFrame(control)
                        }
                        state = .skippedData(chunk, remaining: chunk.length)   // the data after the sequence number, and the CRC
                        continue
                    }
                    state = .imageData(chunk, remaining: chunk.length - 4, crc: crc)
                }

            case .imageData(let chunk, let remaining, let crc):
                let count = min(remaining, input.available)
                if count == 0 && remaining > 0 {
                    if input.isClosed { return try endOfInput(inside: "chunk \(chunk.type)", at: input.writeIndex) }
                    return .needMoreInput
                }
                let start = input.readIndex
                let outcome = input.bytes.withUnsafeBytes { all -> Result<UInt32, DecodeError> in
                    // start + count ≤ writeIndex (count ≤ available), so the slice is in bounds.
                    let piece = UnsafeRawBufferPointer(rebasing: all[start ..< start + count])
                    do throws(DecodeError) {
                        try feedImageData(chunk.type, piece, fileOffset: start)
                    } catch {
                        return .failure(error)
                    }
                    return .success(CRC32.update(crc, piece))
                }
                let newCRC = try outcome.get()
                input.readIndex += count
                state = remaining - count == 0 ? .imageDataCRC(chunk, crc: newCRC) : .imageData(chunk, remaining: remaining - count, crc: newCRC)

            case .skippedData(let chunk, let remaining):
                let count = min(remaining, input.available)
                input.readIndex += count
                if count == remaining {
                    state = .chunkHeader
                } else if input.isClosed {
                    return try endOfInput(inside: "chunk \(chunk.type)", at: input.writeIndex)
                } else {
                    state = .skippedData(chunk, remaining: remaining - count)
                    return .needMoreInput
                }

            case .imageDataCRC(let chunk, let crc):
                switch input.demand(4) {
                case .needMoreInput: return .needMoreInput
                case .truncated: return try endOfInput(inside: "the CRC of chunk \(chunk.type)", at: input.writeIndex)
                case .ready:
                    var reader = input.consume(4)
                    let stored = try read { () throws(ByteReaderError) in try reader.readUInt32(.bigEndian) }
                    if stored != crc {
                        let error = PNGError.crcMismatch(type: chunk.type.description, stored: stored, computed: crc)
                        // fdAT is ancillary by its name, but its data is already in the frame: a
                        // bad fdAT CRC drops the animation; a bad IDAT CRC is fatal.
                        if chunk.type == .IDAT || !options.pngIgnoreAncillaryCRCErrors {
                            throw DecodeError(.malformed, format: .png, offset: chunk.dataOffset + chunk.length, error)
                        }
                        dropAnimation("\(error)", at: chunk.dataOffset + chunk.length)
                    }
                    try finishImageDataChunk(chunk)
                    state = .chunkHeader
                    if shouldStopEarly { try finish(); state = .done }
                }
            }
        }
    }

    // MARK: - Chunks

    private func typeBytes(_ type: PNGChunkType) -> [UInt8] {
        [type.bytes.0, type.bytes.1, type.bytes.2, type.bytes.3]
    }

    /// Decides what to do with a chunk from its header alone.
    private func beginChunk(_ chunk: Chunk) throws(DecodeError) -> State {
        let type = chunk.type
        if !options.decodeAPNGAnimation && (type == .acTL || type == .fcTL || type == .fdAT) {
            lastChunkWasNotIDAT = true
            return .chunkBody(chunk)   // read, CRC-checked, then ignored like any unknown ancillary chunk
        }
        if header == nil && type != .IHDR {
            throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.chunkOrder("first chunk is \(type), not IHDR"))
        }
        // A chunk other than IDAT ends the IDAT sequence. Every scanline must be in and the
        // zlib stream must have reached its end (libpng reads on to the stream end after the
        // last row and fails with "Not enough image data" when the IDATs run out first).
        if type != .IDAT, order.seenIDAT, let mainImage {
            if !mainImage.isComplete {
                throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.notEnoughImageData(rowsMissing: mainImage.scanlinesMissing))
            }
            if !mainImage.streamEnded {
                throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.unterminatedImageData)
            }
        }
        switch type {
        case .IDAT:
            if options.propertiesOnly {
                if !mainImageSeen { try beginMainImage(chunk) }
                lastChunkWasNotIDAT = false
                return .skippedData(chunk, remaining: chunk.length + 4)
            }
            if mainImage == nil {
                guard let header else { throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.chunkOrder("IDAT before IHDR")) }
                try beginMainImage(chunk)
                mainImage = try PNGImageData(header: header, budget: budget, offsetBase: chunk.dataOffset, streaming: rowSink != nil)
                if let rowSink {
                    let rowHeader = PNGHeader(width: header.width, height: 1, bitDepth: header.bitDepth,
                                              colorType: header.colorType, interlaced: false)
                    mainImage?.rowSink = { [unowned self] _, row in
                        rowSink(PNGPixelExpansion.nativeBitmap(header: rowHeader, rows: Array(row), palette: self.palette, transparency: self.transparency))
                    }
                }
                finishHeaderProperties()
            } else if let mainImage, mainImage.isComplete, lastChunkWasNotIDAT {
                // libpng: "Too many IDATs found" is a benign error (a warning when reading).
                warn(at: chunk.offset, "IDAT after the image data ended; ignored")
                return .chunkBody(chunk)
            }
            lastChunkWasNotIDAT = false
            return .imageData(chunk, remaining: chunk.length, crc: CRC32.checksum(typeBytes(type)))
        case .fdAT:
            lastChunkWasNotIDAT = true
            guard chunk.length >= 4 else {
                dropAnimation("fdAT shorter than its sequence number", at: chunk.offset)
                return .chunkBody(chunk)
            }
            return .fdATSequence(chunk)
        default:
            lastChunkWasNotIDAT = true
            return .chunkBody(chunk)
        }
    }
    private var lastChunkWasNotIDAT = false

    /// The first IDAT: the checks it makes, and whether the default image is APNG frame 0.
    private func beginMainImage(_ chunk: Chunk) throws(DecodeError) {
        guard let header else { throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.chunkOrder("IDAT before IHDR")) }
        if header.colorType == .indexed && palette == nil {
            throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.missingPalette)
        }
        if animation != nil, let control = pendingControl {
            // An fcTL before the first IDAT makes the default image frame 0; it must
            // cover the whole canvas at (0, 0).
            if control.x != 0 || control.y != 0 || control.width != header.width || control.height != header.height {
                dropAnimation("the first fcTL must cover the canvas", at: chunk.offset)
            } else {
                defaultImageIsFrame = true
            }
        }
        order.noteIDAT()
        if options.propertiesOnly {
            mainImageSeen = true
            if defaultImageIsFrame, let control = pendingControl { describeFrame(control) }
            pendingControl = nil
            finishHeaderProperties()
        }
    }

    /// Handles a whole non-streamed chunk. Returns the next state.
    private func process(_ chunk: Chunk, data: ArraySlice<UInt8>) throws(DecodeError) -> State {
        let type = chunk.type
        switch type {
        case .IHDR:
            guard header == nil else {
                throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.chunkOrder("duplicate IHDR"))
            }
            let parsed = try PNGHeader(parsing: data, offset: chunk.dataOffset)
            header = parsed
            _ = try SizeMath.checkImage(width: parsed.width, height: parsed.height, bytesPerPixel: 1,
                                        limits: options.limits, format: .png, offset: chunk.dataOffset)
            var properties = ImageProperties(format: .png, width: parsed.width, height: parsed.height,
                                             colorModel: parsed.colorType == .grayscale || parsed.colorType == .grayscaleAlpha ? .gray : .rgb,
                                             bitsPerComponent: parsed.bitDepth, hasAlpha: parsed.colorType.hasAlphaChannel)
            properties.isInterlaced = parsed.interlaced
            self.properties = properties
        case .PLTE:
            guard let header else { break }
            if order.seenPLTE {
                throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.chunkOrder("duplicate PLTE"))
            }
            if order.seenIDAT {
                // libpng: "out of place", a benign error (a warning when reading).
                warn(at: chunk.offset, "PLTE after IDAT ignored")
                break
            }
            if header.colorType == .grayscale || header.colorType == .grayscaleAlpha {
                // libpng: "ignored in grayscale PNG" (benign error).
                warn(at: chunk.offset, "PLTE in a grayscale image ignored")
                break
            }
            // libpng's png_set_PLTE refuses an empty palette for every colour type ("Invalid palette").
            guard data.count > 0 else {
                throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.invalidPaletteLength(0))
            }
            guard data.count % 3 == 0, data.count <= 768 else {
                if header.colorType == .indexed {
                    throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.invalidPaletteLength(UInt32(data.count)))
                }
                warn(at: chunk.offset, "\(PNGError.invalidPaletteLength(UInt32(data.count))); ignored")
                break
            }
            order.notePLTE()
            // libpng silently drops entries beyond 2^bitDepth for indexed images.
            var entries = Array(data)
            if header.colorType == .indexed {
                entries = Array(entries.prefix(3 << header.bitDepth))
            }
            palette = Palette(rgb: entries)
        case .IDAT:
            break   // an IDAT after the image data ended, already reported by beginChunk
        case .IEND:
            if !data.isEmpty { warn(at: chunk.offset, "IEND with \(data.count) data bytes; ignored") }
            try finish()
            return .done
        case .tRNS:
            guard let header, admit(type, at: chunk.offset) else { break }
            switch header.colorType {
            case .grayscale:
                guard data.count == 2 else { warn(at: chunk.offset, "tRNS: length \(data.count) for gray, must be 2; ignored"); break }
                transparency = .key([UInt16(data[data.startIndex]) << 8 | UInt16(data[data.startIndex + 1])])
            case .truecolor:
                guard data.count == 6 else { warn(at: chunk.offset, "tRNS: length \(data.count) for RGB, must be 6; ignored"); break }
                let d = Array(data)
                transparency = .key([UInt16(d[0]) << 8 | UInt16(d[1]), UInt16(d[2]) << 8 | UInt16(d[3]), UInt16(d[4]) << 8 | UInt16(d[5])])
            case .indexed:
                guard data.count >= 1, data.count <= (palette?.count ?? 0) else {
                    warn(at: chunk.offset, "tRNS: \(data.count) entries for a palette of \(palette?.count ?? 0); ignored")
                    break
                }
                transparency = .paletteAlpha(Array(data))
            case .grayscaleAlpha, .truecolorAlpha:
                warn(at: chunk.offset, "tRNS in an image with an alpha channel ignored")
            }
        case .acTL where !options.decodeAPNGAnimation, .fcTL where !options.decodeAPNGAnimation, .fdAT where !options.decodeAPNGAnimation:
            break
        case .acTL:
            if animation != nil {
                // "There must be exactly one acTL chunk" — Pillow and browsers fall back to the
                // default image; so do we.
                dropAnimation("more than one acTL", at: chunk.offset)
                break
            }
            guard admit(type, at: chunk.offset), !animationInvalid else { break }
            if let control = APNGAnimationControl(parsing: data) {
                animation = control
                if control.frameCount > options.limits.maxFrames {
                    dropAnimation("\(control.frameCount) frames exceed the limit of \(options.limits.maxFrames)", at: chunk.offset)
                }
            } else {
                warn(at: chunk.offset, "APNG: invalid acTL; the file is shown as a still image")
            }
        case .fcTL:
            // An fcTL may precede acTL (only acTL's place before IDAT is prescribed); its
            // sequence number counts either way.
            guard !animationInvalid, let header else { break }
            switch APNGFrameControl.parse(data, canvasWidth: header.width, canvasHeight: header.height) {
            case .failure(let error):
                dropAnimation(error.description, at: chunk.offset)
            case .success(let control):
                guard checkSequence(control.sequenceNumber, at: chunk.dataOffset) else { break }
                if currentFrame != nil || frameAwaitingData != nil || (pendingControl != nil && !imageDataStarted) {
                    dropAnimation("fcTL without image data for the previous frame", at: chunk.offset)
                    break
                }
                if !imageDataStarted {
                    pendingControl = control
                } else if animation != nil {
                    if frameControls.count >= (animation?.frameCount ?? 0) {
                        dropAnimation("more fcTL chunks than acTL announced", at: chunk.offset)
                        break
                    }
                    if options.propertiesOnly {
                        frameAwaitingData = control
                        break
                    }
                    let frameHeader = PNGHeader(width: control.width, height: control.height, bitDepth: header.bitDepth,
                                                colorType: header.colorType, interlaced: header.interlaced)
                    currentFrame = (control, try PNGImageData(header: frameHeader, budget: budget, offsetBase: chunk.offset))
                    currentFrameStream = []
                }
            }
        default:
            if type.isCritical {
                throw DecodeError(.unsupported, format: .png, offset: chunk.offset, PNGError.unknownCriticalChunk(type: type.description))
            }
            guard admit(type, at: chunk.offset), let header, var properties else { break }
            if let problem = PNGMetadata.apply(type, data: data, header: header, limits: options.limits, to: &properties) {
                warn(at: chunk.offset, problem)
            }
            self.properties = properties
        }
        return .chunkHeader
    }

    /// §5.6 ordering for ancillary chunks; false (with a warning) when the chunk is to be ignored.
    private func admit(_ type: PNGChunkType, at offset: Int) -> Bool {
        if let problem = order.admitAncillary(type, indexed: header?.colorType == .indexed) {
            warn(at: offset, problem)
            return false
        }
        return true
    }

    // MARK: - Image data

    private func feedImageData(_ type: PNGChunkType, _ piece: UnsafeRawBufferPointer, fileOffset: Int) throws(DecodeError) {
        if type == .IDAT {
            guard let mainImage else { return }
            try mainImage.feed(piece, fileOffset: fileOffset)
            return
        }
        // fdAT: errors in a frame's data drop the animation, never the default image.
        guard let frame = currentFrame else { return }
        do {
            try frame.data.feed(piece, fileOffset: fileOffset)
            currentFrameStream.append(contentsOf: piece)
        } catch {
            dropAnimation(error.description, at: fileOffset)
        }
    }

    private func finishImageDataChunk(_ chunk: Chunk) throws(DecodeError) {
        if chunk.type == .IDAT {
            guard let mainImage, mainImage.isComplete, mainImageBitmap == nil, !mainImageStreamed else { return }
            if mainImage.sawExtraData { warn(at: chunk.offset, "extra compressed data after the image") }
            if rowSink != nil {
                mainImageStreamed = true
                return
            }
            mainImageBitmap = try keptNativeBitmap(of: mainImage)
            if defaultImageIsFrame, let control = pendingControl, animation != nil {
                appendFrame(mainImage, control: control)
            }
            pendingControl = nil
            // The bitmap holds the image now; the stored rows (and their reservation) go.
            mainImage.releaseRows()
            return
        }
        if let frame = currentFrame, frame.data.isComplete {
            appendFrame(frame.data, control: frame.control)
            currentFrame = nil
        }
    }

    /// A frame whose data has been decoded (all of it, or what a truncated file holds): its
    /// compressed stream is kept, its pixels are not (`frameImage` inflates them again).
    private func appendFrame(_ data: PNGImageData, control: APNGFrameControl) {
        let stream = currentFrame?.data === data ? currentFrameStream : []
        currentFrameStream = []
        // Every kept stream counts against the decode's memory; past the limit the animation
        // is dropped (the default image stays, as with any broken APNG), with a warning.
        do {
            try budget.reserve(stream.count, format: .png, offset: nil)
        } catch {
            dropAnimation("\(error.reason)", at: nil)
            return
        }
        frameStreamBytes += stream.count
        frameControls.append(control)
        frameStreams.append(stream)
        updateAnimationProperties()
    }

    /// Frame `index`'s own pixels in the compositor's format, tight rows (the compositor indexes
    /// with `bytesPerRow`): the default image, or the kept stream inflated again — the bytes
    /// the decode already read without an error, so this gives the same rows.
    private func frameImage(_ index: Int) throws(DecodeError) -> Bitmap {
        guard let header, index < frameStreams.count else {
            throw DecodeError(.malformed, format: .png, offset: nil, ContainerError.frameOutOfRange(index: index, count: frameStreams.count))
        }
        let native: Bitmap
        if index == 0 && defaultImageIsFrame, let mainImageBitmap {
            native = mainImageBitmap
        } else {
            let control = frameControls[index]
            let frameHeader = PNGHeader(width: control.width, height: control.height, bitDepth: header.bitDepth,
                                        colorType: header.colorType, interlaced: header.interlaced)
            let data = try PNGImageData(header: frameHeader, budget: budget, offsetBase: 0)
            let failure = frameStreams[index].withUnsafeBytes { stream -> DecodeError? in
                do throws(DecodeError) { try data.feed(stream, fileOffset: 0) } catch { return error }
                return nil
            }
            if let failure { throw failure }
            native = nativeBitmap(of: data)
        }
        do {
            return try native.converted(to: APNGCompositor.canvasFormat(sixteenBit: header.bitDepth == 16)).tightlyPacked()
        } catch {
            throw DecodeError(.malformed, format: .png, offset: nil, ContainerError.outputConversion(error.description))
        }
    }

    /// Properties only: a frame whose data has begun counts, as `appendFrame` counts a decoded one.
    private func describeFrame(_ control: APNGFrameControl) {
        frameControls.append(control)
        updateAnimationProperties()
    }

    /// The main image in native layout, counted in `budget` for as long as the decoder keeps it
    /// (expanding 1-, 2- and 4-bit samples makes a new buffer up to 8 times the stored rows).
    private func keptNativeBitmap(of data: PNGImageData) throws(DecodeError) -> Bitmap {
        let bitmap = nativeBitmap(of: data)
        try budget.reserve(bitmap.bytes.count, format: .png, offset: nil)
        return bitmap
    }

    private func nativeBitmap(of data: PNGImageData) -> Bitmap {
        PNGPixelExpansion.nativeBitmap(header: data.header, rows: data.paddedPixels(), palette: palette, transparency: transparency)
    }

    /// APNG: sequence numbers start at 0 and increase by one over fcTL and fdAT chunks.
    private func checkSequence(_ sequence: UInt32, at offset: Int) -> Bool {
        guard sequence == nextSequenceNumber else {
            dropAnimation("sequence number \(sequence), expected \(nextSequenceNumber)", at: offset)
            return false
        }
        nextSequenceNumber &+= 1
        return true
    }

    /// An invalid animation leaves the default image as a still (what browsers do with a broken APNG).
    private func dropAnimation(_ why: String, at offset: Int?) {
        guard !animationInvalid else { return }
        animationInvalid = true
        if animation != nil || pendingControl != nil || !frameControls.isEmpty {
            warn(at: offset, "APNG: \(why); the file is shown as a still image")
        }
        animation = nil
        frameControls = []
        frameStreams = []
        currentFrameStream = []
        budget.release(frameStreamBytes)
        frameStreamBytes = 0
        currentFrame = nil
        frameAwaitingData = nil
        pendingControl = nil
        compositorCache = nil
        updateAnimationProperties()
    }

    private var shouldStopEarly: Bool {
        if mainImageStreamed { return true }
        guard options.firstFrameOnly, mainImageBitmap != nil else { return false }
        return animation == nil || defaultImageIsFrame
    }

    // MARK: - Properties and the end

    private func finishHeaderProperties() {
        guard let header, var properties else { return }
        properties.hasAlpha = header.colorType.hasAlphaChannel || transparency != nil
        if header.colorType == .indexed, let palette {
            properties.colorModel = .indexed(PNGPixelExpansion.applying(transparency, to: palette))
        }
        self.properties = properties
        updateAnimationProperties()
    }

    /// Keeps `properties` in step with the frames; called for every frame, in constant time per
    /// new frame: properties are mutated in place (`properties?.…`, a copy of the struct would
    /// copy its arrays) and only frames not yet listed are appended, so N frames cost O(N).
    private func updateAnimationProperties() {
        guard properties != nil else { return }
        properties?.extra.removeAll { $0.key == "apngFrames" || $0.key == "apngDefaultImageIsFrame" }
        guard let animation, !frameControls.isEmpty || currentFrame != nil || frameAwaitingData != nil || pendingControl != nil else {
            properties?.frameCount = 1
            properties?.loopCount = nil
            properties?.frames = []
            return
        }
        properties?.frameCount = max(1, frameControls.count)
        properties?.loopCount = animation.playCount
        let frameAlpha = properties?.hasAlpha ?? false
        if let listed = properties?.frames, listed.count > frameControls.count || listed.first.map({ $0.hasAlpha != frameAlpha }) ?? false {
            properties?.frames = []   // frames dropped, or the colour type's alpha learnt late: list them again
        }
        while let listed = properties?.frames.count, listed < frameControls.count {
            let control = frameControls[listed]
            properties?.frames.append(FrameProperties(delay: control.delaySeconds, x: control.x, y: control.y, width: control.width, height: control.height,
                                                      disposal: control.dispose == .none ? .none : control.dispose == .background ? .background : .previous,
                                                      blend: control.blend == .source ? .source : .over, hasAlpha: frameAlpha))
        }
        properties?.extra.append(("apngFrames", String(animation.frameCount)))
        properties?.extra.append(("apngDefaultImageIsFrame", String(defaultImageIsFrame)))
    }

    /// IEND, or first-frame-only completion: check that the image is all there.
    private func finish() throws(DecodeError) {
        guard imageDataStarted else {
            throw DecodeError(.malformed, format: .png, offset: nil, PNGError.missingImageData)
        }
        if let mainImage, !mainImage.isComplete {
            throw DecodeError(.malformed, format: .png, offset: nil, PNGError.notEnoughImageData(rowsMissing: mainImage.scanlinesMissing))
        }
        if let animation, frameControls.count != animation.frameCount, !options.firstFrameOnly {
            // Fewer frames than announced: keep the ones that arrived (browsers play them).
            warn(at: nil, "APNG: acTL announced \(animation.frameCount) frames, \(frameControls.count) decoded")
            if frameControls.isEmpty { dropAnimation("no complete frame", at: nil) }
        }
        updateAnimationProperties()
    }

    /// The input ended at `offset` inside the named part. With at least some decoded rows the
    /// image is finished as truncated (rows never received are zero, see Docs/PNG.md); before
    /// that there is no image and the error is thrown.
    private func endOfInput(inside part: String, at offset: Int) throws(DecodeError) -> DecodeProgress {
        let error = DecodeError(.truncated, format: .png, offset: offset, PNGError.truncated(inside: part))
        if options.propertiesOnly {
            // What the header described stands; a decode will say how much of the image is there.
            guard properties != nil else { throw error }
        } else if mainImageBitmap == nil && !mainImageStreamed {
            if rowSink != nil {
                // Streaming: the rows that arrived have been handed over already.
                guard let mainImage, mainImage.rowsStored > 0 else { throw error }
            } else {
                guard let mainImage, mainImage.pixels.count > 0 else { throw error }
                mainImageBitmap = try keptNativeBitmap(of: mainImage)
            }
        }
        if let frame = currentFrame, frame.data.pixels.count > 0 {
            appendFrame(frame.data, control: frame.control)
            currentFrame = nil
        }
        if animation != nil, frameControls.isEmpty {
            dropAnimation("input ended before the first frame", at: offset)
        }
        truncation = error
        warnings.append(DecodeWarning(offset: offset, error.description))
        updateAnimationProperties()
        state = .done
        return .finished
    }

    private func warn(at offset: Int?, _ message: String) {
        warnings.append(DecodeWarning(offset: offset, message))
    }

    // MARK: - Small helpers

    /// Reads through a `ByteReader` whose window was already checked by `demand`; a failure
    /// would be a bug in this file, reported as malformed rather than trapping.
    private func read<T>(_ body: () throws(ByteReaderError) -> T) throws(DecodeError) -> T {
        do { return try body() } catch {
            throw DecodeError(.malformed, format: .png, offset: error.offset, PNGError.truncated(inside: "a field"))
        }
    }

    private func bytes(_ reader: ByteReader, count: Int) throws(DecodeError) -> ArraySlice<UInt8> {
        var reader = reader
        return try read { () throws(ByteReaderError) in try reader.readBytes(count: count) }
    }
}
