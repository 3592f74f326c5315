/// The baseline / extended-sequential JPEG decoder (T.81 Annex B syntax, Annex F decoding),
/// bit-exact with libjpeg-turbo 2.1.5's default decode. A resumable state machine:
///
/// ```
///  start (FF D8) ─► findMarker ─► marker ─┬─ segment (DQT DHT DRI APPn COM SOF DNL DAC) ─┐
///                       ▲                 ├─ SOS ─► scan (MCU rows) ────────────────────┤
///                       └─────────────────┴──────────────────────────────────────────────┘
///                                         └─ EOI ─► done
/// ```
/// Each state either has the bytes it needs (a whole marker segment, or one more MCU) or
/// returns `.needMoreInput` with nothing half-applied. Stages: entropy decoding fills the
/// `CoefficientStore`; `JPEGRenderer` runs IDCT, upsampling and colour conversion on bands of
/// MCU rows as they complete (`decodedRows`).
///
/// This file holds the state and the state machine; the marker segments are in
/// `JPEGDecoder+Markers.swift`, starting scans in `JPEGDecoder+Scans.swift`, running one over
/// the held input in `JPEGDecoder+ScanRun.swift`, and the frame's checks, set-up and rendering
/// in `JPEGDecoder+Frame.swift`.
final class JPEGDecoder: FormatDecoder {
    enum State {
        case start
        case findMarker
        /// A marker code was read; `offset` is its 0xFF, the input sits after the code.
        case marker(UInt8, offset: Int, synthetic: Bool)
        case scan
        case done
    }

    let options: DecodeOptions
    var state = State.start

    var frame: FrameHeader?
    var quantTables = [[UInt16]?](repeating: nil, count: 4)
    var dcSpecs = [HuffmanTables.Specification?](repeating: nil, count: 4)
    var acSpecs = [HuffmanTables.Specification?](repeating: nil, count: 4)
    /// The decoding tables built from `dcSpecs` (0…3) and `acSpecs` (4…7), kept from the scan
    /// that first used them until a DHT redefines them: a progressive file's ten or so scans,
    /// and the components sharing a table, build each one once.
    var derivedTables = [HuffmanTable?](repeating: nil, count: 8)
    /// `placeholderTable`, once built.
    var placeholder: HuffmanTable?
    var restartInterval = 0
    /// DAC conditioning for arithmetic scans (defaults until a DAC segment says otherwise).
    var conditioning = ArithmeticConditioning()
    var metadata = JPEGMetadata()
    /// A first scan of unknown height (SOF with Y = 0) searched for its DNL as far as the bytes
    /// went: where the scan starts and where the search goes on.
    var dnlSearch: (scanStart: Int, resumeAt: Int)?

    var geometry: FrameGeometry?
    var store: CoefficientStore?
    var renderer: AnyJPEGRenderer?
    /// Streaming mode for the downscaler: every output row, top to bottom, as a one-row native
    /// bitmap; the full-size output is never allocated (`frame(at:)` is then unavailable). Set
    /// before the first `advance`.
    var rowSink: ((Bitmap) -> Void)?
    /// The frame written in `DecodeOptions.directOutput` as its rows are rendered, when the
    /// renderer cannot write that output itself (`directImage(geometry:native:precision:offset:)`).
    var directImage: DirectImage?
    /// `pureimage inspect`: what this decoder reads, as it reads it (`FormatDecoder.structureLog`).
    var structureLog: StructureLog?
    /// Raw mode for TIFF's old-style JPEG: each component's sample rows before upsampling
    /// (`JPEGRenderer.rawRowSink`). Set before the first `advance`.
    var rawRowSink: ((Int, Int, UnsafeRawBufferPointer) -> Void)?
    /// Set at the first SOS: false when that scan held every component (libjpeg's
    /// `has_multiple_scans`), so MCU rows are rendered as they arrive.
    var multiScan = false
    var latched: [Bool] = []
    /// The latched tables as stored (block smoothing divides by the 16-bit values).
    var latchedQuant: [[UInt16]?] = []
    var scan: (any EntropyScan)?
    var scanCount = 0
    /// SOF2, SOF10: the progressive mode of T.81 Annex G.
    var progressive = false
    /// SOF9, SOF10, SOF11: arithmetic entropy coding (T.81 Annex D) instead of Huffman.
    var arithmetic = false
    /// SOF3, SOF11: the lossless process of T.81 Annex H (no DCT; samples are predicted).
    var lossless = false
    /// jdphuff.c `coef_bits`: per component, for each coefficient the Al of the last scan
    /// that covered it (−1 = never); see `ProgressiveState`.
    var progression = ProgressiveState(components: 0)
    var lastGoodIMCURow = 0
    /// Progressive: the coefficient bits and `last_good_iMCU_row` when the latest scan ended,
    /// for `partialFrame()` (libjpeg's buffered-image output pass after that scan).
    var completedScan: (number: Int, progression: ProgressiveState, lastGood: Int)?
    var partialCache: (scan: Int, frame: PartialFrame)?
    /// A banded progressive decode (`CoefficientBands`): every scan, with its entropy-decoder
    /// state at the start of each later band, the input they read, and the budget they take.
    var replayScans: [ReplayScan] = []
    var replayInput: (bytes: [UInt8], end: Int)?
    var replayBytes = 0
    /// Bands rendered by a banded decode (0: the whole image was held). Tests read it.
    var renderedBands = 0
    var colorTransform = JPEGColorTransform.gray
    var invertsCMYK = false

    var properties: ImageProperties?
    var truncation: DecodeError?
    private(set) var warnings: [DecodeWarning] = []
    var headerRefusal: DecodeError?

    /// What this decode holds at once, against `options.limits.maxMemoryBytes`.
    let budget: MemoryBudget

    init(options: DecodeOptions) {
        self.options = options
        budget = MemoryBudget(limits: options.limits)
    }

    // MARK: - FormatDecoder

    var completedFrameCount: Int {
        if case .done = state, renderer != nil { return 1 }
        return 0
    }

    var availableFrameCount: Int { renderer == nil ? 0 : 1 }

    /// Output rows finished so far (a band of MCU rows at a time for single-scan files).
    var decodedRows: Int { renderer?.rowsDone ?? 0 }

    /// Native pixels: gray, RGB, or CMYK with 0 = no ink (Adobe files inverted, see
    /// Docs/JPEG.md), at the size `DecodeOptions.jpegScaleDenominator` gives (⌈X / N⌉ ×
    /// ⌈Y / N⌉; `properties` keeps the stored size). Rows not decoded yet are zero.
    /// With `DecodeOptions.directOutput`, the frame in the output format (`directImage`).
    func frame(at index: Int) throws(DecodeError) -> Bitmap {
        guard index == 0, let renderer, !renderer.isStreaming || directImage != nil else {
            throw DecodeError(.malformed, format: .jpeg, offset: nil, ContainerError.frameOutOfRange(index: index, count: availableFrameCount))
        }
        if let directImage { return directImage.finish() }
        return nativeBitmap(renderer, rows: renderer.geometry.outputHeight, bytes: renderer.pixels)
    }

    /// The native pixel format: `model`'s samples, 8 bits, or 16 in host byte order.
    static func nativeFormat(_ model: ColorModel, bits: Int) -> PixelFormat {
        PixelFormat(colorModel: model, bitsPerComponent: bits, alphaInfo: .none, byteOrder: bits == 16 ? .order16Host : .default)
    }

    /// The format of the output rows: the native one, or the 4-byte RGB format the renderer
    /// writes instead (`DecodeOptions.jpegDirectFormat`).
    static func outputFormat(_ model: ColorModel, bits: Int, fourByte: FourByteRGB?) -> PixelFormat {
        fourByte?.format ?? nativeFormat(model, bits: bits)
    }

    /// The format of `frame(at: 0)` and of the rows `rowSink` gets, once the frame is set up.
    var nativeFormat: PixelFormat? {
        renderer.map { Self.outputFormat($0.transform.colorModel, bits: $0.bitsPerSample, fourByte: $0.fourByte) }
    }

    /// `rows` rows of the renderer's output as a native bitmap: gray, RGB or CMYK samples of 8
    /// bits, or of 16 bits in host byte order (12-bit and lossless files above 8 bits), which
    /// use the frame's precision (`Bitmap.significantBitsPerComponent`).
    func nativeBitmap(_ renderer: AnyJPEGRenderer, rows: Int, bytes: [UInt8]) -> Bitmap {
        let bits = renderer.bitsPerSample
        let format = Self.outputFormat(renderer.transform.colorModel, bits: bits, fourByte: renderer.fourByte)
        return Bitmap(uncheckedWidth: renderer.geometry.outputWidth, height: rows, format: format, bytesPerRow: renderer.rowBytes, bytes: bytes)
            .withSignificantBits(frame?.precision ?? bits)
    }

    /// The rows decoded so far (bands of MCU rows for single-scan files; nothing until EOI
    /// for sequential multi-scan files, whose rows appear only once every scan is in). For
    /// progressive files: the whole image as of the latest completed scan, as libjpeg-turbo's
    /// buffered-image mode shows it (`renderProgressivePartial`).
    func partialFrame() -> PartialFrame? {
        if progressive, let completedScan, let renderer, !renderer.isComplete, store?.bands == nil {
            // Rendered once per completed scan (a whole-image IDCT), then reused.
            if let cached = partialCache, cached.scan == completedScan.number { return cached.frame }
            // The previous scan's image goes before the next is rendered (not both at once).
            partialCache = nil
            let frame = renderProgressivePartial(completedScan)
            partialCache = frame.map { (completedScan.number, $0) }
            return frame
        }
        // (A direct image is complete only at the end: `finish` fills the rows still missing.)
        guard let renderer, !renderer.isComplete, directImage == nil, let bitmap = try? frame(at: 0) else { return nil }
        return PartialFrame(bitmap: bitmap, decodedRows: renderer.rowsDone, frameIndex: 0)
    }

    func advance(_ input: inout InputBuffer) throws(DecodeError) -> DecodeProgress {
        while true {
            switch state {
            case .done:
                return .finished

            case .start:
                // B.2.1 / libjpeg `first_marker`: exactly FF D8 first, no fill bytes.
                switch input.demand(2) {
                case .needMoreInput: return .needMoreInput
                case .truncated:
                    throw DecodeError(.truncated, format: .jpeg, offset: input.writeIndex, JPEGError.truncated(inside: "the SOI marker"))
                case .ready:
                    let first = input.byte(at: input.readIndex), second = input.byte(at: input.readIndex + 1)
                    guard first == 0xFF, second == JPEGMarker.soi else {
                        throw DecodeError(.malformed, format: .jpeg, offset: 0, JPEGError.missingSOI(found: [first, second]))
                    }
                    input.readIndex += 2
                    structureLog?.record(0, "SOI")
                    state = .findMarker
                }

            case .findMarker:
                let start = input.readIndex - input.origin, origin = input.origin
                let result = input.bytes.withUnsafeBufferPointer { MarkerScanner.next(in: $0, from: start, end: $0.count) }
                switch result {
                case .marker(let code, let heldOffset, let heldNext, let discarded):
                    let offset = heldOffset + origin, next = heldNext + origin
                    if discarded > 0 {
                        warn(at: offset, "Corrupt JPEG data: \(discarded) extraneous bytes before marker 0x\(hex2(code).lowercased())")
                    }
                    input.readIndex = next
                    state = .marker(code, offset: offset, synthetic: false)
                case .endOfBytes:
                    guard input.isClosed else { return .needMoreInput }
                    // libjpeg's memory source inserts EOI at the end of the data.
                    warn(at: input.writeIndex, "Premature end of JPEG file")
                    input.readIndex = input.writeIndex
                    state = .marker(JPEGMarker.eoi, offset: input.writeIndex, synthetic: true)
                }

            case .marker(let code, let offset, let synthetic):
                if JPEGMarker.isStandalone(code) {
                    structureLog?.record(offset, JPEGMarker.name(code), synthetic ? "implied by the end of the input" : "")
                    try standalone(code, offset: offset, synthetic: synthetic)
                    continue
                }
                // libjpeg refuses these codes before reading any length. The header walk
                // describes the frames of processes it does not decode (`describesOnly`).
                // FFF7 names JPEG-LS only as a file's frame header; after a T.81 frame it is
                // an unknown marker in damaged data.
                if code == JPEGMarker.sof55 && frame != nil {
                    throw DecodeError(.malformed, format: .jpeg, offset: offset, JPEGError.unknownMarker(code))
                }
                if !(options.propertiesOnly && JPEGMarker.describesOnly(code)) {
                    try JPEGMarker.refuseEarly(code, offset: offset)
                }
                let available = input.writeIndex - input.readIndex
                var length = -1
                if available >= 2 {
                    length = Int(input.byte(at: input.readIndex)) << 8 | Int(input.byte(at: input.readIndex + 1))
                }
                if length >= 0 && available >= max(2, length) {
                    if code == JPEGMarker.sos, renderer == nil, let frame, frame.height == 0 {
                        // B.2.5: the height comes from the DNL segment after this first scan.
                        // Fed in pieces, the search goes on where the previous piece ended
                        // (a rescan from the SOS each time would be quadratic in the scan's size).
                        let scanStart = input.readIndex + length
                        let resume = dnlSearch.flatMap { $0.scanStart == scanStart ? $0.resumeAt : nil } ?? scanStart
                        switch Self.definedLines(input, from: resume) {
                        case .lines(let lines):
                            dnlSearch = nil
                            self.frame = frame.defining(lines: lines)
                            properties?.height = lines
                        case .notYet(let resumeAt):
                            dnlSearch = (scanStart, resumeAt)
                            guard input.isClosed else { return .needMoreInput }
                            throw DecodeError(.truncated, format: .jpeg, offset: input.writeIndex, JPEGError.truncated(inside: "the first scan (no DNL yet)"))
                        case .missing(let offset):
                            throw DecodeError(.malformed, format: .jpeg, offset: offset,
                                              JPEGError.emptyImage(width: frame.width, height: 0, components: frame.components.count))
                        }
                    }
                    let bodyStart = input.readIndex + 2
                    let bodyCount = max(0, length - 2)
                    let segment = JPEGSegment(marker: code, markerOffset: offset, declaredLength: length,
                                              body: input.slice(bodyStart ..< bodyStart + bodyCount))
                    input.readIndex = bodyStart + bodyCount
                    structureLog?.record(offset, JPEGMarker.name(code), "length \(length)" + JPEGInspector.describe(segment, frame: frame))
                    scanDataStart = input.readIndex
                    try process(segment, input: input)
                    if case .scan = state { structureLog?.record(scanDataStart, "entropy data", level: 1) }
                    continue
                }
                guard input.isClosed else { return .needMoreInput }
                // The segment runs past the end of a closed input. libjpeg-turbo's memory source
                // answers every read past the end with the bytes FF D9 (and a warning), so the
                // segment is parsed from those — which usually fails exactly as libjpeg fails —
                // and then the stream ends.
                warn(at: input.writeIndex, "Premature end of JPEG file")
                var padded = Array(input.slice(input.readIndex ..< input.writeIndex))
                if padded.count < 2 { padded += endOfInputFiller(2 - padded.count, start: 0) }
                length = Int(padded[0]) << 8 | Int(padded[1])
                let bodyCount = max(0, length - 2)
                if padded.count < 2 + bodyCount {
                    padded += endOfInputFiller(2 + bodyCount - padded.count, start: padded.count - available)
                }
                let segment = JPEGSegment(marker: code, markerOffset: offset, declaredLength: length, body: padded[2 ..< 2 + bodyCount])
                input.readIndex = input.writeIndex
                structureLog?.record(offset, JPEGMarker.name(code), "length \(length), \(available) bytes present: completed with FF D9 filler, as libjpeg does"
                                     + JPEGInspector.describe(segment, frame: frame))
                scanDataStart = input.readIndex
                if renderer == nil && code != JPEGMarker.sos {
                    // Before any scan the stream cannot produce an image any more.
                    try process(segment, input: input)
                    throw DecodeError(.truncated, format: .jpeg, offset: input.writeIndex, JPEGError.truncated(inside: "marker \(JPEGMarker.name(code))"))
                }
                if !(JPEGMarker.isAPP(code) || code == JPEGMarker.com) {
                    // (A cut-off APPn or COM is skipped: libjpeg skips them, and filler is no metadata.)
                    try process(segment, input: input)
                    if case .scan = state { structureLog?.record(scanDataStart, "entropy data", level: 1) }
                }
                if case .scan = state {
                    // The scan data continues in the filler: after an odd number of filler
                    // bytes the next one is D9 (data), then FF D9.
                    scan?.markFillerPhase(oddBytesUsed: (2 + bodyCount - available) & 1 == 1)
                    continue
                }
                if renderer == nil {
                    throw DecodeError(.truncated, format: .jpeg, offset: input.writeIndex, JPEGError.truncated(inside: "marker \(JPEGMarker.name(code))"))
                }
                if multiScan && truncation == nil {
                    truncation = DecodeError(.truncated, format: .jpeg, offset: input.writeIndex, JPEGError.truncated(inside: "marker \(JPEGMarker.name(code))"))
                }
                state = .marker(JPEGMarker.eoi, offset: input.writeIndex, synthetic: true)

            case .scan:
                if let progress = try runScan(&input) { return progress }
            }
        }
    }

    /// The first byte of the latest scan's entropy-coded data (`pureimage inspect`).
    var scanDataStart = 0

    /// The stream offset of the first byte the current scan was given: its positions are
    /// offsets less this (`JPEGDecoder+ScanRun.swift`).
    var scanOrigin = 0

    /// The scans of a progressive file as they were started: components (frame indices), Ss,
    /// Se, Ah, Al. For `pureimage inspect` and tests.
    var progressiveScans: [(components: [Int], ss: Int, se: Int, ah: Int, al: Int)] = []

    /// Tests only: keep every coefficient of a single-scan file too (it then renders at EOI),
    /// so that `coefficientsForTesting` covers the whole image, and keep the coefficient store
    /// after EOI (a decode releases it once the image is rendered). Set before the first `advance`.
    var keepsWholeImage = false

    /// The quantized coefficients (natural order, 64 per block, padded block rows) of each
    /// component, for tests that compare encodings.
    var coefficientsForTesting: [[Int16]] {
        guard let store else { return [] }
        return store.planes.map { Array(UnsafeBufferPointer(start: $0.coefficients, count: $0.count)) }
    }

    // MARK: - The end

    func finish(atEOI offset: Int, synthetic: Bool) throws(DecodeError) {
        guard let renderer else {
            if synthetic {
                throw DecodeError(.truncated, format: .jpeg, offset: offset, JPEGError.truncated(inside: "the header (no scan)"))
            }
            throw DecodeError(.malformed, format: .jpeg, offset: offset, JPEGError.noImage)
        }
        if synthetic && multiScan && truncation == nil {
            truncation = DecodeError(.truncated, format: .jpeg, offset: offset, JPEGError.truncated(inside: "the scans (no EOI)"))
        }
        if lossless && multiScan {
            // Every scan's samples are in the planes (components no scan covered stay zero).
            renderer.markAllReady()
            renderer.emitRows()
        }
        // The last scan's preview (a whole image) goes before the final one is rendered, not
        // after: with both and the coefficients alive, an incremental progressive decode peaked
        // at a third more memory than a one-shot one.
        partialCache = nil
        renderWholeImage()
        // A single-scan file reaches EOI only after its scan decoded every MCU (missing data
        // decodes as zeros), so its rows are all out by now.
        assert(renderer.isComplete)
        // The image is rendered: its coefficients (2 bytes a sample, more than the output) go
        // before the caller converts the output.
        if !keepsWholeImage { store = nil }
        state = .done
    }

    /// Warnings kept per image; past this, one more says the rest were dropped (a file can
    /// repeat one problem per restart interval, millions of times).
    static let warningLimit = 1000

    func warn(at offset: Int?, _ message: String) {
        if warnings.count < Self.warningLimit {
            warnings.append(DecodeWarning(offset: offset, message))
            structureLog?.warning(offset, message)
        } else if warnings.count == Self.warningLimit {
            warnings.append(DecodeWarning(offset: offset, "further warnings not recorded (more than \(Self.warningLimit))"))
            structureLog?.warning(offset, "further warnings not recorded (more than \(Self.warningLimit))")
        }
    }
}
