#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How `ImageSource.image(at:options:)` should deliver pixels.
public struct ImageDecodingOptions: Sendable, Hashable {
    /// The pixel layout the decoded bitmap comes in.
    public enum Output: Sendable, Hashable {
        /// The decoder's own channels and depth (e.g. CMYK for a CMYK JPEG, 1-bit gray, indexed).
        case native
        /// Straight RGBA, 8-bit for sources of ≤ 8 bits, 16-bit (host order) for deeper ones.
        case canonicalRGBA
        /// SDWebImage's display format (`PixelFormat.display(hasAlpha:)`).
        case display
        /// Any explicit format `Bitmap.converted(to:)` can produce.
        case format(PixelFormat)
        /// TIFF: premultiplied RGBA8 exactly as libtiff's `TIFFReadRGBAImageOriented` (top-left)
        /// gives it — its truncations, quirks, refusals and orientation flips (Docs/TIFF.md,
        /// "libtiff's RGBA, exactly"); `applyOrientation` is not applied on top. Other formats:
        /// as `.format(.rgba8Premultiplied)`.
        case libtiffRGBA
    }

    /// The pixel layout to deliver; default `.canonicalRGBA`.
    public var output: Output
    /// Rotate/flip to upright per the EXIF orientation (see `Orientation`).
    public var applyOrientation: Bool

    /// Options for `output`, with orientation applied when `applyOrientation` (default: not).
    public init(output: Output = .canonicalRGBA, applyOrientation: Bool = false) {
        self.output = output
        self.applyOrientation = applyOrientation
    }
}

/// The public façade, shaped like `CGImageSource`: made from a whole file's bytes, it tells the
/// format and the properties, and decodes frames into `Bitmap`s.
///
/// ```swift
/// let source = try ImageSource(contentsOfFile: "photo.png")
/// print(source.format, try source.properties().width)          // headers only, no pixels
/// let decoded = try source.decode(at: 0, options: .init(output: .display))
/// if let truncation = decoded.truncation { print("partial image:", truncation) }
/// ```
///
/// What each call costs (Docs/ImageSource.md):
/// - `properties()` walks the container — every frame and its timing, every metadata chunk —
///   and decompresses no image data; its result is kept.
/// - `decode(at:)` / `image(at:)` run the format's decoder once, on first use, and keep it:
///   later frames of an animation are composed from its cached canvas. A TIFF page is decoded
///   alone (the IFD chain walked, no other page decoded), and the last page decoded is kept.
///   One exception: a JPEG asked for in a 4-byte RGB format (canonical RGBA, display) before
///   any other decode is decoded straight into that format and not kept (Docs/ImageSource.md).
/// - Every bitmap returned has tight rows (`bytesPerRow == format.minimumBytesPerRow(width:)`).
/// - `thumbnail` and `decodedAndScaledDown` stream a decode of their own through the resampler.
///
/// Thread safety: an `ImageSource` is `Sendable`, and any number of tasks may call it at once.
/// Its caches sit behind one lock, so decodes through one source run one at a time (a JPEG's
/// direct decode into a 4-byte format, which uses no cache, runs beside them).
public final class ImageSource: Sendable {
    /// The format, from the file's signature (or as the caller stated it).
    public let format: ImageFormat
    /// The limits and leniencies every decode through this source uses.
    public let options: DecodeOptions
    /// The file's bytes (the downscaler decodes them again in streaming mode).
    let bytes: [UInt8]
    /// Size of the input in bytes.
    public var byteCount: Int { bytes.count }

    /// What the source has found out so far, made on first use and kept.
    private struct Caches {
        /// The container walk behind `properties()` (or the error it ended with).
        var description: Result<SourceDescription, DecodeError>?
        /// The decode behind `decode(at:)`, which frames are read from.
        var session: DecodeSession?
        /// TIFF: the last page decoded alone, and its index (one page is kept, not every page).
        var page: (index: Int, session: DecodeSession)?
    }
    private let caches = LockedState(Caches())

    /// Identifies the format. Throws `.unknownFormat` for unrecognised bytes and `.unsupported`
    /// for recognised formats this library does not decode.
    public init(bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws(DecodeError) {
        switch FormatSniffer.sniff(bytes) {
        case .format(let format):
            self.format = format
        case .needMoreBytes:
            throw DecodeError(.unknownFormat, format: nil, offset: 0, ContainerError.tooShortToIdentify(count: bytes.count))
        case .nearMiss(let format):
            let found = Array(bytes.prefix(8))
            let reason: any DecodeErrorReason = format == .png ? PNGError.badSignature(found: found) : ContainerError.damagedSignature(format, found: found)
            throw DecodeError(.malformed, format: format, offset: 0, reason)
        case .unknown:
            throw DecodeError(.unknownFormat, format: nil, offset: 0, ContainerError.unknownSignature(firstBytes: Array(bytes.prefix(8))))
        }
        self.options = options
        self.bytes = bytes
        try DecodeSession.requireDecoder(for: format)
    }

    /// Decodes `bytes` as `format` without sniffing (ImageIO's `kCGImageSourceTypeIdentifierHint`
    /// taken as an order). The format's decoder still checks its own signature, so bytes of
    /// another format fail with that decoder's typed error. Throws `.unsupported` for formats
    /// this library does not decode.
    public init(bytes: [UInt8], format: ImageFormat, options: DecodeOptions = DecodeOptions()) throws(DecodeError) {
        self.format = format
        self.options = options
        self.bytes = bytes
        try DecodeSession.requireDecoder(for: format)
    }

    /// Reads a whole file, then as `init(bytes:options:)`.
    public convenience init(contentsOfFile path: String, options: DecodeOptions = DecodeOptions()) throws(DecodeError) {
        try self.init(bytes: try FileReader.read(path), options: options)
    }

    // MARK: - Properties: headers only

    /// The properties from the file's headers (`CGImageSourceCopyProperties`): size, colour,
    /// depth, orientation, metadata, and for animations every frame with its placement and
    /// timing, found by walking the container without decompressing image data (GIF: LZW
    /// sub-blocks skipped; APNG: the chunk walk over acTL/fcTL, IDAT/fdAT skipped; TIFF: the
    /// IFD chain; WebP: the RIFF chunks and bitstream headers; JPEG: the markers up to the first
    /// scan). `frameCount` is what the container describes; a decode of damaged data may find
    /// fewer frames (`DecodedFrame.properties` then says how many).
    public func properties() throws(DecodeError) -> ImageProperties {
        try describe().properties
    }

    /// The properties with what the walk noticed: warnings, and where the input ended if it
    /// ended before the container did (the file is truncated; how much of the image a decode
    /// recovers is the decode's to say).
    public func describe() throws(DecodeError) -> SourceDescription {
        let cached = caches.withLock { $0.description }
        if let cached { return try cached.get() }
        let result = Result<SourceDescription, DecodeError> { () throws(DecodeError) in try walkContainer() }
        caches.withLock { $0.description = result }
        return try result.get()
    }

    /// `describe()` of the file at `path`, reading no more of it than the container walk needs
    /// when the walk ends before the file does: a JPEG's headers end at its first SOS, so a
    /// 30 MB photo is described from its first kilobytes (64 KiB read first, then as much again
    /// each time the walk runs out, up to 16 MiB, then the whole file: `openInPieces`). A TIFF's IFD chain, anywhere
    /// in the file, is walked reading the file at offsets (`RandomAccessFile`: the IFDs and tag
    /// values, never the strips). A PNG's or GIF's walk reaches the end of its container (IEND,
    /// the trailer), skipping the image data: the file is read in pieces of 64 KiB, each dropped
    /// once walked. A WebP is read whole. The result is what `describe()` on the whole file
    /// gives.
    public static func describe(contentsOfFile path: String, options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> SourceDescription {
        try describe(contentsOfFile: path, options: options, firstRead: 1 << 16).description
    }

    /// The largest prefix of a file whose header walk is tried before the file is read whole.
    static let largestDescribedPrefix = 1 << 24

    /// `firstRead`: the first prefix tried (tests use small ones to exercise the growth);
    /// `bytesRead`: the size of the prefix described (the file's size when read whole; for a
    /// TIFF read at offsets, the most bytes held at once; for a PNG or GIF, the first piece,
    /// the walk holding a piece or two more at a time).
    static func describe(contentsOfFile path: String, options: DecodeOptions,
                         firstRead: Int) throws(DecodeError) -> (description: SourceDescription, bytesRead: Int) {
        switch try openInPieces(path, options: options, window: firstRead, formats: [.jpeg, .tiff, .png, .gif], walkingWhole: [.png, .gif]) {
        case .inPieces(let source, _):
            // A JPEG whose walk ended inside the bytes read (or that is all of them); a PNG or
            // GIF walked to its end in pieces of `firstRead` bytes.
            return (try source.describe(), source.byteCount)
        case .atOffsets(_, let file):
            return (try walkContainer(format: .tiff, options: options, bytes: [], tiff: file), file.mostHeld)
        case .whole(let source):
            return (try source.describe(), source.byteCount)
        }
    }

    /// The header path's decoder: the whole input at once, in properties-only mode.
    private func walkContainer() throws(DecodeError) -> SourceDescription {
        try Self.walkContainer(format: format, options: options, bytes: bytes)
    }

    /// `tiff`: a TIFF file read at offsets (`TIFFDecoder.file`) in place of `bytes`; a read of
    /// it that failed is thrown in place of what the walk made of it. `rest`: the rest of the
    /// file whose start `bytes` is, fed to the walk in pieces with its consumed input dropped
    /// (a PNG's or GIF's walk, which reads to the container's end but skips the image data).
    static func walkContainer(format: ImageFormat, options: DecodeOptions, bytes: [UInt8],
                              tiff: RandomAccessFile? = nil, reading rest: FileRest? = nil) throws(DecodeError) -> SourceDescription {
        var walkOptions = options
        walkOptions.propertiesOnly = true
        do throws(DecodeError) {
            let decoder = try DecodeSession.makeDecoder(for: format, options: walkOptions)
            (decoder as? TIFFDecoder)?.file = tiff
            let walk = DecodeSession(format: format, decoder: decoder, input: InputBuffer(bytes, isClosed: rest == nil))
            let end = tiff?.size ?? rest?.file.size ?? bytes.count
            if try walk.pump(reading: rest, while: { true }).progress == .needMoreInput {
                throw DecodeError(.truncated, format: format, offset: walk.input.readIndex, ContainerError.tooShortToIdentify(count: walk.input.writeIndex))
            }
            if let failure = tiff?.failure { throw failure }
            guard let properties = walk.decoder.properties else {
                throw walk.decoder.truncation ?? DecodeError(.truncated, format: format, offset: end, ContainerError.tooShortToIdentify(count: end))
            }
            return SourceDescription(properties: properties, warnings: walk.decoder.warnings, truncation: walk.decoder.truncation,
                                     refusal: walk.decoder.headerRefusal, pages: (walk.decoder as? TIFFDecoder)?.pageProperties ?? [])
        } catch {
            throw tiff?.failure ?? error
        }
    }

    /// The properties of image `index` (`CGImageSourceCopyPropertiesAtIndex`), from the headers
    /// alone: a TIFF page as its own IFD describes it (size, colour, depth, orientation, ICC);
    /// an animation frame as the canvas with `frames` holding that frame alone; a still image's
    /// index 0 as `properties()`. Throws `.malformed` (`frameOutOfRange`) past the last image.
    public func properties(at index: Int) throws(DecodeError) -> ImageProperties {
        let description = try describe()
        var properties = description.properties
        let count = max(1, properties.frameCount)
        guard index >= 0, index < count else {
            throw DecodeError(.malformed, format: format, offset: nil, ContainerError.frameOutOfRange(index: index, count: count))
        }
        if index < description.pages.count {
            guard var page = description.pages[index] else {
                throw DecodeError(.malformed, format: format, offset: nil, TIFFError.invalidValue(field: "ImageWidth", value: 0))
            }
            page.frameCount = properties.frameCount
            return page
        }
        if index < properties.frames.count { properties.frames = [properties.frames[index]] }
        return properties
    }

    /// Makes `description` what `describe()` (and so `properties()`) answers: the walk of the
    /// whole file, when this source holds only its start (`openInPieces`, `walkingWhole`).
    func remember(_ description: Result<SourceDescription, DecodeError>) {
        caches.withLock { $0.description = description }
    }

    /// The header properties the thumbnail and downscale paths plan with.
    func headerProperties() throws(DecodeError) -> ImageProperties {
        try properties()
    }

    // MARK: - Frames

    /// Frame `index` (0 for stills, composed on the canvas for animations, the page of a TIFF)
    /// with what its decode reported: warnings, truncation, and the properties as decoded.
    public func decode(at index: Int = 0, options decoding: ImageDecodingOptions = ImageDecodingOptions()) throws(DecodeError) -> DecodedFrame {
        if decoding.output == .libtiffRGBA && format == .tiff {
            // libtiff's RGBA interface reads the page by itself (TIFFLibtiffRGBA), not through
            // the shared decode: its truncation and warnings are that page's.
            let rendered = try TIFFLibtiffRGBA.render(bytes, page: index, limits: options.limits)
            var properties = try self.properties()
            properties.colorModel = .rgb
            properties.bitsPerComponent = 8
            return DecodedFrame(bitmap: rendered.bitmap, index: index, properties: properties,
                                warnings: rendered.warnings, truncation: rendered.truncation)
        }
        // A TIFF page's decoder knows only the pages up to its own, so the page count an
        // out-of-range error reports comes from the IFD walk (kept by `properties()`).
        let pageCount = format == .tiff ? (try? properties())?.frameCount : nil
        if let pageCount, index < 0 || index >= pageCount {
            throw DecodeError(.malformed, format: format, offset: nil, ContainerError.frameOutOfRange(index: index, count: pageCount))
        }
        if let direct = directOptions(for: decoding.output, index: index), let frame = try decodeDirect(direct, index: index, decoding) {
            return frame
        }
        return try caches.withLock { (caches) throws(DecodeError) -> DecodedFrame in
            let session = format == .tiff ? try Self.finishedPageSession(&caches, page: index, bytes: bytes, options: options)
                                          : try Self.finishedSession(&caches, format: format, bytes: bytes, options: options)
            let available = session.decoder.availableFrameCount
            guard index >= 0, index < available else {
                throw DecodeError(.malformed, format: format, offset: nil,
                                  ContainerError.frameOutOfRange(index: index, count: pageCount ?? available))
            }
            let bitmap = try Self.deliver(try session.decoder.frame(at: index), decoder: session.decoder, format: format, options: decoding)
            return DecodedFrame(session, index: index, bitmap: bitmap)
        }
    }

    /// The 4-byte format a JPEG's renderer can write for `output` itself (`FourByteRGB`):
    /// canonical RGBA (`.rgba8` for 8-bit files, which are the ones it applies to), the display
    /// format (a JPEG has no alpha), or an explicit 32-bit RGB format.
    static func directJPEGFormat(for output: ImageDecodingOptions.Output) -> PixelFormat? {
        let target: PixelFormat
        switch output {
        case .canonicalRGBA: target = .rgba8
        case .display: target = .display(hasAlpha: false)
        case .format(let format): target = format
        case .native, .libtiffRGBA: return nil
        }
        return FourByteRGB(target: target) == nil ? nil : target
    }

    /// Options for a decode of frame `index` that writes `output` itself, for the formats whose
    /// decoders can: JPEG's renderer (frame 0; `DecodeOptions.jpegDirectFormat`, 4-byte RGB
    /// formats; any other output converted row by row as rendered), a still PNG's unfiltered
    /// rows, a still GIF's canvas, a still WebP's raster and a TIFF page's rendered bands
    /// (`DecodeOptions.directOutput`). Nil otherwise — for animations, whose frames come from
    /// the shared decode, and for libtiff's RGBA output, which reads the page by itself.
    private func directOptions(for output: ImageDecodingOptions.Output, index: Int) -> DecodeOptions? {
        var direct = options
        switch format {
        case .jpeg where index == 0:
            // The renderer's own 4-byte RGB where it writes it (8-bit gray and colour), else
            // each rendered row converted (`JPEGDecoder.directImage`).
            guard output != .native, output != .libtiffRGBA else { return nil }
            direct.jpegDirectFormat = Self.directJPEGFormat(for: output)
            direct.directOutput = output
        case .png where index == 0:
            guard output != .native, let header = try? properties(), header.frames.isEmpty else { return nil }
            direct.directOutput = output
        case .gif where index == 0, .webp where index == 0:
            guard output != .native, let header = try? properties(), header.frameCount == 1 else { return nil }
            direct.directOutput = output
        case .tiff:
            guard output != .native, output != .libtiffRGBA else { return nil }
            direct.directOutput = output
            direct.onlyPage = index
        default:
            return nil
        }
        return direct
    }

    /// Frame `index` from a decode of its own whose decoder writes the requested output itself
    /// (see `directOptions`): one full-size image, where decoding natively and converting held
    /// two (a 6 MP RGBA JPEG decode: 42 MB → 24 MB, and 40 → 25 ms). Nil when the shared decode
    /// (a TIFF: this page's) has run already — its frame is converted as usual. The decode is
    /// not kept: like `CGImageSourceCreateImageAtIndex` without `kCGImageSourceShouldCache`,
    /// asking again decodes again. Images the decoder cannot write directly (small JPEGs of
    /// fewer than 8 or 16 significant bits, interlaced or colour-keyed PNGs, float TIFFs) come
    /// out of it native and are converted by `deliver` as from the shared decode, so the pixels
    /// are the same either way.
    private func decodeDirect(_ directOptions: DecodeOptions, index: Int, _ decoding: ImageDecodingOptions) throws(DecodeError) -> DecodedFrame? {
        if caches.withLock({ $0.session != nil || $0.page?.index == index }) { return nil }
        let session = DecodeSession(format: format, decoder: try DecodeSession.makeDecoder(for: format, options: directOptions),
                                    input: InputBuffer(bytes, isClosed: true))
        try Self.runToEnd(session)
        guard session.decoder.availableFrameCount > index else {
            throw DecodeError(.malformed, format: format, offset: nil, ContainerError.frameOutOfRange(index: index, count: session.decoder.availableFrameCount))
        }
        let bitmap = try Self.deliver(try session.decoder.frame(at: index), decoder: session.decoder, format: format, options: decoding)
        return DecodedFrame(session, index: index, bitmap: bitmap)
    }

    /// Frame `index`'s pixels alone: `decode(at:options:).bitmap`.
    public func image(at index: Int = 0, options decoding: ImageDecodingOptions = ImageDecodingOptions()) throws(DecodeError) -> Bitmap {
        try decode(at: index, options: decoding).bitmap
    }

    /// Frame 0 alone, as SDWebImage's first-frame-only decoding gives it (the thumbnail and
    /// scaled-down paths): unless the whole file is decoded already, a decode of its own stops
    /// after the first frame, so an animation's later frames cost neither time nor memory.
    func firstFrame(options decoding: ImageDecodingOptions) throws(DecodeError) -> Bitmap {
        let decoded = caches.withLock { $0.session?.isFinished ?? false }
        // A TIFF's page 0 is decoded alone anyway (`finishedPageSession`), and kept.
        if decoded || options.firstFrameOnly || format == .tiff { return try image(at: 0, options: decoding) }
        var firstOnly = options
        firstOnly.firstFrameOnly = true
        return try ImageSource(bytes: bytes, format: format, options: firstOnly).image(at: 0, options: decoding)
    }

    /// The shared decode, run to its end on first use (the input is whole). Its failure is
    /// kept by the session and thrown again on every later call.
    private static func finishedSession(_ caches: inout Caches, format: ImageFormat, bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> DecodeSession {
        let session: DecodeSession
        if let existing = caches.session {
            session = existing
        } else {
            session = DecodeSession(format: format, decoder: try DecodeSession.makeDecoder(for: format, options: options),
                                    input: InputBuffer(bytes, isClosed: true))
            caches.session = session
        }
        try runToEnd(session)
        return session
    }

    /// Pumps a session over closed input to its end. The input is closed, so a decoder must
    /// finish or throw; one asking for more input anyway is treated as truncated rather than
    /// looping.
    private static func runToEnd(_ session: DecodeSession) throws(DecodeError) {
        if try session.pump() == .needMoreInput {
            throw DecodeError(.truncated, format: session.format, offset: session.input.readIndex,
                              ContainerError.tooShortToIdentify(count: session.input.writeIndex))
        }
    }

    /// TIFF: page `index` decoded alone (the IFD chain walked, no other page decoded), kept
    /// until another page is asked for. A failed page's session is kept too, so asking again
    /// throws the same error without decoding again.
    private static func finishedPageSession(_ caches: inout Caches, page index: Int, bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> DecodeSession {
        let session: DecodeSession
        if let cached = caches.page, cached.index == index {
            session = cached.session
        } else {
            var pageOptions = options
            pageOptions.onlyPage = index
            session = DecodeSession(format: .tiff, decoder: try DecodeSession.makeDecoder(for: .tiff, options: pageOptions),
                                    input: InputBuffer(bytes, isClosed: true))
            caches.page = (index, session)
        }
        try runToEnd(session)
        return session
    }

    /// A decoder's native frame in the layout and orientation `decoding` asks for.
    static func deliver(_ native: Bitmap, decoder: any FormatDecoder, format: ImageFormat, options decoding: ImageDecodingOptions) throws(DecodeError) -> Bitmap {
        var bitmap = native
        // The result leaves with the caller, but while it is made the decoder still holds what it
        // holds: the converted copy and an oriented copy must fit beside it. The target is the
        // one `convert` makes (the display format's alpha from the decode's properties).
        let hasAlpha = decoder.properties?.hasAlpha ?? true
        let target = decoding.output.target(native: native.format, hasAlpha: hasAlpha) ?? native.format
        // (A decoder that wrote the target itself needs no converted copy.)
        let copies = (native.format == target ? 0 : 1) + (decoding.applyOrientation ? 1 : 0)
        // Every bitmap the library delivers has tight rows (Docs/Bitmap.md, "Rows").
        let rowBytes = target.minimumBytesPerRow(width: native.width)
        if copies > 0 {
            try decoder.budget.check(rowBytes.flatMap { SizeMath.product($0, native.height, copies) }, format: format, offset: nil)
        }
        bitmap = try convert(native, to: decoding.output, hasAlpha: hasAlpha, format: format)
        if decoding.applyOrientation, let orientation = decoder.properties?.orientation {
            bitmap = bitmap.oriented(orientation)
        }
        return bitmap
    }
}

/// File reading for callers of the library (the CLI, tests).
public enum ImageFiles {
    /// The whole file's bytes, or a `DecodeError` of kind `.io` whose `FileError` says what went
    /// wrong (no such file, permission denied, a directory, a device, too large, a read error).
    public static func read(_ path: String, maxBytes: Int = 1 << 32) throws(DecodeError) -> [UInt8] {
        try FileReader.read(path, maxBytes: maxBytes)
    }

    /// Throws the `DecodeError` (kind `.io`) reading `path` would meet at its opening — no such
    /// file, permission denied, a directory, a device — without reading it: a command checks
    /// its input before it creates its output.
    public static func checkReadable(_ path: String) throws(DecodeError) {
        _ = try FileStream(path: path)
    }
}

/// What `ImageSource.describe()` found in the headers.
public struct SourceDescription: Sendable {
    /// What the headers say: size, colour, depth, orientation, metadata, every frame (TIFF: page 0).
    public var properties: ImageProperties
    /// Problems the walk met and stepped over (e.g. an ancillary chunk with a bad CRC).
    public var warnings: [DecodeWarning]
    /// Non-nil when the input ends before the container does.
    public var truncation: DecodeError?
    /// Non-nil when the headers are readable but already show that frame 0's pixels will not
    /// decode — a JPEG-LS or hierarchical JPEG, a JPEG libjpeg refuses before decoding (component
    /// count, a side over 65500, over the limits), a TIFF compression or layout this library has
    /// no decoder for: the error `decode(at: 0)` gives (for a limit: the same kind at the same
    /// offset; the decode may name another budget first). Nil says nothing more than that the
    /// headers raised no objection (the image data may still be damaged).
    public var refusal: DecodeError?
    /// TIFF: every page's own properties, as its IFD describes it (size, colour, compression,
    /// photometric, samples and layout in `extra`); nil for a page whose IFD does not give its
    /// size. Empty for the other formats, whose frames are in `properties.frames`.
    public var pages: [ImageProperties?] = []
}

/// One decoded frame and what its decode reported (ImageIO gives the image and, separately,
/// the source's status; here the two travel together, so nothing is read from a getter that
/// would decode behind the caller's back).
public struct DecodedFrame: Sendable {
    /// The frame's pixels, in the layout and orientation the decoding options asked for.
    public var bitmap: Bitmap
    /// The frame's index.
    public var index: Int
    /// The properties as the decode found them: `frameCount` counts the frames the decode can
    /// deliver, which is fewer than the headers describe when damaged frame data was dropped.
    public var properties: ImageProperties
    /// Problems the decode recovered from, in the order met (for the whole decode so far).
    public var warnings: [DecodeWarning]
    /// Non-nil when the input ended before the image did; the frame shows what was there.
    public var truncation: DecodeError?

    init(bitmap: Bitmap, index: Int, properties: ImageProperties, warnings: [DecodeWarning], truncation: DecodeError?) {
        self.bitmap = bitmap
        self.index = index
        self.properties = properties
        self.warnings = warnings
        self.truncation = truncation
    }

    /// A frame of the shared decode. (A decoder that delivered a frame has parsed its header,
    /// so its properties exist; the fallback describes the bitmap.)
    init(_ session: DecodeSession, index: Int, bitmap: Bitmap) {
        let properties = session.decoder.properties
            ?? ImageProperties(format: session.format, width: bitmap.width, height: bitmap.height, colorModel: bitmap.format.colorModel,
                               bitsPerComponent: bitmap.format.bitsPerComponent, hasAlpha: bitmap.format.alphaInfo != .none)
        self.init(bitmap: bitmap, index: index, properties: properties,
                  warnings: session.decoder.warnings, truncation: session.decoder.truncation)
    }
}
