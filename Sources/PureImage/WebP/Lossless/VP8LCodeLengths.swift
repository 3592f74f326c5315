/// Why lossless decoding stopped short: the bits ran out (wait for more data, or the stream is
/// truncated — the caller knows which), or the bitstream breaks a rule at a bit position.
enum VP8LStop: Error {
    case exhausted
    case invalid(WebPError, bitPosition: Int)
}

/// RFC 9649 §3.7.2.1 — reading one prefix code's code lengths and building the code.
enum VP8LCodeLengths {
    /// §3.7.2.1.2: the order in which the code-length code's lengths are stored.
    static let codeLengthOrder = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]

    /// Reads a prefix code for an alphabet of `alphabetSize` symbols. `what` names the code for
    /// error messages ("green", "distance", …).
    static func readCode(_ reader: inout VP8LBitReader, alphabetSize: Int, what: String) throws(VP8LStop) -> VP8LPrefixCode {
        let start = reader.bitPosition
        var lengths = [UInt8](repeating: 0, count: alphabetSize)
        if reader.readBits(1) == 1 {
            // §3.7.2.1.1 Simple code length code: one or two symbols of length 1. A symbol
            // outside the alphabet is dropped, as libwebp does (its lengths array is larger than
            // the alphabet, and only the alphabet's part is used).
            let symbolCount = reader.readBits(1) + 1
            let firstIs8Bits = reader.readBits(1)
            let first = reader.readBits(firstIs8Bits == 1 ? 8 : 1)
            if first < alphabetSize { lengths[first] = 1 }
            if symbolCount == 2 {
                let second = reader.readBits(8)
                if second < alphabetSize { lengths[second] = 1 }
            }
        } else {
            try readNormalLengths(&reader, into: &lengths, what: what)
        }
        if reader.isExhausted { throw .exhausted }
        guard let code = VP8LPrefixCode(lengths: lengths) else {
            throw .invalid(.invalidPrefixCode(what), bitPosition: start)
        }
        return code
    }

    /// §3.7.2.1.2 Normal code length code.
    private static func readNormalLengths(_ reader: inout VP8LBitReader, into lengths: inout [UInt8], what: String) throws(VP8LStop) {
        let start = reader.bitPosition
        // "int num_code_lengths = 4 + ReadBits(4);" — all 19 are accepted, as libwebp does.
        let codeLengthCount = 4 + reader.readBits(4)
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for i in 0..<codeLengthCount {
            codeLengthLengths[codeLengthOrder[i]] = UInt8(reader.readBits(3))
        }
        if reader.isExhausted { throw .exhausted }
        guard let codeLengthCode = VP8LPrefixCode(lengths: codeLengthLengths) else {
            throw .invalid(.invalidPrefixCode("\(what) code-length code"), bitPosition: start)
        }
        // "if ReadBits(1) == 0, the maximum number of symbols read is the alphabet size".
        var maxSymbol = lengths.count
        if reader.readBits(1) == 1 {
            let lengthBits = 2 + 2 * reader.readBits(3)
            maxSymbol = 2 + reader.readBits(lengthBits)
            guard maxSymbol <= lengths.count else {
                throw .invalid(.maxSymbolTooLarge(maxSymbol: maxSymbol, alphabet: lengths.count), bitPosition: start)
            }
        }
        // Code 16 repeats the previous non-zero length, 8 before any: "If code 16 is used
        // before a non-zero value has been emitted, a value of 8 is repeated."
        var previous: UInt8 = 8
        var symbol = 0
        while symbol < lengths.count {
            if maxSymbol == 0 { break }
            maxSymbol -= 1
            let code = reader.readSymbol(codeLengthCode)
            if reader.isExhausted { throw .exhausted }
            if code < 16 {
                lengths[symbol] = UInt8(code)
                symbol += 1
                if code != 0 { previous = UInt8(code) }
                continue
            }
            // 16: 3 + ReadBits(2) copies of the previous length; 17: 3 + ReadBits(3) zeros;
            // 18: 11 + ReadBits(7) zeros.
            let repeatCount: Int
            let value: UInt8
            switch code {
            case 16: repeatCount = 3 + reader.readBits(2); value = previous
            case 17: repeatCount = 3 + reader.readBits(3); value = 0
            default: repeatCount = 11 + reader.readBits(7); value = 0
            }
            if reader.isExhausted { throw .exhausted }
            guard symbol + repeatCount <= lengths.count else {
                throw .invalid(.codeLengthRepeatOverflow(what), bitPosition: reader.bitPosition)
            }
            for _ in 0..<repeatCount {
                lengths[symbol] = value
                symbol += 1
            }
        }
    }
}
