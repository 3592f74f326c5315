import Testing
@testable import PureImage

/// Compression 7 (TIFF Technical Note 2): a strip is a whole JPEG stream, decoded by the JPEG
/// decoder and its rows copied into the strip. What a strip gives when its JPEG decodes, ends
/// early, or holds another number of components than the page (libtiff: "Improper JPEG
/// component count", the strip left zero).
@Suite(.enabled(if: GeneratedCorpus.isAvailable, "Conformance/generated is absent"))
struct TIFFJPEGStripTests {
    /// A one-strip 33×31 page of `samples` 8-bit samples whose strip is `strip`.
    static func page(strip: [UInt8], samples: Int, photometric: UInt16) -> [UInt8] {
        var b = TIFFBuilder(.little)
        b.short(256, 33)                                                  // ImageWidth
        b.short(257, 31)                                                  // ImageLength
        let eightBits = (0..<samples).flatMap { _ in b.u16(8) }
        b.raw(258, type: 3, count: UInt32(samples), value: eightBits)     // BitsPerSample
        b.short(259, 7)                                                   // Compression: JPEG
        b.short(262, photometric)                                         // PhotometricInterpretation
        b.short(277, UInt16(samples))                                     // SamplesPerPixel
        b.short(278, 31)                                                  // RowsPerStrip: one strip
        b.appendStrips([strip])
        b.entries.sort { $0.tag < $1.tag }
        return b.build()
    }

    /// The stream cut right after its SOS header: a frame, and no entropy-coded data.
    static func cutAfterScanHeader(_ jpeg: [UInt8]) throws -> [UInt8] {
        let sos = try #require((0..<jpeg.count - 3).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        let length = Int(jpeg[sos + 2]) << 8 | Int(jpeg[sos + 3])
        return Array(jpeg.prefix(sos + 2 + length))
    }

    static func native(_ bytes: [UInt8]) throws -> DecodedFrame {
        try ImageSource(bytes: bytes).decode(at: 0, options: .init(output: .native))
    }

    @Test func aGrayStripIsTheJPEGsRows() throws {
        let jpeg = try GeneratedCorpus.read("jpeg/gray_33x31.jpg")
        let decoded = try Self.native(Self.page(strip: jpeg, samples: 1, photometric: 1))
        #expect(decoded.bitmap.tightBytes == (try Self.native(jpeg)).bitmap.tightBytes)
        #expect(decoded.warnings.isEmpty, "\(decoded.warnings)")
    }

    @Test func aStripThatEndsEarlyKeepsItsDecodedRows() throws {
        let jpeg = try GeneratedCorpus.read("jpeg/gray_33x31.jpg")
        let cut = Array(jpeg.prefix(jpeg.count * 2 / 3))
        let partial = try Self.native(cut)
        try #require(partial.truncation != nil)
        let decoded = try Self.native(Self.page(strip: cut, samples: 1, photometric: 1))
        // The JPEG's missing rows are zero in the strip, as they are in the JPEG's own frame.
        #expect(decoded.bitmap.tightBytes == partial.bitmap.tightBytes)
        #expect(decoded.bitmap.tightBytes.contains { $0 != 0 })
    }

    @Test func threeComponentsInAGrayPageLeaveTheStripZero() throws {
        let jpeg = try GeneratedCorpus.read("jpeg/rgb_33x31.jpg")
        for strip in [jpeg, try Self.cutAfterScanHeader(jpeg)] {
            let decoded = try Self.native(Self.page(strip: strip, samples: 1, photometric: 1))
            #expect(decoded.bitmap.tightBytes.allSatisfy { $0 == 0 })
            #expect(decoded.warnings.contains { $0.message.contains("JPEG: 3 components where the page has 1") }, "\(decoded.warnings)")
        }
    }

    @Test func aStripThatIsNoJPEGLeavesTheStripZero() throws {
        let decoded = try Self.native(Self.page(strip: [0xFF, 0xD8, 0xFF, 0x01, 0x02, 0x03], samples: 1, photometric: 1))
        #expect(decoded.bitmap.tightBytes.allSatisfy { $0 == 0 })
        #expect(decoded.warnings.contains { $0.message.hasPrefix("JPEG: ") }, "\(decoded.warnings)")
    }
}
