@testable import PureImage
@testable import PureImageConformance
#if canImport(Glibc)
import Glibc
#endif

enum WebPTest {
    static let folder = "webp/libwebp-test-data"

    static var corpusFolder: String? { Corpus.root.map { $0 + "/" + folder } }

    /// The corpus WebP files (sorted names), or [] without a corpus.
    static func corpusFiles() -> [String] {
        guard let root = corpusFolder, let dir = opendir(root) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".webp") { names.append(name) }
        }
        return names.sorted()
    }

    static func read(_ name: String) -> [UInt8]? {
        guard let root = corpusFolder else { return nil }
        return try? ImageFiles.read(root + "/" + name)
    }

    /// RGBA samples of a P7 (PAM) file with DEPTH 4 and MAXVAL 255.
    static func pam(_ bytes: [UInt8]) -> (width: Int, height: Int, rgba: [UInt8])? {
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: Array("ENDHDR\n".utf8)) }) else { return nil }
        let header = String(decoding: bytes[0..<end], as: UTF8.self)
        var fields: [String: Int] = [:]
        for line in header.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
        }
        guard let width = fields["WIDTH"], let height = fields["HEIGHT"], fields["DEPTH"] == 4 else { return nil }
        let start = end + 7
        guard bytes.count - start == width * height * 4 else { return nil }
        return (width, height, Array(bytes[start...]))
    }

    /// One-shot decode to straight RGBA8 with PureImage.
    static func decode(_ bytes: [UInt8]) throws -> (bitmap: Bitmap, truncated: Bool) {
        let decoded = try ImageSource(bytes: bytes).decode(options: ImageDecodingOptions(output: .format(.rgba8)))
        return (decoded.bitmap, decoded.truncation != nil)
    }

    /// Whether the file holds a lossless (VP8L) still.
    static func isLossless(_ bytes: [UInt8]) -> Bool {
        Inspector.inspect(bytes).contains { $0.name == "VP8L" }
    }
}
