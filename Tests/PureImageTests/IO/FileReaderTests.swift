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

    /// `RandomAccessReader` over a file reads what it reads over the same bytes in memory: every
    /// integer width at every offset in both byte orders (blocks of 7 bytes, so that reads
    /// straddle blocks, and the cache of 256 blocks is emptied and refilled along the way), byte
    /// ranges, and the same `endOfData` past the end; a FIFO is not read at offsets.
    @Test func randomAccessReadsAreTheInMemoryReads() throws {
        let bytes = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ $0 >> 3) }
        let path = try Self.scratchFile("random-access", bytes)
        defer { unlink(path) }
        let file = try #require(try RandomAccessFile(path: path, blockSize: 7))
        let onFile = RandomAccessReader(file: file), inMemory = RandomAccessReader(bytes)
        // The value or the error, with its offset and counts, as text.
        func same(_ a: () throws -> Any, _ b: () throws -> Any) -> Bool {
            func outcome(_ read: () throws -> Any) -> String {
                do { return "\(try read())" } catch { return "\(error)" }
            }
            return outcome(a) == outcome(b)
        }
        #expect(onFile.size == 3000)
        var differing: [String] = []
        for offset in -1 ... 3001 {
            for order in [Endianness.bigEndian, .littleEndian] {
                if !same({ try onFile.getUInt16(at: offset, order) }, { try inMemory.getUInt16(at: offset, order) }) { differing.append("16 bits at \(offset)") }
                if !same({ try onFile.getUInt32(at: offset, order) }, { try inMemory.getUInt32(at: offset, order) }) { differing.append("32 bits at \(offset)") }
                if !same({ try onFile.getUInt64(at: offset, order) }, { try inMemory.getUInt64(at: offset, order) }) { differing.append("64 bits at \(offset)") }
            }
            if !same({ try onFile.getUInt8(at: offset) }, { try inMemory.getUInt8(at: offset) }) { differing.append("8 bits at \(offset)") }
        }
        for (offset, count) in [(0, 3000), (5, 100), (2990, 10), (2990, 11), (3000, 0), (-1, 2), (100, -1)] {
            if !same({ Array(try onFile.getBytes(at: offset, count: count)) }, { Array(try inMemory.getBytes(at: offset, count: count)) }) {
                differing.append("\(count) bytes at \(offset)")
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(10))")
        #expect(file.failure == nil && file.mostHeld <= RandomAccessFile.cachedBlockLimit * 7 + 3000)

        let fifo = "/tmp/pureimage-filereader-\(getpid())-random-access-fifo"
        _ = mkfifo(fifo, 0o600)
        defer { unlink(fifo) }
        // (Opened for writing too, so that opening it for reading does not wait for a writer.)
        let writer = open(fifo, O_RDWR | O_NONBLOCK)
        defer { if writer >= 0 { close(writer) } }
        #expect(try RandomAccessFile(path: fifo) == nil)
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
