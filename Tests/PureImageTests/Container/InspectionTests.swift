import Testing
@testable import PureImage

/// `pureimage inspect` is the decoder's own record of what it read (`StructureLog`). These
/// tests hold it to two things a reader of its output relies on: every structure it lists is
/// really at the offset it gives (checked against the bytes, without the decoder), and the
/// problems it shows are the ones a decode reports, at the same offsets.
@Suite struct InspectionTests {
    /// Entries the inspector adds around the decoder's structures.
    static let commentary: Set<String> = ["signature", "warning", "error", "truncated", "trailing", "end", "note"]

    /// Problems with `entries` as a description of `bytes` (empty: every entry checks out).
    static func misplaced(_ entries: [InspectionEntry], in bytes: [UInt8], format: ImageFormat) -> [String] {
        var problems: [String] = []
        func byte(_ at: Int) -> Int? { at >= 0 && at < bytes.count ? Int(bytes[at]) : nil }
        func ascii(_ at: Int, _ count: Int) -> String? {
            guard at >= 0, at + count <= bytes.count else { return nil }
            return String(decoding: bytes[at ..< at + count], as: UTF8.self)
        }
        var previousChunkEnd = 8          // PNG: where the next chunk must start
        var previousSegmentEnd: Int?      // JPEG: where an SOS segment's entropy data starts
        for entry in entries where !commentary.contains(entry.name) {
            let at = entry.offset
            let ok: Bool
            switch format {
            case .png:
                // Chunks follow one another: length, type, data, CRC (PNG §5.3).
                let length = entry.detail.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? -1
                ok = ascii(at + 4, 4) == entry.name && at == previousChunkEnd && length >= 0
                previousChunkEnd = at + 12 + length
            case .jpeg:
                switch entry.name {
                case "entropy data":
                    ok = at == previousSegmentEnd
                case "EOI" where entry.detail.contains("implied"):
                    ok = at == bytes.count
                default:
                    // B.1.1.2: a marker may be preceded by fill bytes 0xFF; the offset is the first.
                    var code = at + 1
                    while byte(code) == 0xFF { code += 1 }
                    ok = byte(at) == 0xFF && byte(code).map { JPEGMarker.name(UInt8($0)) } == entry.name
                    if entry.name == "SOS", let high = byte(code + 1), let low = byte(code + 2) {
                        previousSegmentEnd = code + 1 + (high << 8 | low)
                    }
                }
            case .gif:
                switch entry.name {
                case "Header": ok = at == 0 && ascii(0, 3) == "GIF"
                case "Logical Screen Descriptor": ok = at == 6
                case "Global Color Table": ok = at == 13
                case "Image Descriptor": ok = byte(at) == 0x2C
                case "Trailer": ok = byte(at) == 0x3B
                case "Local Color Table", "Image Data": ok = at > 13 && at < bytes.count
                default: ok = byte(at) == 0x21 && byte(at + 1).map { GIFExtensionLabel.name(UInt8($0)) } == entry.name
                }
            case .tiff:
                let little = byte(0) == 0x49
                func u16(_ at: Int) -> Int? {
                    guard let a = byte(at), let b = byte(at + 1) else { return nil }
                    return little ? a | b << 8 : a << 8 | b
                }
                if entry.name == "header" {
                    ok = at == 0
                } else if entry.name.hasPrefix("page ") || entry.name.hasPrefix("IFD ") {
                    // An IFD starts with its entry count (2 bytes, or 8 in BigTIFF: the low ones first or last).
                    let count = entry.detail.split(separator: " ").first.flatMap { Int($0) }
                    let big = byte(2) == 43 || byte(3) == 43
                    let stored = big ? (little ? u16(at) : u16(at + 6)) : u16(at)
                    ok = entry.name.hasPrefix("page ") || stored == count
                } else {
                    // "ImageWidth (256)": the entry starts with its tag.
                    let tag = entry.name.split(separator: "(").last.flatMap { Int($0.dropLast()) }
                    ok = tag != nil && u16(at) == tag
                }
            case .webp:
                ok = entry.name == "RIFF" ? at == 0 && ascii(0, 4) == "RIFF" : ascii(at, 4) == entry.name
            case .heic, .heif:
                ok = false
            }
            if !ok { problems.append("\(entry)") }
        }
        return problems
    }

    /// The problems a decode of frame 0 reports, and the inspector's.
    static func compareProblems(_ bytes: [UInt8], format: ImageFormat, entries: [InspectionEntry]) -> [String] {
        var differences: [String] = []
        let listed = entries.filter { $0.name == "warning" || $0.name == "truncated" || $0.name == "error" }
        do {
            let frame = try ImageSource(bytes: bytes).decode(at: 0)
            for warning in frame.warnings where !listed.contains(where: {
                $0.detail == warning.message || $0.detail.hasSuffix(warning.message) || $0.detail == frame.truncation?.description
            }) {
                differences.append("warning not listed: \(warning)")
            }
            if let truncation = frame.truncation, !listed.contains(where: { $0.name == "truncated" && $0.offset == truncation.offset }) {
                differences.append("truncation not listed: \(truncation)")
            }
        } catch {
            // A still image's decode fails where the inspector's walk failed.
            if !listed.contains(where: { $0.name == "error" && ($0.offset == error.offset || error.offset == nil) && $0.detail.hasSuffix(error.description) }) {
                differences.append("error not listed: \(error)")
            }
        }
        return differences
    }

    /// An RGBA8 PNG of one IDAT.
    static func png(width: Int, height: Int) -> [UInt8] {
        var builder = PNGBuilder()
        builder.header(width: width, height: height, depth: 8, colorType: 6)
        builder.imageData(PNGBuilder.scanlines((0 ..< height).map { y in (0 ..< width * 4).map { UInt8(truncatingIfNeeded: $0 * 37 + y * 11) } }))
        builder.end()
        return builder.bytes
    }

    @Test func handBuiltFilesListEveryStructureAtItsOffset() throws {
        let png = Self.png(width: 3, height: 2)
        let entries = Inspector.inspect(png)
        #expect(entries.map(\.name) == ["signature", "IHDR", "IDAT", "IEND", "end"])
        #expect(entries[1].detail.contains("crc ok") && entries[1].detail.contains("width=3 height=2"))
        #expect(Self.misplaced(entries, in: png, format: .png).isEmpty)

        // The same file cut inside its IDAT: the decoder's truncation, at the end of the bytes.
        let cut = Array(png.prefix(png.count - 20))
        let truncated = Inspector.inspect(cut)
        #expect(truncated.contains { $0.name == "truncated" && $0.offset == cut.count })
        #expect(!truncated.contains { $0.name == "IEND" })

        // A bad CRC in a critical chunk: the chunk, its CRC status, then the decoder's error at the CRC.
        var bad = png
        bad[29] ^= 1   // IHDR's CRC (8 signature + 8 header + 13 data)
        let failed = Inspector.inspect(bad)
        #expect(failed.contains { $0.name == "IHDR" && $0.detail.contains("CRC BAD") })
        #expect(failed.last?.name == "error" && failed.last?.offset == 29)
        #expect(Self.compareProblems(bad, format: .png, entries: failed).isEmpty)

        // Trailing bytes after IEND are shown where the decoder stopped reading.
        let trailing = Inspector.inspect(png + [1, 2, 3])
        #expect(trailing.contains { $0.name == "trailing" && $0.offset == png.count && $0.detail.hasPrefix("3 bytes") })
    }

    @Test func animationsListTheirFramesInside() {
        let gif = GIFSamples.animation(frame1Disposal: 2)
        let entries = Inspector.inspect(gif)
        #expect(entries.filter { $0.name == "Image Descriptor" }.count == 3)
        #expect(entries.filter { $0.name == "Image Data" }.allSatisfy { $0.detail.contains("sub-blocks") })
        #expect(entries.last?.detail == "3 frames decoded")
        #expect(Self.misplaced(entries, in: gif, format: .gif).isEmpty)
    }

    /// Every corpus file: the listed structures are where the bytes say, and the decode's
    /// problems are the listed ones.
    @Test(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"), TestTime.limit(minutes: 10))
    func corpusStructuresAreWhereTheBytesSay() throws {
        var checked = 0
        var problems: [String] = []
        for entry in Corpus.manifest() {
            guard let bytes = Corpus.read(entry), case .format(let format) = FormatSniffer.sniff(bytes),
                  format != .heic, format != .heif, bytes.count <= 8 << 20 else { continue }
            let entries = Inspector.inspect(bytes)
            problems += Self.misplaced(entries, in: bytes, format: format).map { "\(entry.path): \($0)" }
            if format == .png || format == .jpeg || format == .webp {
                problems += Self.compareProblems(bytes, format: format, entries: entries).map { "\(entry.path): \($0)" }
            }
            checked += 1
        }
        #expect(problems.isEmpty, "\(problems.count) problems, first: \(problems.prefix(8).joined(separator: "\n"))")
        #expect(checked > 1700)
    }

    /// The log keeps `limit` entries and one note for the rest; how the walk ended is always kept.
    /// An APNG whose frames hold more than `checkedPixelBudget` pixels (40 frames of 2048² gray:
    /// 168 M) is walked, not decoded: every fcTL and fdAT is listed at its offset, and a note
    /// says the frames' data was not decoded (a decode would inflate all 168 M pixels).
    @Test func anAnimationOverThePixelBudgetIsWalkedNotDecoded() {
        let side = 2048, frames = 40
        var builder = PNGBuilder()
        builder.header(width: side, height: side, depth: 8, colorType: 0)
        builder.chunk("acTL", PNGBuilder.be32(UInt32(frames)) + PNGBuilder.be32(0))
        let compressed = ZlibDeflater.deflate([UInt8](repeating: 0, count: side * (side + 1)))
        func control(_ sequence: Int) -> [UInt8] {
            PNGBuilder.be32(UInt32(sequence)) + PNGBuilder.be32(UInt32(side)) + PNGBuilder.be32(UInt32(side))
                + PNGBuilder.be32(0) + PNGBuilder.be32(0) + [0, 1, 0, 10, 0, 0]
        }
        builder.chunk("fcTL", control(0))
        builder.chunk("IDAT", compressed)
        for frame in 1 ..< frames {
            builder.chunk("fcTL", control(2 * frame - 1))
            builder.chunk("fdAT", PNGBuilder.be32(UInt32(2 * frame)) + compressed)
        }
        builder.end()
        let png = builder.bytes
        #expect((try? ImageSource(bytes: png).properties())?.frames.count == frames)
        let entries = Inspector.inspect(png)
        #expect(entries.filter { $0.name == "fcTL" }.count == frames && entries.filter { $0.name == "fdAT" }.count == frames - 1)
        #expect(entries.contains { $0.name == "note" && $0.detail.contains("not decoded") }, "\(entries.suffix(3))")
        #expect(!entries.contains { $0.name == "end" && $0.detail.contains("decoded") })
        #expect(Self.misplaced(entries, in: png, format: .png).isEmpty)
    }

    @Test func theLogIsBounded() {
        let log = StructureLog(limit: 3)
        for offset in 0 ..< 10 { log.record(offset, "IFD \(offset)") }
        log.conclude(99, "end", "1 frame decoded")
        #expect(log.entries.map(\.name) == ["IFD 0", "IFD 1", "IFD 2", "note", "end"])
        #expect(log.entries[3].detail.contains("more than 3"))
    }

    /// Damaged files: inspecting never crashes, and its last line is the end or the error.
    @Test func damagedFilesEndWithTheEndOrTheError() {
        var seed: UInt64 = 7
        func next() -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        let files = [Self.png(width: 5, height: 4), GIFSamples.animation(frame1Disposal: 2)]
        for file in files {
            for _ in 0 ..< 500 {
                var bytes = file
                for _ in 0 ..< 1 + next() % 4 { bytes[8 + next() % (bytes.count - 8)] = UInt8(truncatingIfNeeded: next()) }
                let last = Inspector.inspect(bytes).last?.name
                #expect(last == "end" || last == "error")
            }
        }
    }
}
