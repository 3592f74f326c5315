/// Identifies a format from its first bytes, checking the whole signature (never the first
/// byte alone). ImageIO's and SDWebImage's `sd_imageFormatForImageData` recognise the same set.
///
/// | format | signature                                  | source |
/// |--------|--------------------------------------------|--------|
/// | JPEG   | `FF D8` (the SOI marker)                   | T.81 §B.1.1.3, Table B.1; libjpeg's `first_marker` checks exactly these two bytes and skips junk before the next marker |
/// | PNG    | `89 50 4E 47 0D 0A 1A 0A`                  | PNG §5.2 |
/// | GIF    | `GIF87a` or `GIF89a`                       | GIF89a §17 |
/// | TIFF   | `II 2A 00` or `MM 00 2A` (BigTIFF: `2B` for `2A`) | TIFF 6.0 §2 |
/// | WebP   | `RIFF` ???? `WEBP`                         | RIFF container, WebP spec |
/// | HEIC   | ???? `ftyp` then brand `heic`, `heix`, `hevc`, `hevx` | ISO/IEC 23008-12 |
/// | HEIF   | ???? `ftyp` then brand `mif1`, `msf1`      | ISO/IEC 23008-12 |
public enum FormatSniffer {
    /// What a file's first bytes say about its format.
    public enum Result: Equatable, Sendable {
        /// A whole signature matched: the file is in this format.
        case format(ImageFormat)
        /// The bytes so far match the start of at least one signature; more are needed to decide.
        case needMoreBytes
        /// Not a signature, but within two bytes of one of at least six bytes (PNG's 8-byte
        /// signature with a byte changed, or with CR/LF translation damage): a damaged file of
        /// that format rather than an unknown one.
        case nearMiss(ImageFormat)
        /// No signature matches, nor comes within two bytes of one: not a format PureImage knows.
        case unknown
    }

    /// The number of bytes that always suffices to decide.
    public static let maximumSignatureLength = 12

    private struct Signature {
        let format: ImageFormat
        /// nil entries match any byte.
        let pattern: [UInt8?]
    }

    private static func ascii(_ text: String) -> [UInt8?] { text.utf8.map { Optional($0) } }
    private static let any4: [UInt8?] = [nil, nil, nil, nil]

    private static let signatures: [Signature] = {
        var table: [Signature] = [
            Signature(format: .jpeg, pattern: [0xFF, 0xD8]),
            Signature(format: .png, pattern: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            Signature(format: .gif, pattern: ascii("GIF87a")),
            Signature(format: .gif, pattern: ascii("GIF89a")),
            Signature(format: .tiff, pattern: [0x49, 0x49, 0x2A, 0x00]),
            Signature(format: .tiff, pattern: [0x4D, 0x4D, 0x00, 0x2A]),
            Signature(format: .tiff, pattern: [0x49, 0x49, 0x2B, 0x00]),  // BigTIFF
            Signature(format: .tiff, pattern: [0x4D, 0x4D, 0x00, 0x2B]),  // BigTIFF
            Signature(format: .webp, pattern: ascii("RIFF") + any4 + ascii("WEBP")),
        ]
        for brand in ["heic", "heix", "hevc", "hevx"] {
            table.append(Signature(format: .heic, pattern: any4 + ascii("ftyp") + ascii(brand)))
        }
        for brand in ["mif1", "msf1"] {
            table.append(Signature(format: .heif, pattern: any4 + ascii("ftyp") + ascii(brand)))
        }
        return table
    }()

    /// Classifies `prefix`, the first bytes of a file (any length).
    public static func sniff<C: Collection>(_ prefix: C) -> Result where C.Element == UInt8 {
        let head = Array(prefix.prefix(maximumSignatureLength))
        var couldStillMatch = false
        for signature in signatures {
            var matches = true
            for (index, expected) in signature.pattern.enumerated() where index < head.count {
                if let expected, head[index] != expected { matches = false; break }
            }
            guard matches else { continue }
            if head.count >= signature.pattern.count { return .format(signature.format) }
            couldStillMatch = true
        }
        if couldStillMatch { return .needMoreBytes }
        for signature in signatures where signature.pattern.count >= 6 {
            var mismatches = 0
            for (index, expected) in signature.pattern.enumerated() where index < head.count {
                if let expected, head[index] != expected { mismatches += 1 }
            }
            guard mismatches <= 2 else { continue }
            // Decided only once the whole signature's length is in; shorter input could still
            // turn out a near miss (so incremental feeding agrees with one-shot sniffing).
            return head.count >= signature.pattern.count ? .nearMiss(signature.format) : .needMoreBytes
        }
        return .unknown
    }
}
