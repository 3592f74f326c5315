import CZlib

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension CaseFactory {
    /// memcpy of an output-sized buffer into another: the cost of merely writing the decoded
    /// image once, the floor no decoder goes under. Both buffers are allocated and touched
    /// outside timing.
    static func memcpyProbe(bytes: Int) -> LimitProbe {
        LimitProbe(name: "memcpy") {
            let source = RawBuffer(count: bytes, fill: 0x5A)
            let target = RawBuffer(count: bytes, fill: 0xA5)
            return {
                memcpy(target.pointer, source.pointer, source.count)
                return Int(target.pointer.load(as: UInt8.self))
            }
        }
    }

    /// zlib inflate of the PNG's IDAT stream alone, into a preallocated buffer of exactly the
    /// filtered image size: the floor for any PNG decoder that uses zlib. The IDAT data is
    /// concatenated once, outside timing; the timed call is zlib's `uncompress` (which also
    /// checks the Adler-32). No column when the file is not a plain PNG this can parse, or zlib
    /// fails on it.
    static func inflateProbe(png bytes: [UInt8]) -> LimitProbe {
        LimitProbe(name: "inflate") {
            guard let (stream, filteredSize) = idatStream(bytes), filteredSize > 0 else { return nil }
            let target = RawBuffer(count: filteredSize)
            let inflateOnce = { () -> Int in
                var length = uLongf(target.count)
                let status = stream.withUnsafeBufferPointer { input in
                    uncompress(target.pointer.assumingMemoryBound(to: Bytef.self), &length, input.baseAddress, uLong(input.count))
                }
                return status == Z_OK ? Int(length) : -1
            }
            return inflateOnce() == filteredSize ? inflateOnce : nil
        }
    }

    /// The concatenated IDAT payloads and the size of the filtered (pre-unfilter) image data
    /// they inflate to: per row one filter byte plus the packed samples, per Adam7 pass for
    /// interlaced files. nil when the bytes are not a PNG with a sane IHDR.
    static func idatStream(_ bytes: [UInt8]) -> ([UInt8], Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { return nil }
        func be32(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        var stream: [UInt8] = []
        var header: (width: Int, height: Int, depth: Int, colorType: Int, interlace: Int)?
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = be32(offset)
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let data = offset + 8
            guard length >= 0, data + length + 4 <= bytes.count else { break }
            if type == "IHDR", length >= 13 {
                header = (be32(data), be32(data + 4), Int(bytes[data + 8]), Int(bytes[data + 9]), Int(bytes[data + 12]))
            } else if type == "IDAT" {
                stream.append(contentsOf: bytes[data..<(data + length)])
            } else if type == "IEND" {
                break
            }
            offset = data + length + 4
        }
        guard let header, header.width > 0, header.height > 0 else { return nil }
        let channels: Int
        switch header.colorType {
        case 0, 3: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: return nil
        }
        let bitsPerPixel = channels * header.depth
        func filteredBytes(width: Int, height: Int) -> Int {
            guard width > 0, height > 0 else { return 0 }
            return height * (1 + (width * bitsPerPixel + 7) / 8)
        }
        if header.interlace == 0 {
            return (stream, filteredBytes(width: header.width, height: header.height))
        }
        // Adam7 passes: (x start, y start, x step, y step).
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var total = 0
        for (x0, y0, dx, dy) in passes {
            let width = (header.width - x0 + dx - 1) / dx
            let height = (header.height - y0 + dy - 1) / dy
            total += filteredBytes(width: width, height: height)
        }
        return (stream, total)
    }
}
