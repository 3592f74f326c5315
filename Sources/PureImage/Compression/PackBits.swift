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
        var read = input.startIndex
        var written = 0
        let end = input.endIndex
        let capacity = output.count
        while read < end && written < capacity {
            let header = Int(Int8(bitPattern: input[read]))
            read += 1
            if header >= 0 {
                // Literal run of header + 1 bytes, cut at the input's and the output's end.
                let count = min(header + 1, end - read, capacity - written)
                for i in 0..<count { output[written + i] = input[read + i] }
                written += count
                read += header + 1
            } else if header != -128 {
                guard read < end else { break }
                let value = input[read]
                read += 1
                let count = min(1 - header, capacity - written)
                for i in 0..<count { output[written + i] = value }
                written += count
            }
        }
        return written
    }
}
