import Testing
import CReference
import PureImageConformance
@testable import PureImage

/// NeXT 2-bit grey compression (32766): every opcode and every way libtiff's decoder stops, in
/// hand-built strips compared with libtiff (no writer makes NeXT files any more).
@Suite struct TIFFNeXTTests {
    /// A 2-bit, min-is-black page, one strip per entry of `strips`, `rowsPerStrip` rows each.
    static func file(width: Int, height: Int, rowsPerStrip: Int, strips: [[UInt8]], bits: UInt16 = 2) -> [UInt8] {
        var b = TIFFBuilder(.big)
        b.appendStrips(strips)
        b.short(256, UInt16(width)); b.short(257, UInt16(height))
        b.short(258, bits); b.short(259, 32766); b.short(262, 1)
        b.short(277, 1); b.short(278, UInt16(rowsPerStrip))
        b.entries.sort { $0.tag < $1.tag }
        return b.build()
    }

    /// Width 6 (two bytes a row, the last four bits padding). Row 0 literal (0x00 + two bytes);
    /// row 1 a literal span of one byte at byte 1 (byte 0 stays white); row 2 runs: grey 1 × 3
    /// (0x43), grey 2 × 2 (0x82), grey 0 × 1 (0x01) — 01 01 01 10 | 10 00 then 00 00, the byte's
    /// first pixel having assigned it; row 3 one run longer than the row (grey 3 × 63: 0xFF),
    /// which stops at the sixth pixel.
    @Test func everyOpcodeByHand() throws {
        let strip: [UInt8] = [0x00, 0x1B, 0xE4,
                              0x40, 0x00, 0x01, 0x00, 0x01, 0x5A,
                              0x43, 0x82, 0x01,
                              0xFF]
        let samples = try TIFFReference.expectMatchesLibtiff(Self.file(width: 6, height: 4, rowsPerStrip: 4, strips: [strip]), "by hand")
        #expect(samples == [0x1B, 0xE0, 0xFF, 0x50, 0x56, 0x80, 0xFF, 0xF0])   // padding bits read as 0
    }

    /// Data ending between rows ends the strip successfully, the rest white; data ending inside
    /// a row, or a span past the row or cut short, fails it (the rows before kept).
    @Test(arguments: ["between rows", "inside a row", "span past the row", "span cut"])
    func endingsMatchLibtiff(_ ending: String) throws {
        let strip: [UInt8]
        switch ending {
        case "between rows": strip = [0x00, 0x12, 0x34]
        case "inside a row": strip = [0x00, 0x12, 0x34, 0x43]
        case "span past the row": strip = [0x00, 0x12, 0x34, 0x40, 0x00, 0x01, 0x00, 0x02, 0x77, 0x88]
        default: strip = [0x00, 0x12, 0x34, 0x40, 0x00, 0x00, 0x00, 0x02, 0x77]
        }
        let samples = try TIFFReference.expectMatchesLibtiff(Self.file(width: 6, height: 3, rowsPerStrip: 3, strips: [strip]), ending,
                                                             failedStrip: ending != "between rows")
        #expect(samples.prefix(2) == [0x12, 0x30])   // padding bits read as 0
    }

    /// Random strips of random opcodes and bytes, several strips a page (libtiff's RGBA interface
    /// reuses one buffer, which NeXT always fills whole): PureImage's RGBA is libtiff's.
    @Test func randomStripsMatchLibtiff() throws {
        var random = TIFFRobustnessTests.Random(state: 0xD1B5_4A32_D192_ED03)
        var compared = 0
        for trial in 0..<60 {
            let width = 1 + Int(random.next() % 40), rowsPerStrip = 1 + Int(random.next() % 5)
            let height = rowsPerStrip * 3 - Int(random.next() % UInt64(rowsPerStrip))
            let rowBytes = (width + 3) / 4
            var strips: [[UInt8]] = []
            for _ in 0..<((height + rowsPerStrip - 1) / rowsPerStrip) {
                var strip: [UInt8] = []
                for _ in 0..<rowsPerStrip {
                    switch random.next() % 3 {
                    case 0: strip += [0x00] + (0..<rowBytes).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    case 1:
                        let count = Int(random.next() % UInt64(rowBytes + 1)), offset = Int(random.next() % UInt64(rowBytes + 2))
                        strip += [0x40, 0, UInt8(offset), 0, UInt8(count)] + (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    default: strip += (0..<(1 + random.next() % 4)).map { _ in UInt8(truncatingIfNeeded: random.next()) | 0x81 }
                    }
                }
                if random.next() % 4 == 0 { strip.removeLast(Int(random.next() % UInt64(strip.count))) }
                strips.append(strip)
            }
            let file = Self.file(width: width, height: height, rowsPerStrip: rowsPerStrip, strips: strips)
            guard let theirs = ReferenceDecoders.tiffRGBA(file).frames.first else { continue }
            let ours = try ImageSource(bytes: file).image(options: ImageDecodingOptions(output: .libtiffRGBA)).tightBytes
            #expect(firstDifference(ours, theirs.samples) == nil, "trial \(trial): width \(width), \(rowsPerStrip) rows a strip")
            compared += 1
        }
        #expect(compared > 50)
    }

    /// libtiff's NeXTPreDecode refuses every strip unless samples are 2 bits; PureImage refuses
    /// the page. Tiles are refused too (libtiff cuts them into rows of the image's width).
    @Test func otherDepthsAndTilesAreRefused() throws {
        let file = Self.file(width: 4, height: 1, rowsPerStrip: 1, strips: [[0x00, 0x12]], bits: 8)
        #expect(throws: DecodeError.self) { try ImageSource(bytes: file).image(options: ImageDecodingOptions(output: .native)) }
        var b = TIFFBuilder(.little)
        b.data = [0x00] + [UInt8](repeating: 0x55, count: 4) + [UInt8](repeating: 0xFF, count: 64)
        b.short(256, 20); b.short(257, 16); b.short(258, 2); b.short(259, 32766); b.short(262, 1); b.short(277, 1)
        b.short(322, 16); b.short(323, 16); b.long(324, b.dataOffset, b.dataOffset); b.long(325, 69, 69)
        do {
            _ = try ImageSource(bytes: b.build()).image(options: ImageDecodingOptions(output: .native))
            Issue.record("a tiled NeXT page decoded")
        } catch {
            #expect(error.kind == .unsupported, "\(error)")
        }
    }
}
