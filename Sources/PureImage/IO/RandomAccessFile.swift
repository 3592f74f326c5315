#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file read at offsets (`pread`), for a decoder that addresses its input by offset
/// and need not hold it: a TIFF's IFDs, tag values and strips may lie anywhere in the file
/// (`ImageSource.decodeRows(contentsOfFile:)`). Opened and checked as `FileReader.read` checks.
///
/// Small reads (IFD entries, tag values) go through a cache of blocks (64 KiB; tests use
/// smaller ones), bounded at `cachedBlockLimit` blocks (past it the cache is emptied: what is read again is fetched
/// again); large reads (strips, tiles) go straight into an array of their own.
///
/// A file that shrinks while read gives what is there, as `FileReader.read` does: a read past
/// its end returns fewer bytes, and the decode sees a truncated file. A failed `pread` is kept
/// (`failure`, the first one) and the read returns nothing, so the decoder fails or ends where
/// it was; the caller throws `failure` in place of whatever the decoder said.
final class RandomAccessFile {
    let path: String
    private let descriptor: Int32
    /// The size `fstat` gave when the file was opened: the end of data for every read.
    let size: Int
    private(set) var failure: DecodeError?
    /// The most bytes held at once: the cached blocks and the read in progress (for tests).
    private(set) var mostHeld = 0

    let blockSize: Int
    static let cachedBlockLimit = 256
    private var blocks: [Int: [UInt8]] = [:]
    /// The bytes the cached blocks hold.
    private var cachedBytes = 0

    /// Nil for anything but a regular file (a FIFO cannot be read at offsets); typed errors as
    /// `FileReader.read`'s for paths that cannot be read at all, or a file over `maxBytes`.
    init?(path: String, blockSize: Int = 1 << 16, maxBytes: Int = FileReader.defaultMaxBytes) throws(DecodeError) {
        let (descriptor, size) = try FileReader.openForReading(path)
        guard let size else {
            close(descriptor)
            return nil
        }
        guard size <= maxBytes else {
            close(descriptor)
            throw FileReader.error(FileError.tooLarge(path: path, bytes: size, limit: maxBytes))
        }
        self.path = path
        self.blockSize = max(1, blockSize)
        self.descriptor = descriptor
        self.size = size
    }

    deinit { close(descriptor) }

    /// The bytes `offset ..< offset + count` clipped to the file: fewer (or none) past its end
    /// or after a failed read.
    func read(at offset: Int, count: Int) -> [UInt8] {
        guard failure == nil, offset >= 0, offset < size, count > 0 else { return [] }
        let wanted = min(count, size - offset)
        mostHeld = max(mostHeld, cachedBytes + wanted)
        var bytes = [UInt8](repeating: 0, count: wanted)
        var filled = 0
        while filled < wanted {
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                // filled < wanted = buffer.count: the rest of the buffer.
                return pread(descriptor, base + filled, wanted - filled, off_t(offset + filled))
            }
            if got < 0 {
                if errno == EINTR { continue }
                failure = FileReader.failure(path, errno: errno, offset: offset + filled)
                filled = 0
                break
            }
            if got == 0 { break }   // the file shrank: what is there
            filled += got
        }
        if filled < wanted { bytes.removeSubrange(filled...) }
        return bytes
    }

    /// The cached block holding `offset`, with the block's first offset (its bytes end early at
    /// the end of the file).
    func block(containing offset: Int) -> (start: Int, bytes: [UInt8]) {
        let index = offset / blockSize
        if let cached = blocks[index] { return (index * blockSize, cached) }
        if blocks.count >= Self.cachedBlockLimit {
            blocks.removeAll(keepingCapacity: true)
            cachedBytes = 0
        }
        let bytes = read(at: index * blockSize, count: blockSize)
        if failure == nil {
            blocks[index] = bytes
            cachedBytes += bytes.count
        }
        return (index * blockSize, bytes)
    }
}

/// Reads at absolute offsets, bounds-checked, from bytes in memory or from a file
/// (`RandomAccessFile`): what the TIFF decoder reads its IFDs and tag values through, so that
/// one walk serves a file held whole and a file read at offsets. Reads past `size` throw
/// `ByteReaderError.endOfData`, as `ByteReader`'s do.
struct RandomAccessReader {
    private enum Storage {
        case memory(ByteReader)
        case file(RandomAccessFile)
    }
    private let storage: Storage
    /// The input's length: the end of every readable range.
    let size: Int

    init(_ bytes: [UInt8]) {
        storage = .memory(ByteReader(bytes))
        size = bytes.count
    }

    init(file: RandomAccessFile) {
        storage = .file(file)
        size = file.size
    }

    /// `count` bytes at `position` as a fresh array (memory: a slice; file: read past the
    /// cache, straight into an array of its own — strips and large tag values). Its indices
    /// are not offsets: index it from `startIndex`.
    func getBytes(at position: Int, count: Int) throws(ByteReaderError) -> ArraySlice<UInt8> {
        switch storage {
        case .memory(let reader):
            return try reader.getBytes(at: position, count: count)
        case .file(let file):
            try check(position, count)
            let bytes = file.read(at: position, count: count)
            // Fewer: the file shrank, or a read failed (`RandomAccessFile.failure`).
            guard bytes.count == count else { throw .endOfData(offset: position, needed: count, available: bytes.count) }
            return bytes[...]
        }
    }

    func getUInt8(at position: Int) throws(ByteReaderError) -> UInt8 {
        UInt8(try integer(at: position, count: 1, .bigEndian))
    }

    func getUInt16(at position: Int, _ endianness: Endianness) throws(ByteReaderError) -> UInt16 {
        UInt16(try integer(at: position, count: 2, endianness))
    }

    func getUInt32(at position: Int, _ endianness: Endianness) throws(ByteReaderError) -> UInt32 {
        UInt32(try integer(at: position, count: 4, endianness))
    }

    func getUInt64(at position: Int, _ endianness: Endianness) throws(ByteReaderError) -> UInt64 {
        try integer(at: position, count: 8, endianness)
    }

    /// `count` unsigned integers of `size` bytes (1, 2, 4 or 8) from `position` on: a TIFF tag's
    /// array (strip offsets and byte counts: one value per strip). Read as one range — a slice
    /// of the bytes in memory, or one read of the file when the array is larger than a cache
    /// block — instead of one bounds-checked read per value, which cost a 1 500-strip TIFF's
    /// header walk most of its time.
    func unsignedIntegers(at position: Int, count: Int, size: Int, _ endianness: Endianness) throws(ByteReaderError) -> [UInt64] {
        let (total, overflow) = count.multipliedReportingOverflow(by: size)
        guard !overflow, count >= 0, size >= 1, size <= 8 else { throw .endOfData(offset: position, needed: Int.max, available: 0) }
        if case .file(let file) = storage, total <= file.blockSize {
            // Small arrays (and values inside the IFD entry) come from the block cache.
            var values: [UInt64] = []
            values.reserveCapacity(count)
            for index in 0 ..< count { values.append(try integer(at: position + index * size, count: size, endianness)) }
            return values
        }
        let bytes = try getBytes(at: position, count: total)
        let start = bytes.startIndex, bigEndian = endianness == .bigEndian
        func byte(_ at: Int) -> UInt64 { UInt64(bytes[at]) }
        // SHORT and LONG, the strip arrays' types, without the general loop's per-byte branch.
        switch (size, bigEndian) {
        case (2, true): return (0 ..< count).map { let at = start + 2 * $0; return byte(at) << 8 | byte(at + 1) }
        case (2, false): return (0 ..< count).map { let at = start + 2 * $0; return byte(at) | byte(at + 1) << 8 }
        case (4, true):
            return (0 ..< count).map { let at = start + 4 * $0; return byte(at) << 24 | byte(at + 1) << 16 | byte(at + 2) << 8 | byte(at + 3) }
        case (4, false):
            return (0 ..< count).map { let at = start + 4 * $0; return byte(at) | byte(at + 1) << 8 | byte(at + 2) << 16 | byte(at + 3) << 24 }
        default:
            return (0 ..< count).map { index in
                let at = start + index * size
                var value: UInt64 = 0
                for i in 0 ..< size { value = value << 8 | byte(at + (bigEndian ? i : size - 1 - i)) }
                return value
            }
        }
    }

    private func check(_ position: Int, _ count: Int) throws(ByteReaderError) {
        let (end, overflow) = position.addingReportingOverflow(count)
        guard count >= 0, !overflow, position >= 0, end <= size else {
            throw .endOfData(offset: position, needed: count, available: Swift.max(0, size - position))
        }
    }

    /// An unsigned integer of `count` (≤ 8) bytes; a file's through its block cache, byte by
    /// byte across a block boundary.
    @inline(__always)
    private func integer(at position: Int, count: Int, _ endianness: Endianness) throws(ByteReaderError) -> UInt64 {
        switch storage {
        case .memory(let reader):
            switch count {
            case 1: return UInt64(try reader.getUInt8(at: position))
            case 2: return UInt64(try reader.getUInt16(at: position, endianness))
            case 4: return UInt64(try reader.getUInt32(at: position, endianness))
            default: return try reader.getUInt64(at: position, endianness)
            }
        case .file(let file):
            try check(position, count)
            var value: UInt64 = 0
            var block = file.block(containing: position)
            for i in 0 ..< count {
                let at = position + (endianness == .bigEndian ? i : count - 1 - i)
                if at < block.start || at >= block.start + file.blockSize { block = file.block(containing: at) }
                let index = at - block.start
                // A block that ends early: the file shrank, or a read failed.
                guard index < block.bytes.count else { throw .endOfData(offset: position, needed: count, available: 0) }
                value = value << 8 | UInt64(block.bytes[index])
            }
            return value
        }
    }
}
