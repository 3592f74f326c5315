/// The WebP decoder: a resumable state machine over the RIFF container (RFC 9649 §2), feeding
/// the lossless (`VP8L`, RFC 9649 §3) and lossy (`VP8 `, RFC 6386, with `ALPH`) codecs, and
/// collecting animation frames (`ANIM`/`ANMF`).
///
/// ```
///  riffHeader (12 bytes) ─► chunkHeader ◄──────────────────────────────────────────────┐
///     VP8 /VP8L (still) ─► imageData: payload streamed into the codec, rows as decoded ─┤
///     VP8X ALPH ICCP EXIF XMP ANIM ANMF ─► wholeChunk: payload collected, then read ────┤
///     anything else ─► skip ────────────────────────────────────────────────────────────┘
///  until 8 + RIFF size (bytes after the RIFF end are ignored, as libwebp ignores them)
/// ```
/// Which chunks are accepted where follows libwebp: a still image is what `WebPDecode` reads
/// (the first chunk is `VP8 `, `VP8L` or `VP8X`; after VP8X, chunks up to the image are skipped
/// except ALPH, the last of which is used; chunk sizes must stay inside the RIFF size), an
/// animation (VP8X with the animation flag) is what `WebPDemux` accepts. Metadata chunks
/// (ICCP, EXIF, XMP) are collected for the properties wherever they are.
///
/// Animation frames are kept compressed and decoded when drawn (`frame(at:)`), composed as
/// libwebp's `WebPAnimDecoder` composes them (`WebPAnimationCompositor`).
///
/// This file holds the state, the state machine and the still image's codec; what each chunk
/// leads to and the chunks read whole are in `WebPDecoder+Chunks.swift`.
final class WebPDecoder: FormatDecoder {
    enum State {
        case riffHeader
        case chunkHeader
        case wholeChunk(WebPChunkHeader)
        case imageData(WebPChunkHeader)
        case skip(WebPChunkHeader)
        case done
    }

    let options: DecodeOptions
    var state = State.riffHeader
    var riffEnd = 0
    var chunkCount = 0
    var vp8x: WebPVP8X?
    var properties: ImageProperties?
    var metadataBytes = 0

    // The still image.
    var alphaChunk: WebPChunkHeader?
    var alphaPayload: [UInt8]?
    var imageChunk: WebPChunkHeader?
    private var imagePayload: [UInt8] = []
    private var codec: (any WebPImageCodec)?
    private var imageFinished = false

    // The animation.
    var animationInfo: WebPAnimationInfo?
    var frames: [WebPFrame] = []
    private var compositor: WebPAnimationCompositor?

    private(set) var truncation: DecodeError?
    private(set) var warnings: [DecodeWarning] = []

    /// Streaming mode (the downscaler): the first frame's rows go here as straight RGBA8 bands
    /// and no full-size image is kept (stills: as rows are decoded; animations: frame 0 composed
    /// once the input is read). Set before the first `advance`.
    var rowSink: ((Bitmap) -> Void)?
    /// `pureimage inspect`: what this decoder reads, as it reads it (`FormatDecoder.structureLog`).
    var structureLog: StructureLog?

    /// What this decode holds at once, against `options.limits.maxMemoryBytes`.
    let budget: MemoryBudget
    /// Whether the still image's raster (and the codec's working rows, counted as much again)
    /// and the animation canvases are reserved in `budget`.
    private var stillReserved = false
    private var canvasesReserved = false

    init(options: DecodeOptions) {
        self.options = options
        budget = MemoryBudget(limits: options.limits)
    }

    var isAnimation: Bool { vp8x?.hasAnimation ?? false }

    // MARK: - FormatDecoder

    var completedFrameCount: Int {
        isAnimation ? frames.count : (imageFinished ? 1 : 0)
    }

    var availableFrameCount: Int {
        isAnimation ? frames.count : (codec?.raster != nil ? 1 : 0)
    }

    func frame(at index: Int) throws(DecodeError) -> Bitmap {
        guard index >= 0, index < availableFrameCount else {
            throw DecodeError(.malformed, format: .webp, offset: nil, ContainerError.frameOutOfRange(index: index, count: availableFrameCount))
        }
        if !isAnimation, let raster = codec?.raster {
            if let directFrame { return directFrame }
            if imageFinished, let output = options.directOutput,
               let target = output.target(native: .rgba8, hasAlpha: properties?.hasAlpha ?? true),
               let converted = raster.takeConverted(to: target) {
                directFrame = converted
                return converted
            }
            return raster.bitmap()
        }
        return try composedFrame(index)
    }

    /// `DecodeOptions.directOutput`: the finished still in the requested 4-byte format, converted
    /// in place in the raster (`WebPRaster.takeConverted`), which holds no pixels after it.
    private var directFrame: Bitmap?

    func partialFrame() -> PartialFrame? {
        guard !isAnimation, !imageFinished, let raster = codec?.raster, rowSink == nil else { return nil }
        return PartialFrame(bitmap: raster.bitmap(), decodedRows: raster.rowsDone, frameIndex: 0)
    }

    func advance(_ input: inout InputBuffer) throws(DecodeError) -> DecodeProgress {
        let progress = try runStateMachine(&input)
        if progress == .finished, isAnimation, let sink = rowSink, !frames.isEmpty {
            rowSink = nil
            let bitmap = try composedFrame(0)
            emitInBands(bitmap, sink)
        }
        return progress
    }

    // MARK: - The state machine

    private func runStateMachine(_ input: inout InputBuffer) throws(DecodeError) -> DecodeProgress {
        while true {
            switch state {
            case .done:
                return .finished

            case .riffHeader:
                switch input.demand(12) {
                case .needMoreInput: return .needMoreInput
                case .truncated: throw DecodeError(.truncated, format: .webp, offset: input.writeIndex, WebPError.truncated(inside: "the RIFF header"))
                case .ready: break
                }
                let bytes = input.bytes
                let at = input.readIndex
                guard Array(bytes[at ..< at + 4]) == Array("RIFF".utf8), Array(bytes[at + 8 ..< at + 12]) == Array("WEBP".utf8) else {
                    throw DecodeError(.malformed, format: .webp, offset: at, WebPError.notWebP)
                }
                // RFC 9649 §2.3: "File Size … the size of the file in bytes, starting at offset 8".
                let size = WebPChunks.le32(bytes, at + 4)
                guard size >= 12 else { throw DecodeError(.malformed, format: .webp, offset: at + 4, WebPError.riffSizeTooSmall(size)) }
                guard size <= WebPChunks.maxPayload else {
                    throw DecodeError(.malformed, format: .webp, offset: at + 4, WebPError.chunkSizeTooLarge(fourCC: "RIFF", size: size))
                }
                riffEnd = at + 8 + size
                structureLog?.record(at, "RIFF", WebPInspector.describeRIFF(size: size, fileSize: input.writeIndex))
                input.readIndex = at + 12
                state = .chunkHeader

            case .chunkHeader:
                if input.readIndex >= riffEnd { try finishContainer(at: input.readIndex); continue }
                switch input.demand(WebPChunks.headerSize) {
                case .needMoreInput: return .needMoreInput
                case .truncated: return try endOfInput(&input, inside: "a chunk header")
                case .ready: break
                }
                let at = input.readIndex
                let chunk = WebPChunkHeader(offset: at, fourCC: WebPChunks.fourCC(input.bytes[at ..< at + 4]),
                                            size: WebPChunks.le32(input.bytes, at + 4))
                input.readIndex += WebPChunks.headerSize
                structureLog?.record(at, chunk.fourCC, WebPInspector.describeHeader(size: chunk.size, available: min(riffEnd, input.writeIndex) - chunk.payloadStart), level: 1)
                try dispatch(chunk)

            case .wholeChunk(let chunk):
                switch input.demand(chunk.size, at: chunk.payloadStart) {
                case .needMoreInput: return .needMoreInput
                case .truncated: return try endOfInput(&input, inside: "the \(chunk.fourCC) chunk at byte \(chunk.offset)")
                case .ready: break
                }
                let payload = Array(input.bytes[chunk.payloadStart ..< chunk.payloadEnd])
                input.readIndex = min(chunk.paddedEnd, input.writeIndex, riffEnd)
                structureLog?.amend(chunk.offset, WebPInspector.describe(chunk.fourCC, payload, size: chunk.size))
                try readWholeChunk(chunk, payload: payload)
                // On past the padding byte, which may not have arrived yet.
                if case .wholeChunk = state { state = .skip(chunk) }

            case .skip(let chunk):
                let target = min(chunk.paddedEnd, riffEnd)
                input.readIndex = min(max(input.readIndex, target), input.writeIndex)
                if input.readIndex >= target { state = .chunkHeader; continue }
                if input.isClosed { return try endOfInput(&input, inside: "the \(chunk.fourCC) chunk at byte \(chunk.offset)") }
                return .needMoreInput

            case .imageData(let chunk) where options.propertiesOnly:
                // The bitstream's header alone (RFC 9649 §3.2, RFC 6386 §9.1); the rest is skipped.
                let headerSize = chunk.fourCC == "VP8L" ? VP8LHeader.size : VP8FrameHeader.size
                let truncated = DecodeError(.truncated, format: .webp, offset: min(chunk.payloadEnd, input.writeIndex),
                                            WebPError.truncated(inside: "the \(chunk.fourCC) bitstream header"))
                guard chunk.size >= headerSize else { throw truncated }
                switch input.demand(headerSize, at: chunk.payloadStart) {
                case .needMoreInput: return .needMoreInput
                case .truncated: throw truncated
                case .ready: break
                }
                let header = Array(input.bytes[chunk.payloadStart ..< chunk.payloadStart + headerSize])
                let described: (width: Int, height: Int, alphaIsUsed: Bool)
                do throws(WebPCodecFailure) {
                    if chunk.fourCC == "VP8L" {
                        let parsed = try VP8LHeader(parsing: header)
                        described = (parsed.width, parsed.height, parsed.alphaIsUsed)
                    } else {
                        let parsed = try VP8FrameHeader(parsing: header, chunkSize: chunk.size)
                        described = (parsed.width, parsed.height, false)
                    }
                } catch {
                    throw DecodeError(error.kind, format: .webp, offset: chunk.payloadStart + error.payloadOffset, error.reason)
                }
                try describeStill(chunk, width: described.width, height: described.height, alphaIsUsed: described.alphaIsUsed)
                stillDescribed = true
                state = .skip(chunk)

            case .imageData(let chunk):
                let available = min(chunk.payloadEnd, input.writeIndex)
                if available > chunk.payloadStart + imagePayload.count {
                    imagePayload.append(contentsOf: input.bytes[chunk.payloadStart + imagePayload.count ..< available])
                }
                input.readIndex = available
                let whole = imagePayload.count == chunk.size
                let progress = try runCodec(chunk, isComplete: whole || input.isClosed)
                switch progress {
                case .needMoreInput:
                    return .needMoreInput
                case .finished:
                    // The image can be complete before its chunk is (VP8 partitions may end
                    // with bytes no macroblock reads); the rest of the chunk is skipped, and
                    // the chunks after it read (a streaming decode too: a file cut there is
                    // truncated, as its one-shot decode says).
                    imageFinished = true
                    imagePayload = []
                    state = .skip(chunk)
                case .truncated:
                    guard codec?.raster != nil else {
                        throw DecodeError(.truncated, format: .webp, offset: chunk.payloadStart + imagePayload.count,
                                          WebPError.truncated(inside: "the \(chunk.fourCC) bitstream header"))
                    }
                    let error = DecodeError(.truncated, format: .webp, offset: chunk.payloadStart + imagePayload.count,
                                            WebPError.truncated(inside: "the \(chunk.fourCC) bitstream (\(codec?.raster?.rowsDone ?? 0) rows decoded)"))
                    truncation = error
                    warnings.append(DecodeWarning(offset: error.offset, error.description))
                    state = .done
                    return .finished
                }
            }
        }
    }

    func startImage(_ chunk: WebPChunkHeader) {
        imageChunk = chunk
        state = .imageData(chunk)
        guard !options.propertiesOnly else { return }   // no codec: the header is read in place
        imagePayload = []
        imagePayload.reserveCapacity(min(chunk.size, 1 << 26))
        let output = stillOutput(chunk)
        if chunk.fourCC == "VP8L" {
            codec = WebPLosslessCodec(limits: options.limits, sink: rowSink, output: output)
        } else {
            codec = WebPLossyCodec(limits: options.limits, alpha: alphaPayload, chunkSize: chunk.size, sink: rowSink, output: output)
        }
    }

    /// For `DecodeOptions.directOutput`: the format the still's raster converts its rows to as
    /// they are written, which is the one `frame(at:)` asks for — `directOutput` with the
    /// properties' alpha: VP8X's flag (known before the image chunk), else the VP8L header's
    /// `alpha_is_used` bit (given to the closure once the header is read; a simple VP8 file
    /// has none).
    private func stillOutput(_ chunk: WebPChunkHeader) -> ((_ alphaIsUsed: Bool) -> PixelFormat?)? {
        guard let output = options.directOutput, !isAnimation, rowSink == nil else { return nil }
        let known: Bool? = vp8x != nil ? (properties?.hasAlpha ?? true) : (chunk.fourCC == "VP8L" ? nil : false)
        return { alphaIsUsed in output.target(native: .rgba8, hasAlpha: known ?? alphaIsUsed) }
    }

    /// Runs the still image's codec; sets the properties once its header is known.
    private func runCodec(_ chunk: WebPChunkHeader, isComplete: Bool) throws(DecodeError) -> WebPCodecProgress {
        guard let codec else { return .finished }
        let progress: WebPCodecProgress
        do {
            progress = try codec.advance(payload: imagePayload, isComplete: isComplete)
        } catch {
            throw DecodeError(error.kind, format: .webp, offset: chunk.payloadStart + error.payloadOffset, error.reason)
        }
        if let size = codec.size, !stillReserved {
            // The raster and the codec's planes or pixel buffers: counted as twice the RGBA raster.
            try budget.reserve(SizeMath.product(size.width, size.height, 8), format: .webp, offset: chunk.payloadStart)
            stillReserved = true
        }
        if let size = codec.size, !imageSizeChecked {
            imageSizeChecked = true
            structureLog?.amend(chunk.offset, WebPInspector.describe(chunk.fourCC, Array(imagePayload.prefix(64)), size: chunk.size))
            let alpha = (codec as? WebPLosslessCodec)?.header?.alphaIsUsed ?? false
            try describeStill(chunk, width: size.width, height: size.height, alphaIsUsed: alpha)
        }
        return progress
    }
    private var imageSizeChecked = false
    /// Properties only: the still image's bitstream header has been read.
    private var stillDescribed = false

    /// The still image's properties once its bitstream's size is known.
    private func describeStill(_ chunk: WebPChunkHeader, width: Int, height: Int, alphaIsUsed: Bool) throws(DecodeError) {
        let format = chunk.fourCC == "VP8L" ? "lossless" : (alphaPayload != nil ? "lossy+alpha" : "lossy")
        if let vp8x {
            // §2.7 / libwebp: a still's canvas must equal its bitstream's size.
            guard width == vp8x.canvasWidth, height == vp8x.canvasHeight else {
                throw DecodeError(.malformed, format: .webp, offset: chunk.payloadStart,
                                  WebPError.canvasMismatch(canvasWidth: vp8x.canvasWidth, canvasHeight: vp8x.canvasHeight,
                                                           imageWidth: width, imageHeight: height))
            }
            properties?.extra.append(("webpFormat", format))
        } else {
            _ = try SizeMath.checkImage(width: width, height: height, bytesPerPixel: 4, limits: options.limits,
                                        format: .webp, offset: chunk.payloadStart)
            var properties = ImageProperties(format: .webp, width: width, height: height,
                                             colorModel: .rgb, bitsPerComponent: 8, hasAlpha: alphaIsUsed)
            properties.extra.append(("webpFormat", format))
            self.properties = properties
        }
    }

    /// The RIFF end is reached.
    private func finishContainer(at offset: Int) throws(DecodeError) {
        if isAnimation {
            guard !frames.isEmpty else { throw DecodeError(.malformed, format: .webp, offset: offset, WebPError.noFrames) }
        } else if imageChunk == nil {
            throw DecodeError(.malformed, format: .webp, offset: offset, WebPError.missingImageChunk)
        }
        state = .done
    }

    /// The input is closed inside `part`: what was decoded stays, marked truncated.
    private func endOfInput(_ input: inout InputBuffer, inside part: String) throws(DecodeError) -> DecodeProgress {
        let error = DecodeError(.truncated, format: .webp, offset: input.writeIndex, WebPError.truncated(inside: part))
        let hasImage = isAnimation ? !frames.isEmpty : (imageFinished || stillDescribed || codec?.raster != nil)
        guard hasImage else { throw error }
        truncation = error
        warnings.append(DecodeWarning(offset: input.writeIndex, error.description))
        state = .done
        return .finished
    }

    func warn(at offset: Int?, _ message: String) {
        warnings.append(DecodeWarning(offset: offset, message))
        structureLog?.warning(offset, message)
    }

    // MARK: - Animation

    /// Frame `index` composed on the canvas; frames are decoded when drawn, and the canvas after
    /// the last frame drawn is kept, so drawing 0…N in order decodes each frame once.
    private func composedFrame(_ index: Int) throws(DecodeError) -> Bitmap {
        guard let canvas = vp8x else { throw DecodeError(.malformed, format: .webp, offset: nil, WebPError.noFrames) }
        if !canvasesReserved {
            // The canvas, the frame decoded onto it (at most a canvas) and the caller's copy.
            try budget.reserve(SizeMath.product(canvas.canvasWidth, canvas.canvasHeight, 4, 3), format: .webp, offset: 12)   // VP8X, the first chunk
            canvasesReserved = true
        }
        var current = compositor ?? WebPAnimationCompositor(width: canvas.canvasWidth, height: canvas.canvasHeight)
        // Moved out of the cache, not shared with it, so drawing does not copy the canvas.
        compositor = nil
        if current.framesDrawn > index + 1 {
            current = WebPAnimationCompositor(width: canvas.canvasWidth, height: canvas.canvasHeight)
        }
        while current.framesDrawn <= index {
            let frame = frames[current.framesDrawn]
            let pixels = try frame.decode(limits: options.limits)
            current.draw(frame, pixels: pixels)
        }
        let bitmap = Bitmap(uncheckedWidth: canvas.canvasWidth, height: canvas.canvasHeight, format: .rgba8,
                            bytesPerRow: canvas.canvasWidth * 4, bytes: current.canvas)
        compositor = current
        return bitmap
    }

    private func emitInBands(_ bitmap: Bitmap, _ sink: (Bitmap) -> Void) {
        bitmap.forEachBand(rowsPerBand: (1 << 16) / max(bitmap.width, 1)) { _, band in sink(band) }
    }
}
