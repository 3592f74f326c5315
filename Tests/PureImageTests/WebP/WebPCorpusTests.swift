@testable import PureImage
@testable import PureImageConformance
import Testing

/// libwebp's test suite (`webp/libwebp-test-data` of the shared corpus): the lossless vectors
/// whose expected output is `grid.pam` / `peak.pam` (independent of libwebp's decoder), every
/// file against libwebp's `WebPDecodeRGBA` through the conformance comparison, and the
/// generated corpus (Conformance/generated/webp: cwebp, img2webp, gif2webp, webpmux) against
/// WebPDecodeRGBA and, frame by frame, WebPAnimDecoder.
@Suite("WebP corpus")
struct WebPCorpusTests {
    /// `lossless_vec_1_*` decode to grid.pam, `lossless_vec_2_*` to peak.pam (lossless_vec_list.txt).
    @Test(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
    func vectorsEqualTheirPAMReferences() throws {
        let grid = try #require(WebPTest.read("grid.pam").flatMap(WebPTest.pam))
        let peak = try #require(WebPTest.read("peak.pam").flatMap(WebPTest.pam))
        var checked = 0
        for name in WebPTest.corpusFiles() where name.hasPrefix("lossless_vec_") {
            let expected = name.hasPrefix("lossless_vec_1_") ? grid : peak
            let bytes = try #require(WebPTest.read(name))
            let (bitmap, truncated) = try WebPTest.decode(bytes)
            #expect(!truncated, "\(name)")
            #expect(bitmap.width == expected.width && bitmap.height == expected.height, "\(name)")
            #expect(bitmap.bytes == expected.rgba, "\(name): \(firstDifference(bitmap.bytes, expected.rgba) ?? "")")
            checked += 1
        }
        report("lossless vectors against grid.pam / peak.pam: \(checked) files")
        #expect(checked == 26)   // 16 × grid (lossless_vec_1_0…15), 10 × peak (lossless_vec_2_0…9)
    }

    /// Every VP8L still of the corpus against WebPDecodeRGBA, sample for sample.
    @Test(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
    func losslessFilesMatchLibwebp() throws {
        var compared = 0
        for name in WebPTest.corpusFiles() {
            let bytes = try #require(WebPTest.read(name))
            guard WebPTest.isLossless(bytes) else { continue }
            let reference = ReferenceDecoders.webp(bytes)
            #expect(reference.status == .ok, "\(name): libwebp \(reference.message)")
            guard let theirs = reference.frames.first else { continue }
            let (bitmap, truncated) = try WebPTest.decode(bytes)
            #expect(!truncated, "\(name)")
            #expect(bitmap.bytes == theirs.samples, "\(name): \(firstDifference(bitmap.bytes, theirs.samples) ?? "")")
            compared += 1
        }
        report("VP8L files identical to libwebp: \(compared)")
        #expect(compared >= 36)
    }

    /// Every file of libwebp's suite: identical to libwebp (VP8, VP8L, VP8X with ALPH).
    @Test(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
    func everyFileMatchesLibwebp() throws {
        var verdicts: [Verdict: Int] = [:]
        for name in WebPTest.corpusFiles() {
            let bytes = try #require(WebPTest.read(name))
            let report = FileComparison.compare(bytes: bytes, path: name, relativePath: name, suite: "webp")
            verdicts[report.verdict, default: 0] += 1
            #expect(report.verdict == .identical, "\(name): \(report.verdict) \(report.detail)")
        }
        report("libwebp-test-data: \(verdicts.map { "\($0.key.rawValue) \($0.value)" }.sorted().joined(separator: ", "))")
        #expect(verdicts[.identical] == 105)
    }

    static let generated = packageRoot() + "/Conformance/generated"
    static var generatedIsAvailable: Bool { (try? ImageFiles.read(generated + "/manifest.tsv")) != nil }

    /// The generated WebP corpus: valid files identical to libwebp (stills and every frame of
    /// the animations, with frame count, durations and loop count); corrupt copies (truncated,
    /// byte-flipped) end as libwebp does or, where libwebp fails a truncated file, as a partial
    /// image marked truncated — never a crash or an unexpected difference.
    @Test(.enabled(if: generatedIsAvailable, "Conformance/generated is absent (python3 Conformance/generate_corpus.py)"))
    func generatedFilesMatchLibwebp() throws {
        let manifest = String(decoding: try ImageFiles.read(Self.generated + "/manifest.tsv"), as: UTF8.self)
        var verdicts: [Verdict: Int] = [:]
        var animations = 0
        for line in manifest.split(separator: "\n") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 4, columns[1] == "webp" else { continue }
            let bytes = try ImageFiles.read(Self.generated + "/" + columns[0])
            let report = FileComparison.compare(bytes: bytes, path: columns[0], relativePath: columns[0], suite: "generated")
            verdicts[report.verdict, default: 0] += 1
            if columns[0].contains("/anim/") { animations += 1 }
            if columns[2] == "valid" {
                #expect(report.verdict == .identical, "\(columns[0]): \(report.verdict) \(report.detail)")
            } else {
                #expect([.identical, .rejectedByBoth, .partial].contains(report.verdict), "\(columns[0]): \(report.verdict) \(report.detail)")
            }
        }
        report("generated WebP: \(verdicts.map { "\($0.key.rawValue) \($0.value)" }.sorted().joined(separator: ", ")); \(animations) animations")
        #expect(verdicts[.identical, default: 0] >= 140 && animations >= 30)
    }
}
