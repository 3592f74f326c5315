import CommandLineSupport
import PureImage

/// `pureimage decode FILE -o OUT [--frame N] [--pixel-format NAME] [--apply-orientation] [--scale 1/N]`
enum DecodeCommand {
    static let help = """
    usage: pureimage decode FILE -o OUT [--frame N] [--pixel-format NAME]
                            [--apply-orientation] [--scale 1/2|1/4|1/8] [--chunk-size N]

    Decodes FILE and writes OUT; the container follows OUT's extension: .pam, .png, .ppm, .pgm.
    --frame N             frame N of an animation (0-based), composed on the canvas
    --pixel-format NAME   rgba8, rgba16, rgba8-premultiplied, bgra8-display, native;
                          default: canonical RGBA (8-bit, or 16-bit for deeper sources)
    --apply-orientation   rotate/flip per the EXIF orientation
    --scale 1/N           JPEG DCT-domain reduction (1/2, 1/4, 1/8); other formats: 1/1 only
    --chunk-size N        feed the file through the incremental decoder N bytes at a time
                          (the result is identical to a one-shot decode)
    Files hold components in logical order (gray, R G B, C M Y K, then alpha); premultiplied
    formats keep premultiplied samples; skip bytes are dropped. PPM/PGM drop alpha.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, valued: ["-o", "--output", "--frame", "--pixel-format", "--scale", "--chunk-size"],
                                   allowedFlags: ["--apply-orientation", "--help", "-h"])
        if parsed.has("--help") || parsed.has("-h") { print(help); return ExitStatus.success }
        guard parsed.positional.count == 1, let path = parsed.positional.first else {
            throw UsageError(message: "decode takes exactly one FILE")
        }
        guard let output = parsed.value("-o") ?? parsed.value("--output") else { throw UsageError(message: "decode needs -o OUT") }
        guard let container = ImageWriter.Container(pathExtension: output) else {
            throw UsageError(message: "cannot tell the output format from '\(output)' (use .pam, .png, .ppm or .pgm)")
        }
        var frame = 0
        if let text = parsed.value("--frame") {
            guard let value = Int(text), value >= 0 else { throw UsageError(message: "--frame takes a frame number ≥ 0") }
            frame = value
        }
        let outputFormat = try pixelFormat(parsed.value("--pixel-format"))
        var options = DecodeOptions()
        if let scale = parsed.value("--scale") {
            let denominators = ["1/1": 1, "1": 1, "1/2": 2, "1/4": 4, "1/8": 8]
            guard let denominator = denominators[scale] else { throw UsageError(message: "--scale takes 1/2, 1/4 or 1/8") }
            options.jpegScaleDenominator = denominator
        }

        // Frame 0 of an animation needs none of the later frames: stop after it, as SDWebImage's
        // first-frame-only decoding does (a 1000-frame APNG costs one frame, not the whole file).
        if frame == 0 { options.firstFrameOnly = true }
        var chunkSize: Int?
        if let text = parsed.value("--chunk-size") {
            guard let value = Int(text), value > 0 else { throw UsageError(message: "--chunk-size takes a byte count > 0") }
            chunkSize = value
        }
        if chunkSize == nil && frame == 0 && outputFormat != .libtiffRGBA && options.jpegScaleDenominator == 1
            && !parsed.has("--apply-orientation") {
            // Frame 0 streams: rows go to the file as the decoder finishes them, as djpeg writes
            // them; a PNG is also read as it is decoded, so neither file is held whole.
            do {
                try ImageFiles.checkReadable(path)
            } catch {
                return CLI.report(path, error)
            }
            return try stream(path: path, output: output, container: container) { body in
                try ImageSource.decodeRows(contentsOfFile: path, options: options, output: outputFormat, body)
            }
        }
        if chunkSize == nil && frame == 0 && outputFormat != .libtiffRGBA {
            // The same with --scale or --apply-orientation: rows streamed, unless an orientation
            // must be applied (that needs the whole frame).
            let source: ImageSource
            do {
                let bytes = try ImageFiles.read(path)
                if options.jpegScaleDenominator != 1 && FormatSniffer.sniff(bytes) != .format(.jpeg) {
                    throw UsageError(message: "--scale applies to JPEG only")
                }
                source = try ImageSource(bytes: bytes, options: options)
            } catch let error as DecodeError {
                return CLI.report(path, error)
            }
            // (Headers that do not parse are not upright here; the whole-frame path below then
            // reports the decode's own error.)
            let upright = (try? source.properties().orientation) == .up
            if !parsed.has("--apply-orientation") || upright {
                return try stream(source, path: path, output: output, container: container, as: outputFormat)
            }
        }
        // The frame is taken in the decoder's native layout and converted slice by slice while
        // it is written (ImageWriter.write), so no second full-size copy exists.
        // (libtiff's RGBA rendering is not a conversion of the native samples: asked for as such.)
        let decoding = ImageDecodingOptions(output: outputFormat == .libtiffRGBA ? .libtiffRGBA : .native,
                                            applyOrientation: parsed.has("--apply-orientation"))
        let bitmap: Bitmap
        let truncation: DecodeError?
        let hasAlpha: Bool
        do {
            let bytes = try ImageFiles.read(path)
            if options.jpegScaleDenominator != 1 && FormatSniffer.sniff(bytes) != .format(.jpeg) {
                throw UsageError(message: "--scale applies to JPEG only")
            }
            if let chunkSize {
                let source = IncrementalImageSource(options: options)
                var start = 0
                repeat {
                    let end = min(bytes.count, start + chunkSize)
                    source.append(bytes[start..<end], final: end == bytes.count)
                    start = end
                } while start < bytes.count
                if source.status == .invalidData, let error = source.error { throw error }
                bitmap = try source.image(at: frame, options: decoding)
                truncation = source.status == .unexpectedEOF ? source.error : nil
                hasAlpha = source.properties?.hasAlpha ?? true
            } else {
                let decoded = try ImageSource(bytes: bytes, options: options).decode(at: frame, options: decoding)
                bitmap = decoded.bitmap
                truncation = decoded.truncation
                hasAlpha = decoded.properties.hasAlpha
            }
        } catch let error as DecodeError {
            return CLI.report(path, error)
        }
        let requested: PixelFormat?
        switch outputFormat {
        case .native, .libtiffRGBA: requested = nil
        case .canonicalRGBA: requested = bitmap.format.bitsPerComponent > 8 ? .rgba16 : .rgba8
        case .display: requested = .display(hasAlpha: hasAlpha)
        case .format(let format): requested = format
        }
        do {
            try FileIO.writeStreaming(to: output) { sink in
                try ImageWriter.write(bitmap, as: container, convertingTo: requested, to: sink)
            }
        } catch let error as ImageWriter.WriteError {
            printError("pureimage: \(output): cannot write: \(error)")
            return ExitStatus.invalidInput
        }
        return writtenStatus(path, truncation: truncation)
    }

    /// Frame 0 through `ImageSource.decodeRows` into a `RowWriter`: the file is written while
    /// the rows arrive, and removed when the decode fails part-way.
    static func stream(_ source: ImageSource, path: String, output: String, container: ImageWriter.Container,
                       as outputFormat: ImageDecodingOptions.Output) throws -> Int32 {
        try stream(path: path, output: output, container: container) { body in try source.decodeRows(output: outputFormat, body) }
    }

    /// The rows `produce` hands its closure, written to `output` as they arrive (`decodeRows`,
    /// `decodeScaledDownRows`); the file is removed when the decode fails part-way.
    static func stream(path: String, output: String, container: ImageWriter.Container,
                       produce: ((RowBand) throws -> Void) throws -> StreamedFrame) throws -> Int32 {
        var truncation: DecodeError?
        do {
            try FileIO.writeStreaming(to: output) { sink in
                try withoutActuallyEscaping(sink) { sink in
                    var writer: ImageWriter.RowWriter?
                    let streamed = try produce { band in
                        let current = try writer ?? ImageWriter.RowWriter(as: container, width: band.rows.width, height: band.frameHeight,
                                                                          format: band.rows.format,
                                                                          significantBits: band.rows.significantBitsPerComponent, to: sink)
                        writer = current
                        try current.append(band.rows)
                    }
                    try writer?.finish()
                    truncation = streamed.truncation
                }
            }
        } catch let error as DecodeError {
            return CLI.report(path, error)
        } catch let error as ImageWriter.WriteError {
            printError("pureimage: \(output): cannot write: \(error)")
            return ExitStatus.invalidInput
        }
        return writtenStatus(path, truncation: truncation)
    }

    /// The exit status once the file is written: a truncated input is a warning and a status of its own.
    static func writtenStatus(_ path: String, truncation: DecodeError?) -> Int32 {
        guard let truncation else { return ExitStatus.success }
        printError("pureimage: \(path): warning: \(truncation); partial image written")
        return ExitStatus.truncated
    }

    static func pixelFormat(_ name: String?) throws -> ImageDecodingOptions.Output {
        switch name {
        case nil: return .canonicalRGBA
        case "rgba8": return .format(.rgba8)
        case "rgba16": return .format(.rgba16)
        case "rgba8-premultiplied": return .format(.rgba8Premultiplied)
        case "bgra8-display": return .display
        case "native": return .native
        case let other?: throw UsageError(message: "unknown pixel format '\(other)' (rgba8, rgba16, rgba8-premultiplied, bgra8-display, native)")
        }
    }
}
