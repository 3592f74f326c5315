import Testing
@testable import PureImage

/// PNG chunks, the JFIF segment and ICC profile descriptions as typed properties.
@Suite("Typed metadata")
struct TypedMetadataTests {
    static func be32(_ v: UInt32) -> [UInt8] { PNGBuilder.be32(v) }

    @Test func pngChunksBecomeTypedProperties() throws {
        var png = PNGBuilder()
        png.header(width: 1, height: 1, depth: 8, colorType: 2)
        png.chunk("gAMA", Self.be32(45455))
        png.chunk("cHRM", [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000].flatMap { Self.be32($0) })
        png.chunk("sRGB", [1])
        png.chunk("sBIT", [5, 6, 5])
        png.chunk("bKGD", [0, 10, 0, 20, 0, 30])
        png.chunk("pHYs", Self.be32(2835) + Self.be32(2835) + [1])
        png.chunk("tIME", [0x07, 0xEA, 12, 2, 6, 30, 59])
        png.imageData(PNGBuilder.scanlines([[1, 2, 3]]))
        png.end()
        let properties = try ImageSource(bytes: png.bytes).properties()
        let info = properties.png
        #expect(info.gamma == 0.45455)
        #expect(info.chromaticities == .init(whiteX: 0.3127, whiteY: 0.329, redX: 0.64, redY: 0.33, greenX: 0.3, greenY: 0.6, blueX: 0.15, blueY: 0.06))
        #expect(info.sRGBIntent == 1)
        #expect(info.significantBits == [5, 6, 5])
        #expect(info.background == .rgb(10, 20, 30))
        #expect(info.pixelsPerUnit == .init(x: 2835, y: 2835, perMetre: true))
        #expect(info.modificationTime == .init(year: 2026, month: 12, day: 2, hour: 6, minute: 30, second: 59))
        #expect(!properties.extra.contains { ["gamma", "sRGBIntent", "pixelsPerUnit", "modified"].contains($0.key) })
    }

    /// A profile of the 128-byte header, a tag table with one 'desc' entry, and the tag.
    static func profile(description tag: [UInt8]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 128) + be32(1) + Array("desc".utf8) + be32(144) + be32(UInt32(tag.count))
        bytes += tag
        return bytes
    }

    @Test func iccDescriptionsOfVersion2And4Profiles() throws {
        // ICC v2 textDescriptionType: 'desc', reserved, ASCII count with its NUL, the text.
        let v2 = Self.profile(description: Array("desc".utf8) + [0, 0, 0, 0] + Self.be32(9) + Array("sRGB v2\0\0".utf8))
        #expect(ICCProfileDescription.read(v2) == "sRGB v2")
        // ICC v4 multiLocalizedUnicodeType: 'mluc', reserved, 1 record of 12 bytes: enUS, length, offset.
        let text = Array("Wide ✓".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let v4 = Self.profile(description: Array("mluc".utf8) + [0, 0, 0, 0] + Self.be32(1) + Self.be32(12)
                              + Array("enUS".utf8) + Self.be32(UInt32(text.count)) + Self.be32(28) + text)
        #expect(ICCProfileDescription.read(v4) == "Wide ✓")
        // Offsets past the end, a tag count larger than the table, too short: nil, never a trap.
        var broken = v4
        broken.replaceSubrange(136 ..< 140, with: Self.be32(0x7FFF_FFF0))
        #expect(ICCProfileDescription.read(broken) == nil)
        broken = v2
        broken.replaceSubrange(128 ..< 132, with: Self.be32(0xFFFF_FFFF))
        #expect(ICCProfileDescription.read(broken) == nil)
        for length in 0 ..< v4.count { _ = ICCProfileDescription.read(Array(v4.prefix(length))) }
    }
}
