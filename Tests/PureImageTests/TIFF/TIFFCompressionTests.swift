import Testing
@testable import PureImage

@Suite struct TIFFCompressionTests {
    /// "ABABABA" by hand: Clear, 'A', 'B', 258 ("AB"), 260 ("ABA"), End — six 9-bit codes,
    /// MSB-first: 100000000 001000001 001000010 100000010 100000100 100000001 (+ 2 pad bits)
    /// = 80 10 48 50 28 24 04.
    @Test func lzwHandWorkedStream() {
        var output = [UInt8](repeating: 0, count: 7)
        let result = TIFFLZWDecoder.decode([0x80, 0x10, 0x48, 0x50, 0x28, 0x24, 0x04], into: &output)
        #expect(result.written == 7)
        #expect(output == Array("ABABABA".utf8))
    }

    /// KwKwK: "AAAA" is Clear, 'A', 258 (not yet in the table: "A" + "A"), 'A', End.
    @Test func lzwCodeNotYetInTable() {
        var output = [UInt8](repeating: 0, count: 4)
        let result = TIFFLZWDecoder.decode([0x80, 0x10, 0x60, 0x44, 0x18, 0x08], into: &output)
        #expect(result.written == 4)
        #expect(output == Array("AAAA".utf8))
    }

    /// Early change: after Clear, 254 literals add 253 entries (258…510); the next free code
    /// is then 511 = 2^9 − 1, so the 255th code is already 10 bits wide (GIF would wait for 512).
    @Test func lzwEarlyChange() {
        var codes: [(code: Int, width: Int)] = [(256, 9)]
        for i in 0..<254 { codes.append((i % 200, 9)) }
        codes.append((77, 10))
        codes.append((257, 10))
        var output = [UInt8](repeating: 0, count: 255)
        let result = TIFFLZWDecoder.decode(ArraySlice(packMSB(codes)), into: &output)
        #expect(result.written == 255)
        #expect(output[254] == 77)
        #expect(result.outcome == .full)
    }

    @Test func lzwCorruptCodeIsReported() {
        // Clear, 'A', then code 300 (beyond the next free code 258).
        var output = [UInt8](repeating: 0, count: 8)
        let result = TIFFLZWDecoder.decode(ArraySlice(packMSB([(256, 9), (65, 9), (300, 9)])), into: &output)
        #expect(result.written == 1)
        if case .corrupt = result.outcome {} else { Issue.record("expected corrupt, got \(result.outcome)") }
    }

    /// TIFF 6.0 §9's own example.
    @Test func packBitsSpecExample() {
        let packed: [UInt8] = [0xFE, 0xAA, 0x02, 0x80, 0x00, 0x2A, 0xFD, 0xAA, 0x03, 0x80, 0x00, 0x2A, 0x22, 0xF7, 0xAA]
        let expected: [UInt8] = [0xAA, 0xAA, 0xAA, 0x80, 0x00, 0x2A, 0xAA, 0xAA, 0xAA, 0xAA, 0x80, 0x00, 0x2A, 0x22,
                                 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA]
        var output = [UInt8](repeating: 0, count: expected.count)
        #expect(PackBits.decode(ArraySlice(packed), into: &output) == expected.count)
        #expect(output == expected)
    }

    @Test func packBitsStopsAtOutputEnd() {
        var output = [UInt8](repeating: 0, count: 3)
        #expect(PackBits.decode([0x81, 0x11], into: &output) == 3)   // run of 128 cut to 3
        #expect(output == [0x11, 0x11, 0x11])
    }

    /// §14: 8-bit row 10, +1, +1, −1 (255) → 10, 11, 12, 11.
    @Test func predictor8Bit() {
        var row: [UInt8] = [10, 1, 1, 255]
        TIFFDecompressor.undoPredictor(&row, rowBytes: 4, rows: 1, samplesPerPixel: 1, bitsPerSample: 8)
        #expect(row == [10, 11, 12, 11])
    }

    /// RGB 8-bit: differences per component (stride 3).
    @Test func predictor8BitRGB() {
        var row: [UInt8] = [1, 2, 3, 1, 1, 1]
        TIFFDecompressor.undoPredictor(&row, rowBytes: 6, rows: 1, samplesPerPixel: 3, bitsPerSample: 8)
        #expect(row == [1, 2, 3, 2, 3, 4])
    }

    /// 16-bit big-endian: 0x01FF then +0x0002 → 0x0201 (carry into the high byte); wraps mod 2^16.
    @Test func predictor16Bit() {
        var row: [UInt8] = [0x01, 0xFF, 0x00, 0x02, 0xFF, 0xFF]
        TIFFDecompressor.undoPredictor(&row, rowBytes: 6, rows: 1, samplesPerPixel: 1, bitsPerSample: 16)
        #expect(row == [0x01, 0xFF, 0x02, 0x01, 0x02, 0x00])
    }

    /// An LZW + predictor strip built by hand decodes inside a file.
    @Test func lzwStripInFile() throws {
        // 4×1 gray, predictor 2: samples 10, 11, 12, 11 stored as 10, 1, 1, 255.
        let stream = packMSB([(256, 9), (10, 9), (1, 9), (1, 9), (255, 9), (257, 9)])
        var b = TIFFBuilder.gray8(.big, width: 4, height: 1, pixels: stream)
        b.entries[3] = (259, 3, 1, b.u16(5))              // Compression LZW
        b.entries[8] = (279, 4, 1, b.u32(UInt32(stream.count)))
        b.short(317, 2)                                    // Predictor 2
        let (bitmaps, _) = try decodeTIFF(b.build())
        #expect(bitmaps.first?.tightBytes == [10, 11, 12, 11])
    }

    /// libtiff attaches the predictor to LZW and Deflate only: with no compression the tag is
    /// ignored (the samples are as stored).
    @Test func predictorIsIgnoredWithoutACodecThatUsesIt() throws {
        var b = TIFFBuilder.gray8(.big, width: 3, height: 1, pixels: [10, 1, 1])
        b.short(317, 2)
        let (bitmaps, _) = try decodeTIFF(b.build())
        #expect(bitmaps.first?.tightBytes == [10, 1, 1])
    }

    @Test func fillOrderReversesBits() throws {
        // 8×1 bilevel, FillOrder 2: stored 0x01 means the first pixel is 1.
        var b = TIFFBuilder(.little)
        b.data = [0x01]
        b.short(256, 8); b.short(257, 1); b.short(258, 1); b.short(259, 1); b.short(262, 1)
        b.short(266, 2)                                   // FillOrder 2
        b.long(273, 8); b.short(277, 1); b.short(278, 1); b.long(279, 1)
        let (bitmaps, _) = try decodeTIFF(b.build())
        #expect(bitmaps.first?.tightBytes == [0x80])
    }
}
