/// Rows of frame 0 as the decoder finishes them (`ImageSource.decodeRows`): the way to decode an
/// image of any size into a file, a texture or a network stream without the whole frame in
/// memory, as `djpeg` writes rows while libjpeg produces them.
public struct RowBand: Sendable {
    /// The image row of `rows`' first row.
    public var firstRow: Int
    /// The frame's height: the rows that will have been delivered after the last band (a
    /// writer can put it in a file's header when the first band arrives).
    public var frameHeight: Int
    /// Whole rows, full width, in the requested output (tight rows, like every bitmap the
    /// library delivers).
    public var rows: Bitmap
}

/// What a `decodeRows` call reports once the last band is out.
public struct StreamedFrame: Sendable {
    /// The properties as decoded (as `DecodedFrame.properties`).
    public var properties: ImageProperties
    /// Problems the decode recovered from, in the order met.
    public var warnings: [DecodeWarning]
    /// Non-nil when the input ended before the image did; the rows the file did not hold were
    /// delivered as the one-shot decode shows them.
    public var truncation: DecodeError?
    /// True when the decoder streamed its rows; false when the frame was decoded whole and then
    /// handed out in bands (see `decodeRows`).
    public var streamed: Bool
    /// For a file read in pieces (`decodeRows(contentsOfFile:)`): the most input bytes held at
    /// once; nil when the input was held whole. (For tests.)
    var largestInputHeld: Int?
}

extension ImageSource {
    /// Frame 0, delivered to `body` a band of rows at a time, top to bottom, each converted to
    /// `output` as it arrives — exactly the rows `image(at: 0, options: .init(output: output))`
    /// of a first-frame-only source (`DecodeOptions.firstFrameOnly`) holds, but without that
    /// image in memory; its warnings and truncation are frame 0's. What the decode keeps
    /// meanwhile is what its format needs (Docs/ImageSource.md, "Rows as they are decoded"):
    /// baseline JPEG an MCU row, progressive JPEG its coefficients (rendered from them in MCU
    /// rows), non-interlaced PNG a row or two, interlaced PNG its stored passes, TIFF a strip
    /// or a row of tiles, GIF a window of the frame's indices (all of them when interlaced),
    /// WebP its planes.
    ///
    /// EXIF orientation is not applied (rows come as stored; `properties.orientation` says how
    /// to show them). An APNG (its frame 0 comes from the animation), the `libtiffRGBA` output
    /// (libtiff's RGBA interface reads a page whole), a file whose headers do not parse, and a
    /// file that delivers no row in streaming mode are decoded whole and then
    /// handed out in bands of about 1 MiB, so the result is the same either way
    /// (`StreamedFrame.streamed` tells which). An error thrown by `body` stops the delivery and
    /// is rethrown; a decode error is thrown as a `DecodeError`, after the bands already
    /// delivered (a caller writing a file removes it then, as the CLI does).
    public func decodeRows(output: ImageDecodingOptions.Output = .canonicalRGBA,
                           _ body: (RowBand) throws -> Void) throws -> StreamedFrame {
        try streamFirstFrame(output: output) { band in
            try body(RowBand(firstRow: band.firstRow, frameHeight: band.frameHeight, rows: try band.converted()))
        }
    }

    /// `decodeRows(output:_:)` of the file at `path`, holding a window of the file instead of
    /// all of it where the format's decoder reads in order: a PNG, JPEG or GIF is read in
    /// pieces of 1 MiB, and what the decoder has consumed is dropped whenever it says it will
    /// not read it again (`FormatDecoder.mayDiscardConsumedInput`: PNG and GIF always, a JPEG
    /// within its scans). So a non-interlaced PNG or a baseline JPEG of any size is decoded in
    /// a few megabytes (Docs/ImageSource.md, "From a file, in pieces"); a progressive JPEG
    /// keeps its coefficients, an interlaced GIF its frame's indices. An APNG, or a file whose
    /// header does not parse, is then read whole and decoded as in memory. A TIFF is read at
    /// offsets (`RandomAccessFile`): its IFD and tag values through a small block cache, each
    /// strip or tile when its band is decoded — a striped TIFF of any size in a few megabytes.
    /// WebP, and a FIFO, are read whole first, as `ImageSource(contentsOfFile:)` does. The
    /// bands and the result are those of `decodeRows` on the whole file; I/O errors are typed
    /// (`FileError`) as `ImageSource(contentsOfFile:)`'s.
    public static func decodeRows(contentsOfFile path: String, options: DecodeOptions = DecodeOptions(),
                                  output: ImageDecodingOptions.Output = .canonicalRGBA,
                                  _ body: (RowBand) throws -> Void) throws -> StreamedFrame {
        try decodeRows(contentsOfFile: path, options: options, output: output, window: fileWindowBytes, body)
    }

    /// `window`: the size of the pieces read, and of the consumed input let gather before it
    /// is dropped; a TIFF's block size, up to 64 KiB (tests and the fuzzer use small ones so
    /// that small files stream too).
    @_spi(Reference) public static func decodeRows(contentsOfFile path: String, options: DecodeOptions, output: ImageDecodingOptions.Output,
                                                   window: Int, _ body: (RowBand) throws -> Void) throws -> StreamedFrame {
        switch try openInPieces(path, options: options, window: window, formats: [.png, .jpeg, .gif, .tiff]) {
        case .inPieces(let source, let rest):
            return try source.streamFirstFrame(output: output, reading: rest) { band in
                try body(RowBand(firstRow: band.firstRow, frameHeight: band.frameHeight, rows: try band.converted()))
            }
        case .atOffsets(let source, let file):
            return try source.streamFirstFrame(output: output, atOffsets: file) { band in
                try body(RowBand(firstRow: band.firstRow, frameHeight: band.frameHeight, rows: try band.converted()))
            }
        case .whole(let source):
            return try source.decodeRows(output: output, body)
        }
    }

    /// The pieces `decodeRows(contentsOfFile:)` reads, and the consumed bytes it lets gather
    /// before dropping them.
    static let fileWindowBytes = 1 << 20

    /// `decodeRows` before its bands are converted: each band of frame 0 goes to `consume`,
    /// which converts it into a bitmap of its own (`decodeRows`) or straight into rows it owns
    /// (`decode(at:into:bytesPerRow:format:)`).
    ///
    /// `input`: the rest of the input, when this source holds only the start of a PNG, JPEG or
    /// GIF file (`decodeRows(contentsOfFile:)`); the decoder is fed from it `window` bytes at a
    /// time, and its consumed input dropped once `window` bytes of it have gathered, where
    /// the decoder allows it (`DecodeSession.discardConsumedInput`). The header comes from the
    /// start alone (a walk that ran out of bytes still gives IHDR's or the SOF's fields);
    /// every fallback to a whole decode reads the whole file.
    ///
    /// `atOffsets`: the TIFF file whose first piece this source holds; the decoder reads it at
    /// offsets (`TIFFDecoder.file`), its header from a first-page walk of the file. A failed
    /// read of the file is thrown in place of what the decoder made of it.
    func streamFirstFrame(output: ImageDecodingOptions.Output, reading input: FileRest? = nil, atOffsets tiff: RandomAccessFile? = nil,
                          _ body: (StreamedBand) throws -> Void) throws -> StreamedFrame {
        do {
            return try streamFirstFrame(output: output, pieces: input, tiff: tiff, body)
        } catch {
            throw tiff?.failure ?? error
        }
    }

    private func streamFirstFrame(output: ImageDecodingOptions.Output, pieces input: FileRest?, tiff: RandomAccessFile?,
                                  _ body: (StreamedBand) throws -> Void) throws -> StreamedFrame {
        let file = input?.file
        let wholeFile = file?.path ?? tiff?.path
        let header: ImageProperties
        do {
            if let tiff {
                // The walk of page 0 (the streaming decode reads no other).
                var firstPage = options
                firstPage.firstFrameOnly = true
                header = try Self.walkContainer(format: .tiff, options: firstPage, bytes: [], tiff: tiff).properties
            } else {
                header = try properties()
            }
        } catch {
            // What a decode of the same bytes says (it may refuse or recover differently).
            return try handOutWhole(output: output, path: wholeFile, body)
        }
        // An APNG's frame 0 is composed from its animation, not the default image the
        // streaming decoder reads.
        if format == .png && !header.frames.isEmpty || output == .libtiffRGBA {
            return try handOutWhole(output: output, path: wholeFile, body)
        }
        // (A PNG here may still hold an acTL whose animation the walk dropped: the decoder reads
        // on as far as the one-shot decode does, so that a file cut there is truncated alike.)
        var streamOptions = options
        streamOptions.firstFrameOnly = true
        // A JPEG's rows come in a 4-byte RGB output already when it can write it (the band
        // conversion is then the identity); see `ImageSource.decodeDirect`.
        if format == .jpeg { streamOptions.jpegDirectFormat = Self.directJPEGFormat(for: output) }
        var delivered = 0
        var nativeFormat: PixelFormat?
        let bands = BandConverter(output: output, pixels: deliveredWidth(header) * deliveredHeight(header), format: format)
        var failure: (any Error)?
        // A PNG file read in pieces: the decoder's own record of the chunks it read tells, when the
        // first rows arrive, whether an acTL came before them (an APNG whose start did not
        // show it: the whole file is then read and decoded as in memory). The record stops there.
        let chunkLog = file == nil || format != .png ? nil : StructureLog(limit: 10_000)
        var animated = false
        var largestHeld = 0
        // The decoder lives inside this closure only: its sink (and the copies its parts keep)
        // hold `body`, which must not outlive the call.
        let outcome: StreamOutcome
        do {
            outcome = try withoutActuallyEscaping(body) { body throws -> StreamOutcome in
            let decoder = try DecodeSession.makeDecoder(for: format, options: streamOptions)
            decoder.structureLog = chunkLog
            (decoder as? TIFFDecoder)?.file = tiff
            // (Unowned: the decoder keeps the sink, and outlives every call of it.)
            decoder.rowSink = { [unowned decoder] band in
                guard failure == nil, !animated else { return }
                if let chunkLog, delivered == 0 {
                    animated = chunkLog.entries.contains { $0.name == "acTL" }
                    decoder.structureLog = nil
                    if animated { return }
                }
                do {
                    nativeFormat = band.format
                    // The display format's alpha as `decode(at:)` chooses it: from the decode's
                    // own properties (known before any row), not the whole file's.
                    let hasAlpha = decoder.properties?.hasAlpha ?? header.hasAlpha
                    try body(StreamedBand(firstRow: delivered, frameHeight: self.deliveredHeight(decoder.properties ?? header),
                                          rows: band, converter: bands, hasAlpha: hasAlpha))
                    delivered += band.height
                } catch {
                    failure = error
                }
            }
            // (A TIFF read at offsets reads nothing from the session's input.)
            let session = DecodeSession(format: format, decoder: decoder, input: InputBuffer(tiff == nil ? bytes : [], isClosed: file == nil))
            let progress: DecodeProgress
            (progress, largestHeld) = try session.pump(reading: input) { failure == nil && !animated }
            return StreamOutcome(finished: progress == .finished, properties: decoder.properties,
                                 warnings: decoder.warnings, truncation: decoder.truncation, inputEnd: session.input.writeIndex)
            }
        } catch {
            // The consumer's own error comes first: the decode went on without it.
            throw failure ?? error
        }
        if let failure { throw failure }
        if animated { return try handOutWhole(output: output, path: wholeFile, body) }
        guard let nativeFormat else { return try handOutWhole(output: output, path: wholeFile, body) }
        guard outcome.finished else {
            throw DecodeError(.truncated, format: format, offset: outcome.inputEnd, ContainerError.tooShortToIdentify(count: outcome.inputEnd))
        }
        let properties = outcome.properties ?? header
        let height = deliveredHeight(properties)
        if delivered < height {
            // The rows the file never reached, as the one-shot frame shows them: the decoder's
            // zero samples, converted like every other row.
            try deliverZeroRows(from: delivered, width: deliveredWidth(properties), height: height, native: nativeFormat,
                                hasAlpha: properties.hasAlpha, output: output, body)
        }
        return StreamedFrame(properties: properties, warnings: outcome.warnings, truncation: outcome.truncation, streamed: true,
                             largestInputHeld: tiff?.mostHeld ?? (file == nil ? nil : largestHeld))
    }

    /// The frame's size as decoded: a JPEG's DCT-domain reduction makes it
    /// ⌈size / denominator⌉, as libjpeg scales (`DecodeOptions.jpegScaleDenominator`).
    func deliveredHeight(_ properties: ImageProperties) -> Int {
        let scale = format == .jpeg ? max(1, options.jpegScaleDenominator) : 1
        return (properties.height + scale - 1) / scale
    }

    func deliveredWidth(_ properties: ImageProperties) -> Int {
        let scale = format == .jpeg ? max(1, options.jpegScaleDenominator) : 1
        return (properties.width + scale - 1) / scale
    }

    /// What the streaming decode ended with (the decoder itself stays inside `decodeRows`).
    private struct StreamOutcome {
        var finished: Bool
        var properties: ImageProperties?
        var warnings: [DecodeWarning]
        var truncation: DecodeError?
        /// The input's length as the decode ended (the whole input, or what was read of a file).
        var inputEnd: Int
    }

    /// The non-streaming path of `decodeRows`: the frame decoded whole, handed out in bands.
    /// `path`: this source holds only the start of the file, and its header came from that
    /// start (or from the file read at offsets); the whole file is read and `streamFirstFrame`
    /// runs on it from the beginning (the whole file's header may decide differently: an acTL
    /// the start did not reach, or one that turns out invalid and leaves a still image that
    /// streams after all).
    private func handOutWhole(output: ImageDecodingOptions.Output, path: String? = nil,
                              _ body: (StreamedBand) throws -> Void) throws -> StreamedFrame {
        if let path {
            return try ImageSource(bytes: try FileReader.read(path), format: format, options: options)
                .streamFirstFrame(output: output, body)
        }
        let decoded = try firstFrameDecode(output: output)
        let bitmap = decoded.bitmap
        try bitmap.forEachBand(rowsPerBand: (1 << 20) / max(1, bitmap.bytesPerRow)) { top, band in
            try body(StreamedBand(firstRow: top, frameHeight: bitmap.height, rows: band))
        }
        return StreamedFrame(properties: decoded.properties, warnings: decoded.warnings, truncation: decoded.truncation, streamed: false)
    }

    /// Frame 0 decoded whole by a first-frame-only source (what the streaming decode reads).
    private func firstFrameDecode(output: ImageDecodingOptions.Output) throws(DecodeError) -> DecodedFrame {
        var firstOnly = options
        firstOnly.firstFrameOnly = true
        return try ImageSource(bytes: bytes, format: format, options: firstOnly).decode(at: 0, options: ImageDecodingOptions(output: output))
    }

    /// Rows `first ..< height` of a truncated frame: zero native samples (the decoders' "not
    /// decoded" fill), converted, in bands of about 1 MiB of native rows.
    private func deliverZeroRows(from first: Int, width: Int, height: Int, native: PixelFormat, hasAlpha: Bool,
                                 output: ImageDecodingOptions.Output, _ body: (StreamedBand) throws -> Void) throws {
        // A JPEG that wrote 4-byte RGB rows: its "not decoded" rows are zero RGB samples
        // (opaque black once converted), not zero 4-byte pixels.
        let native = format == .jpeg && FourByteRGB(target: native) != nil ? PixelFormat.rgb8 : native
        guard let rowBytes = native.minimumBytesPerRow(width: width) else { return }
        let bandRows = max(1, (1 << 20) / max(1, rowBytes))
        var top = first
        while top < height {
            let rows = min(bandRows, height - top)
            let zeros = Bitmap(uncheckedWidth: width, height: rows, format: native, bytesPerRow: rowBytes,
                               bytes: [UInt8](repeating: 0, count: rowBytes * rows))
            try body(StreamedBand(firstRow: top, frameHeight: height, rows: try Self.convert(zeros, to: output, hasAlpha: hasAlpha, format: format)))
            top += rows
        }
    }

    /// A band in the requested output, with tight rows (the conversions of `deliver`).
    static func convert(_ band: Bitmap, to output: ImageDecodingOptions.Output, hasAlpha: Bool, format: ImageFormat) throws(DecodeError) -> Bitmap {
        guard let target = output.target(native: band.format, hasAlpha: hasAlpha) else { return band.tightlyPacked() }
        do {
            return try band.converted(to: target, bytesPerRow: target.minimumBytesPerRow(width: band.width) ?? 0)
        } catch {
            throw DecodeError(.unsupported, format: format, offset: nil, ContainerError.outputConversion(error.description))
        }
    }
}

extension ImageDecodingOptions.Output {
    /// The format a frame comes out in when its decoder's own format is `native` (nil for
    /// `.native`: as it is). `hasAlpha` is the image's (`ImageProperties.hasAlpha`), which picks
    /// the display format.
    func target(native: PixelFormat, hasAlpha: Bool) -> PixelFormat? {
        switch self {
        case .native: nil
        case .canonicalRGBA: native.bitsPerComponent > 8 ? .rgba16 : .rgba8
        case .display: .display(hasAlpha: hasAlpha)
        case .format(let format): format
        case .libtiffRGBA: .rgba8Premultiplied
        }
    }
}

/// Converts the bands of one streamed frame (`decodeRows`) to its output, keeping the
/// `PixelConverter` — and the table it built — from band to band: a PNG streams a row per band,
/// and a palette or 16-bit table built per row cost more than converting the row. The bytes are
/// `ImageSource.convert`'s (the same converter routes); bands it does not take (float samples,
/// fewer significant bits than their components where no table takes them) go through it.
final class BandConverter {
    private let output: ImageDecodingOptions.Output
    /// Pixels of the whole frame: what the tables are sized against.
    private let pixels: Int
    private let format: ImageFormat
    private var cached: (source: PixelFormat, significantBits: Int, target: PixelFormat, converter: PixelConverter)?

    init(output: ImageDecodingOptions.Output, pixels: Int, format: ImageFormat) {
        self.output = output
        self.pixels = pixels
        self.format = format
    }

    /// The converter that takes `band` to the output, the output's format and its tight row
    /// length; nil for the bands it does not take (see the type's comment).
    private func converter(for band: Bitmap, hasAlpha: Bool) throws(DecodeError) -> (PixelConverter, PixelFormat, Int)? {
        let significantBits = band.significantBitsPerComponent
        guard let target = output.target(native: band.format, hasAlpha: hasAlpha), target != band.format,
              band.format.componentType != .float,
              let rowBytes = target.minimumBytesPerRow(width: band.width) else { return nil }
        if let cached, cached.source == band.format, cached.significantBits == significantBits, cached.target == target {
            return (cached.converter, target, rowBytes)
        }
        let converter: PixelConverter
        do {
            converter = try PixelConverter(from: band.format, significantBits: significantBits, to: target,
                                           pixels: max(pixels, band.width * band.height))
        } catch {
            // Samples of fewer significant bits that no table takes: the band is scaled to the
            // full range first (`Bitmap.converted`), as the whole image would be.
            if significantBits < band.format.bitsPerComponent { return nil }
            throw DecodeError(.unsupported, format: format, offset: nil, ContainerError.outputConversion(error.description))
        }
        cached = (band.format, significantBits, target, converter)
        return (converter, target, rowBytes)
    }

    /// `band` converted straight into `rows` (the band's `height` rows of at least the
    /// output's row length each, which the caller guarantees); the bytes past each row's length
    /// are not touched. False, with nothing written, for a band the converter does not take.
    func write(_ band: Bitmap, hasAlpha: Bool, into rows: MutablePixelRows) throws(DecodeError) -> Bool {
        guard let (converter, _, rowBytes) = try converter(for: band, hasAlpha: hasAlpha) else { return false }
        // A row longer than the destination's stride would run into the next row (unreachable:
        // the caller sized the stride for this output; checked rather than trusted).
        guard rowBytes <= rows.bytesPerRow else { return true }
        if !converter.writesWholeRows {
            // Each row's `rowBytes` (≤ rows.bytesPerRow) zeroed first, as a tight bitmap's are.
            for y in 0 ..< band.height { (rows.base + y * rows.bytesPerRow).initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes) }
        }
        band.bytes.withUnsafeBytes { source in
            guard let s = source.baseAddress else { return }
            converter.convert(width: band.width, rows: band.height, from: PixelRows(base: s, bytesPerRow: band.bytesPerRow), into: rows)
        }
        return true
    }

    /// `band` in the output, tight rows.
    func convert(_ band: Bitmap, hasAlpha: Bool) throws(DecodeError) -> Bitmap {
        guard let (converter, target, rowBytes) = try converter(for: band, hasAlpha: hasAlpha) else {
            return try ImageSource.convert(band, to: output, hasAlpha: hasAlpha, format: format)
        }
        // Tight rows: the converter writes every byte, or the memory is zeroed first.
        let count = rowBytes * band.height
        let sourceRowBytes = band.bytesPerRow, width = band.width, height = band.height
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            PixelMemory.advise(buffer)
            let output = UnsafeMutableRawBufferPointer(buffer)
            if !converter.writesWholeRows { output.initializeMemory(as: UInt8.self, repeating: 0) }
            band.bytes.withUnsafeBytes { source in
                guard let s = source.baseAddress, let d = output.baseAddress else { return }
                // `height` rows of `width` pixels on both sides (the band's own geometry).
                converter.convert(width: width, rows: height, from: PixelRows(base: s, bytesPerRow: sourceRowBytes),
                                  into: MutablePixelRows(base: d, bytesPerRow: rowBytes))
            }
            initialized = count
        }
        return Bitmap(uncheckedWidth: width, height: height, format: target, bytesPerRow: rowBytes, bytes: bytes)
    }
}

/// A band of frame 0 on its way out of `ImageSource.streamFirstFrame`: its rows as the decoder
/// delivered them, converted to the output only when the consumer asks — into a bitmap of their
/// own (`converted()`), or straight into rows the consumer owns (`write(into:)`).
struct StreamedBand {
    /// The frame row of the band's first row, and the frame's height.
    let firstRow: Int
    let frameHeight: Int
    /// The rows: native with a converter, or already in the output.
    private let rows: Bitmap
    private let converter: BandConverter?
    private let hasAlpha: Bool

    /// Rows still to convert with `converter`.
    init(firstRow: Int, frameHeight: Int, rows: Bitmap, converter: BandConverter, hasAlpha: Bool) {
        self.firstRow = firstRow
        self.frameHeight = frameHeight
        self.rows = rows
        self.converter = converter
        self.hasAlpha = hasAlpha
    }

    /// Rows already in the output (tight).
    init(firstRow: Int, frameHeight: Int, rows: Bitmap) {
        self.firstRow = firstRow
        self.frameHeight = frameHeight
        self.rows = rows
        converter = nil
        hasAlpha = false
    }

    var width: Int { rows.width }
    var height: Int { rows.height }

    /// The rows in the output, tight.
    func converted() throws(DecodeError) -> Bitmap {
        try converter?.convert(rows, hasAlpha: hasAlpha) ?? rows
    }

    /// The rows in the output, written to `destination`: band row `r` at `destination.base +
    /// r × destination.bytesPerRow`, each row's output bytes only. The caller guarantees
    /// `height` rows of at least the output's row length there.
    func write(into destination: MutablePixelRows) throws(DecodeError) {
        if let converter, try converter.write(rows, hasAlpha: hasAlpha, into: destination) { return }
        let bitmap = try converted()
        let rowBytes = bitmap.bytesPerRow   // tight: the output's row length
        guard rowBytes <= destination.bytesPerRow else { return }   // as in `BandConverter.write`
        bitmap.bytes.withUnsafeBytes { source in
            guard let from = source.baseAddress else { return }
            for r in 0 ..< bitmap.height {
                (destination.base + r * destination.bytesPerRow).copyMemory(from: from + r * rowBytes, byteCount: rowBytes)
            }
        }
    }
}
