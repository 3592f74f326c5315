/// The bytes a decoder reads from: everything received so far, a read position, and whether
/// more can still arrive (the Wuffs `io_buffer` model).
///
/// ```
///   origin            readIndex                 writeIndex (= origin + bytes.count)
///   ├── consumed ─────────┼────── available ───────────┤ … more may arrive unless isClosed
/// ```
/// Invariant: `origin ≤ readIndex ≤ writeIndex`. Offsets are absolute positions in the stream
/// (TIFF reads by offset; errors quote absolute offsets), and `bytes[i]` holds the byte at
/// offset `origin + i`. `origin` is 0 — nothing dropped — except under a driver that feeds a
/// decoder that says it no longer needs what it consumed (`FormatDecoder.mayDiscardConsumedInput`:
/// PNG, GIF, and JPEG within its scans; `ImageSource.decodeRows(contentsOfFile:)`)
/// and discards it (`discard(before:)`), so a file of any size is decoded with
/// a bounded window of it in memory.
///
/// When a decoder needs `n` bytes and fewer are available, `demand(_:)` gives the single
/// decision every decoder relies on: not closed → suspend and wait (`.needMoreInput`);
/// closed → the input is truncated.
public struct InputBuffer: Sendable {
    /// Every byte received so far from `origin` on (from the start of the stream unless a
    /// driver discarded a consumed prefix).
    public private(set) var bytes: [UInt8]
    /// The stream offset of `bytes[0]`: how many bytes were discarded before it.
    public private(set) var origin = 0
    /// The next byte a decoder will read (an absolute offset).
    public var readIndex: Int {
        didSet { assert(readIndex >= origin && readIndex <= writeIndex) }
    }
    /// True once the producer has said no more bytes will come.
    public private(set) var isClosed: Bool

    /// A buffer holding `bytes`, read from the start; `isClosed` when no more will come.
    public init(_ bytes: [UInt8] = [], isClosed: Bool = false) {
        self.bytes = bytes
        self.readIndex = 0
        self.isClosed = isClosed
    }

    /// Where the next appended byte goes: the count of bytes received.
    public var writeIndex: Int { origin + bytes.count }
    /// Bytes received but not yet read (`writeIndex - readIndex`).
    public var available: Int { writeIndex - readIndex }

    /// Appends newly received bytes. Appending after `close()` is API misuse and is ignored
    /// (debug builds assert).
    public mutating func append<S: Sequence>(contentsOf newBytes: S) where S.Element == UInt8 {
        assert(!isClosed, "append after close")
        guard !isClosed else { return }
        bytes.append(contentsOf: newBytes)
    }

    /// Room for the stream to grow to `total` bytes from its start without moving what is held
    /// (a file read in pieces: appends never copy the bytes received; the pages beyond what
    /// is written are not touched).
    mutating func reserveCapacity(total: Int) {
        bytes.reserveCapacity(max(0, total - origin))
    }

    /// Marks the end of input.
    public mutating func close() { isClosed = true }

    /// Drops the bytes before `offset` (at most `readIndex`: only consumed bytes go), moving
    /// `origin` there. Only while the decoder says it never reads consumed bytes again
    /// (`FormatDecoder.mayDiscardConsumedInput`): TIFF reads strips anywhere, a banded
    /// progressive JPEG decode reads its scans again.
    public mutating func discard(before offset: Int) {
        let end = min(offset, readIndex)
        guard end > origin else { return }
        bytes.removeFirst(end - origin)
        origin = end
    }

    /// The byte at absolute `offset` (`origin ≤ offset < writeIndex`).
    func byte(at offset: Int) -> UInt8 { bytes[offset - origin] }

    /// The bytes at absolute offsets `range` (within `origin ..< writeIndex`); the slice's
    /// indices are positions in `bytes`.
    func slice(_ range: Range<Int>) -> ArraySlice<UInt8> { bytes[range.lowerBound - origin ..< range.upperBound - origin] }

    /// What `demand(_:)` found: the bytes can be read now, later, or never.
    public enum Availability: Equatable {
        /// The bytes are all there.
        case ready
        /// Some are missing, but more input can still arrive.
        case needMoreInput
        /// Some are missing and the input is closed: they never will arrive.
        case truncated
    }

    /// Whether `count` bytes can be read at `readIndex` now, later, or never.
    public func demand(_ count: Int) -> Availability {
        demand(count, at: readIndex)
    }

    /// Whether `count` bytes at absolute `offset` can be read now, later, or never.
    public func demand(_ count: Int, at offset: Int) -> Availability {
        let (end, overflow) = offset.addingReportingOverflow(count)
        if !overflow && offset >= origin && end <= writeIndex { return .ready }
        return isClosed ? .truncated : .needMoreInput
    }

    /// A reader over `count` bytes at `readIndex`, after `demand(count) == .ready`; advances
    /// `readIndex` past them. The reader's offsets are positions in `bytes`: the absolute
    /// offsets while `origin` is 0.
    public mutating func consume(_ count: Int) -> ByteReader {
        let reader = ByteReader(bytes, range: readIndex - origin ..< readIndex - origin + count)
        readIndex += count
        return reader
    }
}
