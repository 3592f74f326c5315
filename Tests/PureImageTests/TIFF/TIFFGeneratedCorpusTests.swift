import Testing
import PureImageConformance
@testable import PureImage

/// Conformance/generated/tiff (made by `python3 Conformance/generate_corpus.py`): every
/// lossless variant of one picture (compression × strips/tiles × planar × byte order) must
/// decode to the same native pixels; the corrupt copies must not crash or hang.
@Suite struct TIFFGeneratedCorpusTests {
    static let root = GeneratedCorpus.root
    static var isAvailable: Bool { GeneratedCorpus.isAvailable }

    @Test(.enabled(if: isAvailable, "Conformance/generated is absent"))
    func losslessVariantsDecodeToTheSamePixels() throws {
        let manifest = String(decoding: try ImageFiles.read(Self.root + "/manifest.tsv"), as: UTF8.self)
        var groups: [String: [(path: String, bitmap: Bitmap)]] = [:]
        var unsupported: [String: Int] = [:]
        var failures: [String] = []
        var corrupt = 0
        for line in manifest.split(separator: "\n") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 4, columns[1] == "tiff" else { continue }
            let bytes = try GeneratedCorpus.read(columns[0])
            if columns[2] == "corrupt" {
                corrupt += 1
                _ = try? ImageSource(bytes: bytes).image()     // must return, not crash
                continue
            }
            guard columns[3].contains("lossless"),
                  let tag = columns[3].split(separator: ";").first(where: { $0.hasPrefix("image=") }) else { continue }
            do {
                let bitmap = try ImageSource(bytes: bytes).image(options: ImageDecodingOptions(output: .native))
                groups[String(tag.dropFirst(6)), default: []].append((columns[0], bitmap))
            } catch {
                if error.kind == .unsupported {
                    unsupported["\(error.reason)", default: 0] += 1
                } else {
                    failures.append("\(columns[0]): \(error)")
                }
            }
        }
        var variants = 0
        for (image, members) in groups.sorted(by: { $0.key < $1.key }) {
            guard let first = members.first else { continue }
            variants += members.count
            for member in members.dropFirst() where member.bitmap.format != first.bitmap.format || member.bitmap.tightBytes != first.bitmap.tightBytes {
                failures.append("\(image): \(member.path) differs from \(first.path)")
            }
        }
        report("TIFF generated: \(variants) lossless variants in \(groups.count) images agree; \(corrupt) corrupt files survived; unsupported: \(unsupported)")
        for failure in failures { report("TIFF generated FAIL " + failure) }
        #expect(failures.isEmpty)
        #expect(variants > 100)
    
    }

    /// Every generated TIFF (JPEG variants and corrupt copies included) against libtiff's RGBA
    /// interface, with the project expectations.
    @Test(.enabled(if: isAvailable, "Conformance/generated is absent"))
    func generatedFilesMatchLibtiff() throws {
        let expectations = try ConformanceTests.projectExpectations()
        let manifest = String(decoding: try ImageFiles.read(Self.root + "/manifest.tsv"), as: UTF8.self)
        var counts: [Verdict: Int] = [:]
        var failures: [String] = []
        for line in manifest.split(separator: "\n") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 3, columns[1] == "tiff" else { continue }
            let bytes = try GeneratedCorpus.read(columns[0])
            var report = FileComparison.compare(bytes: bytes, path: columns[0], relativePath: columns[0], suite: "generated")
            expectations.apply(to: &report)
            counts[report.verdict, default: 0] += 1
            if !report.expected { failures.append("\(columns[0]): \(report.verdict.rawValue): \(report.detail)") }
            if report.verdict == .unsupported || report.verdict == .referenceRejected {
                PureImageTests.report("TIFF generated \(report.verdict.rawValue) \(columns[0]): \(report.detail.prefix(120))")
            }
        }
        report("TIFF generated vs libtiff: " + Verdict.allCases.compactMap { verdict in counts[verdict].map { "\($0) \(verdict.rawValue)" } }.joined(separator: ", "))
        for failure in failures { report("TIFF generated FAIL " + failure) }
        #expect(failures.isEmpty)
        #expect((counts[.identical] ?? 0) > 200)
    }
}
