/// The GIF decoder (GIF87a and GIF89a): a resumable state machine over the block stream
/// (GIF89a §15–§27, Appendix B grammar).
///
/// ```
///  header (§17 + §18, 13 bytes) ─► globalColorTable? (§19) ─► blockStart ◄──────────────┐
///     blockStart: 0x21 ─► extensionData (sub-blocks …) ─────────────────────────────────┤
///                 0x2C ─► imageDescriptor (§20) ─► localColorTable? (§21)                │
///                          ─► minimumCodeSize (§22) ─► imageData (sub-blocks …) ─────────┘
///                 0x3B ─► done (§27 Trailer)
/// ```
/// Each state needs a known number of bytes (a data sub-block is its size byte plus at most 255
/// bytes), so "wait or truncated" is decided by `InputBuffer.demand` alone.
///
/// Image data is not decompressed here: each frame's data sub-blocks are concatenated, framing
/// removed (§15: the LZW decoder never sees sub-block sizes), into `codeStreams`, and a frame is
/// decoded when it is drawn. Memory is the compressed data plus one canvas; drawing frames
/// 0...N in order decodes each once (the composed canvas of the last frame drawn is cached).
///
/// This file holds the state and frame access; the state machine is in
/// `GIFDecoder+StateMachine.swift`, the blocks' contents are read in `GIFDecoder+Blocks.swift`,
/// errors and the end of the stream in `GIFDecoder+End.swift`.
///
/// Leniency after the first frame: a structural error (unknown block, bad LZW minimum code
/// size) ends the stream there as if the Trailer had come — the frames before it stay
/// available and the error is listed in `warnings` and `stopError` (Firefox treats unknown
/// blocks as the end; giflib's DGifSlurp fails but keeps the frames read). Before the first
/// frame the same errors are thrown.
final class GIFDecoder: FormatDecoder {
    enum State {
        case header
        case globalColorTable(entries: Int)
        case blockStart
        case extensionData(label: UInt8, offset: Int, subBlock: Int)
        case localColorTable(GIFImageDescriptor)
        case minimumCodeSize(GIFImageDescriptor, GIFColorTable?)
        case imageData
        case done
    }

    let options: DecodeOptions
    var state = State.header

    var screen: GIFLogicalScreen?
    var globalTable: GIFColorTable?
    var properties: ImageProperties?
    var frames: [GIFFrame] = []
    /// Every frame's LZW code stream, back to back (see `GIFFrame.codes`).
    var codeStreams: [UInt8] = []
    var completedFrameCount = 0

    // Extension state.
    /// giflib uses the first Graphic Control Extension since the previous image.
    var controlSeen = false
    var pendingControl: GIFGraphicControl?
    var applicationIsLooping = false
    /// The data sub-blocks of the frame being read (`pureimage inspect`).
    var imageSubBlocks = 0
    /// The extension being read: its sub-blocks (the first few kept) for `pureimage inspect`.
    var inspectedSubBlocks = GIFInspector.SubBlocks()
    var commentBytes: [UInt8] = []
    var metadataBytes = 0
    var sawTransparency = false

    // Rendering state (used by `frame(at:)`).
    var scratch: [UInt8] = []
    var canvasesReserved = false
    var scratchReserved = 0
    var cache: (index: Int, compositor: GIFCompositor)?
    var reportedProblems: Set<Int> = []

    var truncation: DecodeError?
    /// The structural error that ended a stream after its first frame, if any.
    var stopError: DecodeError?
    var warnings: [DecodeWarning] = []

    /// What this decode holds at once, against `options.limits.maxMemoryBytes`.
    let budget: MemoryBudget

    init(options: DecodeOptions) {
        self.options = options
        budget = MemoryBudget(limits: options.limits)
    }

    // MARK: - FormatDecoder

    var availableFrameCount: Int { frames.count }

    func frame(at index: Int) throws(DecodeError) -> Bitmap {
        guard index >= 0, index < frames.count, let screen else {
            throw DecodeError(.malformed, format: .gif, offset: nil, ContainerError.frameOutOfRange(index: index, count: frames.count))
        }
        try reserveRendering(upTo: index)
        let canvasFormat = directCanvasFormat()
        var (done, compositor) = cache ?? (-1, GIFCompositor(width: screen.width, height: screen.height, format: canvasFormat))
        // Moved out of the cache, not shared with it: drawing must not copy the canvas.
        cache = nil
        if done > index { (done, compositor) = (-1, GIFCompositor(width: screen.width, height: screen.height, format: canvasFormat)) }
        // Only complete frames go into the cache; a partial frame is drawn on a copy.
        let cacheable = frames[index].isComplete ? index : index - 1
        while done < cacheable {
            done += 1
            draw(done, on: &compositor)
        }
        cache = (done, compositor)
        if done < index { draw(index, on: &compositor) }
        return Bitmap(uncheckedWidth: screen.width, height: screen.height, format: compositor.format,
                      bytesPerRow: screen.width * 4, bytes: compositor.canvas)
    }

    /// `DecodeOptions.directOutput` for a still image (one frame, fully decoded): the 4-byte
    /// format its canvas is composed in (`GIFCanvasFormat`), so the frame needs no conversion.
    /// Nil for animations (their canvas is kept between frames, in straight RGBA8), for other
    /// targets, and while the frame is still arriving.
    private func directCanvasFormat() -> GIFCanvasFormat? {
        guard case .done = state, let output = options.directOutput, frames.count == 1, frames[0].isComplete,
              let target = output.target(native: .rgba8, hasAlpha: properties?.hasAlpha ?? true) else { return nil }
        return GIFCanvasFormat(target)
    }

    /// While a frame's data is arriving: the canvas after the frames before it with the pixels
    /// of this one decoded so far (undecoded pixels show the canvas beneath, as browsers show a
    /// GIF loading). The whole canvas is meaningful, so `decodedRows` is its height.
    func partialFrame() -> PartialFrame? {
        guard let screen, let last = frames.indices.last, !frames[last].isComplete,
              let bitmap = try? frame(at: last) else { return nil }
        return PartialFrame(bitmap: bitmap, decodedRows: screen.height, frameIndex: last)
    }

    /// Frame `index` alone, not composed: its own width × height as straight RGBA8, colours
    /// through the active table (padded with opaque black), transparent index and pixels
    /// never decoded as 0, 0, 0, 0. For conformance against giflib's rasters.
    func rawFrame(at index: Int) throws(DecodeError) -> Bitmap {
        guard index >= 0, index < frames.count else {
            throw DecodeError(.malformed, format: .gif, offset: nil, ContainerError.frameOutOfRange(index: index, count: frames.count))
        }
        let frame = frames[index]
        let decoded = decode(index)
        let pixels = GIFFrameKernel.rawRGBA(frame, indices: scratch, decoded: decoded, table: renderTable(frame))
        return Bitmap(uncheckedWidth: frame.descriptor.width, height: frame.descriptor.height, format: .rgba8,
                      bytesPerRow: frame.descriptor.width * 4, bytes: pixels)
    }

    /// The stored facts of frame `index`.
    func frameInfo(at index: Int) -> GIFFrameInfo? {
        guard index >= 0, index < frames.count else { return nil }
        let frame = frames[index]
        let d = frame.descriptor
        return GIFFrameInfo(left: d.left, top: d.top, width: d.width, height: d.height, interlaced: d.interlaced,
                            disposalValue: frame.control?.disposalValue ?? 0,
                            transparentIndex: frame.control?.transparentIndex,
                            delayCentiseconds: frame.control?.delayCentiseconds ?? 0,
                            paletteCount: (frame.localTable ?? globalTable)?.count ?? 0,
                            isComplete: frame.isComplete)
    }

    func renderTable(_ frame: GIFFrame) -> GIFRenderTable {
        GIFRenderTable(table: frame.localTable ?? globalTable, transparentIndex: frame.control?.transparentIndex)
    }

    /// Decodes frame `index` into `scratch`; returns the number of pixels decoded. An LZW
    /// problem is added to `warnings` the first time it is met.
    func decode(_ index: Int) -> Int {
        let frame = frames[index]
        var indices = scratch
        scratch = []   // hand the buffer over without a copy-on-write copy
        let result = frameCodes(index) { frame, codes in
            GIFFrameKernel.decodeIndices(frame, number: index, codes: codes, into: &indices)
        }
        scratch = indices
        if let problem = result.problem, frame.isComplete, !reportedProblems.contains(index) {
            reportedProblems.insert(index)
            warn(at: frame.dataOffset, problem.description)
        }
        return result.decoded
    }

    /// Runs `body` with frame `index` and its code stream. `frame.codes` lies inside
    /// `codeStreams` (appended, never removed).
    func frameCodes<R>(_ index: Int, _ body: (GIFFrame, UnsafeRawBufferPointer) -> R) -> R {
        let frame = frames[index]
        return codeStreams.withUnsafeBytes { all in body(frame, UnsafeRawBufferPointer(rebasing: all[frame.codes])) }
    }

    /// Rendering memory, counted in `budget` before it is allocated: the canvas, the region a
    /// `previous` disposal saves and the copy a caller's bitmap keeps (each at most a canvas),
    /// and the index buffer of the largest frame drawn so far.
    func reserveRendering(upTo index: Int) throws(DecodeError) {
        guard let screen else { return }
        if !canvasesReserved {
            // Placed at the Logical Screen Descriptor (byte 6), which declared the size.
            try budget.reserve(SizeMath.product(screen.width, screen.height, 4, 3), format: .gif, offset: 6)
            canvasesReserved = true
        }
        try reserveIndices(upTo: index)
    }

    func reserveIndices(upTo index: Int) throws(DecodeError) {
        guard index < frames.count else { return }
        let largest = frames[0 ... index].reduce(0) { max($0, $1.descriptor.width * $1.descriptor.height) }
        if largest > scratchReserved {
            try budget.reserve(largest - scratchReserved, format: .gif, offset: nil)
            scratchReserved = largest
        }
    }

    func draw(_ index: Int, on compositor: inout GIFCompositor) {
        let frame = frames[index]
        let decoded = decode(index)
        compositor.draw(frame, indices: scratch, decoded: decoded, table: renderTable(frame))
    }

    // MARK: - Streaming the first frame

    /// Streaming mode (`decodeRows`, the downscaler): frame 0 composed on the blank canvas goes
    /// here in bands of straight-RGBA8 canvas rows as its rows are decoded, and no canvas is
    /// allocated. Memory: a window of the frame's indices (`GIFFirstFrameStream`; all of them
    /// when it is interlaced, its rows arriving out of order) plus one band; the codes are not
    /// stored. Set before the first `advance`.
    var rowSink: ((Bitmap) -> Void)?
    /// `pureimage inspect`: what this decoder reads, as it reads it (`FormatDecoder.structureLog`).
    var structureLog: StructureLog?
    /// Blocks are read strictly in order, and image data is copied out of the input into
    /// `codeStreams` as its sub-blocks arrive: nothing consumed is read again.
    var mayDiscardConsumedInput: Bool { true }

    func advance(_ input: inout InputBuffer) throws(DecodeError) -> DecodeProgress {
        let progress = try runStateMachine(&input)
        if progress == .finished, let sink = rowSink {
            rowSink = nil
            // (No stream: no frame, or a canvas with no columns — nothing to show.)
            if var stream = firstFrameStream, let frame = frames.first {
                firstFrameStream = nil
                // Reported as `decode(_:)` reports it: for a frame whose data ended properly.
                if let problem = stream.finish(isComplete: frame.isComplete, number: 0, sink), frame.isComplete {
                    reportedProblems.insert(0)
                    warn(at: frame.dataOffset, problem.description)
                }
            }
        }
        return progress
    }

    /// Streaming mode: frame 0 is decoded while its data arrives (`GIFFirstFrameStream`), from
    /// its first data byte; nil otherwise (and for a canvas with no columns, which shows nothing).
    var firstFrameStream: GIFFirstFrameStream?

    /// Frame 0 has begun in streaming mode (its data, or an empty frame): its stream starts.
    func startFirstFrameStream() throws(DecodeError) {
        guard rowSink != nil, frames.count == 1, !options.propertiesOnly, let screen, screen.width > 0, let frame = frames.first else { return }
        let sizes = options.gifStreamSizes ?? GIFStreamSizes()
        firstFrameStream = try GIFFirstFrameStream(frame: frame, canvasWidth: screen.width, canvasHeight: screen.height,
                                                   table: renderTable(frame), budget: budget,
                                                   windowBytes: sizes.windowBytes, bandPixels: sizes.bandPixels)
    }

    /// Bytes of frame 0's code stream, in streaming mode: decoded now, not stored.
    func streamCodes(_ codes: ArraySlice<UInt8>) throws(DecodeError) {
        guard var stream = firstFrameStream, let sink = rowSink else { return }
        firstFrameStream = nil   // moved out while it runs: its window is not copied
        defer { firstFrameStream = stream }
        try stream.feed(codes, budget: budget, sink)
    }

    /// Whether some frame leaves part of the canvas uncovered (the image then has transparency).
    var someFrameUncovered = false
}
