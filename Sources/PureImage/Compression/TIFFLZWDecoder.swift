/// TIFF LZW (TIFF 6.0 §13, compression 5): MSB-first codes with "early change".
///
/// How it differs from GIF's LZW (`LZWDecoder.swift`, which this file does not touch):
///
/// | aspect              | GIF (89a §22, Appendix F)          | TIFF (6.0 §13)                         |
/// |---------------------|------------------------------------|----------------------------------------|
/// | bit packing         | LSB-first: first code in the low   | MSB-first: first code in the high bits |
/// |                     | bits of byte 0                     | of byte 0                              |
/// | initial code size   | minimum code size + 1 (2…9 bits)   | always 9 bits (8-bit alphabet)         |
/// | Clear / End codes   | 2^min, 2^min + 1                   | 256 / 257                              |
/// | width grows         | when the next free code = 2^width  | one code earlier ("early change"):     |
/// |                     |                                    | when the next free code = 2^width − 1  |
/// | data framing        | 255-byte sub-blocks                | one strip or tile, no framing          |
///
/// MSB-first packing of three 9-bit codes 256, 65, 66 (Clear, "A", "B"):
///
/// ```
/// byte 0    byte 1    byte 2    byte 3
/// 10000000  0|0010000 01|001000 010|xxxxx
/// └ 256 ────┘└ 65 ──────┘└ 66 ──────┘
/// ```
///
/// The early change comes from the reference encoder of TIFF 5.0, which bumped the width one
/// code too soon; 6.0 §13 made it normative ("the code length … is increased … when the
/// table has 511 entries"). Codes are at most 12 bits; the table holds 4096 entries.
struct TIFFLZWDecoder {
    static let clearCode = 256
    static let endCode = 257
    static let firstFreeCode = 258
    static let maxWidth = 12

    /// Why decoding stopped.
    enum Outcome: Equatable {
        /// `output` is full.
        case full
        /// The End Of Information code was read.
        case endCode
        /// The input ran out before either (the strip is short or truncated).
        case endOfInput
        /// A code that cannot be decoded; the message says which.
        case corrupt(String)
    }

    /// Per entry: the code of its prefix string, its last byte, its first byte and its length.
    /// Invariant: for every entry e ≥ 258 below `nextCode`, prefix[e] < e, so walking prefixes
    /// ends after length[e] steps.
    private var prefix = [UInt16](repeating: 0, count: 4096)
    private var suffix = [UInt8](repeating: 0, count: 4096)
    private var first = [UInt8](repeating: 0, count: 4096)
    private var length = [UInt16](repeating: 0, count: 4096)

    init() {
        for code in 0..<256 {
            suffix[code] = UInt8(code)
            first[code] = UInt8(code)
            length[code] = 1
        }
    }

    /// Decodes one strip or tile into `output` (sized to the bytes wanted). Returns the number
    /// of bytes written and why decoding stopped.
    mutating func decode(_ input: ArraySlice<UInt8>, into output: inout [UInt8]) -> (written: Int, outcome: Outcome) {
        var bitBuffer: UInt32 = 0     // pending bits, right-aligned
        var bitCount = 0
        var read = input.startIndex
        var width = 9
        var nextCode = Self.firstFreeCode
        var previous = -1             // -1: just after Clear (or at the start)
        var written = 0
        let capacity = output.count
        while written < capacity {
            // MSB-first: each input byte goes below the bits already pending.
            while bitCount < width {
                guard read < input.endIndex else { return (written, .endOfInput) }
                bitBuffer = bitBuffer << 8 | UInt32(input[read])
                read += 1
                bitCount += 8
            }
            let code = Int((bitBuffer >> UInt32(bitCount - width)) & ((1 << UInt32(width)) - 1))
            bitCount -= width
            if code == Self.clearCode {
                width = 9
                nextCode = Self.firstFreeCode
                previous = -1
                continue
            }
            if code == Self.endCode { return (written, .endCode) }
            if previous < 0 {
                // The first code after Clear must be a single byte.
                guard code < 256 else { return (written, .corrupt("code \(code) right after Clear")) }
                output[written] = UInt8(code)
                written += 1
                previous = code
                continue
            }
            let stringCode: Int
            var newEntry = false
            if code < nextCode {
                stringCode = code
                newEntry = nextCode < 4096
                if newEntry {
                    addEntry(nextCode, prefix: previous, last: first[code])
                }
            } else if code == nextCode && nextCode < 4096 {
                // KwKwK: the string is previous + first byte of previous.
                addEntry(nextCode, prefix: previous, last: first[previous])
                stringCode = code
                newEntry = true
            } else {
                return (written, .corrupt("code \(code) beyond the table (next free \(nextCode))"))
            }
            if newEntry {
                nextCode += 1
                // Early change: widen when the next free code reaches 2^width − 1.
                if nextCode >= (1 << width) - 1 && width < Self.maxWidth { width += 1 }
            }
            written += emit(stringCode, into: &output, at: written)
            previous = code
        }
        return (written, .full)
    }

    private mutating func addEntry(_ code: Int, prefix p: Int, last: UInt8) {
        prefix[code] = UInt16(p)
        suffix[code] = last
        first[code] = first[p]
        length[code] = length[p] &+ 1
    }

    /// Writes the string of `code` at `position`, cut at the output's end. Returns bytes written.
    private func emit(_ code: Int, into output: inout [UInt8], at position: Int) -> Int {
        let count = Int(length[code])
        let kept = min(count, output.count - position)
        var current = code
        var index = count - 1
        while index >= 0 {
            if index < kept { output[position + index] = suffix[current] }
            current = Int(prefix[current])
            index -= 1
        }
        return kept
    }
}
