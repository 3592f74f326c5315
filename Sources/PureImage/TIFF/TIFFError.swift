/// Every way a TIFF can fail to decode, each case citing the section of TIFF 6.0 (or the
/// libtiff behaviour) it enforces. `DecodeError.reason` carries one of these; `kind` says
/// which family (malformed, unsupported, limit exceeded, truncated) it belongs to.
public enum TIFFError: DecodeErrorReason, Hashable {
    // MARK: Header and IFDs (§2)

    /// §2 Image File Header: bytes 0–1 are "II" (4949.H) or "MM" (4D4D.H).
    case badByteOrder(found: [UInt8])
    /// §2: bytes 2–3 are 42 in the file's byte order (43 in BigTIFF).
    case badMagic(UInt16)
    /// §2: "The directory may be at any location in the file" — but inside it; the offset of
    /// an IFD (or its 2-byte entry count) lies outside the input.
    case directoryOutsideFile(offset: Int)
    /// §2: an IFD offset points back to an IFD already read (a loop in the chain).
    case directoryLoop(offset: Int)
    /// §2: an IFD with no entries (libtiff: "Sanity check on directory count failed").
    case emptyDirectory(offset: Int)
    /// §2 "Value/Offset": a value stored at an offset lies outside the input.
    case valueOutsideFile(tag: Int, offset: Int, bytes: Int)
    /// §2: a tag's count or value makes no sense (e.g. count 0 for a required tag).
    case invalidField(tag: Int, String)
    /// A required field (§8 baseline, §15 tiles) is absent.
    case missingField(String)
    /// §2/§8: a field's value is outside its allowed range.
    case invalidValue(field: String, value: Int)

    // MARK: Image data (§3–§15)

    /// §8 Compression: a scheme this decoder does not implement (CCITT, old-style JPEG, …).
    case unsupportedCompression(code: Int, name: String)
    /// §14 Predictor: 3 (floating point, TIFF Technical Note 3) or unknown values, or
    /// horizontal differencing with a sample size other than 8 or 16 bits.
    case unsupportedPredictor(value: Int, bitsPerSample: Int)
    /// §8 PhotometricInterpretation: a value this decoder does not render (CIELab, LogLuv, …).
    case unsupportedPhotometric(Int)
    /// §8 BitsPerSample: only 1, 2, 4, 8 and 16 bits are decoded.
    case unsupportedBitsPerSample(Int)
    /// SampleFormat (§19): IEEE floating point and signed integers are not decoded.
    case unsupportedSampleFormat(Int)
    /// A combination of fields this decoder does not render (e.g. palette with 16-bit samples,
    /// CMYK with an InkSet other than CMYK, YCbCr subsampling other than 1, 2, 4).
    case unsupportedLayout(String)
    /// §8 StripOffsets / §15 TileOffsets: fewer offsets or byte counts than strips or tiles.
    case chunkCountMismatch(field: String, expected: Int, found: Int)
    /// §13 LZW: the stream uses a code not yet in the table, or a string code right after Clear.
    case corruptLZW(String)
    /// Old-style (pre-6.0, LSB-first) LZW, as libtiff's "compat" decoder reads; not decoded.
    /// Deflate (Adobe, compression 8 / 32946): zlib's message.
    case corruptDeflate(String)
    /// §8 ColorMap: present with the wrong count (must be 3 × 2^BitsPerSample), or absent for
    /// PhotometricInterpretation 3.
    case invalidColorMap(count: Int, expected: Int)
    /// The input ended inside the named part of the file.
    case truncated(inside: String)

    public var description: String {
        switch self {
        case .badByteOrder(let found): return "byte order mark \(found.map { hex2($0) }.joined(separator: " ")) is neither II nor MM"
        case .badMagic(let value): return "magic number \(value), neither 42 (TIFF) nor 43 (BigTIFF)"
        case .directoryOutsideFile(let offset): return "IFD offset \(offset) is outside the file"
        case .directoryLoop(let offset): return "IFD loop: offset \(offset) was already read"
        case .emptyDirectory(let offset): return "IFD at \(offset) has no entries"
        case .valueOutsideFile(let tag, let offset, let bytes): return "tag \(tag): \(bytes) value bytes at offset \(offset) are outside the file"
        case .invalidField(let tag, let what): return "tag \(tag): \(what)"
        case .missingField(let name): return "required field \(name) is missing"
        case .invalidValue(let field, let value): return "\(field) = \(value) is not allowed"
        case .unsupportedCompression(let code, let name): return "\(name) compression (\(code)) is not supported"
        case .unsupportedPredictor(let value, let bits): return "predictor \(value) with \(bits)-bit samples is not supported"
        case .unsupportedPhotometric(let value): return "photometric interpretation \(value) is not supported"
        case .unsupportedBitsPerSample(let bits): return "\(bits) bits per sample is not supported"
        case .unsupportedSampleFormat(let value): return "sample format \(value) (not unsigned integer) is not supported"
        case .unsupportedLayout(let what): return "unsupported layout: \(what)"
        case .chunkCountMismatch(let field, let expected, let found): return "\(field) has \(found) entries, \(expected) needed"
        case .corruptLZW(let what): return "corrupt LZW data: \(what)"
        case .corruptDeflate(let message): return "corrupt Deflate data: \(message)"
        case .invalidColorMap(let count, let expected): return "ColorMap has \(count) values, \(expected) needed"
        case .truncated(let inside): return "the input ends inside \(inside)"
        }
    }
}
