/// EXIF metadata as typed values: what ImageIO returns in the `{TIFF}`, `{Exif}` and `{GPS}`
/// dictionaries of `CGImageSourceCopyPropertiesAtIndex`, read from a JPEG's APP1 "Exif" block,
/// a PNG `eXIf` chunk, a WebP `EXIF` chunk, or a TIFF file's own IFD0 (`EXIFReader`).
///
/// ```swift
/// if let exif = try source.properties().exifMetadata {
///     print(exif.text(.tiff, "Model") ?? "?", exif.number(.exif, "ExposureTime") ?? 0)
///     if let where_ = exif.coordinate { print(where_.latitude, where_.longitude) }
/// }
/// ```
public struct EXIFMetadata: Sendable, Hashable {
    /// Every entry read, in file order per directory (IFD0, then the Exif, GPS and
    /// interoperability IFDs, then IFD1). The pointer tags that lead to the sub-IFDs are not
    /// entries.
    public var entries: [EXIFEntry]
    /// IFD1's JPEG thumbnail (JPEGInterchangeFormat / JPEGInterchangeFormatLength), as a byte
    /// range of the EXIF block, when it lies inside the block.
    public var thumbnailRange: Range<Int>?

    /// Metadata holding `entries`, with the thumbnail at `thumbnailRange` when there is one.
    public init(entries: [EXIFEntry] = [], thumbnailRange: Range<Int>? = nil) {
        self.entries = entries
        self.thumbnailRange = thumbnailRange
    }

    /// The entry ImageIO names `name` in `directory` (e.g. `.exif`, "ExposureTime" for
    /// `kCGImagePropertyExifExposureTime`).
    public func value(_ directory: EXIFDirectory, _ name: String) -> EXIFValue? {
        entries.first { $0.directory == directory && $0.name == name }?.value
    }

    /// A text entry (ASCII), e.g. `.tiff, "Make"`.
    public func text(_ directory: EXIFDirectory, _ name: String) -> String? {
        if case .text(let text) = value(directory, name) { return text }
        return nil
    }

    /// The first number of a numeric entry (integers, rationals, reals), e.g. `.exif, "FNumber"`.
    public func number(_ directory: EXIFDirectory, _ name: String) -> Double? {
        switch value(directory, name) {
        case .integers(let values): return values.first.map(Double.init)
        case .rationals(let values), .reals(let values): return values.first
        default: return nil
        }
    }

    /// IFD0's Orientation (tag 274), the one ImageIO consults; nil when absent or not 1…8 (the
    /// image is then shown as stored).
    public var orientation: Orientation? {
        guard case .integers(let values) = value(.tiff, "Orientation"), let first = values.first else { return nil }
        return Orientation(rawValue: first)
    }

    /// The GPS position in signed decimal degrees (south and west negative, Exif 2.32 §4.6.6),
    /// when the GPS IFD gives latitude and longitude as three rationals (degrees, minutes,
    /// seconds) with their references.
    public var coordinate: (latitude: Double, longitude: Double)? {
        guard case .rationals(let latitude) = value(.gps, "Latitude"), latitude.count == 3,
              case .rationals(let longitude) = value(.gps, "Longitude"), longitude.count == 3 else { return nil }
        func degrees(_ dms: [Double]) -> Double { dms[0] + dms[1] / 60 + dms[2] / 3600 }
        let north = text(.gps, "LatitudeRef") != "S"
        let east = text(.gps, "LongitudeRef") != "W"
        return ((north ? 1 : -1) * degrees(latitude), (east ? 1 : -1) * degrees(longitude))
    }
}

/// The IFD an entry comes from, named as ImageIO names its dictionaries.
public enum EXIFDirectory: String, Sendable, Hashable, CaseIterable {
    /// IFD0, the primary image (`kCGImagePropertyTIFFDictionary`).
    case tiff = "TIFF"
    /// The Exif IFD (`kCGImagePropertyExifDictionary`).
    case exif = "Exif"
    /// The GPS IFD (`kCGImagePropertyGPSDictionary`).
    case gps = "GPS"
    /// The interoperability IFD.
    case interoperability = "Interoperability"
    /// IFD1, the thumbnail's directory.
    case thumbnail = "Thumbnail"
}

/// One EXIF tag and its value.
public struct EXIFEntry: Sendable, Hashable {
    /// The IFD the tag was read from.
    public var directory: EXIFDirectory
    /// The tag number (e.g. 274 for Orientation).
    public var tag: Int
    /// ImageIO's key without its dictionary prefix ("ExposureTime" for
    /// `kCGImagePropertyExifExposureTime`, "Make" for `kCGImagePropertyTIFFMake`); nil for a tag
    /// ImageIO does not name.
    public var name: String?
    /// The value, typed by the entry's TIFF field type.
    public var value: EXIFValue

    /// Creates an entry.
    public init(directory: EXIFDirectory, tag: Int, name: String?, value: EXIFValue) {
        self.directory = directory
        self.tag = tag
        self.name = name
        self.value = value
    }
}

/// A tag's value by its TIFF field type (TIFF 6.0 §2, "Types"; Exif 2.32 §4.6.2).
public enum EXIFValue: Sendable, Hashable {
    /// ASCII (2), up to the first NUL.
    case text(String)
    /// BYTE (1), SHORT (3), LONG (4), SBYTE (6), SSHORT (8), SLONG (9).
    case integers([Int])
    /// RATIONAL (5), SRATIONAL (10): numerator ÷ denominator (a zero denominator gives ±∞ or NaN).
    case rationals([Double])
    /// FLOAT (11), DOUBLE (12).
    case reals([Double])
    /// UNDEFINED (7): bytes whose meaning the tag defines (ExifVersion "0232", MakerNote, …).
    case bytes([UInt8])
}
