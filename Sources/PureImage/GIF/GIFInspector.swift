/// What the GIF decoder records for `pureimage inspect` (`StructureLog`): each block (GIF89a
/// §17–§27) at its offset with its decoded fields.
enum GIFInspector {
    /// An extension's data sub-blocks as they are read: how many, their bytes, and the first
    /// few (all an extension's description needs; a long comment is not kept whole).
    struct SubBlocks {
        var count = 0
        var total = 0
        var first: [[UInt8]] = []

        mutating func note(_ block: ArraySlice<UInt8>) {
            guard !block.isEmpty else { return }
            count += 1
            total += block.count
            if first.count < 4 { first.append(Array(block)) }
        }
    }

    /// §18 Logical Screen Descriptor.
    static func describe(_ screen: GIFLogicalScreen) -> String {
        "width=\(screen.width) height=\(screen.height) globalTable=\(screen.globalTableEntries.map(String.init) ?? "none") "
            + "colourResolution=\(screen.colorResolution) sorted=\(screen.sorted) background=\(screen.backgroundIndex) aspect=\(screen.aspectRatioByte)"
    }

    /// §20 Image Descriptor, with what the decoder does about placements off the canvas.
    static func describe(_ d: GIFImageDescriptor, screen: GIFLogicalScreen?) -> String {
        var detail = "\(d.width)x\(d.height) at (\(d.left),\(d.top)) interlaced=\(d.interlaced) localTable=\(d.localTableEntries.map(String.init) ?? "none")"
        if let screen, d.left + d.width > screen.width || d.top + d.height > screen.height { detail += " (reaches past the canvas: clipped)" }
        if d.width == 0 || d.height == 0 { detail += " (zero-size: draws nothing)" }
        return detail
    }

    /// §23–§26: an extension, once its Block Terminator has been read.
    static func describeExtension(_ label: UInt8, _ blocks: SubBlocks) -> String {
        let summary = "\(blocks.count) sub-blocks, \(blocks.total) bytes"
        let first = blocks.first.first ?? []
        switch label {
        case GIFExtensionLabel.graphicControl:
            guard let gce = GIFGraphicControl(parsing: first[...]) else {
                return summary + " (first sub-block \(first.count) bytes, must be 4: ignored)"
            }
            return "disposal=\(gce.disposalValue) userInput=\(gce.userInput) delay=\(gce.delayCentiseconds)cs transparent=\(gce.transparentIndex.map(String.init) ?? "none")"
        case GIFExtensionLabel.application:
            let identifier = String(decoding: first.prefix(11).map { $0 >= 0x20 && $0 < 0x7F ? $0 : 0x3F }, as: UTF8.self)
            var detail = "\"\(identifier)\" " + summary
            if GIFApplication.isLooping(identifier: first[...]),
               let loop = blocks.first.dropFirst().lazy.compactMap({ GIFApplication.loopCount(subBlock: $0[...]) }).first {
                detail += " loop=\(loop)\(loop == 0 ? " (forever)" : "")"
            }
            return detail
        case GIFExtensionLabel.comment:
            let text = GIFComment.text(blocks.first.flatMap { $0 })
            return summary + " \"\(text.prefix(60))\(text.count > 60 || blocks.count > blocks.first.count ? "…" : "")\""
        case GIFExtensionLabel.plainText:
            return summary + " (skipped)"
        default:
            return summary + " (unknown, skipped)"
        }
    }
}
