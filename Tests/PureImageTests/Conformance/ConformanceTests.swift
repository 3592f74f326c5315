import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import PureImageConformance
@testable import PureImage

@Suite struct ConformanceTests {
    static func projectExpectations() throws -> Expectations {
        let bytes = try ImageFiles.read(packageRoot() + "/Conformance/expectations.tsv")
        return Expectations(parsing: String(decoding: bytes, as: UTF8.self))
    }

    /// A small folder of PNGs written by the test itself, one folder per test (the tests run in
    /// parallel: a shared folder was rewritten by one while another read it).
    static func makeCorpus(_ test: String = #function) throws -> String {
        let name = test.filter { $0.isLetter || $0.isNumber }
        let root = "/tmp/pureimage-conformance-test-\(getpid())-\(name)"
        _ = mkdir(root, 0o755)
        _ = mkdir(root + "/suite", 0o755)
        for (index, (colorType, depth)) in [(UInt8(6), UInt8(8)), (2, 16), (0, 4)].enumerated() {
            let built = PNGDecoderTests.build(colorType: colorType, depth: depth, width: 13, height: 9, seed: UInt64(index))
            try write(built.png, to: root + "/suite/image\(index).png")
        }
        try write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], to: root + "/suite/cut.png")
        return root
    }

    /// Removes a folder `makeCorpus` made (its files are the ones it wrote: four PNGs).
    static func removeCorpus(_ root: String) {
        for name in ["image0.png", "image1.png", "image2.png", "cut.png"] { unlink(root + "/suite/" + name) }
        rmdir(root + "/suite")
        rmdir(root)
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        guard let file = fopen(path, "wb") else { throw BitmapError.invalidFormat("cannot write \(path)") }
        defer { fclose(file) }
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    }

    @Test func cleanRunIsIdentical() throws {
        let root = try Self.makeCorpus()
        defer { Self.removeCorpus(root) }
        var run = ConformanceRun()
        run.add(root: root, expectations: Expectations())
        #expect(run.reports.count == 4)
        #expect(run.reports.filter { $0.verdict == .identical }.count == 3)
        #expect(run.reports.first { $0.relativePath == "suite/cut.png" }?.verdict == .rejectedByBoth)
        #expect(run.unexpected.isEmpty)
        #expect(run.totals.files == 4)
    }

    /// A wrong pixel planted in one decode is reported for exactly that file, pixel and difference.
    @Test func plantedWrongPixelIsReportedExactly() throws {
        let root = try Self.makeCorpus()
        defer { Self.removeCorpus(root) }
        var run = ConformanceRun()
        run.add(root: root, expectations: Expectations(), tamper: { path, image in
            guard path == "suite/image1.png" else { return }
            // 16-bit RGBA, host (little-endian) order: flip bit 0 of the high byte of the green
            // sample of pixel (7, 3), a change of exactly 256.
            let index = ((3 * image.width + 7) * 4 + 1) * 2
            image.samples[index + 1] ^= 0x01
        })
        let mismatched = run.reports.filter { $0.verdict == .mismatched }
        #expect(mismatched.count == 1)
        let report = try #require(mismatched.first)
        #expect(report.relativePath == "suite/image1.png")
        #expect(report.difference?.x == 7 && report.difference?.y == 3 && report.difference?.channel == 1)
        #expect(report.difference.map { abs($0.ours - $0.reference) } == 256)
        #expect(report.difference?.maxDifference == 256)
        #expect(report.difference?.differingSamples == 1)
        #expect(run.unexpected.count == 1)
        // The JSON and the HTML carry it too.
        let json = run.json().serialized()
        let suite = root.split(separator: "/").last.map(String.init) ?? ""
        #expect(json.contains("\"path\":\"suite/image1.png\",\"suite\":\"\(suite)/suite\",\"format\":\"png\",\"verdict\":\"mismatched\""))
        #expect(json.contains("\"x\":7,\"y\":3,\"channel\":1"))
        let page = HTMLReport.render(run, folderName: "report.html.files")
        #expect(page.html.contains("first difference at (7, 3) channel 1"))
        // The mismatch's three images are files of the folder, linked from its entry.
        let entry = try #require(page.html.split(separator: "<div class=\"entry").dropFirst().first { $0.contains("image1.png") })
        for side in ["ours", "reference", "difference"] {
            let file = try #require(page.files.first { $0.name.hasSuffix("-\(side).png") }, "\(side)")
            #expect(entry.contains("src=\"report.html.files/\(file.name)\""))
            #expect(file.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }
        // Outside the expectations: listed first, linked from the summary.
        let section = try #require(page.html.firstRange(of: "id=\"unexpected\""))
        let listed = try #require(page.html.firstRange(of: "image1.png"))
        #expect(section.lowerBound < listed.lowerBound)
        #expect(page.html.contains("href=\"#verdict=unexpected&format=png&suite="))
        // A report named "run #1%.html": its image links stay relative paths, not fragments.
        let odd = HTMLReport.render(run, folderName: "run #1%.html.files")
        #expect(odd.html.contains("src=\"run%20%231%25.html.files/"))
        #expect(!odd.html.contains("src=\"run #"))
    }

    /// Names from the corpus go into attributes: a quote followed by a combining mark (one
    /// Character, not `"`) must still be escaped, scalar by scalar.
    @Test func reportEscapesEveryQuote() {
        let hostile = "x\"\u{301} onmouseover=alert(1) <b\u{338}> '&"
        let escaped = HTMLReport.escape(hostile)
        #expect(!escaped.unicodeScalars.contains("\"") && !escaped.unicodeScalars.contains("<") && !escaped.unicodeScalars.contains("'"))
        // Byte search: as Characters, "&quot;" followed by the combining mark is another grapheme.
        for entity in ["&quot;", "&lt;", "&#39;", "&amp;"] {
            #expect(Array(escaped.utf8).firstRange(of: Array(entity.utf8)) != nil, "\(entity)")
        }
    }

    @Test func expectationRules() {
        let expectations = Expectations(parsing: """
        # comment
        jpeg:*\tunsupported:arithmetic coding\tnot implemented
        tiff/*ycbcr*\twithin-tolerance:2\tlibtiff's YCbCr arithmetic
        """)
        #expect(expectations.rules.count == 2)
        var arithmetic = FileReport(path: "x", relativePath: "jpeg/a.jpg", suite: "s", format: "jpeg", verdict: .unsupported,
                                    detail: "ours: unsupported at byte 2: JPEG: arithmetic coding (SOF9) is not supported", frames: 0)
        expectations.apply(to: &arithmetic)
        #expect(arithmetic.expected && arithmetic.expectation == "not implemented")
        var other = arithmetic
        other.detail = "ours: unsupported: something else"
        expectations.apply(to: &other)
        #expect(!other.expected)
        var close = FileReport(path: "x", relativePath: "tiff/ycbcr-1.tif", suite: "s", format: "tiff", verdict: .mismatched, detail: "", frames: 1)
        close.difference = PixelDifference(x: 1, y: 1, channel: 0, ours: 10, reference: 12, maxDifference: 2, differingSamples: 3)
        expectations.apply(to: &close)
        #expect(close.verdict == .withinTolerance && close.expected)
        close.verdict = .mismatched
        close.difference?.maxDifference = 3
        expectations.apply(to: &close)
        #expect(close.verdict == .mismatched && !close.expected)
        #expect(Expectations.matches("a*b*c", "axxbyyc") && !Expectations.matches("a*b", "ac") && Expectations.matches("*", ""))
    }

    /// A rule naming one file holds when the run's root is a sub-folder or a parent of the corpus
    /// root it was written for; a pattern with `*` and a different file do not.
    @Test func fileRulesMatchFromSubAndParentFolders() {
        let expectations = Expectations(parsing: "tiff:tiff/pillow/crash.tif\tmismatched:max difference\tfuzzed IFD\n")
        for path in ["tiff/pillow/crash.tif", "pillow/crash.tif", "crash.tif", "corpus/tiff/pillow/crash.tif"] {
            var report = FileReport(path: "x", relativePath: path, suite: "s", format: "tiff", verdict: .mismatched,
                                    detail: "frame 0: max difference 9", frames: 1)
            expectations.apply(to: &report)
            #expect(report.expected, "\(path)")
        }
        for path in ["ash.tif", "tiff/pillow/crash.tiff", "other/crash.tif/more"] {
            var report = FileReport(path: "x", relativePath: path, suite: "s", format: "tiff", verdict: .mismatched,
                                    detail: "frame 0: max difference 9", frames: 1)
            expectations.apply(to: &report)
            #expect(!report.expected, "\(path)")
        }
        #expect(!Expectations.sharesTail("tiff/*.tif", "pillow/a.tif"))
    }
}
