import Testing
import PureImageConformance
@testable import PureImage

/// Every TIFF of the shared corpus against libtiff's RGBA interface, through the engine
/// `pureimage conform` uses: premultiplied RGBA8 identical, accept/reject in agreement,
/// except where Conformance/expectations.tsv admits another verdict with its reason.
@Suite struct TIFFCorpusTests {
    @Test(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
    func everyCorpusTIFFMatchesLibtiff() throws {
        let expectations = try ConformanceTests.projectExpectations()
        var counts: [Verdict: Int] = [:]
        var failures: [String] = []
        var notIdentical: [String] = []
        var files = 0
        for entry in Corpus.manifest() where entry.format == "tiff" {
            guard let bytes = Corpus.read(entry) else { failures.append("\(entry.path): unreadable"); continue }
            var report = FileComparison.compare(bytes: bytes, path: entry.absolutePath, relativePath: entry.path, suite: "corpus")
            expectations.apply(to: &report)
            files += 1
            counts[report.verdict, default: 0] += 1
            if report.verdict != .identical {
                notIdentical.append("\(report.verdict.rawValue)\t\(entry.path)\t\(report.detail)")
            }
            if !report.expected { failures.append("\(entry.path): \(report.verdict.rawValue): \(report.detail)") }
        }
        report("TIFF vs libtiff: \(files) files: " + Verdict.allCases.compactMap { verdict in counts[verdict].map { "\($0) \(verdict.rawValue)" } }.joined(separator: ", ")
               + "; \(failures.count) outside the expectations")
        for line in notIdentical { report("TIFF " + line) }
        for failure in failures { report("TIFF FAIL " + failure) }
        #expect(failures.isEmpty, "\(failures.count) TIFF files disagree with libtiff (see the [corpus] lines)")
        #expect((counts[.identical] ?? 0) > 100)
    }
}

import CReference

/// Pages (IFDs) against libtiff's directory count: equal, except where PureImage stops at a
/// page it cannot decode (later pages are then dropped with a warning).
@Suite struct TIFFPageCountTests {
    @Test(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
    func pageCountsMatchLibtiff() {
        var equal = 0, fewer = 0
        var more: [String] = []
        for entry in Corpus.manifest() where entry.format == "tiff" {
            guard let bytes = Corpus.read(entry), let source = try? ImageSource(bytes: bytes),
                  let properties = try? source.properties(), (try? source.image()) != nil else { continue }
            let theirs = Int(bytes.withUnsafeBufferPointer { pi_ref_tiff_page_count($0.baseAddress, $0.count) })
            guard theirs >= 0 else { continue }
            if properties.frameCount == theirs { equal += 1 }
            else if properties.frameCount < theirs { fewer += 1 }
            else { more.append("\(entry.path): \(properties.frameCount) pages, libtiff \(theirs)") }
        }
        report("TIFF pages vs libtiff: \(equal) equal, \(fewer) fewer (a later page not decodable), \(more.count) more")
        for line in more { report("TIFF pages FAIL " + line) }
        #expect(more.isEmpty)
        #expect(equal > 100)
    }
}
