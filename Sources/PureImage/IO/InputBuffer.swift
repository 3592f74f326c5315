/// The bytes a decoder reads from: everything received so far, a read position, and whether
/// more can still arrive (the Wuffs `io_buffer` model).
///
/// ```
///   0                 readIndex                 writeIndex (= bytes.count)
///   ├── consumed ─────────┼────── available ───────────┤ … more may arrive unless isClosed
/// ```
/// Invariant: `0 ≤ readIndex ≤ writeIndex`. Bytes are never dropped, so an offset into the
/// stream is an index into `bytes` (TIFF reads by offset; errors quote absolute offsets).
///
/// When a decoder needs `n` bytes and fewer are available, `demand(_:)` gives the single
/// decision every decoder relies on: not closed → suspend and wait (`.needMoreInput`);
/// closed → the input is truncated.
public struct InputBuffer: Sendable {
    /// Every byte received so far, from the start of the stream.
    public private(set) var bytes: [UInt8]
    /// The next byte a decoder will read.
    public var readIndex: Int {
        didSet { assert(readIndex >= 0 && readIndex <= bytes.count) }
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
    public var writeIndex: Int { bytes.count }
    /// Bytes received but not yet read (`writeIndex - readIndex`).
    public var available: Int { bytes.count - readIndex }

    /// Appends newly received bytes. Appending after `close()` is API misuse and is ignored
    /// (debug builds assert).
    public mutating func append<S: Sequence>(contentsOf newBytes: S) where S.Element == UInt8 {
        assert(!isClosed, "append after close")
        guard !isClosed else { return }
        bytes.append(contentsOf: newBytes)
    }

    /// Marks the end of input.
    public mutating func close() { isClosed = true }

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
        if !overflow && offset >= 0 && end <= bytes.count { return .ready }
        return isClosed ? .truncated : .needMoreInput
    }

    /// A reader over `count` bytes at `readIndex`, after `demand(count) == .ready`; advances
    /// `readIndex` past them.
    public mutating func consume(_ count: Int) -> ByteReader {
        let reader = ByteReader(bytes, range: readIndex ..< readIndex + count)
        readIndex += count
        return reader
    }
}
