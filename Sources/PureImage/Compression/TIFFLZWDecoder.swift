/// TIFF LZW (TIFF 6.0 §13, compression 5): MSB-first codes with "early change".
///
/// How it differs from GIF's LZW; both run on the one kernel in `LZWKernel.swift` (the
/// `.tiff` variant: an MSB-first code reader and an early-change offset of 1):
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
/// One strip or tile at a time: the whole chunk is in memory, so the decode is a single call.
enum TIFFLZWDecoder {
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

    /// Decodes one strip or tile into `output` (sized to the bytes wanted). Returns the number
    /// of bytes written and why decoding stopped.
    ///
    /// `oldStyle`: the pre-6.0 flavour (TIFF 5.0 writers, libtiff's `LZWDecodeCompat`): codes
    /// packed LSB-first and widened without the early change — exactly GIF's LZW with an 8-bit
    /// alphabet (Clear 256, End 257), so it runs as the `.gif` variant. libtiff recognises it by
    /// its first two bytes (see `isOldStyle`).
    static func decode(_ input: ArraySlice<UInt8>, oldStyle: Bool = false, into output: inout [UInt8]) -> (written: Int, outcome: Outcome) {
        var noDecoder: LZWDecoder?
        return decode(input, oldStyle: oldStyle, into: &output, reusing: &noDecoder)
    }

    /// `decode(_:oldStyle:into:)` on the decoder `kept` (restarted; a new one when there is
    /// none or it is of the other flavour), which is left there for the next chunk.
    static func decode(_ input: ArraySlice<UInt8>, oldStyle: Bool = false, into output: inout [UInt8],
                       reusing kept: inout LZWDecoder?) -> (written: Int, outcome: Outcome) {
        let variant: LZWDecoder.Variant = oldStyle ? .gif : .tiff
        var lzw: LZWDecoder
        // Taken out of `kept`, so that the table has one owner and is written in place.
        if var reused = kept.take(), reused.variant == variant {
            reused.restart()
            lzw = reused
        } else {
            lzw = LZWDecoder(variant: variant, minimumCodeSize: 8)
        }
        defer { kept = lzw }
        let stop = input.withUnsafeBytes { bytes in
            output.withUnsafeMutableBufferPointer { lzw.decode(bytes, into: $0) }
        }
        // The kernel's 8-byte copies may leave up to 7 scratch bytes past the last string; when
        // decoding stops early those bytes are not pixels, and libtiff leaves them zero.
        let written = lzw.written
        if written < output.count {
            output.replaceSubrange(written ..< min(written + 8, output.count), with: repeatElement(0, count: min(8, output.count - written)))
        }
        switch stop {
        case .outputFull: return (lzw.written, .full)
        case .endCode: return (lzw.written, .endCode)
        case .needMoreInput, .paused: return (lzw.written, .endOfInput)
        case .invalidCode(let code): return (lzw.written, .corrupt("code \(code) is not in the table"))
        }
    }

    /// libtiff tif_lzw.c `LZWPreDecode`: a chunk whose first byte is 0 and whose second byte is
    /// odd is old-style. (A new-style chunk starts with the 9-bit Clear code 256, `1000 0000 0`,
    /// so its first byte is 0x80; an old-style one starts with 256 LSB-first: `0x00`, then a byte
    /// whose bit 0 is the code's bit 8.)
    static func isOldStyle(_ input: ArraySlice<UInt8>) -> Bool {
        input.count >= 2 && input[input.startIndex] == 0 && input[input.startIndex + 1] & 1 == 1
    }
}
