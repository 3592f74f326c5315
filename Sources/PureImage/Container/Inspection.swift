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

/// Walks a file's container structure for `pureimage inspect`.
public enum Inspector {
    /// The structure of `bytes`: a first line naming the format from its signature, then the
    /// format's own entries (for formats whose walker exists).
    public static func inspect(_ bytes: [UInt8]) -> [InspectionEntry] {
        var entries: [InspectionEntry] = []
        switch FormatSniffer.sniff(bytes) {
        case .format(let format):
            entries.append(InspectionEntry(offset: 0, name: "signature", detail: "\(format.rawValue) (\(bytes.count) bytes)"))
            switch format {
            case .png: entries += PNGInspector.walk(bytes)
            case .gif: entries += GIFInspector.walk(bytes)
            case .jpeg: entries += JPEGInspector.walk(bytes)
            case .tiff: entries += TIFFInspector.walk(bytes)
            case .webp: entries += WebPInspector.walk(bytes)
            case .heic, .heif:
                entries.append(InspectionEntry(offset: 0, name: "note", detail: "\(format.rawValue) is recognised, not supported"))
            }
        case .nearMiss(let format):
            entries.append(InspectionEntry(offset: 0, name: "signature", detail: "damaged \(format.rawValue) signature: \(bytes.prefix(8).map { hex2($0) }.joined(separator: " "))"))
        case .needMoreBytes:
            entries.append(InspectionEntry(offset: 0, name: "signature", detail: "too short to identify (\(bytes.count) bytes)"))
        case .unknown:
            entries.append(InspectionEntry(offset: 0, name: "signature", detail: "unknown: \(bytes.prefix(8).map { hex2($0) }.joined(separator: " "))"))
        }
        return entries
    }
}
