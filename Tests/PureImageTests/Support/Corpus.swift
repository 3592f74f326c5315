import Testing
import PureImage
#if canImport(Glibc)
import Glibc
#endif

/// The shared third-party corpus, when the environment points at it (`.ci/run` sets
/// PUREIMAGE_CORPUS to ../shared/corpus when that folder exists). Corpus tests are skipped,
/// visibly, when it is absent.
enum Corpus {
    static var root: String? {
        guard let value = getenv("PUREIMAGE_CORPUS") else { return nil }
        let path = String(cString: value)
        return path.isEmpty ? nil : path
    }

    static var isAvailable: Bool { root != nil }

    struct Entry {
        let path: String          // relative to the root
        let format: String        // manifest format column
        let expectation: String   // valid / corrupt / unknown
        let notes: String
        var absolutePath: String { (Corpus.root ?? ".") + "/" + path }
    }

    /// Rows of manifest.tsv (header skipped).
    static func manifest() -> [Entry] {
        guard let root, let bytes = try? ImageFiles.read(root + "/manifest.tsv") else { return [] }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 3 else { return nil }
            return Entry(path: columns[0], format: columns[1], expectation: columns[2], notes: columns.count > 3 ? columns[3] : "")
        }
    }

    static func read(_ entry: Entry) -> [UInt8]? { try? ImageFiles.read(entry.absolutePath) }

    /// A corpus file's bytes by relative path; records an issue and throws when it is missing
    /// (a corpus test must not pass by skipping its input).
    static func read(_ relative: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        try #require(try? ImageFiles.read((root ?? ".") + "/" + relative), "\(relative) is missing from the corpus", sourceLocation: sourceLocation)
    }
}

/// The project's own generated corpus, `Conformance/generated` (`scripts/test.sh` runs
/// `Conformance/generate_corpus.py` and `generate_jpeg.sh` before the tests). Tests that read it
/// are skipped, visibly, when it has not been generated.
enum GeneratedCorpus {
    static let root = packageRoot() + "/Conformance/generated"
    static var isAvailable: Bool { (try? ImageFiles.read(root + "/manifest.tsv")) != nil }
    /// The files of `generate_jpeg.sh` (every sampling combination cjpeg writes).
    static let jpegSampling = root + "/jpeg-sampling"
    static var jpegSamplingIsAvailable: Bool { GIFTest.files(under: jpegSampling).contains { $0.hasSuffix(".jpg") } }

    /// A generated file's bytes; records an issue (the file should be there) and throws when it is not.
    static func read(_ relative: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        try #require(try? ImageFiles.read(root + "/" + relative), "\(relative) is missing from Conformance/generated", sourceLocation: sourceLocation)
    }
}

/// Prints a test-log line (Swift Testing shows stdout of the test process).
func report(_ line: String) {
    print("[corpus] " + line)
}

/// The first differing sample of two equal-sized buffers, with a 16-byte hex neighbourhood of each.
func firstDifference(_ ours: [UInt8], _ theirs: [UInt8]) -> String? {
    guard ours != theirs else { return nil }
    guard ours.count == theirs.count else { return "sizes differ: \(ours.count) vs \(theirs.count) bytes" }
    guard let index = ours.indices.first(where: { ours[$0] != theirs[$0] }) else { return nil }
    let start = max(0, index - 8), end = min(ours.count, index + 8)
    func hex(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: " ")
    }
    return "first difference at byte \(index): ours [\(hex(ours[start..<end]))] reference [\(hex(theirs[start..<end]))]"
}
