import PureImage
#if canImport(Glibc)
import Glibc
#endif

enum FileIO {
    /// Reads a whole file (through the library's reader, so errors have the library's shape).
    static func read(_ path: String) throws(DecodeError) -> [UInt8] {
        try ImageFiles.read(path)
    }

    struct WriteFailure: Error, CustomStringConvertible {
        let path: String
        let code: Int32
        var description: String { "cannot write \(path): \(String(cString: strerror(code)))" }
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        guard let file = fopen(path, "wb") else { throw WriteFailure(path: path, code: errno) }
        defer { fclose(file) }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == bytes.count else { throw WriteFailure(path: path, code: errno) }
    }
}
