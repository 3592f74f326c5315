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

    /// Opens `path` and lets `produce` write the file in pieces (closing it in the end, and
    /// removing it when `produce` fails).
    static func writeStreaming(to path: String, _ produce: ((ArraySlice<UInt8>) throws -> Void) throws -> Void) throws {
        guard let file = fopen(path, "wb") else { throw WriteFailure(path: path, code: errno) }
        do {
            try produce { piece in
                let written = piece.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
                guard written == piece.count else { throw WriteFailure(path: path, code: errno) }
            }
        } catch {
            fclose(file)
            remove(path)
            throw error
        }
        guard fclose(file) == 0 else { throw WriteFailure(path: path, code: errno) }
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        guard let file = fopen(path, "wb") else { throw WriteFailure(path: path, code: errno) }
        defer { fclose(file) }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == bytes.count else { throw WriteFailure(path: path, code: errno) }
    }
}
