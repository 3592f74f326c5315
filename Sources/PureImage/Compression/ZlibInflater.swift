import CZlib

/// Streaming zlib (RFC 1950/1951) decompression through the system zlib — the one C dependency
/// of the library. Used by PNG (IDAT/fdAT, iCCP, zTXt, iTXt) and TIFF Deflate.
///
/// Feed compressed bytes in any pieces; each call writes as much output as fits into the
/// caller's buffer and reports how much input it consumed, so neither side is ever held whole.
/// The `z_stream` lives in a heap allocation owned by this class (zlib keeps pointers into it).
final class ZlibInflater {
    enum Status: Equatable {
        /// More input is needed (or more output space) to go on.
        case ok
        /// The zlib stream's end (and its Adler-32) has been reached.
        case streamEnd
        /// zlib refused the data; its message, e.g. "invalid distance too far back" or
        /// "incorrect data check". The inflater must not be used again.
        case corrupt(String)
    }

    private let stream: UnsafeMutablePointer<z_stream>
    private var initialized = false
    private(set) var totalIn = 0
    private(set) var totalOut = 0

    init() {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
    }

    deinit {
        if initialized { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    private func start() -> Bool {
        let code = inflateInit_(stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        initialized = code == Z_OK
        return initialized
    }

    /// Decompresses from `input` into `output`. Returns the bytes consumed and produced.
    /// Call again with the unconsumed input (or more output space) until `.streamEnd`.
    func inflate(input: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer) -> (consumed: Int, produced: Int, status: Status) {
        if !initialized && !start() { return (0, 0, .corrupt("zlib could not be initialised")) }
        // zlib takes non-const pointers for input but never writes through next_in.
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(output.count)
        let code = CZlib.inflate(stream, Z_NO_FLUSH)
        let consumed = input.count - Int(stream.pointee.avail_in)
        let produced = output.count - Int(stream.pointee.avail_out)
        totalIn += consumed
        totalOut += produced
        switch code {
        case Z_OK: return (consumed, produced, .ok)
        case Z_BUF_ERROR: return (consumed, produced, .ok)   // no progress possible: needs input or space
        case Z_STREAM_END: return (consumed, produced, .streamEnd)
        case Z_DATA_ERROR, Z_NEED_DICT:
            return (consumed, produced, .corrupt(stream.pointee.msg.map { String(cString: $0) } ?? "invalid compressed data"))
        default:
            return (consumed, produced, .corrupt("zlib error \(code)"))
        }
    }

    /// Inflates a whole in-memory zlib stream, refusing to produce more than `limit` bytes.
    enum WholeResult: Equatable {
        case complete([UInt8])
        /// The input ended before the stream did.
        case truncated([UInt8])
        case overLimit
        case corrupt(String)
    }

    static func inflateAll(_ compressed: ArraySlice<UInt8>, limit: Int) -> WholeResult {
        let inflater = ZlibInflater()
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        var position = compressed.startIndex
        while true {
            let step = compressed.withUnsafeBytes { source in
                chunk.withUnsafeMutableBytes { destination in
                    inflater.inflate(input: UnsafeRawBufferPointer(rebasing: source[(position - compressed.startIndex)...]), output: destination)
                }
            }
            position += step.consumed
            output.append(contentsOf: chunk[0..<step.produced])
            if output.count > limit { return .overLimit }
            switch step.status {
            case .streamEnd: return .complete(output)
            case .corrupt(let message): return .corrupt(message)
            case .ok: if step.consumed == 0 && step.produced == 0 { return .truncated(output) }
            }
        }
    }
}
