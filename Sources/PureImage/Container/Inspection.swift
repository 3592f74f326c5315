/// `pureimage inspect`: a file's container structure with byte offsets, in the spirit of
/// `pngcheck -v` and `tiffdump`. Each format contributes a walker that reads the structure
/// without decoding pixels and stops, with a note, at the first thing it cannot follow.
public struct InspectionEntry: Sendable, CustomStringConvertible {
    /// Absolute offset of the structure (chunk, marker, block, IFD entry).
    public var offset: Int
    /// Its name: `IHDR`, `SOF0`, `Image Descriptor`, `IFD 0 entry 3`…
    public var name: String
    /// Decoded fields, e.g. `width=32 height=32 depth=8 colour=6 interlace=0`.
    public var detail: String
    /// Nesting depth for display.
    public var level: Int

    /// Creates an entry; `level` 0 is the top of the structure.
    public init(offset: Int, name: String, detail: String, level: Int = 0) {
        self.offset = offset
        self.name = name
        self.detail = detail
        self.level = level
    }

    public var description: String {
        let indent = String(repeating: "  ", count: level)
        let position = String(offset)
        let padded = String(repeating: " ", count: max(0, 8 - position.count)) + position
        return "\(padded)  \(indent)\(name)" + (detail.isEmpty ? "" : "  \(detail)")
    }
}

/// `pureimage inspect`: the structure of a file as its decoder reads it. The decoder runs on
/// the whole file with a `StructureLog` attached and records each chunk, marker, block or IFD
/// entry when it reads it, each recovered problem where it met it, and the error or truncation
/// it stopped at — so what `inspect` shows is what a decode reads, not a second walk that
/// could disagree with it.
public enum Inspector {
    /// The structure of `bytes`: a first line naming the format from its signature, then what
    /// the format's decoder read, decoding with `limits`.
    public static func inspect(_ bytes: [UInt8], limits: DecodeLimits = .default) -> [InspectionEntry] {
        var entries: [InspectionEntry] = []
        switch FormatSniffer.sniff(bytes) {
        case .format(let format):
            entries.append(InspectionEntry(offset: 0, name: "signature", detail: "\(format.rawValue) (\(bytes.count) bytes)"))
            entries += decoderWalk(bytes, format: format, limits: limits)
        case .nearMiss(let format):
            entries.append(InspectionEntry(offset: 0, name: "signature", detail: "damaged \(format.rawValue) signature: \(bytes.prefix(8).map { hex2($0) }.joined(separator: " "))"))
        case .needMoreBytes:
            entries.append(InspectionEntry(offset: 0, name: "signature", detail: "too short to identify (\(bytes.count) bytes)"))
        case .unknown:
            entries.append(InspectionEntry(offset: 0, name: "signature", detail: "unknown: \(bytes.prefix(8).map { hex2($0) }.joined(separator: " "))"))
        }
        return entries
    }

    /// How many canvas pixels an inspection draws, over all frames (64 M: 0.3 s of composition).
    static let drawnPixelBudget = 1 << 26

    /// How many frame pixels an inspection decodes, over all frames (128 M). An APNG's decode
    /// inflates every frame's data to check it: a 4 MB APNG of 1 000 frames of 1024² holds 4 G
    /// pixel bytes, 14 s of zlib on a 2 GHz machine.
    static let checkedPixelBudget = 1 << 27

    /// Runs `decoder` over the whole of `bytes` with `log` attached: where it stopped reading, or
    /// nil, with the error concluded in the log (at its offset, else the last entry's), when the
    /// decode failed.
    private static func pump(_ decoder: any FormatDecoder, over bytes: [UInt8], format: ImageFormat, into log: StructureLog) -> Int? {
        decoder.structureLog = log
        let session = DecodeSession(format: format, decoder: decoder, input: InputBuffer(bytes, isClosed: true))
        do throws(DecodeError) {
            try session.pump()
            return session.input.readIndex
        } catch {
            log.conclude(error.offset ?? log.entries.last?.offset ?? 0, "error", error.description)
            return nil
        }
    }

    /// Decodes every frame of `bytes` with a log attached; the log, then how the decode ended.
    static func decoderWalk(_ bytes: [UInt8], format: ImageFormat, limits: DecodeLimits) -> [InspectionEntry] {
        var options = DecodeOptions()
        options.limits = limits
        let decoder: any FormatDecoder
        do throws(DecodeError) {
            decoder = try DecodeSession.makeDecoder(for: format, options: options)
        } catch {
            return [InspectionEntry(offset: 0, name: "note", detail: "\(format.rawValue) is recognised, not supported")]
        }
        let log = StructureLog()
        // An animation whose frames hold more pixels than `checkedPixelBudget` is walked as the
        // header path walks it — every chunk or block listed with its offset, image data
        // skipped — instead of decoded, and the listing says so.
        if let frames = (try? ImageSource(bytes: bytes, format: format, options: options).properties())?.frames,
           frames.reduce(0, { $0 &+ max(0, $1.width) &* max(0, $1.height) }) > checkedPixelBudget {
            var walkOptions = options
            walkOptions.propertiesOnly = true
            if let walker = try? DecodeSession.makeDecoder(for: format, options: walkOptions) {
                guard pump(walker, over: bytes, format: format, into: log) != nil else { return log.entries }
                log.conclude(bytes.count, "note", "\(frames.count) frames of more than \(checkedPixelBudget >> 20) M pixels in all: "
                             + "the container is walked, the frames' data not decoded (problems inside it are not listed)")
                return log.entries
            }
        }
        guard let end = pump(decoder, over: bytes, format: format, into: log) else { return log.entries }
        // Frames are asked for as a caller would: formats that decode a frame when it is
        // drawn (GIF's LZW data, animation frames) report its problems here. Drawing stops after
        // `drawnPixelBudget` canvas pixels, so a long animation costs bounded time.
        let canvas = max(1, SizeMath.product(decoder.properties?.width ?? 1, decoder.properties?.height ?? 1) ?? Int.max)
        let available = decoder.availableFrameCount
        let drawable = min(available, max(1, drawnPixelBudget / canvas))
        for index in 0 ..< drawable {
            do throws(DecodeError) {
                _ = try decoder.frame(at: index)
            } catch {
                log.conclude(error.offset ?? bytes.count, "error", "frame \(index): \(error)")
            }
        }
        if drawable < available {
            log.conclude(bytes.count, "note", "frames \(drawable)–\(available - 1) not drawn (inspection draws \(drawnPixelBudget >> 20) M canvas pixels at most): problems found only when drawing them are not listed")
        }
        if let truncation = decoder.truncation {
            log.conclude(truncation.offset ?? bytes.count, "truncated", truncation.description)
        }
        // A TIFF is read through offsets, not in order: bytes it did not reach are not "after" it.
        if format != .tiff && end < bytes.count {
            log.conclude(end, "trailing", "\(bytes.count - end) bytes after the image's end, not read")
        }
        let frames = decoder.completedFrameCount
        log.conclude(bytes.count, "end", "\(frames) frame\(frames == 1 ? "" : "s") decoded"
                   + (decoder.availableFrameCount > frames ? ", one partial" : ""))
        return log.entries
    }
}
