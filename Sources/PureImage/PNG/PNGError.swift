/// Every way a PNG can fail to decode, each case citing the clause of PNG (Third Edition) it
/// enforces. `DecodeError.reason` carries one of these; `kind` says which family it belongs to.
public enum PNGError: DecodeErrorReason, Hashable {
    /// §5.2: the first eight bytes must be 89 50 4E 47 0D 0A 1A 0A.
    case badSignature(found: [UInt8])
    /// §5.3: "The length … shall not exceed 2^31 − 1 bytes."
    case chunkTooLong(type: String, length: UInt32)
    /// §5.3: chunk type bytes are restricted to A–Z and a–z.
    case invalidChunkType(bytes: [UInt8])
    /// §5.5: the stored CRC does not match the CRC of type and data.
    case crcMismatch(type: String, stored: UInt32, computed: UInt32)
    /// §5.4: a critical chunk (type's first letter upper-case) this decoder does not know.
    case unknownCriticalChunk(type: String)
    /// §5.6: a critical-chunk ordering rule was broken.
    case chunkOrder(String)
    /// §11.2.2: IHDR data must be exactly 13 bytes.
    case badIHDRLength(UInt32)
    /// §11.2.2: "Zero is an invalid value" for width and height; both ≤ 2^31 − 1.
    case invalidDimensions(width: UInt32, height: UInt32)
    /// §11.2.2 Table 11.1: colour types 0, 2, 3, 4, 6.
    case invalidColorType(UInt8)
    /// §11.2.2 Table 11.1: the bit depths allowed for the colour type.
    case invalidBitDepth(colorType: UInt8, bitDepth: UInt8)
    /// §11.2.2: compression method 0 is the only one defined.
    case invalidCompressionMethod(UInt8)
    /// §11.2.2: filter method 0 is the only one defined.
    case invalidFilterMethod(UInt8)
    /// §11.2.2: interlace method 0 (none) or 1 (Adam7).
    case invalidInterlaceMethod(UInt8)
    /// §11.2.3: PLTE length must be a positive multiple of 3 and at most 768.
    case invalidPaletteLength(UInt32)
    /// §11.2.3: "the PLTE chunk shall appear for colour type 3".
    case missingPalette
    /// §11.2.4: at least one IDAT chunk.
    case missingImageData
    /// §9.2: filter types 0–4 only.
    case invalidFilterType(UInt8, row: Int)
    /// §10: the zlib stream in IDAT (or fdAT) is corrupt; zlib's message.
    case corruptImageData(String)
    /// §10 / libpng "Not enough image data": the zlib stream ended (or another chunk came)
    /// before every scanline was delivered.
    case notEnoughImageData(rowsMissing: Int)
    /// §10: the zlib stream does not end within the IDAT chunks although every scanline is in
    /// (its Adler-32 is missing or damaged); libpng reports "Not enough image data".
    case unterminatedImageData
    /// The input ended inside the named part of the file.
    case truncated(inside: String)
    /// APNG: an acTL, fcTL or fdAT rule was broken (sequence numbers, frame regions, order).
    case animation(String)

    public var description: String {
        switch self {
        case .badSignature(let found):
            return "bad signature \(found.map { hex2($0) }.joined(separator: " ")) (expected 89 50 4E 47 0D 0A 1A 0A)"
        case .chunkTooLong(let type, let length): return "chunk \(type) declares length \(length), above 2^31-1"
        case .invalidChunkType(let bytes): return "invalid chunk type bytes \(bytes.map { hex2($0) }.joined(separator: " "))"
        case .crcMismatch(let type, let stored, let computed):
            return "CRC mismatch in \(type): stored \(hex32(stored)), computed \(hex32(computed))"
        case .unknownCriticalChunk(let type): return "unknown critical chunk \(type)"
        case .chunkOrder(let rule): return "chunk order: \(rule)"
        case .badIHDRLength(let length): return "IHDR length \(length), must be 13"
        case .invalidDimensions(let width, let height): return "invalid dimensions \(width)×\(height)"
        case .invalidColorType(let type): return "invalid colour type \(type)"
        case .invalidBitDepth(let type, let depth): return "bit depth \(depth) is not allowed for colour type \(type)"
        case .invalidCompressionMethod(let method): return "unknown compression method \(method)"
        case .invalidFilterMethod(let method): return "unknown filter method \(method)"
        case .invalidInterlaceMethod(let method): return "unknown interlace method \(method)"
        case .invalidPaletteLength(let length): return "PLTE length \(length) is not a positive multiple of 3 up to 768"
        case .missingPalette: return "colour type 3 without a PLTE chunk before IDAT"
        case .missingImageData: return "no IDAT chunk"
        case .invalidFilterType(let type, let row): return "filter type \(type) on scanline \(row)"
        case .corruptImageData(let message): return "corrupt compressed image data: \(message)"
        case .notEnoughImageData(let missing): return "image data ended with \(missing) scanlines missing"
        case .unterminatedImageData: return "the compressed image data does not end before the IDAT chunks do"
        case .truncated(let inside): return "input ends inside \(inside)"
        case .animation(let rule): return "APNG: \(rule)"
        }
    }
}

func hex32(_ value: UInt32) -> String {
    let digits = Array("0123456789ABCDEF")
    var text = "0x"
    for shift in stride(from: 28, through: 0, by: -4) { text.append(digits[Int((value >> UInt32(shift)) & 15)]) }
    return text
}
