import Testing
@testable import PureImage

/// `ImageSource` as `CGImageSource` behaves: properties from the headers alone, frames decoded on
/// demand, one source shared by many tasks.
@Suite("ImageSource")
struct ImageSourceTests {
    // MARK: - Headers only

    /// A GIF of `frames` frames whose LZW data is garbage: only a walk that never decodes it can
    /// describe every frame without a warning (a decode reports "invalid code").
    static func gifWithUndecodableFrames(_ frames: Int) -> [UInt8] {
        var gif = Array("GIF89a".utf8) + [16, 0, 8, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]   // 16×8, 2-entry table
        gif += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 5, 0, 0]                      // loop 5 times
        for index in 0 ..< frames {
            let delay = index % 7   // centiseconds, 0 included (plays as 0.1 s)
            let transparent: UInt8 = index % 2 == 0 ? 1 : 0
            gif += [0x21, 0xF9, 4, (UInt8(index % 3 + 1) << 2) | transparent, UInt8(delay), 0, 1, 0]
            gif += [0x2C, UInt8(index % 4), 0, 1, 0, 12, 0, 6, 0, 0]                                // at (index % 4, 1), 12×6
            gif += [2, 4, 0xFF, 0xFF, 0xFF, 0xFF, 0]                                                // codes 4095…: invalid
        }
        return gif + [0x3B]
    }

    /// An APNG of `frames` frames whose zlib data is garbage (CRCs correct): a decode drops the
    /// animation and shows a still; the headers describe every frame.
    static func apngWithUndecodableFrames(_ frames: Int) -> [UInt8] {
        var png = PNGBuilder()
        png.header(width: 8, height: 8, depth: 8, colorType: 6)
        png.chunk("acTL", PNGBuilder.be32(UInt32(frames)) + PNGBuilder.be32(0))
        var sequence: UInt32 = 0
        func control(_ index: Int) -> [UInt8] {
            defer { sequence += 1 }
            let size: UInt32 = index == 0 ? 8 : 4
            let offset: UInt32 = index == 0 ? 0 : UInt32(index % 5)
            return PNGBuilder.be32(sequence) + PNGBuilder.be32(size) + PNGBuilder.be32(size) + PNGBuilder.be32(offset) + PNGBuilder.be32(offset)
                + [0, UInt8(index % 9 + 1), 0, 100, UInt8(index % 3), UInt8(index % 2)]   // delay (index%9+1)/100, dispose, blend
        }
        png.chunk("fcTL", control(0))
        png.imageData(PNGBuilder.scanlines(Array(repeating: Array(repeating: 7, count: 32), count: 8)))
        for index in 1 ..< frames {
            png.chunk("fcTL", control(index))
            png.chunk("fdAT", PNGBuilder.be32(sequence) + [0x78, 0x9C, 0xFF, 0xFF, 0xFF, 0xFF])
            sequence += 1
        }
        png.end()
        return png.bytes
    }

    @Test func gifFramesAndDelaysComeFromTheHeadersAlone() throws {
        let source = try ImageSource(bytes: Self.gifWithUndecodableFrames(300))
        let description = try source.describe()
        let properties = description.properties
        #expect(properties.frameCount == 300)
        #expect(properties.frames.count == 300)
        #expect(properties.loopCount == 5)
        #expect(description.warnings.isEmpty, "the walk decoded LZW data: \(description.warnings.prefix(2))")
        for (index, frame) in properties.frames.enumerated() {
            #expect(frame.delay == Double(index % 7) / 100)
            #expect(frame.duration == (index % 7 < 2 ? 0.1 : Double(index % 7) / 100))
            #expect(frame.x == index % 4 && frame.y == 1 && frame.width == 12 && frame.height == 6)
            #expect(frame.disposal == [.none, .background, .previous][index % 3])
            #expect(frame.hasAlpha == (index % 2 == 0))
        }
        #expect(try source.properties(at: 7).frames == [properties.frames[7]])
        #expect(throws: DecodeError.self) { try source.properties(at: 300) }
        // The decode does read the codes, and says they are invalid.
        let decoded = try source.decode(at: 0)
        #expect(decoded.warnings.contains { $0.message.contains("code") })
    }

    @Test func apngFramesAndDelaysComeFromTheHeadersAlone() throws {
        let source = try ImageSource(bytes: Self.apngWithUndecodableFrames(300))
        let description = try source.describe()
        let properties = description.properties
        #expect(properties.frameCount == 300)
        #expect(properties.loopCount == 0)
        #expect(description.warnings.isEmpty, "the walk inflated fdAT data: \(description.warnings.prefix(2))")
        for (index, frame) in properties.frames.enumerated() {
            #expect(frame.delay == Double(index % 9 + 1) / 100)
            #expect(frame.disposal == [.none, .background, .previous][index % 3])
            #expect(frame.blend == (index % 2 == 0 ? .source : .over))
            #expect(frame.width == (index == 0 ? 8 : 4))
        }
        // Decoding inflates frame 1, fails, and falls back to the still default image.
        let decoded = try source.decode(at: 0)
        #expect(decoded.properties.frameCount == 1)
        #expect(decoded.warnings.contains { $0.message.contains("APNG") })
    }

    /// A TIFF of `pages` pages, page `p` (p + 2) × 1 gray: the walk names them all from the IFD
    /// chain, and describes each from its own IFD.
    /// A little-endian TIFF with one (p + 2) × 1 gray page per entry of `pages`, with that
    /// compression and orientation; page p's pixels are p·10, p·10 + 1, …
    static func tiffPages(_ pages: [(compression: UInt32, orientation: UInt32)]) -> [UInt8] {
        var tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        for (page, (compression, orientation)) in pages.enumerated() {
            let ifdStart = tiff.count
            let width = UInt32(page + 2)
            let entries: [(UInt16, UInt16, UInt32)] = [(256, 3, width), (257, 3, 1), (258, 3, 8), (259, 3, compression), (262, 3, 1),
                                                       (273, 4, UInt32(ifdStart + 2 + 9 * 12 + 4)), (274, 3, orientation), (277, 3, 1), (279, 4, width)]
            tiff += [UInt8(entries.count), 0]
            for (tag, type, value) in entries {
                tiff += [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(type), 0, 1, 0, 0, 0]
                tiff += [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
            }
            let next = page == pages.count - 1 ? 0 : UInt32(tiff.count + 4 + Int(width))
            tiff += [UInt8(next & 0xFF), UInt8((next >> 8) & 0xFF), 0, 0]
            tiff += (0 ..< Int(width)).map { UInt8(page * 10 + $0) }
        }
        return tiff
    }

    @Test func tiffPagesComeFromTheIFDChain() throws {
        let pages = 5
        let tiff = Self.tiffPages(Array(repeating: (compression: 1, orientation: 1), count: pages))
        let source = try ImageSource(bytes: tiff)
        #expect(try source.properties().frameCount == pages)
        for page in 0 ..< pages {
            let properties = try source.properties(at: page)
            #expect(properties.width == page + 2 && properties.height == 1 && properties.frameCount == pages)
        }
        #expect(throws: DecodeError.self) { try source.properties(at: pages) }
        #expect(try source.image(at: 3, options: .init(output: .native)).bytes.prefix(2) == [30, 31])
    }

    /// `decode(at:)` of a TIFF page decodes that page alone: page 0 here has a compression
    /// no decoder knows (decoding it fails), yet pages 1 and 2 decode, each with its own
    /// properties (size, orientation) — as CGImageSourceCreateImageAtIndex reads one IFD.
    @Test func aTIFFPageIsDecodedAlone() throws {
        let tiff = Self.tiffPages([(compression: 60_000, orientation: 1), (compression: 1, orientation: 1), (compression: 1, orientation: 2)])
        let source = try ImageSource(bytes: tiff)
        let error = #expect(throws: DecodeError.self) { try source.decode(at: 0) }
        #expect(error?.kind == .unsupported)
        let page1 = try source.decode(at: 1, options: .init(output: .native))
        #expect(page1.bitmap.tightBytes == [10, 11, 12])
        #expect(page1.properties.width == 3 && page1.properties.frameCount == 3 && page1.index == 1)
        // Page 2's own orientation (2: mirrored) is the one applied.
        let page2 = try source.decode(at: 2, options: .init(output: .native, applyOrientation: true))
        #expect(page2.bitmap.tightBytes == [23, 22, 21, 20])
        #expect(page2.properties.orientation == .upMirrored)
        // Asked again, and after another page: the same bytes.
        #expect(try source.image(at: 1, options: .init(output: .native)).tightBytes == [10, 11, 12])
        // Past the last page: the count is the file's, not the pages decoded so far.
        for index in [3, -1] {
            let outOfRange = #expect(throws: DecodeError.self) { try source.decode(at: index) }
            #expect(outOfRange?.reason as? ContainerError == .frameOutOfRange(index: index, count: 3))
        }
        // The incremental source decodes pages in order and stops at the failing page 0.
        let incremental = IncrementalImageSource()
        incremental.update(data: tiff, final: true)
        #expect(throws: DecodeError.self) { try incremental.image(at: 1) }
    }

    /// The header walk describes every page as its IFD does (what `pureimage info` lists, like
    /// tiffinfo), and says up front that page 0's compression has no decoder here.
    @Test func everyTIFFPageIsDescribed() throws {
        let tiff = Self.tiffPages([(compression: 60_000, orientation: 1), (compression: 1, orientation: 1), (compression: 1, orientation: 2)])
        let description = try ImageSource(bytes: tiff).describe()
        #expect(description.pages.count == 3)
        let extras = description.pages.map { page in Dictionary(uniqueKeysWithValues: (page?.extra ?? []).map { ($0.key, $0.value) }) }
        #expect(extras[0]["compression"] == "unknown" && extras[1]["compression"] == "none" && extras[2]["compression"] == "none")
        #expect(extras[1]["photometric"] == "BlackIsZero" && extras[1]["samples"] == "1 × 8 bits")
        #expect(description.pages[2]?.orientation == .upMirrored && description.pages[2]?.width == 4)
        #expect(description.refusal?.kind == .unsupported)
    }

    /// The quality estimate inverts the IJG scaling of T.81 Table K.1: a table cjpeg would write at
    /// quality q gives q back (±1 where rounding to integers moves the sum; below 25 the 255
    /// clamp of baseline tables makes the estimate coarser, and no claim is made there).
    @Test func jpegQualityEstimateInvertsTheIJGScaling() {
        for quality in 25...100 {
            let scale = quality < 50 ? 5000 / quality : 200 - 2 * quality
            let table = QualityEstimate.standardLuminance.map { UInt16(min(255, max(1, ($0 * scale + 50) / 100))) }
            let estimate = QualityEstimate.ijgQuality(luminanceTable: table)
            #expect(estimate.map { abs($0 - quality) <= 1 } == true, "quality \(quality): estimated \(String(describing: estimate))")
        }
        #expect(QualityEstimate.ijgQuality(luminanceTable: [UInt16](repeating: 1, count: 64)) == 99)
        #expect(QualityEstimate.ijgQuality(luminanceTable: [1, 2]) == nil)
    }

    @Test func aTruncatedContainerIsDescribedAndSaysSo() throws {
        let whole = Self.apngWithUndecodableFrames(4)
        let description = try ImageSource(bytes: Array(whole.dropLast(30))).describe()
        #expect(description.properties.width == 8)
        #expect(description.truncation != nil)
    }

    /// `describe(contentsOfFile:)` reads a JPEG only up to its first scan, walks a TIFF's IFD
    /// chain reading the file at offsets and a PNG's or GIF's chunks or blocks in pieces, and
    /// says what `describe()` of the whole file says — properties, every page's, EXIF,
    /// warnings, truncation, refusal — on every corpus JPEG, TIFF, PNG, APNG and GIF (starting
    /// from a 256-byte read: the pieces a PNG or GIF is walked in).
    @Test(.enabled(if: Corpus.isAvailable, "needs PUREIMAGE_CORPUS"), arguments: ["jpeg", "tiff", "png", "apng", "gif"])
    func aFileIsDescribedFromItsHeaders(format: String) throws {
        func summary(_ result: Result<SourceDescription, DecodeError>) -> String {
            switch result {
            case .success(let d):
                "\(Facts(d.properties)) \(d.properties.extra.map { "\($0.key)=\($0.value)" }) \(String(describing: d.properties.exifMetadata)) "
                    + "pages \(d.pages.map { $0.map { "\(Facts($0)) \($0.extra.map { "\($0.key)=\($0.value)" })" } ?? "none" }) "
                    + "warnings \(d.warnings.map(\.description)) truncation \(d.truncation?.description ?? "none") refusal \(d.refusal?.description ?? "none")"
            case .failure(let error): "error \(error)"
            }
        }
        var compared = 0, readInPart = 0
        for entry in Corpus.manifest() where entry.format == format {
            let whole = Result { () throws(DecodeError) in try ImageSource(contentsOfFile: entry.absolutePath).describe() }
            var bytesRead = Int.max
            let partial = Result { () throws(DecodeError) -> SourceDescription in
                let (description, read) = try ImageSource.describe(contentsOfFile: entry.absolutePath, options: DecodeOptions(), firstRead: 256)
                bytesRead = read
                return description
            }
            #expect(summary(partial) == summary(whole), "\(entry.path)")
            compared += 1
            if let size = Corpus.read(entry)?.count, bytesRead < size { readInPart += 1 }
        }
        report("describe(contentsOfFile:): \(compared) corpus \(format) files, \(readInPart) described holding less than the file")
        let minimums: [String: (compared: Int, readInPart: Int)] = ["jpeg": (450, 250), "tiff": (400, 300), "png": (500, 300),
                                                                    "apng": (50, 40), "gif": (180, 90)]
        let expected = minimums[format] ?? (1, 1)
        #expect(compared >= expected.compared && readInPart >= expected.readInPart, "\(compared) compared, \(readInPart) described holding less")
    }

    // MARK: - The corpus: the walk agrees with the decode

    /// The facts both paths state, as one comparable value.
    struct Facts: Equatable, CustomStringConvertible {
        var size: [Int], frameCount: Int, frames: [FrameProperties], loopCount: Int?, hasAlpha: Bool
        var colorModel: String, bits: Int, interlaced: Bool, progressive: Bool, orientation: Int
        var text: [TextEntry], exif: [UInt8]?, icc: [UInt8]?
        init(_ p: ImageProperties) {
            size = [p.width, p.height]; frameCount = p.frameCount; frames = p.frames; loopCount = p.loopCount
            hasAlpha = p.hasAlpha; colorModel = p.colorModel.name; bits = p.bitsPerComponent
            interlaced = p.isInterlaced; progressive = p.isProgressive; orientation = p.orientation.rawValue
            text = p.text; exif = p.exif; icc = p.iccProfile
        }
        var description: String {
            "\(size) frames \(frameCount) loop \(String(describing: loopCount)) alpha \(hasAlpha) \(colorModel) \(bits) bits "
                + "interlaced \(interlaced) progressive \(progressive) orientation \(orientation) text \(text.count) "
                + "exif \(exif?.count ?? -1) icc \(icc?.count ?? -1) frames \(frames.prefix(2))"
        }
    }

    /// Every corpus image that decodes cleanly (no warning, no truncation) is described by its
    /// headers exactly as its decode describes it.
    @Test(.enabled(if: Corpus.isAvailable, "needs PUREIMAGE_CORPUS"), TestTime.limit(minutes: 5))
    func headersAgreeWithTheDecodeOnTheCorpus() throws {
        var compared = 0
        var disagreements: [String] = []
        for entry in Corpus.manifest() where ["png", "apng", "gif", "jpeg", "tiff", "webp"].contains(entry.format) {
            guard let bytes = Corpus.read(entry), bytes.count < 8 << 20, let source = try? ImageSource(bytes: bytes),
                  let decoded = try? source.decode(at: 0, options: .init(output: .native)),
                  decoded.warnings.isEmpty, decoded.truncation == nil else { continue }
            compared += 1
            do {
                let header = Facts(try source.properties())
                let decode = Facts(decoded.properties)
                if header != decode { disagreements.append("\(entry.path)\n    headers \(header)\n    decode  \(decode)") }
            } catch {
                disagreements.append("\(entry.path): the walk fails where the decode succeeds: \(error)")
            }
        }
        #expect(compared >= 1000, "\(compared) files compared")
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements:\n\(disagreements.prefix(10).joined(separator: "\n"))")
    }

    /// `SourceDescription.refusal` says up front what `decode(at: 0)` will say: on every corpus
    /// file whose headers read, a refusal is exactly the decode's error (a limit: the same kind at
    /// the same offset), and a file that decodes has none. JPEG-LS files, TIFF compressions
    /// without a codec and JPEGs over the limits are among them.
    @Test(.enabled(if: Corpus.isAvailable, "needs PUREIMAGE_CORPUS"), TestTime.limit(minutes: 5))
    func refusalsFromTheHeadersAreTheDecodesErrors() throws {
        var refused: [String: Int] = [:]
        var decodable = 0
        var wrong: [String] = []
        for entry in Corpus.manifest() where ["png", "apng", "gif", "jpeg", "tiff", "webp"].contains(entry.format) {
            guard let bytes = Corpus.read(entry), bytes.count < 8 << 20, let source = try? ImageSource(bytes: bytes),
                  let description = try? source.describe() else { continue }
            do {
                _ = try source.decode(at: 0, options: .init(output: .native))
                decodable += 1
                if let refusal = description.refusal { wrong.append("\(entry.path): decodes, yet refused by its headers: \(refusal)") }
            } catch {
                guard let refusal = description.refusal else { continue }   // damaged data: the headers cannot know
                refused[entry.format, default: 0] += 1
                // Exactly the decode's error; for a limit, the same kind at the same offset (the
                // decode may run into its memory budget before the pixel count the headers check).
                let same = refusal.kind == .limitExceeded
                    ? error.kind == .limitExceeded && error.offset == refusal.offset
                    : refusal.description == error.description
                if !same { wrong.append("\(entry.path): headers say \(refusal), decode says \(error)") }
            }
        }
        #expect(decodable >= 1000)
        #expect((refused["jpeg"] ?? 0) >= 40, "JPEG-LS files: \(refused)")   // jpegsuite/ls holds 44
        #expect((refused["tiff"] ?? 0) >= 1, "TIFF compressions without a codec: \(refused)")
        #expect(wrong.isEmpty, "\(wrong.count):\n\(wrong.prefix(10).joined(separator: "\n"))")
    }

    /// `isProgressive` is "the frame header is SOF2 or SOF10" (SOF6 and SOF14, hierarchical
    /// progressive, too); `isInterlaced` is IHDR's interlace method for PNG and the first image
    /// descriptor's interlace flag for GIF — read from the bytes here, independently of the
    /// decoders. Files of processes the decoder does not decode (hierarchical) are described
    /// from their headers and checked too.
    @Test(.enabled(if: Corpus.isAvailable, "needs PUREIMAGE_CORPUS"))
    func progressiveAndInterlacedFlagsMatchTheHeaders() throws {
        var checked: [String: Int] = [:]
        var wrong: [String] = []
        for entry in Corpus.manifest() where ["jpeg", "png", "apng", "gif"].contains(entry.format) {
            guard let bytes = Corpus.read(entry), let properties = try? ImageSource(bytes: bytes).properties() else { continue }
            switch entry.format {
            case "jpeg":
                guard let marker = Self.firstFrameMarker(bytes) else { continue }
                checked[marker == 0xC2 || marker == 0xCA ? "progressive JPEG" : "other JPEG", default: 0] += 1
                if marker == 0xCA { checked["SOF10", default: 0] += 1 }
                if properties.isProgressive != [0xC2, 0xC6, 0xCA, 0xCE].contains(marker) { wrong.append("\(entry.path): SOF \(marker)") }
            case "gif":
                guard let interlaced = Self.firstGIFImageIsInterlaced(bytes) else { continue }
                checked[interlaced ? "interlaced GIF" : "other GIF", default: 0] += 1
                if properties.isInterlaced != interlaced { wrong.append("\(entry.path): interlace flag \(interlaced)") }
            default:
                guard bytes.count > 28 else { continue }
                checked[bytes[28] == 1 ? "Adam7 PNG" : "other PNG", default: 0] += 1
                if properties.isInterlaced != (bytes[28] == 1) { wrong.append("\(entry.path): interlace byte \(bytes[28])") }
            }
        }
        // Every kind is present in the shared corpus (counts seen: about 100 progressive JPEGs,
        // a dozen SOF10, 20 interlaced GIFs, 180 Adam7 PNGs).
        for kind in ["progressive JPEG", "other JPEG", "SOF10", "interlaced GIF", "other GIF", "Adam7 PNG", "other PNG"] {
            #expect(checked[kind, default: 0] >= 3, "\(kind): \(checked[kind, default: 0]) files checked")
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong: \(wrong.prefix(10))")
    }

    /// GIF89a §20: the interlace flag (bit 6 of the packed byte) of the first image descriptor,
    /// walking the logical screen, its colour table and any extension blocks before it.
    static func firstGIFImageIsInterlaced(_ bytes: [UInt8]) -> Bool? {
        guard bytes.count > 13 else { return nil }
        var at = 13 + (bytes[10] & 0x80 != 0 ? 3 << (Int(bytes[10] & 7) + 1) : 0)
        while at < bytes.count {
            switch bytes[at] {
            case 0x2C:
                return at + 9 < bytes.count ? bytes[at + 9] & 0x40 != 0 : nil
            case 0x21:
                at += 2
                while at < bytes.count, bytes[at] != 0 { at += 1 + Int(bytes[at]) }
                at += 1
            default:
                return nil
            }
        }
        return nil
    }

    /// The first SOFn marker code, walking marker segments from SOI.
    static func firstFrameMarker(_ bytes: [UInt8]) -> UInt8? {
        var at = 2
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { return nil }
            let code = bytes[at + 1]
            if code == 0xFF { at += 1; continue }
            if (0xC0...0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC { return code }
            if code == 0xDA || code == 0xD9 { return nil }
            at += 2 + (Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]))
        }
        return nil
    }

    // MARK: - One source, many tasks

    /// Frames of animations and pages of multi-page TIFFs in mixed orders, decoded by 8 tasks through one
    /// `ImageSource`, equal the frames decoded one after another.
    @Test(.enabled(if: Corpus.isAvailable, "needs PUREIMAGE_CORPUS"), TestTime.limit(minutes: 2))
    func concurrentDecodesEqualSequentialOnes() async throws {
        var sources: [(path: String, frames: Int)] = []
        for format in ["gif", "apng", "tiff"] {
            let animated = Corpus.manifest().filter { $0.format == format }.compactMap { entry -> (String, Int)? in
                guard let bytes = Corpus.read(entry), bytes.count < 1 << 20, let source = try? ImageSource(bytes: bytes),
                      let decoded = try? source.decode(at: 0), decoded.properties.frameCount > 2 else { return nil }
                // The leading frames that decode (a damaged TIFF page fails on its own).
                let frames = (0 ..< min(decoded.properties.frameCount, 12)).prefix { (try? source.decode(at: $0)) != nil }.count
                return frames > 2 ? (entry.absolutePath, frames) : nil
            }
            #expect(!animated.isEmpty, "no \(format) with several frames in the corpus")
            sources += animated.prefix(2).map { (path: $0.0, frames: $0.1) }
        }
        for (path, frames) in sources {
            let expected = try (0 ..< frames).map { try ImageSource(contentsOfFile: path).image(at: $0).tightBytes }
            let shared = try ImageSource(contentsOfFile: path)
            let results = try await withThrowingTaskGroup(of: [(Int, [UInt8])].self) { group in
                for task in 0 ..< 8 {
                    group.addTask {
                        // Each task its own order: forwards, backwards and jumping, so composing
                        // caches are hit, missed and rewound while other tasks use them.
                        var decoded: [(Int, [UInt8])] = []
                        for step in 0 ..< 6 {
                            let index = (task * 5 + step * (task % 2 == 0 ? 3 : frames - 2)) % frames
                            decoded.append((index, try shared.image(at: index).tightBytes))
                        }
                        return decoded
                    }
                }
                var all: [(Int, [UInt8])] = []
                for try await decoded in group { all += decoded }
                return all
            }
            #expect(results.count == 48)
            for (index, bytes) in results {
                #expect(bytes == expected[index], "\(path) frame \(index) differs when decoded concurrently")
            }
        }
    }
}
