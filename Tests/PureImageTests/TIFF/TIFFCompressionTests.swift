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

    /// A page's strips share one restarted decoder (`TIFFLZWDecoder.decode(…reusing:)`), whose
    /// table still holds the previous strips' strings. Every stream — valid codes up to the
    /// next free one (KwKwK included), clears, codes beyond it, cut short, output filled with
    /// bits left over, both flavours — decodes on it exactly as on a new decoder.
    @Test func lzwRestartedDecoderEqualsANewOne() {
        var random = JPEGIDCTLaneTests.SplitMix64(seed: 18)
        var kept: LZWDecoder?
        var reusedAtLeastOnce = 0, corrupt = 0, stale = 0
        for streamIndex in 0 ..< 300 {
            let oldStyle = streamIndex % 50 == 49
            var codes: [(code: Int, width: Int)] = [(256, 9)]
            var nextFree = 258, width = 9, hasPrevious = false
            let length = Int(random.next() % 6000) + 1
            for _ in 0 ..< length {
                let roll = random.next() % 1000
                let code: Int
                if roll == 0 {
                    code = 256
                } else if roll == 1 && hasPrevious && streamIndex % 3 == 0 {
                    code = nextFree + 1 + Int(random.next() % 40)   // beyond the table: corrupt
                } else if !hasPrevious || roll < 500 {
                    code = Int(random.next() % 256)
                } else {
                    code = 258 + Int(random.next() % UInt64(nextFree - 258 + 1))   // up to KwKwK
                }
                codes.append((min(code, (1 << width) - 1), width))
                if code == 256 {
                    nextFree = 258; width = 9; hasPrevious = false
                    continue
                }
                if hasPrevious && nextFree < 4096 { nextFree += 1 }
                if width < 12 && nextFree >= (1 << width) - 1 { width += 1 }
                hasPrevious = true
            }
            codes.append((257, width))
            var stream = packMSB(codes)
            if random.next() % 4 == 0 { stream.removeLast(Int(random.next() % UInt64(stream.count))) }
            if oldStyle { stream = Self.lsbFirst(codes) }
            // Sometimes less room than the stream holds: decoding stops with bits unread.
            let capacity = random.next() % 3 == 0 ? Int(random.next() % 4000) + 1 : 40_000
            var fresh = [UInt8](repeating: 0, count: capacity)
            var reused = [UInt8](repeating: 0, count: capacity)
            if kept != nil { reusedAtLeastOnce += 1 }
            if let table = kept?.dictionary, table.nextFree > 258 { stale += 1 }
            let expected = TIFFLZWDecoder.decode(ArraySlice(stream), oldStyle: oldStyle, into: &fresh)
            let result = TIFFLZWDecoder.decode(ArraySlice(stream), oldStyle: oldStyle, into: &reused, reusing: &kept)
            if case .corrupt = expected.outcome { corrupt += 1 }
            #expect(result.written == expected.written && result.outcome == expected.outcome && reused == fresh,
                    "stream \(streamIndex): \(result.written) bytes, \(result.outcome); a new decoder: \(expected.written), \(expected.outcome)")
        }
        // The property was exercised: decoders reused with strings left over, corrupt streams met.
        #expect(reusedAtLeastOnce == 299)
        #expect(stale > 200)
        #expect(corrupt > 10)
    }

    /// The codes LSB-first with GIF's widths (old-style TIFF LZW, the `.gif` flavour): re-packed
    /// from `codes`, whose widths follow the early change, by GIF's rule.
    static func lsbFirst(_ codes: [(code: Int, width: Int)]) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = 0, count = 0, nextFree = 258, width = 9, hasPrevious = false
        for (code, _) in codes {
            buffer |= (code & ((1 << width) - 1)) << count
            count += width
            while count >= 8 { out.append(UInt8(buffer & 0xFF)); buffer >>= 8; count -= 8 }
            if code == 256 { nextFree = 258; width = 9; hasPrevious = false; continue }
            if hasPrevious && nextFree < 4096 { nextFree += 1 }
            if width < 12 && nextFree >= 1 << width { width += 1 }
            hasPrevious = true
        }
        if count > 0 { out.append(UInt8(buffer & 0xFF)) }
        return out
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
