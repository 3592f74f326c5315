import Testing
import CReference
@testable import PureImage

/// The `libtiffRGBA` output: each of libtiff's own arithmetic rules on a hand-built file, checked
/// against the value worked out by hand and against libtiff itself (pi_ref_tiff_decode_rgba).
@Suite struct TIFFLibtiffRGBATests {
    static func libtiff(_ bytes: [UInt8]) -> [UInt8]? {
        var image = PIRefImage()
        _ = bytes.withUnsafeBufferPointer { pi_ref_tiff_decode_rgba($0.baseAddress, $0.count, 0, &image) }
        defer { pi_ref_image_free(&image) }
        guard image.status >= 0, let pixels = image.pixels else { return nil }
        return Array(UnsafeBufferPointer(start: pixels, count: image.size))
    }

    static func exact(_ bytes: [UInt8]) throws -> [UInt8] {
        try ImageSource(bytes: bytes).image(options: ImageDecodingOptions(output: .libtiffRGBA)).tightBytes
    }

    /// A `width`×`height` one-strip uncompressed file with the given tags after the basic ones.
    static func file(width: Int, height: Int, bits: UInt16, samples: Int, photometric: UInt16, data: [UInt8],
                     extra: (inout TIFFBuilder) -> Void = { _ in }) -> [UInt8] {
        var b = TIFFBuilder(.big)
        b.data = data
        b.short(256, UInt16(width)); b.short(257, UInt16(height))
        b.entries.append((258, 3, UInt32(samples), (0..<samples).flatMap { _ in b.u16(bits) }))
        b.short(259, 1); b.short(262, photometric)
        b.long(273, b.dataOffset); b.short(277, UInt16(samples)); b.short(278, UInt16(height))
        b.long(279, UInt32(data.count))
        extra(&b)
        b.entries.sort { $0.tag < $1.tag }
        return b.build()
    }

    /// 16-bit gray: libtiff shows the high byte (0x00FF → 0) where the 8-bit conversion rounds
    /// (0x00FF + 128) / 257 = 1.
    @Test func sixteenBitGrayTakesTheHighByte() throws {
        let bytes = Self.file(width: 1, height: 1, bits: 16, samples: 1, photometric: 1, data: [0x00, 0xFF])
        #expect(try Self.exact(bytes) == [0, 0, 0, 255])
        #expect(try ImageSource(bytes: bytes).image(options: ImageDecodingOptions(output: .format(.rgba8))).tightBytes == [1, 1, 1, 255])
        #expect(try Self.exact(bytes) == Self.libtiff(bytes))
    }

    /// CMYK (128, 64, 0, 51): libtiff truncates 204 × 127 / 255 = 101.6 → 101, 204 × 191 / 255 →
    /// 152; the canonical output rounds to (102, 153, 204).
    @Test func cmykIsTruncated() throws {
        let bytes = Self.file(width: 1, height: 1, bits: 8, samples: 4, photometric: 5, data: [128, 64, 0, 51]) { $0.short(332, 1) }
        #expect(try Self.exact(bytes) == [101, 152, 204, 255])
        #expect(try ImageSource(bytes: bytes).image().tightBytes == [102, 153, 204, 255])
        #expect(try Self.exact(bytes) == Self.libtiff(bytes))
    }

    /// 8-bit gray + unassociated alpha: libtiff's putagreytile keeps the gray unpremultiplied.
    @Test func grayWithAlphaIsNotPremultiplied() throws {
        let bytes = Self.file(width: 1, height: 1, bits: 8, samples: 2, photometric: 1, data: [200, 128]) { $0.short(338, 2) }
        #expect(try Self.exact(bytes) == [200, 200, 200, 128])
        #expect(try Self.exact(bytes) == Self.libtiff(bytes))
    }

    /// WhiteIsZero in separate planes: libtiff's separate put routines read the samples without
    /// the gray map, so they are not inverted.
    @Test func separateWhiteIsZeroIsNotInverted() throws {
        var b = TIFFBuilder(.little)
        b.data = [10, 20, 255, 255]                   // gray plane 10 20, alpha plane 255 255
        b.short(256, 2); b.short(257, 1); b.short(258, 8, 8); b.short(259, 1); b.short(262, 0)
        b.long(273, b.dataOffset, b.dataOffset + 2); b.short(277, 2); b.short(278, 1); b.long(279, 2, 2)
        b.short(284, 2); b.short(338, 1)
        let bytes = b.build()
        #expect(try Self.exact(bytes) == [10, 10, 10, 255, 20, 20, 20, 255])
        #expect(try Self.exact(bytes) == Self.libtiff(bytes))
    }

    /// Orientation 3 (bottom-right): libtiff flips both ways.
    @Test func orientationFlips() throws {
        let bytes = Self.file(width: 2, height: 2, bits: 8, samples: 1, photometric: 1, data: [1, 2, 3, 4]) { $0.short(274, 3) }
        #expect(try Self.exact(bytes).enumerated().filter { $0.offset % 4 == 0 }.map(\.element) == [4, 3, 2, 1])
        #expect(try Self.exact(bytes) == Self.libtiff(bytes))
    }

    /// A strip whose data lies past the end of the file leaves libtiff's strip buffer as the strip
    /// before left it: row 1 repeats row 0 (the canonical output leaves it zero).
    @Test func unreadableStripRepeatsThePreviousOne() throws {
        var b = TIFFBuilder(.little)
        b.data = [10, 20]
        b.short(256, 2); b.short(257, 2); b.short(258, 8); b.short(259, 1); b.short(262, 1)
        b.long(273, b.dataOffset, 60000); b.short(277, 1); b.short(278, 1); b.long(279, 2, 2)
        let bytes = b.build()
        #expect(try Self.exact(bytes) == [10, 10, 10, 255, 20, 20, 20, 255, 10, 10, 10, 255, 20, 20, 20, 255])
        #expect(try Self.exact(bytes) == Self.libtiff(bytes))
    }

    /// Float samples: libtiff's RGBA interface refuses them, and so does this output.
    @Test func floatSamplesAreRefused() {
        let bytes = Self.file(width: 1, height: 1, bits: 32, samples: 1, photometric: 1, data: [0x3F, 0x80, 0, 0]) { $0.short(339, 3) }
        #expect(Self.libtiff(bytes) == nil)
        #expect(throws: DecodeError.self) { try Self.exact(bytes) }
    }
}
