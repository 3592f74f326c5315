import Testing
@testable import PureImage

/// `ImageSource.decodeRows` hands out exactly the rows of `decode(at: 0)` of a first-frame-only
/// source: same bytes, same truncation, same error kind, bands contiguous from row 0 — on every generated file in three
/// outputs and on every file of the shared corpus in canonical RGBA.
@Suite struct RowStreamingTests {
    enum Outcome: Equatable {
        case rows([UInt8], truncated: Bool)
        case failed(DecodeError.Kind)
    }

    static func oneShot(_ bytes: [UInt8], _ output: ImageDecodingOptions.Output, options: DecodeOptions = DecodeOptions()) -> Outcome {
        do {
            // Frame 0 alone, as `decodeRows` decodes it (its truncation is that frame's).
            var firstOnly = options
            firstOnly.firstFrameOnly = true
            let decoded = try ImageSource(bytes: bytes, options: firstOnly)
                .decode(at: 0, options: ImageDecodingOptions(output: output))
            return .rows(decoded.bitmap.tightBytes, truncated: decoded.truncation != nil)
        } catch {
            return .failed(error.kind)
        }
    }

    /// The streamed rows, with a recorded issue when the bands are not contiguous full-width rows.
    static func streamed(_ bytes: [UInt8], _ output: ImageDecodingOptions.Output, options: DecodeOptions = DecodeOptions(),
                         _ what: String) -> (Outcome, streamed: Bool) {
        do {
            let source = try ImageSource(bytes: bytes, options: options)
            var rows: [UInt8] = []
            var next = 0
            var width: Int?
            var frameHeight: Int?
            let frame = try source.decodeRows(output: output) { band in
                #expect(band.frameHeight == (frameHeight ?? band.frameHeight), "\(what): frame height changed")
                frameHeight = band.frameHeight
                #expect(band.firstRow == next && band.rows.width == (width ?? band.rows.width) && band.rows.height > 0, "\(what): band at \(band.firstRow)")
                width = band.rows.width
                #expect(band.rows.bytesPerRow == band.rows.format.minimumBytesPerRow(width: band.rows.width), "\(what): rows not tight")
                next = band.firstRow + band.rows.height
                rows += band.rows.bytes
            }
            #expect(next == frameHeight, "\(what): \(next) of \(frameHeight ?? 0) rows")
            _ = frame.properties
            return (.rows(rows, truncated: frame.truncation != nil), frame.streamed)
        } catch let error as DecodeError {
            return (.failed(error.kind), false)
        } catch {
            Issue.record("\(what): \(error)")
            return (.failed(.malformed), false)
        }
    }

    /// A short description (the rows themselves would flood the log).
    static func summary(_ outcome: Outcome) -> String {
        switch outcome {
        case .failed(let kind): return "failed (\(kind))"
        case .rows(let rows, let truncated): return "\(rows.count) bytes\(truncated ? ", truncated" : "")"
        }
    }

    static func compare(_ files: [(name: String, bytes: [UInt8])], outputs: [ImageDecodingOptions.Output],
                        options: DecodeOptions = DecodeOptions()) -> (compared: Int, streamed: Int) {
        var compared = 0, streamedCount = 0
        for (name, bytes) in files {
            for output in outputs {
                let expected = oneShot(bytes, output, options: options)
                let (outcome, streamed) = Self.streamed(bytes, output, options: options, "\(name) \(output)")
                if outcome != expected {
                    Issue.record("\(name) \(output): streamed \(Self.summary(outcome)), decode(at: 0) \(Self.summary(expected))")
                }
                compared += 1
                if streamed { streamedCount += 1 }
            }
        }
        return (compared, streamedCount)
    }

    @Test(.enabled(if: GeneratedCorpus.isAvailable, "Conformance/generated is absent"))
    func generatedFilesStreamTheOneShotRows() throws {
        let files = GIFTest.files(under: GeneratedCorpus.root).filter { !$0.hasSuffix(".tsv") && !$0.contains("jpeg-sampling") }
            .compactMap { path in (try? ImageFiles.read(path)).map { (name: path, bytes: $0) } }
        let (compared, streamed) = Self.compare(files, outputs: [.canonicalRGBA, .native, .display])
        #expect(compared >= 3000 && streamed >= 2000, "\(compared) compared, \(streamed) streamed")
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs PUREIMAGE_CORPUS"), TestTime.limit(minutes: 5))
    func corpusFilesStreamTheOneShotRows() throws {
        let files = Corpus.manifest().filter { ["png", "apng", "jpeg", "gif", "tiff", "webp"].contains($0.format) }
            .compactMap { entry in Corpus.read(entry).map { (name: entry.path, bytes: $0) } }
        // The display format too: its bands take the converter's tables (palette, packed,
        // 16-bit), which `BandConverter` keeps from band to band.
        let (compared, streamed) = Self.compare(files, outputs: [.canonicalRGBA, .display])
        report("decodeRows == decode(at: 0): \(compared) corpus decodes, \(streamed) streamed by their decoder")
        #expect(compared >= 3000 && streamed >= 2000, "\(compared) compared, \(streamed) streamed")
    }

    /// JPEG scaled in the DCT domain: the bands are the scaled frame's rows.
    @Test(.enabled(if: GeneratedCorpus.isAvailable, "Conformance/generated is absent"), arguments: [2, 4, 8])
    func scaledJPEGsStreamTheOneShotRows(denominator: Int) throws {
        let files = GIFTest.files(under: GeneratedCorpus.root + "/jpeg").compactMap { path in (try? ImageFiles.read(path)).map { (name: path, bytes: $0) } }
        let (compared, streamed) = Self.compare(files, outputs: [.canonicalRGBA], options: DecodeOptions(jpegScaleDenominator: denominator))
        #expect(compared >= 150 && streamed >= 150, "\(compared) compared, \(streamed) streamed")
    }

    /// A page in one big strip (here 512 KiB of gray) streams in pieces of about 64 KiB, each
    /// converted on its own, not as one band the size of the page; the rows are the one-shot ones.
    @Test func oneStripPagesStreamInPieces() throws {
        let width = 512, height = 1024
        let pixels = (0 ..< width * height).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let bytes = TIFFBuilder.gray8(.little, width: width, height: height, pixels: pixels).build()
        let source = try ImageSource(bytes: bytes)
        var rows: [UInt8] = []
        var largest = 0, bands = 0
        let streamed = try source.decodeRows(output: .canonicalRGBA) { band in
            #expect(band.firstRow * width * 4 == rows.count)
            rows += band.rows.bytes
            largest = max(largest, band.rows.height * width)
            bands += 1
        }
        #expect(streamed.streamed)
        #expect(largest <= 1 << 16, "native pixels in the largest band: \(largest)")
        #expect(bands == height * width / (1 << 16))
        #expect(Self.oneShot(bytes, .canonicalRGBA) == .rows(rows, truncated: false))
    }

    /// An error thrown by the consumer stops the delivery and comes back unchanged.
    @Test(.enabled(if: GeneratedCorpus.isAvailable, "Conformance/generated is absent"))
    func theConsumersErrorIsRethrown() throws {
        struct Stop: Error {}
        let source = try ImageSource(bytes: try GeneratedCorpus.read("png/gray1_1x1.png"))
        var calls = 0
        #expect(throws: Stop.self) { try source.decodeRows { _ in calls += 1; throw Stop() } }
        #expect(calls == 1)
    }
}
