import Testing
@testable import PureImage

/// Docs/Bitmap.md, "Rows": every bitmap the library delivers — `decode(at:)` in any output,
/// oriented or not, `decodedAndScaledDown`, `thumbnail`, and the incremental source's images —
/// has tight rows, `bytesPerRow == format.minimumBytesPerRow(width:)`. Checked on generated
/// files of every format whose width is not a multiple of 8 (where aligned and tight differ).
@Suite struct RowLayoutTests {
    static let outputs: [ImageDecodingOptions.Output] = [.native, .canonicalRGBA, .display, .format(.rgb8), .format(.gray8), .libtiffRGBA]

    /// Up to `perFormat` valid generated files of each format with a width that is no multiple of 8.
    static func oddWidthFiles(perFormat: Int) throws -> [(path: String, bytes: [UInt8])] {
        let manifest = String(decoding: try GeneratedCorpus.read("manifest.tsv"), as: UTF8.self)
        var picked: [String: Int] = [:]
        var files: [(String, [UInt8])] = []
        for line in manifest.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3, fields[2] == "valid", picked[String(fields[1]), default: 0] < perFormat else { continue }
            let path = String(fields[0])
            let bytes = try GeneratedCorpus.read(path)
            guard let source = try? ImageSource(bytes: bytes), let width = try? source.properties().width,
                  width % 8 != 0, (try? source.decode()) != nil else { continue }
            picked[String(fields[1]), default: 0] += 1
            files.append((path, bytes))
        }
        return files
    }

    static func expectTight(_ bitmap: Bitmap, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(bitmap.bytesPerRow == bitmap.format.minimumBytesPerRow(width: bitmap.width),
                "\(what): \(bitmap.width) px wide, \(bitmap.bytesPerRow) bytes per row", sourceLocation: sourceLocation)
    }

    @Test(.enabled(if: GeneratedCorpus.isAvailable, "Conformance/generated is absent"))
    func everyDeliveredBitmapHasTightRows() throws {
        let files = try Self.oddWidthFiles(perFormat: 12)
        #expect(Set(files.map { $0.path.split(separator: "/")[0] }) == ["png", "jpeg", "gif", "tiff", "webp"])
        for (path, bytes) in files {
            let source = try ImageSource(bytes: bytes)
            for output in Self.outputs {
                for orient in [false, true] {
                    let decoded = try source.image(options: ImageDecodingOptions(output: output, applyOrientation: orient))
                    Self.expectTight(decoded, "\(path) decode \(output) oriented \(orient)")
                }
                Self.expectTight(try source.thumbnail(maxPixelSize: 5, output: output), "\(path) thumbnail \(output)")
                let width = try source.properties().width, height = try source.properties().height
                let limit = max(4, width * height * 4 / 3)
                Self.expectTight(try source.decodedAndScaledDown(limitBytes: limit, output: output), "\(path) downscale \(output)")
            }
            let incremental = IncrementalImageSource()
            incremental.update(data: Array(bytes.prefix(bytes.count * 2 / 3)), final: false)
            if let partial = incremental.partialImage(options: ImageDecodingOptions(output: .display)) {
                Self.expectTight(partial, "\(path) partial image")
            }
            incremental.update(data: bytes, final: true)
            Self.expectTight(try incremental.image(options: ImageDecodingOptions(output: .canonicalRGBA)), "\(path) incremental image")
        }
    }
}
