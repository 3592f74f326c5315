/// Lists a GIF's blocks (GIF89a §15–§27) with offsets and decoded fields, for
/// `pureimage inspect`. Reads structure only; stops, with a note, where the file stops making
/// sense.
enum GIFInspector {
    static func walk(_ bytes: [UInt8]) -> [InspectionEntry] {
        var entries: [InspectionEntry] = []
        func byte(_ at: Int) -> Int? { at >= 0 && at < bytes.count ? Int(bytes[at]) : nil }
        func le16(_ at: Int) -> Int? {
            guard let lo = byte(at), let hi = byte(at + 1) else { return nil }
            return lo | hi << 8
        }
        func truncated(_ at: Int, _ what: String) {
            entries.append(InspectionEntry(offset: at, name: "end", detail: "file ends inside \(what) (\(bytes.count) bytes)"))
        }
        guard bytes.count >= 13, let screen = try? GIFLogicalScreen(parsing: bytes[0..<13]) else {
            truncated(0, "the header and logical screen descriptor")
            return entries
        }
        entries.append(InspectionEntry(offset: 0, name: "Header", detail: "version \(screen.version)"))
        entries.append(InspectionEntry(offset: 6, name: "Logical Screen Descriptor",
                                       detail: "width=\(screen.width) height=\(screen.height) globalTable=\(screen.globalTableEntries.map(String.init) ?? "none") colourResolution=\(screen.colorResolution) sorted=\(screen.sorted) background=\(screen.backgroundIndex) aspect=\(screen.aspectRatioByte)"))
        var offset = 13
        if let entries0 = screen.globalTableEntries {
            entries.append(InspectionEntry(offset: offset, name: "Global Color Table", detail: "\(entries0) entries, \(entries0 * 3) bytes"))
            offset += entries0 * 3
        }

        /// Walks data sub-blocks from `start`; returns (end offset, block count, payload bytes, the
        /// payloads when wanted) or nil when the file ends first.
        func subBlocks(_ start: Int, collect: Bool) -> (end: Int, count: Int, total: Int, blocks: [[UInt8]])? {
            var at = start, count = 0, total = 0
            var blocks: [[UInt8]] = []
            while true {
                guard let size = byte(at) else { return nil }
                if size == 0 { return (at + 1, count, total, blocks) }
                guard at + 1 + size <= bytes.count else { return nil }
                if collect { blocks.append(Array(bytes[at + 1 ..< at + 1 + size])) }
                count += 1
                total += size
                at += 1 + size
            }
        }

        var frame = 0
        while true {
            guard let introducer = byte(offset) else {
                truncated(offset, "the block stream (no trailer)")
                return entries
            }
            switch introducer {
            case 0x21:
                guard let label = byte(offset + 1) else { truncated(offset, "an extension"); return entries }
                let name = GIFExtensionLabel.name(UInt8(label))
                guard let blocks = subBlocks(offset + 2, collect: true) else {
                    truncated(offset, "the \(name)")
                    return entries
                }
                var detail = "\(blocks.count) sub-blocks, \(blocks.total) bytes"
                let first = blocks.blocks.first ?? []
                switch UInt8(label) {
                case GIFExtensionLabel.graphicControl:
                    if let gce = GIFGraphicControl(parsing: first[...]) {
                        detail = "disposal=\(gce.disposalValue) userInput=\(gce.userInput) delay=\(gce.delayCentiseconds)cs transparent=\(gce.transparentIndex.map(String.init) ?? "none")"
                    } else {
                        detail += " (first sub-block \(first.count) bytes, must be 4: ignored)"
                    }
                case GIFExtensionLabel.application:
                    let identifier = String(decoding: first.prefix(11).map { $0 >= 0x20 && $0 < 0x7F ? $0 : 0x3F }, as: UTF8.self)
                    detail = "\"\(identifier)\" " + detail
                    if GIFApplication.isLooping(identifier: first[...]),
                       let loop = blocks.blocks.dropFirst().lazy.compactMap({ GIFApplication.loopCount(subBlock: $0[...]) }).first {
                        detail += " loop=\(loop)\(loop == 0 ? " (forever)" : "")"
                    }
                case GIFExtensionLabel.comment:
                    let text = GIFComment.text(blocks.blocks.flatMap { $0 })
                    detail += " \"\(text.prefix(60))\(text.count > 60 ? "…" : "")\""
                case GIFExtensionLabel.plainText:
                    detail += " (skipped)"
                default:
                    detail += " (unknown, skipped)"
                }
                entries.append(InspectionEntry(offset: offset, name: name, detail: detail))
                offset = blocks.end
            case 0x2C:
                guard offset + 10 <= bytes.count else { truncated(offset, "an image descriptor"); return entries }
                let d = GIFImageDescriptor(parsing: bytes[offset + 1 ..< offset + 10], separatorOffset: offset)
                var detail = "frame \(frame): \(d.width)x\(d.height) at (\(d.left),\(d.top)) interlaced=\(d.interlaced) localTable=\(d.localTableEntries.map(String.init) ?? "none")"
                if d.left + d.width > screen.width || d.top + d.height > screen.height { detail += " (reaches past the canvas: clipped)" }
                if d.width == 0 || d.height == 0 { detail += " (zero-size: draws nothing)" }
                entries.append(InspectionEntry(offset: offset, name: "Image Descriptor", detail: detail))
                offset += 10
                if let local = d.localTableEntries {
                    entries.append(InspectionEntry(offset: offset, name: "Local Color Table", detail: "\(local) entries, \(local * 3) bytes", level: 1))
                    offset += local * 3
                }
                guard let codeSize = byte(offset) else { truncated(offset, "the image data"); return entries }
                guard let blocks = subBlocks(offset + 1, collect: false) else {
                    entries.append(InspectionEntry(offset: offset, name: "Image Data", detail: "minimumCodeSize=\(codeSize); sub-blocks cut off by the end of the file", level: 1))
                    return entries
                }
                entries.append(InspectionEntry(offset: offset, name: "Image Data",
                                               detail: "minimumCodeSize=\(codeSize)\(codeSize > 8 ? " (invalid, above 8)" : "") \(blocks.count) sub-blocks, \(blocks.total) bytes", level: 1))
                offset = blocks.end
                frame += 1
            case 0x3B:
                entries.append(InspectionEntry(offset: offset, name: "Trailer", detail: ""))
                if offset + 1 < bytes.count {
                    entries.append(InspectionEntry(offset: offset + 1, name: "trailing", detail: "\(bytes.count - offset - 1) bytes after the trailer (ignored)"))
                }
                return entries
            default:
                entries.append(InspectionEntry(offset: offset, name: "unknown block", detail: "introducer 0x\(hex2(UInt8(introducer))); the decoder reads the stream as ending here"))
                return entries
            }
        }
    }
}
