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
///
/// This file holds the state and the state machine; the chunks are in `PNGDecoder+Chunks.swift`,
/// the image data and APNG frames in `PNGDecoder+ImageData.swift`, properties and the end of the
/// stream in `PNGDecoder+End.swift`.
final class PNGDecoder: FormatDecoder {
    struct Chunk {
        let type: PNGChunkType
        let length: Int
        /// Offset of the chunk's length field.
        let offset: Int
        var dataOffset: Int { offset + 8 }
    }

    enum State {
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

    let options: DecodeOptions
    var state = State.signature
    var order = PNGChunkOrder()

    var header: PNGHeader?
    var palette: Palette?
    var transparency: PNGTransparency?
    var properties: ImageProperties?

    /// The main image (IDAT) stream.
    var mainImage: PNGImageData?
    var mainImageBitmap: Bitmap?
    /// Streaming mode: the main image's rows have all gone to `rowSink`.
    var mainImageStreamed = false
    /// The main image written in the caller's format as its rows arrive (`DecodeOptions.directOutput`).
    var directImage: DirectImage?
    /// Properties only: the first IDAT has been seen (its data is skipped, so `mainImage` stays nil).
    var mainImageSeen = false
    /// Whether the IDAT stream has begun, in either mode.
    var imageDataStarted: Bool { mainImage != nil || mainImageSeen }

    // APNG state. `animation` is nil for still images and after an animation error (the file
    // then shows its default image, as browsers do).
    var animation: APNGAnimationControl?
    /// Set once an APNG rule is broken; from then on animation chunks are ignored.
    var animationInvalid = false
    var nextSequenceNumber: UInt32 = 0
    var pendingControl: APNGFrameControl?
    var defaultImageIsFrame = false
    var frameControls: [APNGFrameControl] = []
    /// Every decoded frame's zlib stream (its fdAT payloads without their sequence numbers),
    /// kept compressed and inflated again when the frame is drawn, as GIF keeps its LZW codes:
    /// a decode checks every frame once, then holds the compressed animation and one canvas.
    /// Frame 0, when it is the default image, is `mainImageBitmap` (its stream stays empty).
    var frameStreams: [[UInt8]] = []
    /// Bytes of `frameStreams`, reserved in `budget`.
    var frameStreamBytes = 0
    var currentFrame: (control: APNGFrameControl, data: PNGImageData)?
    /// The zlib stream of `currentFrame` so far.
    var currentFrameStream: [UInt8] = []
    /// Properties only: the fcTL whose first fdAT has not come yet (it makes the frame).
    var frameAwaitingData: APNGFrameControl?
    var compositorCache: (index: Int, compositor: APNGCompositor)?
    /// Whether the compositor's canvases are reserved in `budget` (once, for the decoder's life).
    var compositorReserved = false

    var truncation: DecodeError?
    var warnings: [DecodeWarning] = []

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
    /// `pureimage inspect`: what this decoder reads, as it reads it (`FormatDecoder.structureLog`).
    var structureLog: StructureLog?
    /// Chunks are read strictly in order, and nothing is read twice.
    var mayDiscardConsumedInput: Bool { true }

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
    func compositorAfter(frame index: Int) throws(DecodeError) -> APNGCompositor {
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
                    structureLog?.record(offset, type.description, "length \(length)")
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
                    structureLog?.amend(chunk.offset, PNGInspector.crcStatus(stored: stored, computed: computed))
                    if stored != computed {
                        let error = PNGError.crcMismatch(type: chunk.type.description, stored: stored, computed: computed)
                        if chunk.type.isCritical || !options.pngIgnoreAncillaryCRCErrors {
                            throw DecodeError(.malformed, format: .png, offset: chunk.dataOffset + chunk.length, error)
                        }
                        warn(at: chunk.dataOffset + chunk.length, "\(error); chunk ignored")
                        state = .chunkHeader
                        continue
                    }
                    structureLog?.amend(chunk.offset, PNGInspector.describe(chunk.type, Array(data), colorType: header?.colorType.rawValue))
                    state = try process(chunk, data: data)
                }

            case .fdATSequence(let chunk):
                switch input.demand(4) {
                case .needMoreInput: return .needMoreInput
                case .truncated: return try endOfInput(inside: "chunk fdAT", at: input.writeIndex)
                case .ready:
                    var reader = input.consume(4)
                    let sequence = try read { () throws(ByteReaderError) in try reader.readUInt32(.bigEndian) }
                    structureLog?.amend(chunk.offset, "seq=\(sequence)")
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
                // The position of `start` in `input.bytes` (which begins at `input.origin`).
                let first = start - input.origin
                let outcome = input.bytes.withUnsafeBytes { all -> Result<UInt32, DecodeError> in
                    // origin ≤ start and start + count ≤ writeIndex (count ≤ available), so the
                    // slice is in bounds.
                    let piece = UnsafeRawBufferPointer(rebasing: all[first ..< first + count])
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
                    structureLog?.amend(chunk.offset, "skipped (CRC not checked)")
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
                    structureLog?.amend(chunk.offset, PNGInspector.crcStatus(stored: stored, computed: crc))
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

    /// Whether the chunk begun last was not an IDAT: an IDAT after one, once the image data is
    /// complete, is a stray one (libpng: "Too many IDATs found", a warning).
    var lastChunkWasNotIDAT = false
}
