import Testing
import CReference
import PureImageConformance
@testable import PureImage

/// CIELab (photometric 8) and SGI LogL / LogLuv (compression 34676 / 34677): hand-built rows and
/// whole files checked against libtiff (RGBA and decoded samples).
@Suite struct TIFFLabLogLuvTests {
    static func file(width: Int, height: Int, bits: UInt16, samples: Int, photometric: UInt16, compression: UInt16 = 1,
                     sampleFormat: UInt16? = nil, data: [UInt8], extra: (inout TIFFBuilder) -> Void = { _ in }) -> [UInt8] {
        var b = TIFFBuilder(.little)
        b.data = data
        b.short(256, UInt16(width)); b.short(257, UInt16(height))
        b.entries.append((258, 3, UInt32(samples), (0..<samples).flatMap { _ in b.u16(bits) }))
        b.short(259, compression); b.short(262, photometric)
        b.long(273, b.dataOffset); b.short(277, UInt16(samples)); b.short(278, UInt16(height))
        b.long(279, UInt32(data.count))
        if let sampleFormat { b.entries.append((339, 3, UInt32(samples), (0..<samples).flatMap { _ in b.u16(sampleFormat) })) }
        extra(&b)
        b.entries.sort { $0.tag < $1.tag }
        return b.build()
    }

    static func expectMatchesLibtiff(_ bytes: [UInt8], _ what: String) throws {
        let reference = ReferenceDecoders.tiffRGBA(bytes)
        let theirs = try #require(reference.frames.first, "\(what): libtiff refused: \(reference.message)")
        let source = try ImageSource(bytes: bytes)
        #expect(try source.image(options: ImageDecodingOptions(output: .libtiffRGBA)).tightBytes == theirs.samples, "\(what) RGBA")
        // PureImage's own rendering of these photometrics is libtiff's arithmetic too.
        #expect(try source.image(options: ImageDecodingOptions(output: .format(.rgba8Premultiplied))).tightBytes == theirs.samples, "\(what) own")
        let samples = ReferenceDecoders.tiffSamples(bytes)
        if samples.status != .rejected {
            #expect(SampleComparison.difference(try source.decodedSamples(), samples) == nil, "\(what) samples")
        }
    }

    /// 8-bit CIELab over the whole code range (L 0…255, signed a*, b*), with the default D50
    /// white and with a WhitePoint tag (D65 as RATIONALs, divided in single precision).
    @Test func cieLab8MatchesLibtiff() throws {
        var data: [UInt8] = []
        for i in 0..<256 { data += [UInt8(i), UInt8(i * 7 % 256), UInt8(i * 13 % 256)] }
        try Self.expectMatchesLibtiff(Self.file(width: 16, height: 16, bits: 8, samples: 3, photometric: 8, data: data), "Lab8 D50")
        let d65 = Self.file(width: 16, height: 16, bits: 8, samples: 3, photometric: 8, data: data) { b in
            b.entries.append((318, 5, 2, b.u32(3127) + b.u32(10000) + b.u32(3290) + b.u32(10000)))
        }
        try Self.expectMatchesLibtiff(d65, "Lab8 D65")
    }

    @Test func cieLab16MatchesLibtiff() throws {
        var data: [UInt8] = []
        for i in 0..<256 {
            for value in [i * 257, i * 4099 % 65536, i * 7919 % 65536] { data += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        }
        try Self.expectMatchesLibtiff(Self.file(width: 16, height: 16, bits: 16, samples: 3, photometric: 8, sampleFormat: 2, data: data), "Lab16")
    }

    /// LogL by hand: L = 1234h, 1234h, 0001h; high-byte plane 12 12 00 = run "80 12" (128 + 2 − 2:
    /// two 12s) and literal "01 00"; low-byte plane 34 34 01 = "80 34", "01 01".
    @Test func logLRowByHand() throws {
        let decoder = SGILogDecoder(coding: .logL16, format: .sixteenBit)
        var output = [UInt8](repeating: 0, count: 6)
        let result = decoder.decode([0x80, 0x12, 0x01, 0x00, 0x80, 0x34, 0x01, 0x01][...], width: 3, rows: 1, into: &output)
        #expect(result.succeeded && result.written == 6)
        #expect(output == [0x12, 0x34, 0x12, 0x34, 0x00, 0x01])
        // Le = 62 × 256 is Y ≈ 2^−2 (0.2503…): gray ⌊256 √Y⌋ = 128; Le = 0 is black.
        #expect(SGILogColor.gamma2Byte(SGILogColor.luminance16(62 * 256)) == 128)
        #expect(SGILogColor.luminance16(0) == 0)
        let file = Self.file(width: 3, height: 1, bits: 16, samples: 1, photometric: 32844, compression: 34676, sampleFormat: 2,
                             data: [0x80, 0x3E, 0x01, 0x3F, 0x80, 0x00, 0x01, 0x80])
        try Self.expectMatchesLibtiff(file, "LogL")
    }

    /// A row that runs out of data: libtiff keeps the rows before and reports failure.
    @Test func logLuvShortDataStopsTheStrip() {
        let decoder = SGILogDecoder(coding: .logLuv32, format: .eightBit)
        var output = [UInt8](repeating: 0, count: 12)
        let result = decoder.decode([0x81, 0x40, 0x81, 0x10, 0x81, 0x50, 0x81, 0xB0, 0x81, 0x40][...], width: 2, rows: 2, into: &output)
        #expect(!result.succeeded && result.written == 6)
    }

    /// SGILog24: 3 bytes a pixel, 10-bit L and a 14-bit grid square; against libtiff with the
    /// 16-bit data format (L, u', v') and as RGB.
    @Test func logLuv24MatchesLibtiff() throws {
        var data: [UInt8] = []
        for i in 0..<64 {
            let code = (200 + i * 9) << 14 | (i * 251 % 16384)
            data += [UInt8(code >> 16), UInt8(code >> 8 & 0xFF), UInt8(code & 0xFF)]
        }
        let file = Self.file(width: 8, height: 8, bits: 16, samples: 3, photometric: 32845, compression: 34677, sampleFormat: 2, data: data)
        try Self.expectMatchesLibtiff(file, "LogLuv24")
    }
}
