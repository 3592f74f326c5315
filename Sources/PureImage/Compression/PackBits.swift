/// PackBits run-length decoding, TIFF 6.0 §9 (Apple's Macintosh scheme, compression 32773).
///
/// Each run starts with a signed header byte n:
///
/// | n            | meaning                                   |
/// |--------------|-------------------------------------------|
/// | 0 … 127      | copy the next n + 1 bytes literally       |
/// | −127 … −1    | repeat the next byte −n + 1 times         |
/// | −128         | no operation (skip the header)            |
///
/// §9: "the unpacked data … should be" exactly the strip's bytes; decoding stops when `output`
/// is full, and a run that would overflow it is cut (libtiff warns "Discarding N bytes").
enum PackBits {
    /// Decodes into `output` (its size is the number of bytes wanted). Returns how many bytes
    /// were written: fewer than `output.count` when the input runs out first.
    static func decode(_ input: ArraySlice<UInt8>, into output: inout [UInt8]) -> Int {
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                guard let from = source.baseAddress, let to = target.baseAddress else { return 0 }
                var read = 0, written = 0
                let end = source.count, capacity = target.count
                // Every copy is cut to `end − read` input and `capacity − written` output bytes.
                while read < end && written < capacity {
                    let header = Int(Int8(bitPattern: from[read]))
                    read += 1
                    if header >= 0 {
                        // Literal run of header + 1 bytes, cut at the input's and the output's end.
                        let count = min(header + 1, end - read, capacity - written)
                        (to + written).update(from: from + read, count: count)
                        written += count
                        read += header + 1
                    } else if header != -128 {
                        guard read < end else { break }
                        let count = min(1 - header, capacity - written)
                        (to + written).update(repeating: from[read], count: count)
                        read += 1
                        written += count
                    }
                }
                return written
            }
        }
    }
}
