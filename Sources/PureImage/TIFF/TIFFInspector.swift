/// What the TIFF decoder records for `pureimage inspect` (`StructureLog`): the header, then each
/// IFD of the chain as the decoder parses it, with every entry's tag name, type, count and
/// value (inline) or value offset (§2 value-or-offset rule), then each page as it is decoded.
enum TIFFInspector {
    static func describe(_ header: TIFFHeader) -> String {
        let order = header.endianness == .littleEndian ? "II (little-endian)" : "MM (big-endian)"
        let magic = header.variant == .classic ? "42" : "43 (BigTIFF: 8-byte offsets and counts, 20-byte entries)"
        return "\(order), \(magic), first IFD at \(header.firstIFD)"
    }

    /// IFD `index` and its entries, in the order they are stored.
    static func record(_ directory: TIFFDirectory, index: Int, reader: RandomAccessReader, into log: StructureLog) {
        log.record(directory.offset, "IFD \(index)", "\(directory.entries.count) entries, next IFD at \(directory.nextOffset)")
        for entry in directory.entries.sorted(by: { $0.entryOffset < $1.entryOffset }) {
            log.record(entry.entryOffset, "\(TIFFTag.name(entry.tag)) (\(entry.tag))",
                       describe(entry, directory: directory, reader: reader), level: 1)
        }
    }

    /// "SHORT ×3 @1234 = 8, 8, 8" or "LONG ×1 = 8"; unknown types show their number.
    static func describe(_ entry: TIFFEntry, directory: TIFFDirectory, reader: RandomAccessReader) -> String {
        guard let type = entry.type else { return "type \(entry.rawType) (unknown) ×\(entry.count), ignored" }
        var text = "\(type.name) ×\(entry.count)"
        if !entry.isInline { text += " @\(entry.valueOffset)" }
        let (end, overflow) = entry.valueOffset.addingReportingOverflow(entry.byteCount)
        guard !overflow, end <= reader.size else { return text + " (outside the file)" }
        let shown = 8
        switch type {
        case .ascii:
            if let raw = try? directory.bytes(entry.tag, reader: reader, limit: 1 << 20) {
                let string = String(decoding: raw.prefix(64).prefix { $0 != 0 }, as: UTF8.self)
                text += " = \"\(string)\"" + (raw.count > 64 ? "…" : "")
            }
        case .rational, .srational, .float, .double:
            if let values = try? directory.reals(entry.tag, reader: reader) {
                text += " = " + values.prefix(shown).map { "\($0)" }.joined(separator: ", ") + (values.count > shown ? ", …" : "")
            }
        case .undefined, .byte, .sbyte:
            if entry.count > shown, let raw = try? directory.bytes(entry.tag, reader: reader, limit: 1 << 30) {
                text += " = " + raw.prefix(shown).map { hex2($0) }.joined(separator: " ") + " …"
                break
            }
            fallthrough
        default:
            if let values = try? directory.integers(entry.tag, reader: reader, maxCount: 1 << 28) {
                text += " = " + values.prefix(shown).map(String.init).joined(separator: ", ") + (values.count > shown ? ", …" : "")
                if values.count == 1 || entry.tag == TIFFTag.sampleFormat, let first = values.first,
                   let meaning = TIFFTag.meaning(entry.tag, first) {
                    text += " (\(meaning))"
                }
            }
        }
        // Where the other chunk: JPEGTables / JPEG interchange streams, offsets in BigTIFF.
        if entry.tag == TIFFTag.jpegTables, let raw = try? directory.bytes(entry.tag, reader: reader, limit: 1 << 24) {
            text += raw.count >= 4 && raw[0] == 0xFF && raw[1] == 0xD8 ? " (a JPEG tables stream, \(raw.count) bytes)" : " (not a JPEG stream)"
        }
        return text
    }
}
