import Testing
import PureImageConformance
@testable import PureImage

/// Every PNG of the shared corpus against libpng, through the same engine `pureimage conform`
/// uses: canonical RGBA samples identical, accept/reject in agreement except where
/// Conformance/expectations.tsv admits another verdict with its reason.
@Suite struct PNGCorpusTests {
    @Test(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
    func everyCorpusPNGMatchesLibpng() throws {
        let expectations = try ConformanceTests.projectExpectations()
        var counts: [Verdict: Int] = [:]
        var failures: [String] = []
        var files = 0
        for entry in Corpus.manifest() where entry.format == "png" || entry.format == "apng" {
            guard let bytes = Corpus.read(entry) else { failures.append("\(entry.path): unreadable"); continue }
            var report = FileComparison.compare(bytes: bytes, path: entry.absolutePath, relativePath: entry.path, suite: "corpus")
            expectations.apply(to: &report)
            files += 1
            counts[report.verdict, default: 0] += 1
            if !report.expected { failures.append("\(entry.path): \(report.verdict.rawValue): \(report.detail)") }
        }
        report("PNG vs libpng: \(files) files: " + Verdict.allCases.compactMap { verdict in counts[verdict].map { "\($0) \(verdict.rawValue)" } }.joined(separator: ", ")
               + "; \(failures.count) outside the expectations")
        for failure in failures { report("PNG FAIL " + failure) }
        #expect(failures.isEmpty, "\(failures.count) PNG files disagree with libpng (see the [corpus] lines)")
        #expect((counts[.identical] ?? 0) > 400)
    }
}

/// The package root, from this source file's location (Tests/PureImageTests/PNG/…).
func packageRoot(_ file: String = #filePath) -> String {
    var components = file.split(separator: "/", omittingEmptySubsequences: false)
    components.removeLast(4)
    return components.joined(separator: "/")
}
