import Testing
@testable import PureImage

/// A progressive JPEG decoded in bands of coefficients (`CoefficientBands`, what the
/// downscaler asks for) gives the whole-image decode's output exactly — pixels, truncation and
/// warnings — for every Huffman progressive file of the corpus, the generated corpus and the
/// fuzz regressions: truncated files, block smoothing, restart intervals, non-interleaved and
/// subsampled components, at full size and DCT-scaled. Bands of 1 and 2 MCU rows have margins
/// reaching over several bands; 3 and 7 rows are in between.
@Suite struct JPEGCoefficientBandTests {
    struct Outcome: Equatable {
        var pixels: [UInt8] = []
        var error: String?
        var truncated = false
        var warnings: [String] = []
    }

    static func decode(_ bytes: [UInt8], scale: Int, bands: JPEGBandRequest?) -> (outcome: Outcome, decoder: JPEGDecoder) {
        var options = DecodeOptions(jpegScaleDenominator: scale)
        options.jpegCoefficientBands = bands
        let decoder = JPEGDecoder(options: options)
        var input = InputBuffer(bytes, isClosed: true)
        var outcome = Outcome()
        do {
            _ = try decoder.advance(&input)
            outcome.pixels = try decoder.frame(at: 0).tightlyPacked().bytes
        } catch {
            outcome.error = "\(error)"
        }
        outcome.truncated = decoder.truncation != nil
        outcome.warnings = decoder.warnings.map { "\($0)" }
        return (outcome, decoder)
    }

    /// Every file given, whole and in bands; returns how many were compared in bands.
    static func compare(_ files: [(name: String, bytes: [UInt8])], scales: [Int], bandRows: [Int]) -> Int {
        var banded = 0
        for file in files {
            for scale in scales {
                let (whole, decoder) = decode(file.bytes, scale: scale, bands: nil)
                guard decoder.progressive && !decoder.arithmetic && whole.error == nil else { continue }
                for rows in bandRows {
                    let (inBands, bandDecoder) = decode(file.bytes, scale: scale, bands: JPEGBandRequest(bandBytes: 0, minimumRows: rows))
                    // Compared part by part: a failure names the first differing byte, not two images.
                    let what = "\(file.name) at 1/\(scale) in bands of \(rows) rows"
                    let firstDifference = zip(inBands.pixels, whole.pixels).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    #expect(firstDifference == nil && inBands.pixels.count == whole.pixels.count,
                            "\(what): pixels differ from byte \(firstDifference ?? min(inBands.pixels.count, whole.pixels.count))")
                    #expect(inBands.error == whole.error && inBands.truncated == whole.truncated, "\(what)")
                    #expect(inBands.warnings == whole.warnings, "\(what)")
                    if bandDecoder.renderedBands > 1 { banded += 1 }
                }
            }
        }
        return banded
    }

    static func jpegFiles(under root: String) -> [(name: String, bytes: [UInt8])] {
        GIFTest.files(under: root).filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".jpeg") }.sorted().compactMap { path in
            (try? ImageFiles.read(path)).map { (path, $0) }
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"), TestTime.limit(minutes: 5))
    func corpusFilesInBandsEqualTheWholeImage() throws {
        let root = try #require(Corpus.root)
        let files = JPEGTestSupport.corpusFiles(root: root, prefixes: ["libjpeg-turbo/", "jpeg/", "photos/", "imagetestsuite/"])
            .compactMap { path -> (name: String, bytes: [UInt8])? in JPEGTestSupport.read(root + "/" + path).map { (path, $0) } }
        let banded = Self.compare(files, scales: [1], bandRows: [1, 2, 3, 7])
        let scaled = Self.compare(files.filter { $0.bytes.count < 1 << 20 }, scales: [2, 8], bandRows: [1, 3])
        report("coefficient bands: \(banded) banded corpus decodes at full size, \(scaled) DCT-scaled, equal to the whole image")
        #expect(banded >= 100, "only \(banded) corpus decodes were banded")
        #expect(scaled >= 50)
    }

    @Test(.enabled(if: GeneratedCorpus.isAvailable, "Conformance/generated is absent"), TestTime.limit(minutes: 5))
    func generatedFilesInBandsEqualTheWholeImage() {
        var files = Self.jpegFiles(under: GeneratedCorpus.root + "/jpeg")
        files += Self.jpegFiles(under: GeneratedCorpus.jpegSampling)
        let banded = Self.compare(files, scales: [1, 4], bandRows: [1, 2, 5])
        report("coefficient bands: \(banded) banded generated decodes equal to the whole image")
        #expect(banded >= 50, "only \(banded) generated decodes were banded")
    }

    @Test func fuzzRegressionsInBandsEqualTheWholeImage() {
        let files = Self.jpegFiles(under: RegressionTests.folder + "/jpeg").filter { $0.bytes.count < 1 << 16 }
        let banded = Self.compare(files, scales: [1], bandRows: [1, 4])
        #expect(banded >= 2, "only \(banded) fuzz regressions were banded")
    }

    /// The plan: the whole image is held up to twice the band budget; bands hold as many MCU
    /// rows as fit (at least the minimum); held rows reach two rows past each band.
    @Test func planNumbers() throws {
        let frame = try FrameHeader(parsing: JPEGSegmentTests.segment(0xC2, [
            8, 0x1F, 0x40, 0x2E, 0xE0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]))   // 8000 (0x1F40) × 12000 (0x2EE0), 4:2:0
        let geometry = try FrameGeometry(frame: frame, scaleDenominator: 1)
        // One MCU row: 1500 × 2 luma blocks + 750 + 750 chroma blocks, 128 bytes each = 576 000.
        let bands = try #require(CoefficientBands.plan(geometry: geometry, bandBytes: 16 << 20, minimumRows: 16))
        #expect(bands.renderRows == 500 && bands.bandRows == 29 && bands.count == 18)
        #expect(bands.blockRowsPerRenderRow == [2, 1, 1])
        #expect(bands.held(0) == 0..<31 && bands.held(1) == 27..<60 && bands.held(17) == 491..<500)
        #expect(bands.rendered(17) == 493..<500)
        #expect(CoefficientBands.plan(geometry: geometry, bandBytes: 200 << 20, minimumRows: 16) == nil)   // 288 MB ≤ 400 MB
        #expect(CoefficientBands.plan(geometry: geometry, bandBytes: 1 << 20, minimumRows: 16)?.bandRows == 16)
        #expect(CoefficientBands.plan(geometry: geometry, bandBytes: 0, minimumRows: 500) == nil)          // one band
    }
}
