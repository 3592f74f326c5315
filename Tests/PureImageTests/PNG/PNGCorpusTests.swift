import Testing
import CReference
@testable import PureImage

/// Every PNG of the shared corpus against libpng (through CReference): canonical RGBA samples
/// identical, and accept/reject in agreement except where Conformance/png-differences.tsv
/// lists the file with its reason.
@Suite struct PNGCorpusTests {
    enum Outcome: Equatable {
        case decoded(Bitmap, truncated: Bool)
        case rejected(String)
    }

    static func ours(_ bytes: [UInt8]) -> Outcome {
        let decoder = PNGDecoder(options: DecodeOptions())
        var input = InputBuffer(bytes, isClosed: true)
        do {
            _ = try decoder.advance(&input)
            guard let image = decoder.defaultImage else { return .rejected("no image") }
            return .decoded(try image.canonicalRGBA().tightlyPacked(), truncated: decoder.truncation != nil)
        } catch let error as DecodeError {
            return .rejected(error.description)
        } catch {
            return .rejected("\(error)")
        }
    }

    struct Reference {
        let status: Int32
        let bytes: [UInt8]
        let message: String
    }

    static func libpng(_ bytes: [UInt8]) -> Reference {
        var image = PIRefImage()
        _ = bytes.withUnsafeBufferPointer { pi_ref_png_decode($0.baseAddress, $0.count, &image) }
        defer { pi_ref_image_free(&image) }
        let pixels = image.pixels.map { Array(UnsafeBufferPointer(start: $0, count: image.size)) } ?? []
        let message = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return Reference(status: image.status, bytes: pixels, message: message)
    }

    /// Files whose outcome deliberately differs from libpng's, with the reason (one per line:
    /// `path<TAB>reason`), from Conformance/png-differences.tsv.
    static func listedDifferences() -> [String: String] {
        guard let bytes = try? ImageFiles.read(packageRoot() + "/Conformance/png-differences.tsv") else { return [:] }
        var result: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            let columns = line.split(separator: "\t", maxSplits: 1).map(String.init)
            if columns.count == 2 { result[columns[0]] = columns[1] }
        }
        return result
    }

    @Test(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
    func everyCorpusPNGMatchesLibpng() throws {
        let entries = Corpus.manifest().filter { $0.format == "png" || $0.format == "apng" }
        let listed = Self.listedDifferences()
        var identical = 0, bothRejected = 0, partialWhereLibpngRejects = 0, listedCount = 0
        var failures: [String] = []
        for entry in entries {
            guard let bytes = Corpus.read(entry) else { failures.append("\(entry.path): unreadable"); continue }
            let reference = Self.libpng(bytes)
            let outcome = Self.ours(bytes)
            switch (outcome, reference.status >= 0) {
            case (.decoded(let image, let truncated), true):
                if let difference = firstDifference(image.bytes, reference.bytes) {
                    failures.append("\(entry.path): pixels differ: \(difference)")
                } else if truncated {
                    failures.append("\(entry.path): we report truncation, libpng decoded cleanly")
                } else {
                    identical += 1
                }
            case (.rejected, false):
                bothRejected += 1
            case (.decoded(_, truncated: true), false):
                // Policy: a file that ends early decodes as far as it goes, marked truncated.
                partialWhereLibpngRejects += 1
            case (.decoded, false):
                if listed[entry.path] != nil { listedCount += 1 } else {
                    failures.append("\(entry.path): we decode, libpng rejects (\(reference.message))")
                }
            case (.rejected(let why), true):
                if listed[entry.path] != nil { listedCount += 1 } else {
                    failures.append("\(entry.path): we reject (\(why)), libpng decodes")
                }
            }
        }
        report("PNG vs libpng: \(entries.count) files: \(identical) identical, \(bothRejected) rejected by both, \(partialWhereLibpngRejects) truncated (partial) where libpng rejects, \(listedCount) listed differences, \(failures.count) failures")
        for failure in failures { report("PNG FAIL " + failure) }
        #expect(failures.isEmpty, "\(failures.count) PNG files disagree with libpng (see the [corpus] lines)")
        #expect(identical > 0)
    }
}

/// The package root, from this source file's location (Tests/PureImageTests/PNG/…).
func packageRoot(_ file: String = #filePath) -> String {
    var components = file.split(separator: "/", omittingEmptySubsequences: false)
    components.removeLast(4)
    return components.joined(separator: "/")
}
