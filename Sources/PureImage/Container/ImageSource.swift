#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How `ImageSource.image(at:options:)` should deliver pixels.
public struct ImageDecodingOptions: Sendable, Hashable {
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

    public var output: Output
    /// Rotate/flip to upright per the EXIF orientation (see `Orientation`).
    public var applyOrientation: Bool

    public init(output: Output = .canonicalRGBA, applyOrientation: Bool = false) {
        self.output = output
        self.applyOrientation = applyOrientation
    }
}

/// The public façade, shaped like `CGImageSource`: made from a whole file's bytes, it tells the
/// format, the properties, and decodes frames into `Bitmap`s.
///
/// ```swift
/// let source = try ImageSource(contentsOfFile: "photo.png")
/// print(source.format, try source.properties().width)
/// let pixels = try source.image(at: 0, options: .init(output: .display))
/// ```
/// The decode runs once, on first use; its result (or error) is kept.
public final class ImageSource {
    public let format: ImageFormat
    public let options: DecodeOptions
    /// The file's bytes (the downscaler decodes them again in streaming mode).
    let bytes: [UInt8]
    /// Size of the input in bytes.
    public var byteCount: Int { bytes.count }
    private let session: DecodeSession
    private var header: ImageProperties?

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
        let decoder = try DecodeSession.makeDecoder(for: format, options: options)
        session = DecodeSession(format: format, decoder: decoder, input: InputBuffer(bytes, isClosed: true))
    }

    /// Decodes `bytes` as `format` without sniffing (ImageIO's `kCGImageSourceTypeIdentifierHint`
    /// taken as an order). The format's decoder still checks its own signature, so bytes of
    /// another format fail with that decoder's typed error. Throws `.unsupported` for formats
    /// this library does not decode.
    public init(bytes: [UInt8], format: ImageFormat, options: DecodeOptions = DecodeOptions()) throws(DecodeError) {
        self.format = format
        self.options = options
        self.bytes = bytes
        let decoder = try DecodeSession.makeDecoder(for: format, options: options)
        session = DecodeSession(format: format, decoder: decoder, input: InputBuffer(bytes, isClosed: true))
    }

    /// Reads a whole file, then as `init(bytes:options:)`.
    public convenience init(contentsOfFile path: String, options: DecodeOptions = DecodeOptions()) throws(DecodeError) {
        try self.init(bytes: try FileReader.read(path), options: options)
    }

    /// Decodes everything (once) and returns the properties.
    public func properties() throws(DecodeError) -> ImageProperties {
        try decodeAll()
        guard let properties = session.decoder.properties else {
            // A finished decoder always has parsed a header or thrown; a truncated header throws.
            throw session.decoder.truncation ?? DecodeError(.truncated, format: format, offset: session.input.writeIndex, ContainerError.tooShortToIdentify(count: session.input.writeIndex))
        }
        return properties
    }

    /// The properties known from the header alone (size, colour, orientation), without decoding
    /// pixels: a separate decoder is fed the input until its header is parsed. Frame counts and
    /// timings of animations need `properties()`.
    func headerProperties() throws(DecodeError) -> ImageProperties {
        if let header { return header }
        if let full = session.decoder.properties, session.isFinished { return full }
        var probeOptions = options
        probeOptions.stopAfterHeader = true
        // TIFF addresses its IFD by offset, often after all of the image data: its probe gets the
        // whole input at once (shared, not copied) and stops once page 0 is described.
        let wholeInput = format == .tiff
        let probe = DecodeSession(format: format, decoder: try DecodeSession.makeDecoder(for: format, options: probeOptions),
                                  input: wholeInput ? InputBuffer(bytes, isClosed: true) : InputBuffer([], isClosed: false))
        if wholeInput { _ = try probe.pump() }
        var offset = probe.input.writeIndex
        // Feed in growing pieces until the header is known: a few kilobytes for most files.
        var piece = 4096
        while probe.decoder.properties == nil && offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            probe.append(bytes[offset..<end])
            if end == bytes.count { probe.close() }
            offset = end
            piece *= 2
            if try probe.pump() == .finished { break }
        }
        guard let properties = probe.decoder.properties else { return try self.properties() }
        header = properties
        return properties
    }

    /// Non-nil when the input ended before the image did; the image is decoded as far as it goes.
    public var truncation: DecodeError? {
        try? decodeAll()
        return session.decoder.truncation
    }

    /// Problems the decoder recovered from.
    public var warnings: [DecodeWarning] {
        try? decodeAll()
        return session.decoder.warnings
    }

    /// Frame `index` (0 for stills), composed on the canvas for animations.
    public func image(at index: Int = 0, options decoding: ImageDecodingOptions = ImageDecodingOptions()) throws(DecodeError) -> Bitmap {
        if decoding.output == .libtiffRGBA && format == .tiff {
            return try TIFFLibtiffRGBA.render(bytes, page: index, limits: options.limits)
        }
        try decodeAll()
        let available = session.decoder.availableFrameCount
        guard index >= 0, index < available else {
            throw DecodeError(.malformed, format: format, offset: nil, ContainerError.frameOutOfRange(index: index, count: available))
        }
        return try Self.deliver(try session.decoder.frame(at: index), decoder: session.decoder, format: format, options: decoding)
    }

    /// Frame 0 alone, as SDWebImage's first-frame-only decoding gives it (the thumbnail and
    /// scaled-down paths): unless the whole file is decoded already, a decode of its own stops
    /// after the first frame, so an animation's later frames cost neither time nor memory.
    func firstFrame(options decoding: ImageDecodingOptions) throws(DecodeError) -> Bitmap {
        if session.isFinished || options.firstFrameOnly { return try image(at: 0, options: decoding) }
        var firstOnly = options
        firstOnly.firstFrameOnly = true
        return try ImageSource(bytes: bytes, format: format, options: firstOnly).image(at: 0, options: decoding)
    }

    /// A decoder's native frame in the layout and orientation `decoding` asks for.
    static func deliver(_ native: Bitmap, decoder: any FormatDecoder, format: ImageFormat, options decoding: ImageDecodingOptions) throws(DecodeError) -> Bitmap {
        var bitmap = native
        // The result leaves with the caller, but while it is made the decoder still holds what it
        // holds: the converted copy and an oriented copy must fit beside it.
        let target: PixelFormat
        switch decoding.output {
        case .native: target = native.format
        case .canonicalRGBA: target = native.format.bitsPerComponent > 8 ? .rgba16 : .rgba8
        case .display: target = .display(hasAlpha: true)
        case .format(let format): target = format
        case .libtiffRGBA: target = .rgba8Premultiplied
        }
        let copies = (decoding.output == .native ? 0 : 1) + (decoding.applyOrientation ? 1 : 0)
        if copies > 0 {
            let rowBytes = target.alignedBytesPerRow(width: native.width)
            try decoder.budget.check(rowBytes.flatMap { SizeMath.product($0, native.height, copies) }, format: format, offset: nil)
        }
        do {
            switch decoding.output {
            case .native: break
            case .canonicalRGBA: bitmap = try bitmap.canonicalRGBA()
            case .display: bitmap = try bitmap.converted(to: .display(hasAlpha: decoder.properties?.hasAlpha ?? true))
            case .format(let target): bitmap = try bitmap.converted(to: target)
            case .libtiffRGBA: bitmap = try bitmap.converted(to: .rgba8Premultiplied)
            }
        } catch {
            throw DecodeError(.unsupported, format: format, offset: nil, ContainerError.outputConversion(error.description))
        }
        if decoding.applyOrientation, let orientation = decoder.properties?.orientation {
            bitmap = bitmap.oriented(orientation)
        }
        return bitmap
    }

    private func decodeAll() throws(DecodeError) {
        // The input is closed, so a decoder must finish or throw; one asking for more input
        // anyway is treated as truncated rather than looping.
        if try session.pump() == .needMoreInput {
            throw DecodeError(.truncated, format: format, offset: session.input.readIndex,
                              ContainerError.tooShortToIdentify(count: session.input.writeIndex))
        }
    }
}

/// File reading for callers of the library (the CLI, tests).
public enum ImageFiles {
    /// The whole file's bytes, or a `DecodeError` of kind `.io` whose `FileError` says what went
    /// wrong (no such file, permission denied, a directory, a device, too large, a read error).
    public static func read(_ path: String, maxBytes: Int = 1 << 32) throws(DecodeError) -> [UInt8] {
        try FileReader.read(path, maxBytes: maxBytes)
    }
}
