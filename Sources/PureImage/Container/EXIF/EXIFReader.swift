/// Reads EXIF's TIFF structure (TIFF 6.0 §2; Exif 2.32 §4.6): IFD0 with its pointers to the
/// Exif IFD (tag 34665), the GPS IFD (34853) and, from the Exif IFD, the interoperability IFD
/// (40965); then IFD1, the thumbnail's directory.
///
/// Hostile blocks are read as far as they are sound, never trusted: every value is
/// bounds-checked against the block, an IFD visited twice (a loop) is not read again, an IFD
/// claiming more than 1000 entries is not read, and an entry whose type is unknown is passed over.
/// Everything read is bounded by the block's size.
enum EXIFReader {
    /// An EXIF block: a TIFF structure starting with its byte-order mark, as JPEG APP1 carries
    /// it after "Exif\0\0" and PNG eXIf / WebP EXIF hold it. Nil when the header is not one.
    static func read(block: [UInt8]) -> EXIFMetadata? {
        let reader = RandomAccessReader(block)
        let endianness: Endianness
        do throws(ByteReaderError) {
            switch (try reader.getUInt8(at: 0), try reader.getUInt8(at: 1)) {
            case (0x49, 0x49): endianness = .littleEndian   // "II"
            case (0x4D, 0x4D): endianness = .bigEndian      // "MM"
            default: return nil
            }
            guard try reader.getUInt16(at: 2, endianness) == 42 else { return nil }
            var walk = Walk(reader: reader, endianness: endianness, namedOnly: false)
            let next = walk.directory(at: Int(try reader.getUInt32(at: 4, endianness)), as: .tiff)
            if let next, next != 0 { _ = walk.directory(at: next, as: .thumbnail) }
            return walk.metadata
        } catch {
            return nil
        }
    }

    /// A TIFF file's own IFD at `offset` (a page), with its Exif and GPS IFDs: ImageIO's
    /// `{TIFF}` dictionary holds the named tags only (not StripOffsets and the like), and the
    /// next IFD is the next page, not a thumbnail.
    static func read(tiff reader: RandomAccessReader, endianness: Endianness, ifd offset: Int) -> EXIFMetadata {
        var walk = Walk(reader: reader, endianness: endianness, namedOnly: true)
        _ = walk.directory(at: offset, as: .tiff)
        return walk.metadata
    }

    private struct Walk {
        let reader: RandomAccessReader
        let endianness: Endianness
        /// Keep only the tags ImageIO names (a TIFF file's IFD0).
        let namedOnly: Bool
        var metadata = EXIFMetadata()
        var visited: Set<Int> = []

        static let maximumEntries = 1000
        /// Sub-IFD pointers: the tag, the IFD it is found in, the directory it leads to.
        /// TIFF 6.0 §8 fields of type ASCII (DocumentName, ImageDescription, Make, Model,
        /// PageName, Software, DateTime, Artist, HostComputer, Copyright).
        static let textTags: Set<Int> = [269, 270, 271, 272, 285, 305, 306, 315, 316, 33432]

        static let pointers: [(tag: Int, in: EXIFDirectory, to: EXIFDirectory)] = [
            (34665, .tiff, .exif), (34853, .tiff, .gps), (40965, .exif, .interoperability),
        ]

        /// Reads the IFD at `offset` as `directory`, then the sub-IFDs it points to; returns the
        /// offset of the next IFD (nil when this one could not be read).
        mutating func directory(at offset: Int, as directory: EXIFDirectory) -> Int? {
            guard offset > 0, !visited.contains(offset) else { return nil }
            visited.insert(offset)
            do throws(ByteReaderError) {
                let count = Int(try reader.getUInt16(at: offset, endianness))
                guard count <= Self.maximumEntries else { return nil }
                var subDirectories: [(Int, EXIFDirectory)] = []
                var thumbnail: (offset: Int?, length: Int?) = (nil, nil)
                var seen: Set<Int> = []
                for index in 0 ..< count {
                    let at = offset + 2 + index * 12
                    let tag = Int(try reader.getUInt16(at: at, endianness))
                    let type = Int(try reader.getUInt16(at: at + 2, endianness))
                    let valueCount = Int(try reader.getUInt32(at: at + 4, endianness))
                    guard let value = try? self.value(type: type, count: valueCount, field: at + 8) else { continue }
                    // A text tag stored as numbers (a SamplesPerPixel entry renamed to Software
                    // in a Pillow test file) is skipped, as libtiff's TIFFFetchNormalTag refuses
                    // its type and exiftool shows the well-typed duplicate.
                    if directory == .tiff, Self.textTags.contains(tag), ![1, 2, 7].contains(type) { continue }
                    // A tag repeated in one IFD (TIFF 6.0 §2 forbids it; fuzzed and broken
                    // writers do it): the first one counts, as exiftool reads it.
                    guard seen.insert(tag).inserted else { continue }
                    if let pointer = Self.pointers.first(where: { $0.tag == tag && $0.in == directory }) {
                        if case .integers(let offsets) = value, let target = offsets.first { subDirectories.append((target, pointer.to)) }
                        continue
                    }
                    if directory == .thumbnail, case .integers(let values) = value, let first = values.first {
                        if tag == 513 { thumbnail.offset = first }    // JPEGInterchangeFormat
                        if tag == 514 { thumbnail.length = first }    // JPEGInterchangeFormatLength
                    }
                    let name = EXIFTagNames.name(tag, in: directory)
                    if namedOnly && name == nil { continue }
                    metadata.entries.append(EXIFEntry(directory: directory, tag: tag, name: name, value: value))
                }
                if let start = thumbnail.offset, let length = thumbnail.length, start >= 0, length > 0,
                   start <= reader.size - length {
                    metadata.thumbnailRange = start ..< start + length
                }
                let next = try? reader.getUInt32(at: offset + 2 + count * 12, endianness)
                for (target, sub) in subDirectories { _ = self.directory(at: target, as: sub) }
                return next.map(Int.init)
            } catch {
                return nil
            }
        }

        /// TIFF 6.0 §2 "IFD Entry": the value is in the 4-byte field when it fits, else at the
        /// offset the field holds.
        func value(type: Int, count: Int, field: Int) throws(ByteReaderError) -> EXIFValue? {
            let size: Int
            switch type {
            case 1, 2, 6, 7: size = 1
            case 3, 8: size = 2
            case 4, 9, 11, 13: size = 4
            case 5, 10, 12: size = 8
            default: return nil
            }
            guard count >= 0 else { return nil }
            let (total, overflow) = count.multipliedReportingOverflow(by: size)
            guard !overflow, total <= reader.size else { return nil }
            let start = total <= 4 ? field : Int(try reader.getUInt32(at: field, endianness))
            let bytes = try reader.getBytes(at: start, count: total)
            let e = endianness
            func u16(_ i: Int) -> UInt16 {
                let a = UInt16(bytes[bytes.startIndex + i]), b = UInt16(bytes[bytes.startIndex + i + 1])
                return e == .littleEndian ? a | b << 8 : a << 8 | b
            }
            func u32(_ i: Int) -> UInt32 {
                let at = bytes.startIndex + i
                let a = UInt32(bytes[at]), b = UInt32(bytes[at + 1]), c = UInt32(bytes[at + 2]), d = UInt32(bytes[at + 3])
                return e == .littleEndian ? a | b << 8 | c << 16 | d << 24 : a << 24 | b << 16 | c << 8 | d
            }
            func u64(_ i: Int) -> UInt64 {
                let low = UInt64(u32(e == .littleEndian ? i : i + 4)), high = UInt64(u32(e == .littleEndian ? i + 4 : i))
                return high << 32 | low
            }
            switch type {
            case 1: return .integers(bytes.map { Int($0) })
            case 6: return .integers(bytes.map { Int(Int8(bitPattern: $0)) })
            case 2:
                let text = bytes.prefix { $0 != 0 }
                return .text(String(decoding: text, as: UTF8.self))
            case 7: return .bytes(Array(bytes))
            case 3: return .integers((0 ..< count).map { Int(u16(2 * $0)) })
            case 8: return .integers((0 ..< count).map { Int(Int16(bitPattern: u16(2 * $0))) })
            case 4, 13: return .integers((0 ..< count).map { Int(u32(4 * $0)) })
            case 9: return .integers((0 ..< count).map { Int(Int32(bitPattern: u32(4 * $0))) })
            case 5: return .rationals((0 ..< count).map { Double(u32(8 * $0)) / Double(u32(8 * $0 + 4)) })
            case 10:
                return .rationals((0 ..< count).map { Double(Int32(bitPattern: u32(8 * $0))) / Double(Int32(bitPattern: u32(8 * $0 + 4))) })
            case 11: return .reals((0 ..< count).map { Double(Float(bitPattern: u32(4 * $0))) })
            case 12: return .reals((0 ..< count).map { Double(bitPattern: u64(8 * $0)) })
            default: return nil
            }
        }
    }
}
