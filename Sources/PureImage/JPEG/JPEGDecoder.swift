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
final class JPEGDecoder: FormatDecoder {
    private enum State {
        case start
        case findMarker
        /// A marker code was read; `offset` is its 0xFF, the input sits after the code.
        case marker(UInt8, offset: Int, synthetic: Bool)
        case scan
        case done
    }

    private let options: DecodeOptions
    private var state = State.start

    private var frame: FrameHeader?
    private var quantTables = [[UInt16]?](repeating: nil, count: 4)
    private var dcSpecs = [HuffmanTables.Specification?](repeating: nil, count: 4)
    private var acSpecs = [HuffmanTables.Specification?](repeating: nil, count: 4)
    private var restartInterval = 0
    /// DAC conditioning for arithmetic scans (defaults until a DAC segment says otherwise).
    private var conditioning = ArithmeticConditioning()
    private var metadata = JPEGMetadata()
    /// A first scan of unknown height (SOF with Y = 0) searched for its DNL as far as the bytes
    /// went: where the scan starts and where the search goes on.
    private var dnlSearch: (scanStart: Int, resumeAt: Int)?

    private var geometry: FrameGeometry?
    private var store: CoefficientStore?
    private var renderer: AnyJPEGRenderer?
    /// Streaming mode for the downscaler: every output row, top to bottom, as a one-row native
    /// bitmap; the full-size output is never allocated (`frame(at:)` is then unavailable). Set
    /// before the first `advance`.
    var rowSink: ((Bitmap) -> Void)?
    /// Raw mode for TIFF's old-style JPEG: each component's sample rows before upsampling
    /// (`JPEGRenderer.rawRowSink`). Set before the first `advance`.
    var rawRowSink: ((Int, Int, UnsafeRawBufferPointer) -> Void)?
    /// Set at the first SOS: false when that scan held every component (libjpeg's
    /// `has_multiple_scans`), so MCU rows are rendered as they arrive.
    private var multiScan = false
    private var latched: [Bool] = []
    /// The latched tables as stored (block smoothing divides by the 16-bit values).
    private var latchedQuant: [[UInt16]?] = []
    private var scan: (any EntropyScan)?
    private var scanCount = 0
    /// SOF2, SOF10: the progressive mode of T.81 Annex G.
    private var progressive = false
    /// SOF9, SOF10, SOF11: arithmetic entropy coding (T.81 Annex D) instead of Huffman.
    private var arithmetic = false
    /// SOF3, SOF11: the lossless process of T.81 Annex H (no DCT; samples are predicted).
    private var lossless = false
    /// jdphuff.c `coef_bits`: per component, for each coefficient the Al of the last scan
    /// that covered it (−1 = never); see `ProgressiveState`.
    private var progression = ProgressiveState(components: 0)
    private var lastGoodIMCURow = 0
    /// Progressive: the coefficient bits and `last_good_iMCU_row` when the latest scan ended,
    /// for `partialFrame()` (libjpeg's buffered-image output pass after that scan).
    private var completedScan: (number: Int, progression: ProgressiveState, lastGood: Int)?
    private var partialCache: (scan: Int, frame: PartialFrame)?
    private var colorTransform = JPEGColorTransform.gray
    private var invertsCMYK = false

    private(set) var properties: ImageProperties?
    private(set) var truncation: DecodeError?
    private(set) var warnings: [DecodeWarning] = []
    private(set) var headerRefusal: DecodeError?

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
    func frame(at index: Int) throws(DecodeError) -> Bitmap {
        guard index == 0, let renderer, !renderer.isStreaming else {
            throw DecodeError(.malformed, format: .jpeg, offset: nil, ContainerError.frameOutOfRange(index: index, count: availableFrameCount))
        }
        return nativeBitmap(renderer, rows: renderer.geometry.outputHeight, bytes: renderer.pixels)
    }

    /// `rows` rows of the renderer's output as a native bitmap: gray, RGB or CMYK samples of 8
    /// bits, or of 16 bits in host byte order (12-bit and lossless files above 8 bits), which
    /// use the frame's precision (`Bitmap.significantBitsPerComponent`).
    private func nativeBitmap(_ renderer: AnyJPEGRenderer, rows: Int, bytes: [UInt8]) -> Bitmap {
        let bits = renderer.bitsPerSample
        let format = PixelFormat(colorModel: renderer.transform.colorModel, bitsPerComponent: bits, alphaInfo: .none,
                                 byteOrder: bits == 16 ? .order16Host : .default)
        return Bitmap(uncheckedWidth: renderer.geometry.outputWidth, height: rows, format: format, bytesPerRow: renderer.rowBytes, bytes: bytes)
            .withSignificantBits(frame?.precision ?? bits)
    }

    /// The rows decoded so far (bands of MCU rows for single-scan files; nothing until EOI
    /// for sequential multi-scan files, whose rows appear only once every scan is in). For
    /// progressive files: the whole image as of the latest completed scan, as libjpeg-turbo's
    /// buffered-image mode shows it (`renderProgressivePartial`).
    func partialFrame() -> PartialFrame? {
        if progressive, let completedScan, let renderer, !renderer.isComplete {
            // Rendered once per completed scan (a whole-image IDCT), then reused.
            if let cached = partialCache, cached.scan == completedScan.number { return cached.frame }
            // The previous scan's image goes before the next is rendered (not both at once).
            partialCache = nil
            let frame = renderProgressivePartial(completedScan)
            partialCache = frame.map { (completedScan.number, $0) }
            return frame
        }
        guard let renderer, !renderer.isComplete, let bitmap = try? frame(at: 0) else { return nil }
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
                    let first = input.bytes[input.readIndex], second = input.bytes[input.readIndex + 1]
                    guard first == 0xFF, second == JPEGMarker.soi else {
                        throw DecodeError(.malformed, format: .jpeg, offset: 0, JPEGError.missingSOI(found: [first, second]))
                    }
                    input.readIndex += 2
                    state = .findMarker
                }

            case .findMarker:
                let start = input.readIndex
                let result = input.bytes.withUnsafeBufferPointer { MarkerScanner.next(in: $0, from: start, end: $0.count) }
                switch result {
                case .marker(let code, let offset, let next, let discarded):
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
                    length = Int(input.bytes[input.readIndex]) << 8 | Int(input.bytes[input.readIndex + 1])
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
                                              body: input.bytes[bodyStart ..< bodyStart + bodyCount])
                    input.readIndex = bodyStart + bodyCount
                    try process(segment, input: input)
                    continue
                }
                guard input.isClosed else { return .needMoreInput }
                // The segment runs past the end of a closed input. libjpeg-turbo's memory source
                // answers every read past the end with the bytes FF D9 (and a warning), so the
                // segment is parsed from those — which usually fails exactly as libjpeg fails —
                // and then the stream ends.
                warn(at: input.writeIndex, "Premature end of JPEG file")
                var padded = Array(input.bytes[input.readIndex ..< input.writeIndex])
                if padded.count < 2 { padded += endOfInputFiller(2 - padded.count, start: 0) }
                length = Int(padded[0]) << 8 | Int(padded[1])
                let bodyCount = max(0, length - 2)
                if padded.count < 2 + bodyCount {
                    padded += endOfInputFiller(2 + bodyCount - padded.count, start: padded.count - available)
                }
                let segment = JPEGSegment(marker: code, markerOffset: offset, declaredLength: length, body: padded[2 ..< 2 + bodyCount])
                input.readIndex = input.writeIndex
                if renderer == nil && code != JPEGMarker.sos {
                    // Before any scan the stream cannot produce an image any more.
                    try process(segment, input: input)
                    throw DecodeError(.truncated, format: .jpeg, offset: input.writeIndex, JPEGError.truncated(inside: "marker \(JPEGMarker.name(code))"))
                }
                if !(JPEGMarker.isAPP(code) || code == JPEGMarker.com) {
                    // (A cut-off APPn or COM is skipped: libjpeg skips them, and filler is no metadata.)
                    try process(segment, input: input)
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
                guard var current = scan else { state = .findMarker; continue }
                scan = nil
                let end = input.writeIndex, closed = input.isClosed
                let progress = input.bytes.withUnsafeBufferPointer { current.run($0, end: end, closed: closed) }
                for (offset, message) in current.warnings { warn(at: offset, message) }
                current.warnings.removeAll()
                lastGoodIMCURow = current.lastGoodIMCURow
                if current.dcOverflow {
                    throw DecodeError(.malformed, format: .jpeg, offset: current.position, JPEGError.dcCoefficientOverflow)
                }
                input.readIndex = min(max(input.readIndex, current.position), input.writeIndex)
                switch progress {
                case .needMoreInput:
                    scan = current
                    return .needMoreInput
                case .rowDone(let row):
                    scan = current
                    if !multiScan {
                        if lossless { renderer?.emitRows() } else { renderMCURow(row, scan: current) }
                    }
                case .finished:
                    if progressive {
                        completedScan = (scanCount, progression, current.lastGoodIMCURow)
                    }
                    if current.ranOutOfInput && truncation == nil {
                        truncation = DecodeError(.truncated, format: .jpeg, offset: input.writeIndex, JPEGError.truncated(inside: "entropy-coded data"))
                    }
                    let marker = current.endMarker
                    input.readIndex = min(current.position, input.writeIndex)
                    if marker.code >= 0 {
                        if marker.endOfInput { warn(at: input.writeIndex, "Premature end of JPEG file") }
                        state = .marker(UInt8(marker.code), offset: marker.offset, synthetic: marker.endOfInput)
                    } else {
                        state = .findMarker
                    }
                }
            }
        }
    }

    // MARK: - Markers

    private func standalone(_ code: UInt8, offset: Int, synthetic: Bool) throws(DecodeError) {
        switch code {
        case JPEGMarker.soi:
            throw DecodeError(.malformed, format: .jpeg, offset: offset, JPEGError.duplicateSOI)
        case JPEGMarker.eoi:
            try finish(atEOI: offset, synthetic: synthetic)
        default:
            // RSTn outside a scan and TEM carry nothing (libjpeg traces and ignores them).
            state = .findMarker
        }
    }

    /// `count` bytes of libjpeg's end-of-input filler FF D9 FF D9 …, starting `start` bytes in.
    private func endOfInputFiller(_ count: Int, start: Int) -> [UInt8] {
        (0..<count).map { (start + $0) & 1 == 0 ? 0xFF : JPEGMarker.eoi }
    }

    private func process(_ segment: JPEGSegment, input: InputBuffer) throws(DecodeError) {
        let code = segment.marker
        state = .findMarker
        switch code {
        case JPEGMarker.sof0, JPEGMarker.sof1, JPEGMarker.sof2, JPEGMarker.sof3, JPEGMarker.sof9, JPEGMarker.sof10, JPEGMarker.sof11:
            guard frame == nil else { throw segment.malformed(.duplicateSOF) }
            let parsed = try FrameHeader(parsing: segment)
            progressive = code == JPEGMarker.sof2 || code == JPEGMarker.sof10
            arithmetic = code == JPEGMarker.sof9 || code == JPEGMarker.sof10 || code == JPEGMarker.sof11
            lossless = code == JPEGMarker.sof3 || code == JPEGMarker.sof11
            // libjpeg-turbo 3 decodes 12-bit data in any lossy frame (T.81 allows it in
            // SOF1, SOF2, SOF9, SOF10; SOF0 is 8-bit by definition, but libjpeg does not check)
            // and lossless frames of 2 to 16 bits (H.1.1).
            guard lossless ? (2...16).contains(parsed.precision) : parsed.precision == 8 || parsed.precision == 12 else {
                let refusal = DecodeError(.malformed, format: .jpeg, offset: segment.bodyOffset, JPEGError.precision(parsed.precision))
                guard options.propertiesOnly else { throw refusal }
                try describeOnly(parsed, segment: segment, refusal: refusal)
                return
            }
            frame = parsed
            var properties = ImageProperties(format: .jpeg, width: parsed.width, height: parsed.height,
                                             colorModel: parsed.components.count == 1 ? .gray : parsed.components.count == 4 ? .cmyk : .rgb,
                                             bitsPerComponent: parsed.precision, hasAlpha: false)
            properties.isProgressive = progressive
            applyMetadata(to: &properties)
            self.properties = properties
        case JPEGMarker.dht:
            for table in try HuffmanTables.parse(segment) {
                if table.isDC { dcSpecs[table.index] = table } else { acSpecs[table.index] = table }
            }
        case JPEGMarker.dqt:
            for table in try QuantizationTables.parse(segment) { quantTables[table.index] = table.values }
        case JPEGMarker.dri:
            restartInterval = try RestartInterval.parse(segment)
        case JPEGMarker.dac:
            try conditioning.apply(segment)
        case JPEGMarker.dnl:
            // The DNL after a first scan whose frame said Y = 0 was read before that scan; a
            // DNL that redefines a non-zero Y is ignored, as libjpeg-turbo ignores every DNL.
            break
        case JPEGMarker.sos:
            if renderer == nil && options.propertiesOnly {
                // A header probe (ImageSource's properties) ends at the first scan: everything
                // the properties need is known, and no buffer is sized or sample decoded.
                try describeFrameForProbe(at: segment.markerOffset)
                state = .done
                return
            }
            try startScan(segment)
        case JPEGMarker.app0...JPEGMarker.app15, JPEGMarker.com:
            if let problem = metadata.absorb(segment) { warn(at: segment.markerOffset, problem) }
            if var properties {
                applyMetadata(to: &properties)
                self.properties = properties
            }
        case _ where options.propertiesOnly && JPEGMarker.describesOnly(code):
            guard frame == nil else { throw segment.malformed(.duplicateSOF) }
            let refusal = JPEGMarker.refusal(code, offset: segment.markerOffset)
                ?? DecodeError(.unsupported, format: .jpeg, offset: segment.markerOffset, JPEGError.unknownMarker(code))
            try describeOnly(try FrameHeader(parsing: segment), segment: segment, refusal: refusal)
            // A JPEG-LS file's later segments (LSE, T.87 §C.2.4) and scans are T.87's: the
            // walk ends at its frame header.
            if code == JPEGMarker.sof55 { state = .done }
        default:
            throw DecodeError(.malformed, format: .jpeg, offset: segment.markerOffset, JPEGError.unknownMarker(code))
        }
    }

    enum DefinedLines: Equatable {
        case lines(Int)
        /// The bytes so far end inside the first scan or its DNL segment; the search can go
        /// on from `resumeAt` when more arrive.
        case notYet(resumeAt: Int)
        /// Another marker (at `offset`) ends the first scan: no DNL.
        case missing(offset: Int)
    }

    /// T.81 B.2.5: "the number of lines … defined by the DNL marker at the end of the first
    /// scan": the entropy-coded data of the scan starting at `scanStart` is skipped (restart
    /// markers included) up to the marker that ends it, which must be DNL (Ld 4, NL ≥ 1).
    /// The decoder reads this before decoding the scan, so the frame is sized as if its SOF
    /// had said NL — a DNL file decodes like the same file with NL in its SOF.
    /// `from` is the scan's first byte, or where an earlier search of it stopped.
    static func definedLines(_ input: InputBuffer, from start: Int) -> DefinedLines {
        var at = start
        while true {
            let result = input.bytes.withUnsafeBufferPointer { MarkerScanner.next(in: $0, from: at, end: input.writeIndex) }
            switch result {
            case .endOfBytes(let discarded):
                // Everything before `at + discarded` is data; from there on (a run of 0xFF at
                // most) the next bytes decide.
                return .notYet(resumeAt: at + discarded)
            case .marker(let code, let offset, let next, _):
                if JPEGMarker.isRST(code) {
                    at = next
                    continue
                }
                guard code == JPEGMarker.dnl else { return .missing(offset: offset) }
                guard next + 4 <= input.writeIndex else { return .notYet(resumeAt: offset) }
            let length = Int(input.bytes[next]) << 8 | Int(input.bytes[next + 1])
                let lines = Int(input.bytes[next + 2]) << 8 | Int(input.bytes[next + 3])
                return length == 4 && lines > 0 ? .lines(lines) : .missing(offset: offset)
            }
        }
    }

    /// The header walk over a frame this decoder does not decode (the hierarchical processes,
    /// SOF5–7 and SOF13–15, and precisions its process does not allow; a decode refuses it
    /// with `refusal`): its header is read like any
    /// other — size, components, precision, progression (SOF6 and SOF14 are progressive) — so
    /// `properties()` describes the file as `jpeg_read_header` of a decoder that supports it
    /// would, and the walk ends at the first scan as usual.
    private func describeOnly(_ parsed: FrameHeader, segment: JPEGSegment, refusal: DecodeError) throws(DecodeError) {
        progressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(segment.marker)
        frame = parsed
        var properties = ImageProperties(format: .jpeg, width: parsed.width, height: parsed.height,
                                         colorModel: parsed.components.count == 1 ? .gray : parsed.components.count == 4 ? .cmyk : .rgb,
                                         bitsPerComponent: parsed.precision, hasAlpha: false)
        properties.isProgressive = progressive
        applyMetadata(to: &properties)
        self.properties = properties
        headerRefusal = refusal
        warn(at: refusal.offset, "described from the \(JPEGMarker.name(segment.marker)) frame header, not decoded: \(refusal.reason)")
    }

    /// The properties `setUpFrame` would finish with — the colour model its colour transform
    /// gives — without setting anything up.
    ///
    /// A frame that is well formed but that the decode will refuse — a process or component count
    /// it does not decode, a size beyond libjpeg's 65500 or the decode limits — is still described:
    /// the error becomes `headerRefusal` (what `decode` will throw), not the walk's failure.
    private func describeFrameForProbe(at offset: Int) throws(DecodeError) {
        guard let frame else { throw DecodeError(.malformed, format: .jpeg, offset: offset, JPEGError.scanBeforeFrame) }
        do throws(DecodeError) {
            try probeDecodability(frame, at: offset)
        } catch where error.kind == .unsupported || error.kind == .limitExceeded {
            if headerRefusal == nil { headerRefusal = error }   // a refusal at the SOF comes first
        }
        guard var properties else { return }
        applyMetadata(to: &properties)
        self.properties = properties
    }

    /// The checks a decode makes before it allocates anything (libjpeg's `initial_setup`, the
    /// colour conversion it would choose, the renderer's output size), and the colour model the
    /// properties report.
    private func probeDecodability(_ frame: FrameHeader, at offset: Int) throws(DecodeError) {
        try checkSupported(frame, at: offset)
        let transform = colorTransform(for: frame).0
        try checkConvertible(frame, transform: transform, at: offset)
        properties?.colorModel = transform.colorModel
        // The output-size check JPEGRenderer makes, so a probe refuses what a decode would.
        let geometry: FrameGeometry
        do {
            geometry = try FrameGeometry(frame: frame, scaleDenominator: options.jpegScaleDenominator, lossless: lossless)
        } catch {
            throw DecodeError(.unsupported, format: .jpeg, offset: offset, error)
        }
        _ = try SizeMath.checkImage(width: geometry.outputWidth, height: geometry.outputHeight,
                                    bytesPerPixel: transform.channels * (frame.precision > 8 ? 2 : 1),
                                    limits: options.limits, format: .jpeg, offset: offset)
    }

    private func applyMetadata(to properties: inout ImageProperties) {
        properties.exif = metadata.exif
        properties.exifMetadata = metadata.exifMetadata
        properties.orientation = metadata.orientation ?? .up
        properties.text = metadata.comments.map { TextEntry(keyword: "comment", text: $0) }
        properties.extra.removeAll()
        properties.jfif = metadata.jfif
        if let transform = metadata.adobeTransform { properties.extra.append(("adobeTransform", String(transform))) }
        properties.iccProfile = metadata.iccProfile().profile
        // What djpeg -verbose and identify users look for: the process, each component's
        // sampling factors (H×V), and how coarse the luminance table is.
        if let frame {
            properties.extra.append(("process", JPEGMarker.processName(frame.marker)))
            properties.extra.append(("sampling", frame.components.map { "\($0.h)x\($0.v)" }.joined(separator: ",")))
            if frame.precision == 8, !lossless, let tq = frame.components.first?.tq, tq < 4, let table = quantTables[tq],
               let quality = QualityEstimate.ijgQuality(luminanceTable: table) {
                properties.extra.append(("quality", "≈ \(quality) (IJG scale, estimated from quantization table \(tq))"))
            }
        }
    }

    // MARK: - Scans

    /// B.2.3 SOS, then libjpeg's `initial_setup` (first scan), `per_scan_setup`,
    /// `latch_quant_tables` and `start_pass_huff_decoder`.
    private func startScan(_ segment: JPEGSegment) throws(DecodeError) {
        guard let frame else { throw segment.malformed(.scanBeforeFrame) }
        let header = try ScanHeader(parsing: segment, frame: frame)
        if renderer == nil {
            try setUpFrame(frame, firstScan: header, at: segment.markerOffset)
        } else if !multiScan {
            throw segment.malformed(.unexpectedScan)
        }
        guard let geometry, let renderer else { return }
        if lossless {
            try startLosslessScan(header, segment: segment, geometry: geometry, renderer: renderer)
            return
        }
        guard let store else { return }
        if progressive {
            try startProgressiveScan(header, segment: segment, geometry: geometry, renderer: renderer, store: store)
            return
        }
        if header.ss != 0 || header.se != 63 || header.ah != 0 || header.al != 0 {
            // libjpeg: JWRN_NOT_SEQUENTIAL, then decodes the scan as sequential anyway.
            warn(at: segment.bodyOffset, "Invalid SOS parameters for sequential JPEG")
        }
        let interleaved = header.components.count > 1
        if arithmetic {
            for component in header.components {
                try latchQuantization(component: component.frameIndex, frame: frame, renderer: renderer, at: segment.bodyOffset)
            }
            try startArithmeticScan(header, segment: segment, geometry: geometry, store: store, kind: .sequential,
                                    zeroBlocks: !store.isWholeImage)
            return
        }
        var slots: [BaselineScan.Slot] = []
        var tables: [HuffmanTable] = []
        for (scanIndex, component) in header.components.enumerated() {
            let c = component.frameIndex
            try latchQuantization(component: c, frame: frame, renderer: renderer, at: segment.bodyOffset)
            let dc = try huffmanTable(component.dcTable, isDC: true, at: segment.bodyOffset)
            let ac = try huffmanTable(component.acTable, isDC: false, at: segment.bodyOffset)
            tables += [dc, ac]
            let g = geometry.components[c]
            let (h, v) = interleaved ? (g.h, g.v) : (1, 1)
            for dy in 0..<v {
                for dx in 0..<h {
                    slots.append(BaselineScan.Slot(component: c, scanIndex: scanIndex, dx: dx, dy: dy, stepX: h, stepY: v,
                                                   dc: dc.pointers, ac: ac.pointers, plane: store.planes[c]))
                }
            }
        }
        guard slots.count <= 10 else { throw segment.malformed(.tooManyBlocksInMCU(slots.count)) }
        let mcusPerRow: Int, mcuRows: Int
        if interleaved {
            (mcusPerRow, mcuRows) = (geometry.mcusPerRow, geometry.mcuRows)
        } else {
            let g = geometry.components[header.components[0].frameIndex]
            (mcusPerRow, mcuRows) = (g.widthInBlocks, g.heightInBlocks)
        }
        scanCount += 1
        scan = BaselineScan(slots: slots, tables: tables, store: store, interleaved: interleaved, mcusPerRow: mcusPerRow, mcuRows: mcuRows,
                            restartInterval: restartInterval, zeroBlocks: !store.isWholeImage,
                            start: segment.bodyOffset + segment.body.count)
        state = .scan
    }

    /// A progressive scan (T.81 G.1.2), set up as jdinput.c `start_input_pass` and jdphuff.c
    /// `start_pass_phuff_decoder` do: MCU size, quantization latch, the G.1.1.1 parameter
    /// checks (`ProgressiveState.startScan`), then only the Huffman tables the scan kind uses
    /// (DC first: DC tables; AC scans: AC tables; DC refinement: none). No Annex K defaults.
    private func startProgressiveScan(_ header: ScanHeader, segment: JPEGSegment, geometry: FrameGeometry,
                                      renderer: AnyJPEGRenderer, store: CoefficientStore) throws(DecodeError) {
        guard let frame else { return }
        let interleaved = header.components.count > 1
        var blockCount = 0
        for component in header.components {
            let g = geometry.components[component.frameIndex]
            blockCount += interleaved ? g.h * g.v : 1
        }
        guard blockCount <= 10 else { throw segment.malformed(.tooManyBlocksInMCU(blockCount)) }
        for component in header.components {
            try latchQuantization(component: component.frameIndex, frame: frame, renderer: renderer, at: segment.bodyOffset)
        }
        scanCount += 1
        progressiveScans.append((header.components.map(\.frameIndex), header.ss, header.se, header.ah, header.al))
        let problems: [(Int, Int)]
        do {
            problems = try progression.startScan(header, scanNumber: scanCount)
        } catch {
            throw DecodeError(.malformed, format: .jpeg, offset: segment.bodyOffset, error)
        }
        for (component, coefficient) in problems {
            // jdphuff.c JWRN_BOGUS_PROGRESSION: decoded anyway.
            warn(at: segment.bodyOffset, "Inconsistent progression sequence for component \(component) coefficient \(coefficient)")
        }
        let kind = ScanKind(ss: header.ss, se: header.se, ah: header.ah, al: header.al)
        if arithmetic {
            try startArithmeticScan(header, segment: segment, geometry: geometry, store: store, kind: kind, zeroBlocks: false)
            return
        }
        let placeholder: HuffmanTable
        do {
            placeholder = try HuffmanTable(HuffmanTables.standardDC0)
        } catch {
            throw DecodeError(.malformed, format: .jpeg, offset: segment.bodyOffset, error)
        }
        var slots: [BaselineScan.Slot] = []
        var tables: [HuffmanTable] = [placeholder]
        for (scanIndex, component) in header.components.enumerated() {
            let c = component.frameIndex
            var dc = placeholder, ac = placeholder
            switch kind {
            case .dcFirst: dc = try huffmanTable(component.dcTable, isDC: true, at: segment.bodyOffset)
            case .acFirst, .acRefine: ac = try huffmanTable(component.acTable, isDC: false, at: segment.bodyOffset)
            case .dcRefine, .sequential: break
            }
            tables += [dc, ac]
            let g = geometry.components[c]
            let (h, v) = interleaved ? (g.h, g.v) : (1, 1)
            for dy in 0..<v {
                for dx in 0..<h {
                    slots.append(BaselineScan.Slot(component: c, scanIndex: scanIndex, dx: dx, dy: dy, stepX: h, stepY: v,
                                                   dc: dc.pointers, ac: ac.pointers, plane: store.planes[c]))
                }
            }
        }
        let mcusPerRow: Int, mcuRows: Int, divisor: Int
        if interleaved {
            (mcusPerRow, mcuRows, divisor) = (geometry.mcusPerRow, geometry.mcuRows, 1)
        } else {
            let g = geometry.components[header.components[0].frameIndex]
            (mcusPerRow, mcuRows, divisor) = (g.widthInBlocks, g.heightInBlocks, g.v)
        }
        scan = BaselineScan(slots: slots, tables: tables, store: store, interleaved: interleaved, mcusPerRow: mcusPerRow, mcuRows: mcuRows,
                            restartInterval: restartInterval, zeroBlocks: false, start: segment.bodyOffset + segment.body.count,
                            kind: kind, iMCURowDivisor: divisor, lastGoodIMCURow: lastGoodIMCURow)
        state = .scan
    }

    /// An arithmetic-coded scan of any kind (jdarith.c `start_pass`), its MCU laid out as for
    /// Huffman scans (T.81 A.2): every block of each component's H × V when interleaved, else
    /// one block per MCU over the component's blocks.
    private func startArithmeticScan(_ header: ScanHeader, segment: JPEGSegment, geometry: FrameGeometry, store: CoefficientStore,
                                     kind: ScanKind, zeroBlocks: Bool) throws(DecodeError) {
        let interleaved = header.components.count > 1
        var slots: [ArithmeticScan.Slot] = []
        for (scanIndex, component) in header.components.enumerated() {
            let c = component.frameIndex
            let g = geometry.components[c]
            let (h, v) = interleaved ? (g.h, g.v) : (1, 1)
            for dy in 0..<v {
                for dx in 0..<h {
                    slots.append(ArithmeticScan.Slot(component: c, scanIndex: scanIndex, dx: dx, dy: dy, stepX: h, stepY: v,
                                                     dcTable: component.dcTable, acTable: component.acTable, plane: store.planes[c]))
                }
            }
        }
        guard slots.count <= 10 else { throw segment.malformed(.tooManyBlocksInMCU(slots.count)) }
        let mcusPerRow: Int, mcuRows: Int, divisor: Int
        if interleaved {
            (mcusPerRow, mcuRows, divisor) = (geometry.mcusPerRow, geometry.mcuRows, 1)
        } else {
            let g = geometry.components[header.components[0].frameIndex]
            (mcusPerRow, mcuRows, divisor) = (g.widthInBlocks, g.heightInBlocks, progressive ? g.v : 1)
        }
        if !progressive { scanCount += 1 }
        scan = ArithmeticScan(slots: slots, store: store, interleaved: interleaved, mcusPerRow: mcusPerRow, mcuRows: mcuRows,
                              restartInterval: restartInterval, zeroBlocks: zeroBlocks, start: segment.bodyOffset + segment.body.count,
                              kind: kind, conditioning: conditioning, iMCURowDivisor: divisor, lastGoodIMCURow: lastGoodIMCURow)
        state = .scan
    }

    /// A lossless scan (T.81 H.1.1, H.2.1; jdlossls.c `start_pass_lossless`, jddiffct.c,
    /// jdlhuff.c): Ss is the predictor 1…7, Se and Ah are 0, Al (the point transform) is below
    /// P; the restart interval is a whole number of MCU rows; Huffman scans take every
    /// difference from the DC table Td (no standard tables are installed).
    private func startLosslessScan(_ header: ScanHeader, segment: JPEGSegment, geometry: FrameGeometry,
                                   renderer: AnyJPEGRenderer) throws(DecodeError) {
        guard let frame else { return }
        guard (1...7).contains(header.ss), header.se == 0, header.ah == 0, header.al < frame.precision else {
            throw segment.malformed(.badLosslessParameters(ss: header.ss, se: header.se, ah: header.ah, al: header.al))
        }
        let interleaved = header.components.count > 1
        var units = 0
        var components: [LosslessScan.Component] = []
        var tables: [Int: HuffmanTable] = [:]
        for component in header.components {
            let g = geometry.components[component.frameIndex]
            units += interleaved ? g.h * g.v : 1
            components.append(LosslessScan.Component(frameIndex: component.frameIndex, h: interleaved ? g.h : 1, v: interleaved ? g.v : 1,
                                                     width: g.widthInBlocks, height: g.heightInBlocks,
                                                     gridWidth: interleaved ? geometry.mcusPerRow * g.h : g.widthInBlocks,
                                                     linesPerIMCURow: g.v, table: component.dcTable))
            if !arithmetic && tables[component.dcTable] == nil {
                guard component.dcTable < 4, let spec = dcSpecs[component.dcTable] else {
                    throw segment.malformed(.missingHuffmanTable(component.dcTable, isDC: true))
                }
                do {
                    tables[component.dcTable] = try HuffmanTable(spec, lossless: true)
                } catch {
                    throw DecodeError(.malformed, format: .jpeg, offset: segment.bodyOffset, error)
                }
            }
        }
        guard units <= 10 else { throw segment.malformed(.tooManyBlocksInMCU(units)) }
        let mcusPerRow: Int, mcuRows: Int
        if interleaved {
            (mcusPerRow, mcuRows) = (geometry.mcusPerRow, geometry.mcuRows)
        } else {
            let g = geometry.components[header.components[0].frameIndex]
            (mcusPerRow, mcuRows) = (g.widthInBlocks, g.heightInBlocks)
        }
        guard restartInterval % max(1, mcusPerRow) == 0 else {
            throw segment.malformed(.badLosslessRestartInterval(restartInterval, mcusPerRow: mcusPerRow))
        }
        scanCount += 1
        scan = LosslessScan(components: components, interleaved: interleaved, arithmeticCoded: arithmetic,
                            mcusPerRow: mcusPerRow, mcuRows: mcuRows,
                            mcuRowsPerIMCURow: interleaved ? 1 : geometry.components[header.components[0].frameIndex].v,
                            restartInterval: restartInterval, predictor: header.ss, pointTransform: header.al, precision: frame.precision,
                            huffmanTables: tables, conditioning: conditioning, renderer: renderer,
                            start: segment.bodyOffset + segment.body.count)
        state = .scan
    }

    /// jdinput.c `latch_quant_tables`: a component's quantization table is copied when its
    /// first scan starts; later DQT segments do not change it.
    private func latchQuantization(component c: Int, frame: FrameHeader, renderer: AnyJPEGRenderer, at offset: Int) throws(DecodeError) {
        guard !latched[c] else { return }
        let tq = frame.components[c].tq
        guard tq < 4, let table = quantTables[tq] else {
            throw DecodeError(.malformed, format: .jpeg, offset: offset, JPEGError.missingQuantizationTable(tq))
        }
        renderer.setQuantization(component: c, table)
        latchedQuant[c] = table
        latched[c] = true
    }

    private func huffmanTable(_ index: Int, isDC: Bool, at offset: Int) throws(DecodeError) -> HuffmanTable {
        guard index < 4, let spec = isDC ? dcSpecs[index] : acSpecs[index] else {
            throw DecodeError(.malformed, format: .jpeg, offset: offset, JPEGError.missingHuffmanTable(index, isDC: isDC))
        }
        do {
            return try HuffmanTable(spec)
        } catch {
            throw DecodeError(.malformed, format: .jpeg, offset: offset, error)
        }
    }

    /// What libjpeg refuses once a scan starts (jdinput.c `initial_setup`, jdmaster.c): sizes
    /// beyond JPEG_MAX_DIMENSION, sampling factors outside 1...4, component counts it cannot
    /// convert, and scales it does not offer.
    private func checkSupported(_ frame: FrameHeader, at offset: Int) throws(DecodeError) {
        let count = frame.components.count
        // A zero height that no DNL defined (the first scan cut off before its end was seen).
        guard frame.height > 0 else {
            throw DecodeError(.malformed, format: .jpeg, offset: offset, JPEGError.emptyImage(width: frame.width, height: 0, components: count))
        }
        guard frame.width <= 65500, frame.height <= 65500 else {
            throw DecodeError(.limitExceeded, format: .jpeg, offset: offset, JPEGError.dimensionTooLarge(width: frame.width, height: frame.height))
        }
        for (index, component) in frame.components.enumerated() where !(1...4).contains(component.h) || !(1...4).contains(component.v) {
            throw DecodeError(.malformed, format: .jpeg, offset: offset, JPEGError.badSamplingFactor(component: index, h: component.h, v: component.v))
        }
        guard count == 1 || count == 3 || count == 4 else {
            throw DecodeError(.unsupported, format: .jpeg, offset: offset, JPEGError.componentCount(count))
        }
        guard [1, 2, 4, 8].contains(options.jpegScaleDenominator) else {
            throw DecodeError(.unsupported, format: .jpeg, offset: offset, JPEGError.scaleDenominator(options.jpegScaleDenominator))
        }
    }

    /// libjpeg-turbo converts no lossless colours; PureImage converts lossless YCbCr with the
    /// arithmetic of the lossy decoder, which exists for 8 and 12 bits only (its centre 2^(P−1)
    /// and range 0…2^P−1 are built into the tables), so other precisions are refused.
    private func checkConvertible(_ frame: FrameHeader, transform: JPEGColorTransform, at offset: Int) throws(DecodeError) {
        guard lossless, frame.precision != 8, frame.precision != 12, transform == .yccToRGB || transform == .ycckToCMYK else { return }
        throw DecodeError(.unsupported, format: .jpeg, offset: offset, JPEGError.losslessColorConversion(precision: frame.precision))
    }

    /// The colour transform, whether CMYK is inverted, and a problem to warn about. JPEG-in-TIFF
    /// decides the colour handling itself (`DecodeOptions.jpegColorHandling`).
    private func colorTransform(for frame: FrameHeader) -> (JPEGColorTransform, Bool, String?) {
        switch options.jpegColorHandling {
        case .automatic: return JPEGColorTransform.select(frame: frame, metadata: metadata, lossless: lossless)
        case .asStored: return JPEGColorTransform.asStored(componentCount: frame.components.count)
        case .yccToRGB:
            return frame.components.count == 3 ? (.yccToRGB, false, nil)
                : JPEGColorTransform.asStored(componentCount: frame.components.count)
        }
    }

    /// The first SOS fixes everything libjpeg decides in `jpeg_read_header` /
    /// `jpeg_start_decompress`: limits, colour space, geometry, buffers, default tables.
    private func setUpFrame(_ frame: FrameHeader, firstScan: ScanHeader, at offset: Int) throws(DecodeError) {
        let count = frame.components.count
        try checkSupported(frame, at: offset)
        let scale = options.jpegScaleDenominator
        let (transform, inverted, problem) = colorTransform(for: frame)
        if let problem { warn(at: offset, problem) }
        try checkConvertible(frame, transform: transform, at: offset)
        let geometry: FrameGeometry
        do {
            geometry = try FrameGeometry(frame: frame, scaleDenominator: scale, lossless: lossless)
        } catch {
            throw DecodeError(.unsupported, format: .jpeg, offset: offset, error)
        }
        // jdinput.c: a progressive file always has multiple scans.
        multiScan = progressive || firstScan.components.count < count || (keepsWholeImage && !lossless)
        progression = ProgressiveState(components: count)
        // Buffers sized from the frame header: a refusal is placed at the scan that needs them.
        // Lossless frames have no coefficients; their samples go straight into the planes.
        var store: CoefficientStore?
        if !lossless {
            do {
                store = try CoefficientStore(geometry: geometry, wholeImage: multiScan, interleavedRows: firstScan.components.count > 1,
                                             budget: budget)
            } catch {
                throw error.located(at: offset)
            }
        }
        // The renderer's sample planes are rings of three MCU rows in every mode: single-scan
        // files render each MCU row as it is decoded, multi-scan files render theirs from the
        // coefficient store band by band once the scans are in (`renderWholeImage`), so no
        // full-size sample plane exists beside the coefficients. One MCU row is `v` block rows
        // of each component when several are interleaved, one block row when a scan or the
        // frame has one component (T.81 A.2).
        // A multi-scan lossless image keeps whole planes instead: its scans deliver samples
        // component by component, and rows go out at the end.
        let ring = lossless ? geometry.components.map { multiScan ? $0.sampleHeight : geometry.maxV }
            : Self.mcuRowHeights(geometry, interleaved: multiScan ? count > 1 : firstScan.components.count > 1)
        var sink: ((UnsafeBufferPointer<UInt8>) -> Void)?
        if let rowSink {
            let width = geometry.outputWidth, precision = frame.precision
            let bits = precision <= 8 ? 8 : 16
            let format = PixelFormat(colorModel: transform.colorModel, bitsPerComponent: bits, alphaInfo: .none,
                                     byteOrder: bits == 16 ? .order16Host : .default)
            sink = { row in
                rowSink(Bitmap(uncheckedWidth: width, height: 1, format: format, bytesPerRow: row.count, bytes: Array(row))
                    .withSignificantBits(precision))
            }
        }
        let renderer: AnyJPEGRenderer
        do {
            renderer = try AnyJPEGRenderer(precision: frame.precision, geometry: geometry, transform: transform, invertCMYK: inverted,
                                           ringMCURows: ring, budget: budget, rowSink: sink)
        } catch {
            throw error.located(at: offset)
        }
        renderer.setRawRowSink(rawRowSink)
        colorTransform = transform
        invertsCMYK = inverted
        self.geometry = geometry
        self.store = store
        self.renderer = renderer
        latched = [Bool](repeating: false, count: count)
        latchedQuant = [[UInt16]?](repeating: nil, count: count)
        // jdhuff.c `jinit_huff_decoder` → `std_huff_tables`: fill empty slots 0 and 1 (the
        // progressive decoder, jdphuff.c, and the arithmetic one do not).
        if !progressive && !arithmetic && !lossless { installStandardTables() }
        if var properties {
            // width/height stay the stored size; `frame(at:)` has the scaled size.
            properties.colorModel = transform.colorModel
            applyMetadata(to: &properties)
            if let problem = metadata.iccProfile().problem { warn(at: nil, problem) }
            self.properties = properties
        }
    }

    private func installStandardTables() {
        if dcSpecs[0] == nil { dcSpecs[0] = HuffmanTables.standardDC0 }
        if dcSpecs[1] == nil { dcSpecs[1] = HuffmanTables.standardDC1 }
        if acSpecs[0] == nil { acSpecs[0] = HuffmanTables.standardAC0 }
        if acSpecs[1] == nil { acSpecs[1] = HuffmanTables.standardAC1 }
    }

    /// Single-scan files: IDCT and output for MCU row `row` as soon as it is decoded.
    private func renderMCURow(_ row: Int, scan: any EntropyScan) {
        guard let renderer, let store, let geometry else { return }
        if scan.interleaved {
            for (c, component) in geometry.components.enumerated() {
                renderer.reconstruct(component: c, from: store, blockRows: row * component.v ..< (row + 1) * component.v)
            }
        } else {
            renderer.reconstruct(component: scan.firstComponent, from: store, blockRows: row ..< row + 1)
        }
        renderer.emitRows()
    }

    /// Per component, the sample rows of one MCU row: `v` block rows when several components
    /// are interleaved, one block row when the scan or the frame has one component (T.81 A.2).
    private static func mcuRowHeights(_ geometry: FrameGeometry, interleaved: Bool) -> [Int] {
        geometry.components.map { ($0.v > 0 && interleaved ? $0.v : 1) * $0.scaledBlockSize }
    }

    /// Multi-scan files, once the scans are in: the whole image from the coefficient store.
    private func renderWholeImage() {
        guard let renderer, let store, let geometry, store.isWholeImage, !renderer.isComplete else { return }
        let smoothing = progressive ? progression.smoothing(geometry: geometry, store: store, quantization: latchedQuant,
                                                            scanCount: scanCount, lastGoodIMCURow: lastGoodIMCURow) : nil
        Self.render(store, geometry: geometry, smoothing: smoothing, into: renderer)
    }

    /// IDCT and output MCU row by MCU row from a whole-image coefficient store, top to bottom,
    /// into a renderer made with `mcuRowHeights(geometry, interleaved: components > 1)` rings
    /// (block smoothing reads its neighbours from the store, which holds every block).
    private static func render(_ store: CoefficientStore, geometry: FrameGeometry, smoothing: [BlockSmoothing]?, into renderer: AnyJPEGRenderer) {
        let interleaved = geometry.components.count > 1
        let rows = interleaved ? geometry.mcuRows : geometry.components[0].heightInBlocks
        for row in 0..<rows {
            for (c, component) in geometry.components.enumerated() {
                let step = interleaved ? component.v : 1
                renderer.reconstruct(component: c, from: store, blockRows: row * step ..< (row + 1) * step, smoothing: smoothing?[c])
            }
            renderer.emitRows()
        }
    }

    /// Progressive partial image: what libjpeg-turbo's buffered-image mode shows after scan
    /// `completed.number` (`jpeg_start_output(cinfo, scan)`): every latched component's
    /// coefficients so far, dequantized, block-smoothed with the coefficient bits of that scan
    /// (`smoothing_ok` latches them at the start of the output pass), through the usual IDCT,
    /// upsampling and colour stages. Components without a scan yet have no quantization table
    /// and show mid-gray, as in libjpeg (their IDCT multipliers stay zero). If the next scan has
    /// already decoded some MCUs, their coefficients show too (libjpeg also renders what the
    /// input side has stored by then).
    private func renderProgressivePartial(_ completed: (number: Int, progression: ProgressiveState, lastGood: Int)) -> PartialFrame? {
        guard let geometry, let store, let frame,
              let preview = try? AnyJPEGRenderer(precision: frame.precision, geometry: geometry, transform: colorTransform,
                                                  invertCMYK: invertsCMYK,
                                                  ringMCURows: Self.mcuRowHeights(geometry, interleaved: geometry.components.count > 1),
                                                  budget: budget) else { return nil }
        for (c, table) in latchedQuant.enumerated() {
            if let table { preview.setQuantization(component: c, table) }
        }
        let smoothing = completed.progression.smoothing(geometry: geometry, store: store, quantization: latchedQuant,
                                                        scanCount: completed.number, lastGoodIMCURow: completed.lastGood)
        Self.render(store, geometry: geometry, smoothing: smoothing, into: preview)
        let bitmap = nativeBitmap(preview, rows: geometry.outputHeight, bytes: preview.pixels)
        return PartialFrame(bitmap: bitmap, decodedRows: geometry.outputHeight, frameIndex: 0)
    }

    /// The scans of a progressive file as they were started: components (frame indices), Ss,
    /// Se, Ah, Al. For `pureimage inspect` and tests.
    private(set) var progressiveScans: [(components: [Int], ss: Int, se: Int, ah: Int, al: Int)] = []

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

    private func finish(atEOI offset: Int, synthetic: Bool) throws(DecodeError) {
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
        renderWholeImage()
        // A single-scan file reaches EOI only after its scan decoded every MCU (missing data
        // decodes as zeros), so its rows are all out by now.
        assert(renderer.isComplete)
        // The image is rendered: its coefficients (2 bytes a sample, more than the output) and
        // the last scan's preview go before the caller converts the output.
        if !keepsWholeImage { store = nil }
        partialCache = nil
        state = .done
    }

    /// Warnings kept per image; past this, one more says the rest were dropped (a file can
    /// repeat one problem per restart interval, millions of times).
    static let warningLimit = 1000

    private func warn(at offset: Int?, _ message: String) {
        if warnings.count < Self.warningLimit {
            warnings.append(DecodeWarning(offset: offset, message))
        } else if warnings.count == Self.warningLimit {
            warnings.append(DecodeWarning(offset: offset, "further warnings not recorded (more than \(Self.warningLimit))"))
        }
    }
}
