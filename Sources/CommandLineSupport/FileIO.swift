#if canImport(Glibc)
import Glibc
#endif

/// Writing output files (reading goes through the library's `ImageFiles.read`, so read errors
/// have the library's shape).
public enum FileIO {
    public struct WriteFailure: Error, CustomStringConvertible {
        public let path: String
        public let code: Int32
        public var description: String { "cannot write \(path): \(String(cString: strerror(code)))" }
    }

    /// Opens `path` and lets `produce` write the file in pieces (closing it in the end, and
    /// removing it when `produce` fails).
    public static func writeStreaming(to path: String, _ produce: ((ArraySlice<UInt8>) throws -> Void) throws -> Void) throws {
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

    /// Writes a whole file. A write error that shows only when the buffers are flushed (a full
    /// disk) is reported too: `fclose`'s result is checked.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        guard let file = fopen(path, "wb") else { throw WriteFailure(path: path, code: errno) }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        let writeError = written == bytes.count ? 0 : errno
        let closed = fclose(file) == 0
        guard writeError == 0 else { throw WriteFailure(path: path, code: writeError) }
        guard closed else { throw WriteFailure(path: path, code: errno) }
    }
}
