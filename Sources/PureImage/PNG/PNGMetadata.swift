/// PNG ancillary chunks read into `ImageProperties` (PNG §11.3). None of them changes pixels:
/// gamma, chromaticities, ICC profiles and significant bits are reported, never applied — as
/// libpng does unless asked for transformations.
///
/// A malformed ancillary chunk is ignored with a warning, as libpng does
/// (`png_chunk_benign_error`, a warning when reading).
enum PNGMetadata {
    /// Parses one ancillary chunk's data into `properties`. Returns a warning when the chunk
    /// is malformed and was ignored.
    static func apply(_ type: PNGChunkType, data: ArraySlice<UInt8>, header: PNGHeader,
                      limits: DecodeLimits, to properties: inout ImageProperties) -> String? {
        let bytes = Array(data)
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) }
        switch type {
        case .gAMA:  // §11.3.3.2: gamma × 100000
            guard bytes.count == 4 else { return "gAMA: length \(bytes.count), must be 4" }
            properties.png.gamma = Double(u32(0)) / 100000
        case .cHRM:  // §11.3.3.1: eight values × 100000
            guard bytes.count == 32 else { return "cHRM: length \(bytes.count), must be 32" }
            let v = (0..<8).map { Double(u32($0 * 4)) / 100000 }
            properties.png.chromaticities = .init(whiteX: v[0], whiteY: v[1], redX: v[2], redY: v[3], greenX: v[4], greenY: v[5], blueX: v[6], blueY: v[7])
        case .sRGB:  // §11.3.3.5: rendering intent 0...3
            guard bytes.count == 1, bytes[0] <= 3 else { return "sRGB: invalid rendering intent" }
            properties.png.sRGBIntent = Int(bytes[0])
        case .iCCP:  // §11.3.3.3: name, 0, method 0, zlib profile
            guard let nul = bytes.firstIndex(of: 0), nul >= 1, nul <= 79, nul + 1 < bytes.count, bytes[nul + 1] == 0 else {
                return "iCCP: malformed profile name or compression method"
            }
            switch ZlibInflater.inflateAll(data.dropFirst(nul + 2), limit: limits.maxMetadataBytes) {
            case .complete(let profile):
                properties.iccProfile = profile
                properties.png.iccProfileName = latin1(bytes[0..<nul])
            case .truncated: return "iCCP: compressed profile is truncated"
            case .overLimit: return "iCCP: profile larger than the metadata limit"
            case .corrupt(let message): return "iCCP: \(message)"
            }
        case .sBIT:  // §11.3.3.4
            let expected = [PNGColorType.grayscale: 1, .truecolor: 3, .indexed: 3, .grayscaleAlpha: 2, .truecolorAlpha: 4][header.colorType] ?? 0
            guard bytes.count == expected else { return "sBIT: length \(bytes.count), expected \(expected)" }
            properties.png.significantBits = bytes.map(Int.init)
        case .bKGD:  // §11.3.5.1
            switch header.colorType {
            case .indexed:
                guard bytes.count == 1 else { return "bKGD: length \(bytes.count), expected 1" }
                properties.png.background = .paletteIndex(Int(bytes[0]))
            case .grayscale, .grayscaleAlpha:
                guard bytes.count == 2 else { return "bKGD: length \(bytes.count), expected 2" }
                properties.png.background = .gray(Int(u16(0)))
            case .truecolor, .truecolorAlpha:
                guard bytes.count == 6 else { return "bKGD: length \(bytes.count), expected 6" }
                properties.png.background = .rgb(Int(u16(0)), Int(u16(2)), Int(u16(4)))
            }
        case .pHYs:  // §11.3.5.3: x, y pixels per unit; unit 0 unknown, 1 metre
            guard bytes.count == 9 else { return "pHYs: length \(bytes.count), must be 9" }
            properties.png.pixelsPerUnit = .init(x: Int(u32(0)), y: Int(u32(4)), perMetre: bytes[8] == 1)
        case .tIME:  // §11.3.6.1
            guard bytes.count == 7 else { return "tIME: length \(bytes.count), must be 7" }
            properties.png.modificationTime = .init(year: Int(u16(0)), month: Int(bytes[2]), day: Int(bytes[3]),
                                                    hour: Int(bytes[4]), minute: Int(bytes[5]), second: Int(bytes[6]))
        case .tEXt:  // §11.3.4.3: keyword (1–79 bytes Latin-1), 0, text
            guard let nul = bytes.firstIndex(of: 0), nul >= 1, nul <= 79 else { return "tEXt: malformed keyword" }
            properties.text.append(TextEntry(keyword: latin1(bytes[0..<nul]), text: latin1(bytes[(nul + 1)...])))
        case .zTXt:  // §11.3.4.4: keyword, 0, method 0, zlib text
            guard let nul = bytes.firstIndex(of: 0), nul >= 1, nul <= 79, nul + 1 < bytes.count, bytes[nul + 1] == 0 else {
                return "zTXt: malformed keyword or compression method"
            }
            guard case .complete(let text) = ZlibInflater.inflateAll(data.dropFirst(nul + 2), limit: limits.maxMetadataBytes) else {
                return "zTXt: compressed text is corrupt, truncated or over the metadata limit"
            }
            properties.text.append(TextEntry(keyword: latin1(bytes[0..<nul]), text: latin1(text)))
        case .iTXt:  // §11.3.4.5: keyword 0 flag method language 0 translated-keyword 0 text (UTF-8)
            guard let nul = bytes.firstIndex(of: 0), nul >= 1, nul <= 79, nul + 2 < bytes.count else {
                return "iTXt: malformed keyword"
            }
            let compressed = bytes[nul + 1] == 1
            guard bytes[nul + 1] <= 1, !compressed || bytes[nul + 2] == 0 else { return "iTXt: unknown compression" }
            guard let languageEnd = bytes[(nul + 3)...].firstIndex(of: 0),
                  let translatedEnd = bytes[(languageEnd + 1)...].firstIndex(of: 0) else {
                return "iTXt: missing separators"
            }
            var textBytes = Array(bytes[(translatedEnd + 1)...])
            if compressed {
                guard case .complete(let text) = ZlibInflater.inflateAll(data.dropFirst(translatedEnd + 1), limit: limits.maxMetadataBytes) else {
                    return "iTXt: compressed text is corrupt, truncated or over the metadata limit"
                }
                textBytes = text
            }
            properties.text.append(TextEntry(keyword: latin1(bytes[0..<nul]), text: String(decoding: textBytes, as: UTF8.self)))
        case .eXIf:  // PNG 3rd ed. §11.3.6.2: an EXIF block beginning with "II" or "MM"
            guard bytes.count >= 8 else { return "eXIf: too short" }
            properties.exif = bytes
            properties.exifMetadata = EXIFReader.read(block: bytes)
            if let orientation = properties.exifMetadata?.orientation { properties.orientation = orientation }
        default:
            break  // hIST, sPLT, cICP, … : known, not reported; unknown ancillary chunks: skipped.
        }
        return nil
    }

    /// Latin-1 (ISO 8859-1) bytes as a String: each byte is the code point of the same value.
    static func latin1<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
