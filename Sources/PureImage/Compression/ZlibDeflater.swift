import CZlib

/// One-shot zlib compression (RFC 1950/1951) through the system zlib (tests build PNGs with it).
enum ZlibDeflater {
    /// Compresses `bytes` as a zlib stream at `level` (0...9).
    static func deflate(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        var bound = Int(compressBound(uLong(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let code = output.withUnsafeMutableBufferPointer { destination in
            bytes.withUnsafeBufferPointer { source in
                var length = uLongf(bound)
                let code = compress2(destination.baseAddress, &length, source.baseAddress, uLong(source.count), level)
                bound = Int(length)
                return code
            }
        }
        // compress2 with a compressBound-sized buffer cannot fail except for memory exhaustion.
        precondition(code == Z_OK, "zlib compress2 failed with \(code)")
        output.removeSubrange(bound...)
        return output
    }
}

/// A zlib stream compressed piece by piece: `write` the filtered rows as they come, `finish`
/// once; each call hands what zlib produced to `output`. Memory: zlib's own state (about
/// 256 KiB at level 6) and a 64 KiB output buffer.
final class ZlibStreamDeflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    init(level: Int32 = 6) {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // deflateInit fails only for a bad level or no memory; level is ours, so treat the
        // latter as the allocation failure it is.
        let code = deflateInit_(stream, level, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        precondition(code == Z_OK, "zlib deflateInit failed with \(code)")
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compresses `bytes`; hands any output zlib has ready to `output`.
    func write(_ bytes: UnsafeRawBufferPointer, to output: ([UInt8]) throws -> Void) rethrows {
        try run(bytes, flush: Z_NO_FLUSH, to: output)
    }

    /// Ends the stream (with its Adler-32); hands the rest to `output`.
    func finish(to output: ([UInt8]) throws -> Void) rethrows {
        try run(UnsafeRawBufferPointer(start: nil, count: 0), flush: Z_FINISH, to: output)
    }

    private func run(_ input: UnsafeRawBufferPointer, flush: Int32, to output: ([UInt8]) throws -> Void) rethrows {
        // zlib takes non-const pointers for input but never writes through next_in.
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        while true {
            let (produced, code) = buffer.withUnsafeMutableBytes { space -> (Int, Int32) in
                stream.pointee.next_out = space.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(space.count)
                let code = deflate(stream, flush)
                return (space.count - Int(stream.pointee.avail_out), code)
            }
            if produced > 0 { try output(Array(buffer[0 ..< produced])) }
            // Z_NO_FLUSH: done when the input is consumed and the buffer was not filled;
            // Z_FINISH: done at Z_STREAM_END.
            if flush == Z_FINISH ? code == Z_STREAM_END : (stream.pointee.avail_in == 0 && produced < buffer.count) { return }
            precondition(code == Z_OK || code == Z_BUF_ERROR, "zlib deflate failed with \(code)")
        }
    }
}
