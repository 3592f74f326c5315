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

    /// A refinement whose new coefficient has no zero left in the band (R past Se, corrupt
    /// data) puts it where jdphuff.c does, on zig-zag index Se + 1 — outside the band — and a
    /// later refinement of that index reads it as non-zero and takes a correction bit for it.
    /// The first pass of a banded decode must see that too (its masks once kept only the
    /// band's bits, so it read one bit fewer per block and every later band started from the
    /// wrong place). Hand-built 8 × 64 gray progressive file, five scans:
    /// DC; AC 1…5 (EOB); refine 1…5: symbol R = 15, S = 1 in every block → coefficient at
    /// zig-zag 6; AC 6…63 (EOB); refine 6…63: EOB and one correction bit for index 6.
    @Test func aRefinementValuePastTheBandIsReadByLaterScansInBands() throws {
        let blocks = 8
        var file: [UInt8] = [0xFF, 0xD8]
        func segment(_ marker: UInt8, _ body: [UInt8]) {
            file += [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        segment(0xDB, [0x00] + [UInt8](repeating: 40, count: 64))                      // quantization table 0: 40
        segment(0xC2, [8, 0, UInt8(8 * blocks), 0, 8, 1, 1, 0x11, 0])                   // progressive, 8 × 64 gray
        segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0x00])             // DC: "0" = SSSS 0
        segment(0xC4, [0x10, 0, 2] + [UInt8](repeating: 0, count: 14) + [0x00, 0xF1])    // AC: "00" = EOB, "01" = R 15 S 1
        // One scan: its header, then `perBlock` bits for each block, padded with 1s.
        func scan(ss: UInt8, se: UInt8, ahal: UInt8, perBlock: String) {
            segment(0xDA, [1, 1, 0x00, ss, se, ahal])
            var bits = String(repeating: perBlock, count: blocks)
            while bits.count % 8 != 0 { bits += "1" }
            var index = bits.startIndex
            while index < bits.endIndex {
                let next = bits.index(index, offsetBy: 8)
                let byte = UInt8(bits[index ..< next], radix: 2) ?? 0
                file.append(byte)
                if byte == 0xFF { file.append(0) }
                index = next
            }
        }
        scan(ss: 0, se: 0, ahal: 0x00, perBlock: "0")        // DC first: every difference 0
        scan(ss: 1, se: 5, ahal: 0x01, perBlock: "00")       // AC 1…5 first (Al 1): EOB
        scan(ss: 1, se: 5, ahal: 0x10, perBlock: "011")      // refine 1…5: R 15 S 1, sign +: lands on index 6
        scan(ss: 6, se: 63, ahal: 0x01, perBlock: "00")      // AC 6…63 first (Al 1): EOB
        scan(ss: 6, se: 63, ahal: 0x10, perBlock: "001")     // refine 6…63: EOB, the correction bit of index 6
        file += [0xFF, 0xD9]

        let (whole, decoder) = Self.decode(file, scale: 1, bands: nil)
        #expect(decoder.progressive && whole.error == nil && !whole.truncated && whole.warnings.isEmpty, "\(whole)")
        // Index 6 (position 16: row 2, column 0) is ±40 in every block, so no block is flat.
        #expect(Set(whole.pixels[0 ..< 64]).count > 1)
        // libjpeg-turbo decodes it the same.
        let reference = JPEGTestSupport.reference(file)
        #expect(reference.status == 0 && reference.pixels == whole.pixels, "\(reference.message)")
        for rows in [1, 2, 3] {
            let (inBands, bandDecoder) = Self.decode(file, scale: 1, bands: JPEGBandRequest(bandBytes: 0, minimumRows: rows))
            #expect(bandDecoder.renderedBands > 1)
            #expect(inBands == whole, "bands of \(rows) rows")
        }
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

    /// A band ring's row by multiplication (`Plane.ringRow`) is the remainder, for every ring
    /// size a band can have and rows far past any frame's.
    @Test func ringRowsAreRemainders() {
        var failures = 0
        for held in [3, 5, 6, 7, 29, 31, 33, 58, 62, 1000, 4095, 65535] {
            let plane = CoefficientStore.Plane(blocksPerRow: 1, heldBlockRows: held, coefficients: UnsafeMutablePointer(bitPattern: 64)!, count: 64)
            var rows = Array(held..<(held * 4 + 70_000))
            rows += [Int(UInt32.max), Int(UInt32.max) - 1, 1 << 31, 1 << 32, 1 << 40]
            for y in rows where plane.ringRow(y) != y % held {
                failures += 1
                if failures <= 5 { Issue.record("ring of \(held): row \(y) gave \(plane.ringRow(y)), expected \(y % held)") }
            }
        }
        #expect(failures == 0)
    }
}
