#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file into memory with the C library (the library does not depend on
/// Foundation), so that every way a path can fail is a typed `FileError`, never an abort:
///
/// | path is…                              | outcome                                      |
/// |---------------------------------------|----------------------------------------------|
/// | missing                               | `.noSuchFile`                                |
/// | not readable                          | `.permissionDenied`                          |
/// | a directory                           | `.isDirectory`                               |
/// | a device, socket (`/dev/zero`, …)     | `.notARegularFile` — it may never end        |
/// | a FIFO or pipe (`<(curl …)`)          | read to its end, at most `maxBytes`          |
/// | a regular file                        | its bytes; one that shrinks while read gives what was there |
/// | larger than `maxBytes`                | `.tooLarge`, before anything is allocated (regular files) |
///
/// The size of a regular file comes from `fstat` on the open descriptor, so the file that is
/// measured is the file that is read.
enum FileReader {
    /// Files larger than this are refused: 4 GiB, above anything the decode limits let through
    /// (`ImageFiles.read` repeats the value as its default).
    static let defaultMaxBytes = 1 << 32

    static func read(_ path: String, maxBytes: Int = defaultMaxBytes) throws(DecodeError) -> [UInt8] {
        try read(path, prefix: nil, maxBytes: maxBytes).bytes
    }

    /// The file's first `prefix` bytes (all of it when `prefix` is nil), and whether they are
    /// the whole file. Only a regular file is read in part; a FIFO is read to its end.
    static func read(_ path: String, prefix: Int?, maxBytes: Int = defaultMaxBytes) throws(DecodeError) -> (bytes: [UInt8], isWholeFile: Bool) {
        let (descriptor, size) = try openForReading(path)
        defer { close(descriptor) }
        guard let size else {
            // A FIFO: read to its end.
            return (try readToEnd(descriptor, path: path, expected: 0, maxBytes: maxBytes), true)
        }
        guard size <= maxBytes else { throw error(FileError.tooLarge(path: path, bytes: size, limit: maxBytes)) }
        if let prefix, prefix < size { return (try readPrefix(descriptor, path: path, count: prefix), false) }
        return (try readToEnd(descriptor, path: path, expected: size, maxBytes: maxBytes), true)
    }

    /// `path` opened for reading and checked (the table above): a regular file, with its size
    /// from `fstat` on the descriptor, or a FIFO (size nil). Any other kind of file is a typed
    /// error, its descriptor closed; the caller closes the one returned.
    static func openForReading(_ path: String) throws(DecodeError) -> (descriptor: Int32, regularFileSize: Int?) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, errno: errno, offset: nil) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw failure(path, errno: code, offset: nil)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return (descriptor, Int(info.st_size))
        case S_IFIFO:
            return (descriptor, nil)
        case S_IFDIR:
            close(descriptor)
            throw error(FileError.isDirectory(path: path))
        default:
            close(descriptor)
            throw error(FileError.notARegularFile(path: path))
        }
    }

    /// The first `count` bytes (fewer if the file shrank meanwhile).
    private static func readPrefix(_ descriptor: Int32, path: String, count: Int) throws(DecodeError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        let filled = try fill(&bytes, from: 0, descriptor, path: path)
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Reads until end of file (or `maxBytes`, an error), growing past `expected` if the file did.
    private static func readToEnd(_ descriptor: Int32, path: String, expected: Int, maxBytes: Int) throws(DecodeError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(expected, 1 << 16))
        var count = 0
        while true {
            count = try fill(&bytes, from: count, descriptor, path: path)
            // (The first buffer may be larger than the limit: a pipe gets 64 KiB.)
            guard count <= maxBytes else { throw error(FileError.tooLarge(path: path, bytes: nil, limit: maxBytes)) }
            if count < bytes.count { break }
            // Full: look for the end of file in a small buffer first, so a file read in one go
            // (the usual case: `expected` is its size) is never copied into a larger array.
            var probe = [UInt8](repeating: 0, count: 1 << 12)
            let got = probe.withUnsafeMutableBytes { readBytes(descriptor, $0) }
            if got < 0 {
                if errno == EINTR { continue }
                throw failure(path, errno: errno, offset: count)
            }
            if got == 0 { break }
            guard count + got <= maxBytes else { throw error(FileError.tooLarge(path: path, bytes: nil, limit: maxBytes)) }
            bytes.append(contentsOf: probe[..<got])
            count += got
            bytes.append(contentsOf: repeatElement(0, count: min(max(count, 1 << 16), maxBytes - count)))
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Reads into `bytes[start...]` until it is full or the file ends; returns the bytes filled.
    static func fill(_ bytes: inout [UInt8], from start: Int, _ descriptor: Int32, path: String) throws(DecodeError) -> Int {
        var filled = start
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                readBytes(descriptor, UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw failure(path, errno: errno, offset: filled)
            }
            if got == 0 { break }
            filled += got
        }
        return filled
    }

    static func failure(_ path: String, errno code: Int32, offset: Int?) -> DecodeError {
        switch code {
        case ENOENT, ENOTDIR: return error(FileError.noSuchFile(path: path))
        case EACCES, EPERM: return error(FileError.permissionDenied(path: path))
        case EISDIR: return error(FileError.isDirectory(path: path))
        default: return DecodeError(.io, format: nil, offset: offset, FileError.readFailed(path: path, errno: code))
        }
    }

    static func error(_ reason: FileError) -> DecodeError {
        DecodeError(.io, format: nil, offset: nil, reason)
    }
}

/// A file read front to back in pieces, for a decode that holds a window of its input rather
/// than all of it (`ImageSource.decodeRows(contentsOfFile:)`). Opened and checked as
/// `FileReader.read` checks: a directory, a device or a socket is a typed error, never a read
/// that might not end; a regular file or a FIFO is read until its end or `maxBytes` (an error).
final class FileStream {
    let path: String
    private let descriptor: Int32
    private let maxBytes: Int
    /// Bytes read so far (the offset of the next byte `next(upTo:)` returns).
    private(set) var offset = 0
    /// True once a read found the end of the file.
    private(set) var isAtEnd = false
    /// A regular file (it can be opened and read again from the start); false for a FIFO.
    var isRegularFile: Bool { size != nil }
    /// A regular file's size when it was opened (`fstat`); nil for a FIFO.
    let size: Int?

    init(path: String, maxBytes: Int = FileReader.defaultMaxBytes) throws(DecodeError) {
        self.path = path
        self.maxBytes = maxBytes
        let (descriptor, size) = try FileReader.openForReading(path)
        if let size, size > maxBytes {
            // As `FileReader.read` refuses it: before anything is read or allocated.
            close(descriptor)
            throw FileReader.error(FileError.tooLarge(path: path, bytes: size, limit: maxBytes))
        }
        self.descriptor = descriptor
        self.size = size
    }

    deinit { close(descriptor) }

    /// A regular file: the next read starts at `offset` again (the file is read a second time:
    /// a walk of the whole file, then the decode).
    func seek(to offset: Int) throws(DecodeError) {
        guard isRegularFile, lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw FileReader.failure(path, errno: errno, offset: offset)
        }
        self.offset = offset
        isAtEnd = false
    }

    /// The next `count` bytes, fewer at the end of the file (none once it is reached).
    func next(upTo count: Int) throws(DecodeError) -> [UInt8] {
        guard !isAtEnd, count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let filled = try FileReader.fill(&bytes, from: 0, descriptor, path: path)
        if filled < count {
            isAtEnd = true
            bytes.removeSubrange(filled...)
        }
        offset += filled
        guard offset <= maxBytes else { throw FileReader.error(FileError.tooLarge(path: path, bytes: nil, limit: maxBytes)) }
        return bytes
    }
}

/// `read(2)` into `buffer`, for `FileReader` (whose own `read` shadows the C function).
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    guard let base = buffer.baseAddress else { return 0 }
    return read(descriptor, base, buffer.count)
}

/// Why a file could not be read (`DecodeError.Kind.io`).
public enum FileError: DecodeErrorReason, Hashable {
    /// Nothing exists at `path` (ENOENT, ENOTDIR).
    case noSuchFile(path: String)
    /// The file at `path` may not be read (EACCES, EPERM).
    case permissionDenied(path: String)
    /// `path` names a directory.
    case isDirectory(path: String)
    /// A device or socket: reading it might never end (`/dev/zero`) or block.
    case notARegularFile(path: String)
    /// Larger than the reader's limit; `bytes` is nil when the size was not known up front (a pipe).
    case tooLarge(path: String, bytes: Int?, limit: Int)
    /// Any other failure of `open`, `fstat` or `read`.
    case readFailed(path: String, errno: Int32)

    public var description: String {
        switch self {
        case .noSuchFile(let path): return "\(path): no such file"
        case .permissionDenied(let path): return "\(path): permission denied"
        case .isDirectory(let path): return "\(path): is a directory"
        case .notARegularFile(let path): return "\(path): not a regular file or pipe"
        case .tooLarge(let path, let bytes, let limit):
            return "\(path): \(bytes.map { "\($0) bytes" } ?? "more bytes") than the limit of \(limit)"
        case .readFailed(let path, let code): return "\(path): \(String(cString: strerror(code))) (errno \(code))"
        }
    }
}
