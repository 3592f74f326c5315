/// Endianness of a multi-byte integer, stated at every read (never defaulted).
public enum Endianness: Sendable, Hashable {
    /// Most significant byte first (network order; JPEG, PNG, TIFF "MM").
    case bigEndian
    /// Least significant byte first (GIF, WebP, TIFF "II").
    case littleEndian
}

/// A bounds-checked cursor over a window of bytes, in the manner of SwiftNIO's `ByteBuffer`:
/// `read…` advances, `peek…` and `get…(at:)` leave the cursor alone. Offsets are absolute
/// positions in the underlying stream, so an error can say where it happened.
///
/// Every access goes through `range(at:count:)`, the one bounds check:
/// `window.lowerBound ≤ offset` and `offset + count ≤ window.upperBound`, computed without
/// overflow. Past the window a read throws `ByteReaderError.endOfData` and moves nothing.
public struct ByteReader: Sendable {
    private let bytes: [UInt8]
    /// The readable window (absolute offsets).
    public let window: Range<Int>
    /// Absolute offset of the next byte `read…` returns.
    public private(set) var offset: Int

    /// A reader over `range` of `bytes` (all of them when nil), its cursor at the window's start.
    public init(_ bytes: [UInt8], range: Range<Int>? = nil) {
        let window = range ?? 0 ..< bytes.count
        precondition(window.lowerBound >= 0 && window.upperBound <= bytes.count, "window outside the bytes")
        self.bytes = bytes
        self.window = window
        self.offset = window.lowerBound
    }

    /// Bytes from the cursor to the end of the window.
    public var remaining: Int { window.upperBound - offset }
    /// True when the cursor is at (or past) the end of the window.
    public var isAtEnd: Bool { offset >= window.upperBound }

    /// The one bounds function: the byte range `offset ..< offset + count` if it lies inside the window.
    @inline(__always)
    private func range(at start: Int, count: Int) throws(ByteReaderError) -> Range<Int> {
        let (end, overflow) = start.addingReportingOverflow(count)
        guard count >= 0, !overflow, start >= window.lowerBound, end <= window.upperBound else {
            throw .endOfData(offset: start, needed: count, available: Swift.max(0, window.upperBound - start))
        }
        return start ..< end
    }

    // MARK: get (absolute, cursor unchanged)

    /// The byte at an absolute `position`.
    public func getUInt8(at position: Int) throws(ByteReaderError) -> UInt8 {
        bytes[try range(at: position, count: 1).lowerBound]
    }

    /// The 16-bit integer at an absolute `position`.
    public func getUInt16(at position: Int, _ endianness: Endianness) throws(ByteReaderError) -> UInt16 {
        let r = try range(at: position, count: 2)
        let b0 = UInt16(bytes[r.lowerBound]), b1 = UInt16(bytes[r.lowerBound + 1])
        return endianness == .bigEndian ? b0 << 8 | b1 : b1 << 8 | b0
    }

    /// The 32-bit integer at an absolute `position`.
    public func getUInt32(at position: Int, _ endianness: Endianness) throws(ByteReaderError) -> UInt32 {
        let r = try range(at: position, count: 4)
        var value: UInt32 = 0
        for i in 0..<4 {
            let byte = UInt32(bytes[r.lowerBound + (endianness == .bigEndian ? i : 3 - i)])
            value = value << 8 | byte
        }
        return value
    }

    /// The 64-bit integer at an absolute `position`.
    public func getUInt64(at position: Int, _ endianness: Endianness) throws(ByteReaderError) -> UInt64 {
        let r = try range(at: position, count: 8)
        var value: UInt64 = 0
        for i in 0..<8 {
            let byte = UInt64(bytes[r.lowerBound + (endianness == .bigEndian ? i : 7 - i)])
            value = value << 8 | byte
        }
        return value
    }

    /// `count` bytes from an absolute `position`, as a slice indexed by absolute offset.
    public func getBytes(at position: Int, count: Int) throws(ByteReaderError) -> ArraySlice<UInt8> {
        bytes[try range(at: position, count: count)]
    }

    // MARK: peek (at the cursor, cursor unchanged)

    /// The byte at the cursor.
    public func peekUInt8() throws(ByteReaderError) -> UInt8 { try getUInt8(at: offset) }
    /// The 16-bit integer at the cursor.
    public func peekUInt16(_ endianness: Endianness) throws(ByteReaderError) -> UInt16 { try getUInt16(at: offset, endianness) }
    /// The 32-bit integer at the cursor.
    public func peekUInt32(_ endianness: Endianness) throws(ByteReaderError) -> UInt32 { try getUInt32(at: offset, endianness) }
    /// `count` bytes at the cursor, as a slice indexed by absolute offset.
    public func peekBytes(count: Int) throws(ByteReaderError) -> ArraySlice<UInt8> { try getBytes(at: offset, count: count) }

    // MARK: read (at the cursor, cursor advances)

    /// Reads a byte and advances past it.
    public mutating func readUInt8() throws(ByteReaderError) -> UInt8 {
        let value = try getUInt8(at: offset); offset += 1; return value
    }
    /// Reads a 16-bit integer and advances 2 bytes.
    public mutating func readUInt16(_ endianness: Endianness) throws(ByteReaderError) -> UInt16 {
        let value = try getUInt16(at: offset, endianness); offset += 2; return value
    }
    /// Reads a 32-bit integer and advances 4 bytes.
    public mutating func readUInt32(_ endianness: Endianness) throws(ByteReaderError) -> UInt32 {
        let value = try getUInt32(at: offset, endianness); offset += 4; return value
    }
    /// Reads a 64-bit integer and advances 8 bytes.
    public mutating func readUInt64(_ endianness: Endianness) throws(ByteReaderError) -> UInt64 {
        let value = try getUInt64(at: offset, endianness); offset += 8; return value
    }
    /// Reads `count` bytes (a slice indexed by absolute offset) and advances past them.
    public mutating func readBytes(count: Int) throws(ByteReaderError) -> ArraySlice<UInt8> {
        let value = try getBytes(at: offset, count: count); offset += count; return value
    }
    /// Advances the cursor `count` bytes; throws, moving nothing, if that passes the window's end.
    public mutating func skip(_ count: Int) throws(ByteReaderError) {
        _ = try range(at: offset, count: count); offset += count
    }
    /// Moves the cursor to an absolute offset inside the window (the end is allowed).
    public mutating func seek(to position: Int) throws(ByteReaderError) {
        _ = try range(at: position, count: 0); offset = position
    }
}

/// A `ByteReader` access outside its window.
public enum ByteReaderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `needed` bytes were wanted at `offset`, only `available` are there.
    case endOfData(offset: Int, needed: Int, available: Int)

    /// The absolute offset at which the failed access began.
    public var offset: Int {
        switch self { case .endOfData(let offset, _, _): return offset }
    }

    public var description: String {
        switch self {
        case .endOfData(let offset, let needed, let available):
            return "needed \(needed) bytes at offset \(offset), \(available) available"
        }
    }
}
