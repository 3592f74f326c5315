import Testing
@testable import PureImage

/// EXIF blocks built field by field (TIFF 6.0 §2, Exif 2.32 §4.6), read back as typed values.
@Suite("EXIF")
struct EXIFTests {
    /// One IFD entry to lay out: tag, TIFF type, count, and the value's bytes in the block's
    /// byte order (any length: ≤ 4 bytes go in the entry, longer ones after the IFD).
    struct Field {
        var tag: UInt16, type: UInt16, count: UInt32, value: [UInt8]
    }

    /// Lays out IFDs one after another from `start`; `links` patches pointer fields: a field
    /// whose value is `.pointer(k)` gets IFD k's offset. Returns the block.
    struct Builder {
        let little: Bool
        func u16(_ v: UInt16) -> [UInt8] { little ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] { little ? u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) : u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) }
        func ascii(_ tag: UInt16, _ text: String) -> Field { Field(tag: tag, type: 2, count: UInt32(text.utf8.count + 1), value: Array(text.utf8) + [0]) }
        func short(_ tag: UInt16, _ v: UInt16) -> Field { Field(tag: tag, type: 3, count: 1, value: u16(v) + [0, 0]) }
        func long(_ tag: UInt16, _ v: UInt32) -> Field { Field(tag: tag, type: 4, count: 1, value: u32(v)) }
        func rationals(_ tag: UInt16, _ values: [(UInt32, UInt32)]) -> Field {
            Field(tag: tag, type: 5, count: UInt32(values.count), value: values.flatMap { u32($0.0) + u32($0.1) })
        }
        func srational(_ tag: UInt16, _ n: Int32, _ d: Int32) -> Field {
            Field(tag: tag, type: 10, count: 1, value: u32(UInt32(bitPattern: n)) + u32(UInt32(bitPattern: d)))
        }
        func undefined(_ tag: UInt16, _ bytes: [UInt8]) -> Field { Field(tag: tag, type: 7, count: UInt32(bytes.count), value: bytes) }

        /// `ifds[k]` is laid out at the offset `offsets[k]`; pointer fields are given as LONGs
        /// whose values are IFD indices, replaced here by offsets. `next[k]`: IFD k's next IFD.
        func block(_ ifds: [[Field]], pointers: [UInt16: Int], next: [Int: Int] = [:], tail: [UInt8] = []) -> [UInt8] {
            var offsets: [Int] = []
            var at = 8
            for fields in ifds {
                offsets.append(at)
                at += 2 + fields.count * 12 + 4 + fields.reduce(0) { $0 + ($1.value.count > 4 ? $1.value.count : 0) }
            }
            var out = (little ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
            for (k, fields) in ifds.enumerated() {
                var data: [UInt8] = []
                var entries: [UInt8] = []
                let dataStart = offsets[k] + 2 + fields.count * 12 + 4
                for field in fields {
                    var value = field.value
                    if let target = pointers[field.tag] { value = u32(UInt32(offsets[target])) }
                    entries += u16(field.tag) + u16(field.type) + u32(field.count)
                    if value.count > 4 {
                        entries += u32(UInt32(dataStart + data.count))
                        data += value
                    } else {
                        entries += value + Array(repeating: 0, count: 4 - value.count)
                    }
                }
                out += u16(UInt16(fields.count)) + entries + u32(next[k].map { UInt32(offsets[$0]) } ?? 0) + data
            }
            return out + tail
        }
    }

    static func camera(little: Bool) -> (block: [UInt8], thumbnail: Range<Int>) {
        let b = Builder(little: little)
        let ifd0 = [b.ascii(271, "PureCam"), b.short(274, 6), b.rationals(282, [(72, 1)]), b.long(34665, 1), b.long(34853, 2)]
        let exif = [b.rationals(33434, [(1, 125)]), b.rationals(33437, [(28, 10)]), b.short(34855, 200),
                    b.undefined(36864, Array("0232".utf8)), b.srational(37380, -1, 3), b.ascii(36867, "2026:12:02 06:00:00")]
        let gps = [b.ascii(1, "S"), b.rationals(2, [(33, 1), (51, 1), (3, 2)]), b.ascii(3, "W"), b.rationals(4, [(70, 1), (30, 1), (0, 1)])]
        // IFD1 points at a 4-byte "thumbnail" appended after the IFDs.
        let withoutThumbnail = b.block([ifd0, exif, gps, [b.short(259, 6), b.long(513, 0), b.long(514, 4)]], pointers: [34665: 1, 34853: 2], next: [0: 3])
        let thumbnailStart = withoutThumbnail.count
        let ifd1 = [b.short(259, 6), b.long(513, UInt32(thumbnailStart)), b.long(514, 4)]
        let block = b.block([ifd0, exif, gps, ifd1], pointers: [34665: 1, 34853: 2], next: [0: 3], tail: [0xFF, 0xD8, 0xFF, 0xD9])
        return (block, thumbnailStart ..< thumbnailStart + 4)
    }

    @Test(arguments: [true, false])
    func everyDirectoryReadsAsTypedValues(little: Bool) throws {
        let (block, thumbnail) = Self.camera(little: little)
        let exif = try #require(EXIFReader.read(block: block))
        #expect(exif.text(.tiff, "Make") == "PureCam")
        #expect(exif.value(.tiff, "Orientation") == .integers([6]))
        #expect(exif.value(.tiff, "XResolution") == .rationals([72]))
        #expect(exif.number(.exif, "ExposureTime") == 1.0 / 125)
        #expect(exif.number(.exif, "FNumber") == 2.8)
        #expect(exif.number(.exif, "ISOSpeedRatings") == 200)
        #expect(exif.value(.exif, "ExifVersion") == .bytes(Array("0232".utf8)))
        #expect(exif.value(.exif, "ExposureBiasValue") == .rationals([-1.0 / 3]))
        #expect(exif.text(.exif, "DateTimeOriginal") == "2026:12:02 06:00:00")
        let position = try #require(exif.coordinate)
        #expect(abs(position.latitude - -(33 + 51.0 / 60 + 1.5 / 3600)) < 1e-12)
        #expect(position.longitude == -70.5)
        #expect(exif.thumbnailRange == thumbnail)
        #expect(exif.value(.thumbnail, "Compression") == .integers([6]))
        // The pointer tags lead to their IFDs and are not entries themselves.
        #expect(!exif.entries.contains { $0.tag == 34665 || $0.tag == 34853 })
    }

    @Test func aPNGeXIfChunkIsTheSameMetadata() throws {
        let (block, _) = Self.camera(little: false)
        var png = PNGBuilder()
        png.header(width: 1, height: 1, depth: 8, colorType: 0)
        png.chunk("eXIf", block)
        png.imageData(PNGBuilder.scanlines([[9]]))
        png.end()
        let properties = try ImageSource(bytes: png.bytes).properties()
        #expect(properties.exifMetadata == EXIFReader.read(block: block))
        #expect(properties.orientation.rawValue == 6)
    }

    /// Loops, absurd counts, offsets past the end and unknown types: read as far as sound.
    @Test func hostileBlocksAreReadAsFarAsTheyAreSound() throws {
        let b = Builder(little: true)
        // The Exif pointer leads back to IFD0 (a loop); IFD0's next IFD is itself.
        let looping = b.block([[b.ascii(271, "Loop"), b.long(34665, 0)]], pointers: [34665: 0], next: [0: 0])
        let exif = try #require(EXIFReader.read(block: looping))
        #expect(exif.entries.map(\.tag) == [271])
        // 2^32 − 1 SHORTs, a value offset past the end, an unknown type: each entry is dropped alone.
        var hostile = b.block([[b.ascii(271, "Kept"), Field(tag: 272, type: 3, count: 0xFFFF_FFFF, value: [0, 0, 0, 0]),
                                Field(tag: 305, type: 2, count: 100, value: b.u32(0x7FFF_FFF0)), Field(tag: 306, type: 99, count: 1, value: [1, 2, 3, 4]),
                                b.short(274, 3)]], pointers: [:])
        #expect(EXIFReader.read(block: hostile)?.entries.map(\.tag) == [271, 274])
        // An IFD claiming 65535 entries in a tiny block, and a block cut inside its first IFD.
        hostile = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 0xFF, 0xFF] + Array(repeating: 0, count: 30)
        #expect(EXIFReader.read(block: hostile)?.entries.isEmpty == true)
        let (block, _) = Self.camera(little: true)
        for length in 0 ..< block.count {
            _ = EXIFReader.read(block: Array(block.prefix(length)))   // never traps
        }
        #expect(EXIFReader.read(block: Array("no TIFF here".utf8)) == nil)
    }

    /// Thumbnails from the EXIF IFD1 JPEG: taken when asked for (and large enough), scaled like
    /// any thumbnail and oriented by the image's orientation; otherwise made from the image.
    @Test(.enabled(if: Corpus.isAvailable, "needs PUREIMAGE_CORPUS"), TestTime.limit(minutes: 2))
    func embeddedThumbnailsAreUsedWhenAskedFor() throws {
        var checked = 0
        for entry in Corpus.manifest() where entry.format == "jpeg" && entry.expectation == "valid" {
            guard checked < 12, let bytes = Corpus.read(entry), bytes.count < 4 << 20, let source = try? ImageSource(bytes: bytes),
                  let header = try? source.properties(), let exif = header.exif, let range = header.exifMetadata?.thumbnailRange,
                  let embedded = try? ImageSource(bytes: Array(exif[range])), let small = try? embedded.properties(),
                  max(small.width, small.height) >= 32, max(header.width, header.height) > 2 * max(small.width, small.height) else { continue }
            checked += 1
            let fromEmbedded = try embedded.thumbnail(maxPixelSize: 32)
            #expect(try source.thumbnail(maxPixelSize: 32, from: .embeddedIfPresent) == fromEmbedded, "\(entry.path)")
            #expect(try source.thumbnail(maxPixelSize: 32, from: .embeddedIfLargeEnough) == fromEmbedded, "\(entry.path)")
            let oriented = try source.thumbnail(maxPixelSize: 32, applyOrientation: true, from: .embeddedIfPresent)
            #expect(oriented == fromEmbedded.oriented(header.orientation), "\(entry.path)")
            // Larger than the embedded one: the image makes it.
            let large = 2 * max(small.width, small.height)
            #expect(try source.thumbnail(maxPixelSize: large, from: .embeddedIfLargeEnough) == source.thumbnail(maxPixelSize: large), "\(entry.path)")
        }
        #expect(checked >= 3, "\(checked) corpus JPEGs with an EXIF thumbnail checked")
    }
}
