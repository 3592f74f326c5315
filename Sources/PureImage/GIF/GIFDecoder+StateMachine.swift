/// GIFDecoder, the state machine (GIF89a §15–§27, the diagram on `GIFDecoder`): one state per
/// structure, each taking a known number of bytes (`InputBuffer.demand` decides between waiting
/// and truncation); what a block means is read in `GIFDecoder+Blocks.swift`.
extension GIFDecoder {
    func runStateMachine(_ input: inout InputBuffer) throws(DecodeError) -> DecodeProgress {
        while true {
            switch state {
            case .done:
                return .finished

            case .header:
                switch input.demand(GIFLogicalScreen.byteCount) {
                case .needMoreInput: return .needMoreInput
                case .truncated: return try endOfInput(&input, inside: "the header")
                case .ready:
                    let parsed: GIFLogicalScreen
                    do { parsed = try GIFLogicalScreen(parsing: bytes(input.consume(GIFLogicalScreen.byteCount))) } catch {
                        throw DecodeError(.malformed, format: .gif, offset: 0, error)
                    }
                    structureLog?.record(0, "Header", "version \(parsed.version)")
                    structureLog?.record(6, "Logical Screen Descriptor", GIFInspector.describe(parsed))
                    try acceptScreen(parsed)
                    state = parsed.globalTableEntries.map { .globalColorTable(entries: $0) } ?? .blockStart
                }

            case .globalColorTable(let entries):
                switch input.demand(entries * 3) {
                case .needMoreInput: return .needMoreInput
                case .truncated: return try endOfInput(&input, inside: "the global colour table")
                case .ready:
                    structureLog?.record(input.readIndex, "Global Color Table", "\(entries) entries, \(entries * 3) bytes")
                    let table = GIFColorTable(rgb: Array(bytes(input.consume(entries * 3))))
                    globalTable = table
                    if let palette = table.palette { properties?.colorModel = .indexed(palette) }
                    state = .blockStart
                }

            case .blockStart:
                switch input.demand(1) {
                case .needMoreInput: return .needMoreInput
                case .truncated: return try endOfInput(&input, inside: "the block stream (no trailer)")
                case .ready: break
                }
                let offset = input.readIndex
                let introducer = input.byte(at: offset)
                switch introducer {
                case 0x21:
                    switch input.demand(2) {
                    case .needMoreInput: return .needMoreInput
                    case .truncated: return try endOfInput(&input, inside: "an extension label")
                    case .ready:
                        let label = input.byte(at: offset + 1)
                        input.readIndex += 2
                        structureLog?.record(offset, GIFExtensionLabel.name(label))
                        inspectedSubBlocks = GIFInspector.SubBlocks()
                        applicationIsLooping = false
                        commentBytes.removeAll()
                        state = .extensionData(label: label, offset: offset, subBlock: 0)
                    }
                case 0x2C:
                    switch input.demand(1 + GIFImageDescriptor.byteCount) {
                    case .needMoreInput: return .needMoreInput
                    case .truncated: return try endOfInput(&input, inside: "an image descriptor")
                    case .ready:
                        input.readIndex += 1
                        let descriptor = GIFImageDescriptor(parsing: bytes(input.consume(GIFImageDescriptor.byteCount)), separatorOffset: offset)
                        structureLog?.record(offset, "Image Descriptor", "frame \(frames.count): " + GIFInspector.describe(descriptor, screen: screen))
                        try checkFrame(descriptor)
                        state = descriptor.localTableEntries != nil ? .localColorTable(descriptor) : .minimumCodeSize(descriptor, nil)
                    }
                case 0x3B:
                    // §27 Trailer. Bytes after it are ignored (giflib and browsers stop reading).
                    input.readIndex += 1
                    structureLog?.record(offset, "Trailer")
                    if frames.isEmpty {
                        // Browsers (and the pygif suite's expectations) show a GIF without images
                        // as its canvas, transparent: one empty frame. A canvas of no pixels
                        // leaves nothing to show.
                        guard let screen, screen.width > 0, screen.height > 0 else {
                            throw DecodeError(.malformed, format: .gif, offset: offset, GIFError.noImage)
                        }
                        warn(at: offset, "\(GIFError.noImage); shown as the empty canvas")
                        try addEmptyFrame(GIFImageDescriptor(parsing: [0, 0, 0, 0, 0, 0, 0, 0, 0], separatorOffset: offset), table: nil, at: offset)
                    }
                    state = .done
                default:
                    try stop(GIFError.unknownBlock(introducer: introducer), at: offset)
                }

            case .extensionData(let label, let offset, let subBlock):
                switch input.demand(1) {
                case .needMoreInput: return .needMoreInput
                case .truncated: return try endOfInput(&input, inside: "the \(GIFExtensionLabel.name(label)) at byte \(offset)")
                case .ready: break
                }
                let size = Int(input.byte(at: input.readIndex))
                switch input.demand(1 + size) {
                case .needMoreInput: return .needMoreInput
                case .truncated: return try endOfInput(&input, inside: "the \(GIFExtensionLabel.name(label)) at byte \(offset)")
                case .ready: break
                }
                input.readIndex += 1
                let block = bytes(input.consume(size))
                if structureLog != nil { inspectedSubBlocks.note(block) }
                if size == 0 {
                    structureLog?.amend(offset, GIFInspector.describeExtension(label, inspectedSubBlocks))
                    finishExtension(label, offset: offset)
                    state = .blockStart
                } else {
                    extensionSubBlock(label, index: subBlock, block, offset: offset)
                    state = .extensionData(label: label, offset: offset, subBlock: subBlock + 1)
                }

            case .localColorTable(let descriptor):
                let entries = descriptor.localTableEntries ?? 0
                switch input.demand(entries * 3) {
                case .needMoreInput: return .needMoreInput
                case .truncated:
                    if descriptor.isEmpty { try addEmptyFrame(descriptor, table: nil, at: input.readIndex) }
                    return try endOfInput(&input, inside: "a local colour table")
                case .ready:
                    structureLog?.record(input.readIndex, "Local Color Table", "\(entries) entries, \(entries * 3) bytes", level: 1)
                    let table = GIFColorTable(rgb: Array(bytes(input.consume(entries * 3))))
                    state = .minimumCodeSize(descriptor, table)
                }

            case .minimumCodeSize(let descriptor, let table):
                switch input.demand(1) {
                case .needMoreInput: return .needMoreInput
                case .truncated:
                    if descriptor.isEmpty { try addEmptyFrame(descriptor, table: table, at: input.readIndex) }
                    return try endOfInput(&input, inside: "the image data of the frame at byte \(descriptor.offset)")
                case .ready: break
                }
                let offset = input.readIndex
                let size = Int(input.byte(at: offset))
                structureLog?.record(offset, "Image Data", "minimumCodeSize=\(size)\(size > 8 ? " (above 8: accepted up to 11, as browsers do)" : "")", level: 1)
                // §22 "LZW Minimum Code Size": the spec allows 2…8. Like Chromium and Firefox we
                // accept 0…11 (giflib refuses above 8); 12 would start codes at 13 bits.
                guard size <= 11 else {
                    if descriptor.isEmpty { try addEmptyFrame(descriptor, table: table, at: offset) }
                    try stop(GIFError.invalidMinimumCodeSize(size), at: offset)
                    continue
                }
                input.readIndex += 1
                startFrame(descriptor, table: table, minimumCodeSize: size, dataOffset: offset)
                try startFirstFrameStream()
                state = .imageData

            case .imageData:
                // §15 Data Sub-blocks: size byte (0 = Block Terminator), then that many bytes.
                // Whole sub-blocks are taken in one pass of this loop while they are present.
                // (Positions in the held bytes: a driver may have dropped consumed input.)
                let origin = input.origin
                var position = input.readIndex - origin
                let end = input.writeIndex - origin
                let all = input.bytes
                var finished = false
                while position < end {
                    let size = Int(all[position])
                    if size == 0 { position += 1; finished = true; break }
                    guard position + 1 + size <= end else { break }
                    imageSubBlocks += 1
                    // Properties only: the codes are passed over, never stored or decoded.
                    // Streaming: frame 0's codes are decoded as they come, not stored.
                    if firstFrameStream != nil {
                        try streamCodes(all[position + 1 ..< position + 1 + size])
                    } else if !options.propertiesOnly {
                        codeStreams.append(contentsOf: all[position + 1 ..< position + 1 + size])
                    }
                    position += 1 + size
                }
                input.readIndex = position + origin
                if let last = frames.indices.last { frames[last].codes = frames[last].codes.lowerBound ..< codeStreams.count }
                if finished {
                    if let last = frames.last {
                        structureLog?.amend(last.dataOffset, "\(imageSubBlocks) sub-blocks, \(last.codes.count) bytes")
                    }
                    imageSubBlocks = 0
                    finishFrame()
                    continue
                }
                if input.isClosed { return try endOfInput(&input, inside: "the image data of frame \(frames.count - 1)") }
                return .needMoreInput
            }
        }
    }
}
