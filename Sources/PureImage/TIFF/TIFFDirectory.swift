/// Classic TIFF (TIFF 6.0 §2, 32-bit offsets) or BigTIFF (magic 43, 64-bit offsets and counts).
///
/// | | classic | BigTIFF |
/// |---|---|---|
/// | header | 8 bytes: order, 42, first IFD (4) | 16 bytes: order, 43, 8, 0, first IFD (8) |
/// | IFD entry count | 2 bytes | 8 bytes |
/// | entry | 12 bytes: tag, type, count (4), value-or-offset (4) | 20 bytes: tag, type, count (8), value-or-offset (8) |
/// | next IFD | 4 bytes | 8 bytes |
/// | value inline when | ≤ 4 bytes | ≤ 8 bytes |
enum TIFFVariant: Sendable {
    case classic
    case big

    var headerSize: Int { self == .classic ? 8 : 16 }
    /// Bytes of an offset (and of an entry's value field, and of the next-IFD link).
    var offsetSize: Int { self == .classic ? 4 : 8 }
    var countSize: Int { self == .classic ? 2 : 8 }
    var entrySize: Int { self == .classic ? 12 : 20 }
}

/// TIFF 6.0 §2 Image File Header: byte order ("II" little-endian, "MM" big-endian), 42, and the
/// offset of the first IFD; or the BigTIFF header (magic 43, offset size 8, 0, 8-byte offset).
///
/// ```
/// 0000  49 49 2A 00 08 00 00 00                            "II", 42 (LE), first IFD at 8
/// 0000  4D 4D 00 2A 00 00 00 08                            "MM", 42 (BE), first IFD at 8
/// 0000  49 49 2B 00 08 00 00 00 10 00 00 00 00 00 00 00    "II", 43, offsets of 8 bytes, 0, first IFD at 16
/// ```
struct TIFFHeader {
    let endianness: Endianness
    let variant: TIFFVariant
    let firstIFD: Int

    /// The header's size once its first 4 bytes are known (16 for BigTIFF, else 8).
    static func size(peeking reader: RandomAccessReader) -> Int {
        guard let b0 = try? reader.getUInt8(at: 0), let m0 = try? reader.getUInt8(at: 2), let m1 = try? reader.getUInt8(at: 3) else { return 8 }
        let magic = b0 == 0x4D ? Int(m0) << 8 | Int(m1) : Int(m1) << 8 | Int(m0)
        return magic == 43 ? 16 : 8
    }

    /// Parses the header bytes (`reader` must hold them: 8, or 16 for BigTIFF).
    init(parsing reader: RandomAccessReader) throws(DecodeError) {
        func get<T>(_ read: () throws(ByteReaderError) -> T) throws(DecodeError) -> T {
            do throws(ByteReaderError) { return try read() } catch {
                throw DecodeError(.truncated, format: .tiff, offset: error.offset, TIFFError.truncated(inside: "the header"))
            }
        }
        let b0 = try get { () throws(ByteReaderError) in try reader.getUInt8(at: 0) }
        let b1 = try get { () throws(ByteReaderError) in try reader.getUInt8(at: 1) }
        switch (b0, b1) {
        case (0x49, 0x49): endianness = .littleEndian
        case (0x4D, 0x4D): endianness = .bigEndian
        default:
            throw DecodeError(.malformed, format: .tiff, offset: 0, TIFFError.badByteOrder(found: [b0, b1]))
        }
        let order = endianness
        let magic = try get { () throws(ByteReaderError) in try reader.getUInt16(at: 2, order) }
        switch magic {
        case 42:
            variant = .classic
            firstIFD = Int(try get { () throws(ByteReaderError) in try reader.getUInt32(at: 4, order) })
        case 43:
            // BigTIFF: "bytesize of offsets" must be 8 and the following 2 bytes 0 (libtiff
            // refuses the file otherwise: "bad BigTIFF offsetsize" / "bad BigTIFF unused").
            variant = .big
            let offsetSize = try get { () throws(ByteReaderError) in try reader.getUInt16(at: 4, order) }
            guard offsetSize == 8 else {
                throw DecodeError(.malformed, format: .tiff, offset: 4, TIFFError.invalidValue(field: "BigTIFF offset size", value: Int(offsetSize)))
            }
            let unused = try get { () throws(ByteReaderError) in try reader.getUInt16(at: 6, order) }
            guard unused == 0 else {
                throw DecodeError(.malformed, format: .tiff, offset: 6, TIFFError.invalidValue(field: "BigTIFF reserved field", value: Int(unused)))
            }
            firstIFD = TIFFVariant.offset(try get { () throws(ByteReaderError) in try reader.getUInt64(at: 8, order) })
        default:
            throw DecodeError(.malformed, format: .tiff, offset: 2, TIFFError.badMagic(magic))
        }
    }
}

extension TIFFVariant {
    /// An 8-byte offset or count as an Int; values beyond Int.max (never inside any input)
    /// become Int.max, so every later comparison with the input's size simply fails.
    static func offset(_ value: UInt64) -> Int { value > UInt64(Int.max) ? Int.max : Int(value) }
}

/// One IFD entry (§2; 12 bytes, or 20 in BigTIFF): tag, type, count, and the value itself when
/// it fits in the value field (4 bytes, or 8), else the offset of the value ("value-or-offset"
/// rule: §2 "the Value Offset … contains the Value instead of pointing to the Value if and only
/// if the Value fits into 4 bytes").
struct TIFFEntry {
    let tag: Int
    /// Nil for a type this decoder does not know (the entry is then ignored, as libtiff does).
    let type: TIFFFieldType?
    let rawType: Int
    /// 0 ... 2^32 − 1 (classic) or 0 ... Int.max (BigTIFF, larger counts clamped).
    let count: Int
    /// Where the entry's bytes start.
    let entryOffset: Int
    /// Where the value bytes are: inside the entry (entryOffset + 4 + count size) or at the
    /// stored offset (Int.max when the stored offset does not fit an Int).
    let valueOffset: Int
    /// count × type size (0 for unknown types; Int.max when the product overflows).
    let byteCount: Int
    /// Whether the value sits in the entry itself.
    let isInline: Bool
}

/// One Image File Directory (§2): its entries sorted by tag, and the offset of the next one.
struct TIFFDirectory {
    let offset: Int
    let entries: [TIFFEntry]
    let nextOffset: Int
    let endianness: Endianness
    let variant: TIFFVariant

    /// libtiff (tif_dirread.c TIFFFetchDirectory) refuses an IFD of more than 4096 entries:
    /// "Sanity check on directory count failed, this is probably not a valid IFD offset".
    static let maxEntries = 4096

    /// Parses the IFD at `offset`. `reader` covers the input so far; `.needMoreInput` when the
    /// IFD's bytes have not all arrived (and the input is open).
    static func parse(at offset: Int, reader: RandomAccessReader, endianness: Endianness, variant: TIFFVariant,
                      isClosed: Bool) throws(DecodeError) -> TIFFDirectory? {
        let size = reader.size
        guard offset >= variant.headerSize, offset < Int.max / 2 else {
            throw DecodeError(.malformed, format: .tiff, offset: offset, TIFFError.directoryOutsideFile(offset: offset))
        }
        guard offset + variant.countSize <= size else {
            if !isClosed { return nil }
            throw DecodeError(.malformed, format: .tiff, offset: offset, TIFFError.directoryOutsideFile(offset: offset))
        }
        let count: Int
        do throws(ByteReaderError) {
            count = variant == .classic ? Int(try reader.getUInt16(at: offset, endianness))
                                        : TIFFVariant.offset(try reader.getUInt64(at: offset, endianness))
        } catch {
            throw DecodeError(.truncated, format: .tiff, offset: offset, TIFFError.truncated(inside: "an IFD"))
        }
        guard count > 0 else {
            throw DecodeError(.malformed, format: .tiff, offset: offset, TIFFError.emptyDirectory(offset: offset))
        }
        guard count <= maxEntries else {
            throw DecodeError(.malformed, format: .tiff, offset: offset, TIFFError.invalidField(tag: 0, "IFD at \(offset) claims \(count) entries (at most \(maxEntries))"))
        }
        // offset < Int.max / 2 and count ≤ 4096, so none of these sums overflow.
        let entriesStart = offset + variant.countSize
        let entriesEnd = entriesStart + variant.entrySize * count
        var nextOffset = 0
        if entriesEnd + variant.offsetSize > size {
            if !isClosed { return nil }
            // libtiff reads what entries there are and treats a missing next-IFD offset as 0.
            guard entriesEnd <= size else {
                throw DecodeError(.truncated, format: .tiff, offset: size, TIFFError.truncated(inside: "the IFD at \(offset)"))
            }
        }
        var entries: [TIFFEntry] = []
        entries.reserveCapacity(count)
        do throws(ByteReaderError) {
            for index in 0..<count {
                let at = entriesStart + variant.entrySize * index
                let tag = Int(try reader.getUInt16(at: at, endianness))
                let rawType = Int(try reader.getUInt16(at: at + 2, endianness))
                let valueCount = variant == .classic ? Int(try reader.getUInt32(at: at + 4, endianness))
                                                     : TIFFVariant.offset(try reader.getUInt64(at: at + 4, endianness))
                let type = TIFFFieldType(rawValue: rawType)
                let (product, overflow) = (type?.size ?? 0).multipliedReportingOverflow(by: valueCount)
                let bytes = overflow ? Int.max : product
                let field = at + 4 + variant.offsetSize
                let inline = bytes <= variant.offsetSize
                let valueOffset: Int
                if inline {
                    valueOffset = field
                } else if variant == .classic {
                    valueOffset = Int(try reader.getUInt32(at: field, endianness))
                } else {
                    valueOffset = TIFFVariant.offset(try reader.getUInt64(at: field, endianness))
                }
                entries.append(TIFFEntry(tag: tag, type: type, rawType: rawType, count: valueCount, entryOffset: at,
                                         valueOffset: valueOffset, byteCount: bytes, isInline: inline))
            }
            if entriesEnd + variant.offsetSize <= size {
                nextOffset = variant == .classic ? Int(try reader.getUInt32(at: entriesEnd, endianness))
                                                 : TIFFVariant.offset(try reader.getUInt64(at: entriesEnd, endianness))
            }
        } catch {
            throw DecodeError(.truncated, format: .tiff, offset: error.offset, TIFFError.truncated(inside: "an IFD"))
        }
        // §2: "The entries in an IFD must be sorted in ascending order by Tag." libtiff sorts
        // unsorted directories with a warning; a stable sort keeps the first of duplicates first.
        let sorted = entries.enumerated().sorted { ($0.element.tag, $0.offset) < ($1.element.tag, $1.offset) }.map(\.element)
        return TIFFDirectory(offset: offset, entries: sorted, nextOffset: nextOffset, endianness: endianness, variant: variant)
    }

    /// The first entry with `tag` (libtiff ignores later duplicates).
    func entry(_ tag: Int) -> TIFFEntry? { entries.first { $0.tag == tag } }

    /// The integer values of `tag`, or nil when absent or not of an integer type. Throws when
    /// the values lie outside the input or exceed `maxCount`.
    ///
    /// `readingAtMost`: read only the first values (libtiff reads strip arrays with the number of
    /// strips as a limit, TIFFReadDirEntryLong8ArrayWithLimit, whatever count the entry claims).
    func integers(_ tag: Int, reader: RandomAccessReader, maxCount: Int, readingAtMost: Int? = nil) throws(DecodeError) -> [Int]? {
        guard let entry = entry(tag), let type = entry.type, type.isInteger else { return nil }
        let wanted = min(entry.count, readingAtMost ?? entry.count)
        guard wanted <= maxCount else {
            throw DecodeError(.limitExceeded, format: .tiff, offset: entry.entryOffset,
                              TIFFError.invalidField(tag: tag, "\(entry.count) values, at most \(maxCount) expected"))
        }
        let (end, overflow) = entry.valueOffset.addingReportingOverflow(wanted * type.size)
        guard !overflow, end <= reader.size else {
            throw DecodeError(.malformed, format: .tiff, offset: entry.entryOffset,
                              TIFFError.valueOutsideFile(tag: entry.tag, offset: entry.valueOffset, bytes: entry.byteCount))
        }
        // Each type's raw value as an Int: signed types sign-extended, 64-bit offsets clamped.
        let convert: (UInt64) -> Int
        switch type {
        case .byte, .undefined, .short, .long, .ifd: convert = { Int($0) }
        case .sbyte: convert = { Int(Int8(truncatingIfNeeded: $0)) }
        case .sshort: convert = { Int(Int16(truncatingIfNeeded: $0)) }
        case .slong: convert = { Int(Int32(truncatingIfNeeded: $0)) }
        case .long8, .ifd8: convert = { TIFFVariant.offset($0) }
        case .slong8: convert = { Int(Int64(bitPattern: $0)) }
        default: return nil
        }
        let values: [Int]
        do throws(ByteReaderError) {
            values = try reader.unsignedIntegers(at: entry.valueOffset, count: wanted, size: type.size, endianness).map(convert)
        } catch {
            throw DecodeError(.malformed, format: .tiff, offset: entry.entryOffset,
                              TIFFError.valueOutsideFile(tag: tag, offset: entry.valueOffset, bytes: entry.byteCount))
        }
        return values
    }

    /// The first integer value of `tag`, or `defaultValue` when absent.
    func integer(_ tag: Int, reader: RandomAccessReader, default defaultValue: Int? = nil) throws(DecodeError) -> Int? {
        guard let values = try integers(tag, reader: reader, maxCount: 1 << 20), let first = values.first else { return defaultValue }
        return first
    }

    /// RATIONAL / FLOAT / DOUBLE values as Double (integers are converted too).
    func reals(_ tag: Int, reader: RandomAccessReader) throws(DecodeError) -> [Double]? {
        guard let entry = entry(tag), let type = entry.type, entry.count <= 4096 else { return nil }
        if type.isInteger { return try integers(tag, reader: reader, maxCount: 4096)?.map(Double.init) }
        try checkInside(entry, reader: reader)
        var values: [Double] = []
        do throws(ByteReaderError) {
            for index in 0..<entry.count {
                let at = entry.valueOffset + index * type.size
                switch type {
                case .rational:
                    let n = try reader.getUInt32(at: at, endianness), d = try reader.getUInt32(at: at + 4, endianness)
                    values.append(d == 0 ? 0 : Double(n) / Double(d))
                case .srational:
                    let n = Int32(bitPattern: try reader.getUInt32(at: at, endianness))
                    let d = Int32(bitPattern: try reader.getUInt32(at: at + 4, endianness))
                    values.append(d == 0 ? 0 : Double(n) / Double(d))
                case .float: values.append(Double(Float(bitPattern: try reader.getUInt32(at: at, endianness))))
                case .double: values.append(Double(bitPattern: try reader.getUInt64(at: at, endianness)))
                default: return nil
                }
            }
        } catch {
            return nil
        }
        return values
    }

    /// Values of a float-valued field as libtiff reads them (TIFFReadDirEntryFloatArray): a
    /// RATIONAL is `(float)numerator / (float)denominator` (0 when the denominator is 0) —
    /// divided in single precision, so not `Float(reals(…))` —, a DOUBLE is rounded to float,
    /// integers are converted.
    func floats(_ tag: Int, reader: RandomAccessReader) throws(DecodeError) -> [Float]? {
        guard let entry = entry(tag), let type = entry.type, entry.count <= 4096 else { return nil }
        if type.isInteger { return try integers(tag, reader: reader, maxCount: 4096)?.map { Float($0) } }
        try checkInside(entry, reader: reader)
        var values: [Float] = []
        do throws(ByteReaderError) {
            for index in 0..<entry.count {
                let at = entry.valueOffset + index * type.size
                switch type {
                case .rational, .srational:
                    let n = try reader.getUInt32(at: at, endianness), d = try reader.getUInt32(at: at + 4, endianness)
                    let numerator = type == .rational ? Float(n) : Float(Int32(bitPattern: n))
                    values.append(d == 0 ? 0 : numerator / Float(d))
                case .float: values.append(Float(bitPattern: try reader.getUInt32(at: at, endianness)))
                case .double: values.append(Float(Double(bitPattern: try reader.getUInt64(at: at, endianness))))
                default: return nil
                }
            }
        } catch {
            return nil
        }
        return values
    }

    /// The raw value bytes of `tag` (for JPEGTables, ICC profiles and the like).
    func bytes(_ tag: Int, reader: RandomAccessReader, limit: Int) throws(DecodeError) -> [UInt8]? {
        guard let entry = entry(tag), entry.type != nil else { return nil }
        guard entry.byteCount <= limit else {
            throw DecodeError(.limitExceeded, format: .tiff, offset: entry.entryOffset, LimitReason.metadataTooLarge(limit: limit))
        }
        try checkInside(entry, reader: reader)
        do throws(ByteReaderError) { return Array(try reader.getBytes(at: entry.valueOffset, count: entry.byteCount)) } catch {
            return nil
        }
    }

    private func checkInside(_ entry: TIFFEntry, reader: RandomAccessReader) throws(DecodeError) {
        let (end, overflow) = entry.valueOffset.addingReportingOverflow(entry.byteCount)
        guard !overflow, end <= reader.size else {
            throw DecodeError(.malformed, format: .tiff, offset: entry.entryOffset,
                              TIFFError.valueOutsideFile(tag: entry.tag, offset: entry.valueOffset, bytes: entry.byteCount))
        }
    }
}
