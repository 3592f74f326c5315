import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import PureImage

/// `FileReader`: every kind of path gives its bytes or a typed `FileError`, and a prefix read
/// gives the file's first bytes.
@Suite struct FileReaderTests {
    static func scratchFile(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = "/tmp/pureimage-filereader-\(getpid())-\(name)"
        try ConformanceTests.write(bytes, to: path)
        return path
    }

    static func reason(_ body: () throws(DecodeError) -> Void) -> FileError? {
        do { try body() } catch { return error.reason as? FileError }
        return nil
    }

    @Test func wholeFilesOfEverySize() throws {
        // Empty, smaller than the first read, exactly 64 KiB, and larger (the growth path).
        for count in [0, 1, 4096, 1 << 16, 200_003] {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
            let path = try Self.scratchFile("whole\(count)", bytes)
            defer { unlink(path) }
            #expect(try FileReader.read(path) == bytes, "\(count) bytes")
        }
    }

    @Test func prefixesAreTheFirstBytes() throws {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let path = try Self.scratchFile("prefix", bytes)
        defer { unlink(path) }
        let part = try FileReader.read(path, prefix: 1000)
        #expect(part.bytes == Array(bytes.prefix(1000)) && !part.isWholeFile)
        let all = try FileReader.read(path, prefix: 100_000)
        #expect(all.bytes == bytes && all.isWholeFile)
        let more = try FileReader.read(path, prefix: 1 << 20)
        #expect(more.bytes == bytes && more.isWholeFile)
    }

    /// A pipe (`<(curl …)`) is read to its end (its size is not known up front), within the limit.
    @Test(arguments: [false, true])
    func aPipeIsReadToItsEnd(overTheLimit: Bool) throws {
        let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        // 5000 bytes fit in the pipe's buffer, so the write completes before the read starts.
        _ = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        defer { close(ends[0]) }
        let path = "/dev/fd/\(ends[0])"
        if overTheLimit {
            #expect(Self.reason { () throws(DecodeError) in _ = try FileReader.read(path, maxBytes: 4999) }
                    == .tooLarge(path: path, bytes: nil, limit: 4999))
        } else {
            let read = try FileReader.read(path, prefix: 10)
            #expect(read.bytes == bytes && read.isWholeFile)
        }
    }

    @Test func pathsThatAreNotFilesAreTypedErrors() throws {
        let directory = "/tmp/pureimage-filereader-\(getpid())-directory"
        _ = mkdir(directory, 0o755)
        defer { rmdir(directory) }
        #expect(Self.reason { () throws(DecodeError) in _ = try FileReader.read(directory) } == .isDirectory(path: directory))
        #expect(Self.reason { () throws(DecodeError) in _ = try FileReader.read(directory, prefix: 10) } == .isDirectory(path: directory))
        let missing = directory + "/missing"
        #expect(Self.reason { () throws(DecodeError) in _ = try FileReader.read(missing) } == .noSuchFile(path: missing))
        #expect(Self.reason { () throws(DecodeError) in _ = try FileReader.read("/dev/zero") } == .notARegularFile(path: "/dev/zero"))
        let big = try Self.scratchFile("limit", [UInt8](repeating: 1, count: 5000))
        defer { unlink(big) }
        #expect(Self.reason { () throws(DecodeError) in _ = try FileReader.read(big, maxBytes: 4999) }
                == .tooLarge(path: big, bytes: 5000, limit: 4999))
    }
}
