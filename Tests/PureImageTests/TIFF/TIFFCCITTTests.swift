import Testing
import CReference
@testable import PureImage

/// CCITT decoding (T.4 modified Huffman, Group 3 1-D and 2-D, T.6 Group 4): hand-coded rows for
/// each mode and each recovery path of libtiff's decoder, then whole files against libtiff,
/// with random damage.
@Suite struct TIFFCCITTTests {
    /// Bits written as in T.4 ("0111 10 1000"), first bit = most significant, zero padded.
    static func bits(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var count = 0
        for character in text where character == "0" || character == "1" {
            if count % 8 == 0 { bytes.append(0) }
            if character == "1" { bytes[bytes.count - 1] |= 0x80 >> UInt8(count % 8) }
            count += 1
        }
        return bytes
    }

    static let eol = "000000000001"

    static func decode(_ scheme: CCITTFaxDecoder.Scheme, width: Int, rows: Int, _ data: [UInt8])
        throws -> (bytes: [UInt8], result: CCITTFaxDecoder.ChunkResult) {
        var decoder = try CCITTFaxDecoder(scheme: scheme, width: width, limits: .default)
        let rowBytes = (width + 7) / 8
        var output = [UInt8](repeating: 0, count: rows * rowBytes)
        let result = decoder.decode(data[...], rows: rows, rowBytes: rowBytes, keptRows: rows, into: &output)
        return (output, result)
    }

    /// Modified Huffman: white 2 ("0111"), black 3 ("10"), white 3 ("1000") = 0011 1000; the next
    /// row starts on a byte boundary: white 0 ("00110101"), black 8 ("000101") = 1111 1111.
    @Test func modifiedHuffmanRowsAreByteAligned() throws {
        let data = Self.bits("0111 10 1000 000000" + "00110101 000101")
        let (bytes, result) = try Self.decode(.modifiedHuffman, width: 8, rows: 2, data)
        #expect(bytes == [0x38, 0xFF])
        #expect(result.succeeded && result.problems.isEmpty)
    }

    /// Make-up codes add up: white 70 = make-up 64 ("11011") + terminating 6 ("1110"), then
    /// black 30 ("000001101000").
    @Test func makeUpCodes() throws {
        let (bytes, result) = try Self.decode(.modifiedHuffman, width: 100, rows: 1, Self.bits("11011 1110 000001101000"))
        var expected = [UInt8](repeating: 0, count: 13)
        for x in 70..<100 { expected[x / 8] |= 0x80 >> UInt8(x % 8) }
        #expect(bytes == expected)
        #expect(result.succeeded)
    }

    /// Group 3 1-D: each row after an EOL; fill bits (zeros) before an EOL are skipped.
    @Test func group3OneDimensionalWithFillBits() throws {
        let data = Self.bits(Self.eol + "0111 10 1000" + "00000" + Self.eol + "00110101 000101")
        let (bytes, result) = try Self.decode(.group3OneDimensional, width: 8, rows: 2, data)
        #expect(bytes == [0x38, 0xFF])
        #expect(result.succeeded && result.problems.isEmpty)
    }

    /// Group 3 2-D: EOL + tag bit 1 (a 1-D row), then EOL + tag 0 and the same row coded against
    /// it as V0 V0 V0 (a1 = b1 at 2, 5, 8).
    @Test func group3TwoDimensional() throws {
        let data = Self.bits(Self.eol + "1" + "0111 10 1000" + Self.eol + "0" + "1 1 1")
        let (bytes, result) = try Self.decode(.group3TwoDimensional, width: 8, rows: 2, data)
        #expect(bytes == [0x38, 0x38])
        #expect(result.succeeded && result.problems.isEmpty)
    }

    /// Group 4, width 16: row 0 against an all-white reference (horizontal mode W4 B4, then V0);
    /// row 1 = W3 B7 W6 as VL1, VR2, V0; row 2 all white as pass mode, V0 (the row worked by
    /// hand in Docs/TIFF.md).
    @Test func group4VerticalHorizontalAndPassModes() throws {
        let data = Self.bits("001 1011 011 1" + "010 000011 1" + "0001 1")
        let (bytes, result) = try Self.decode(.group4, width: 16, rows: 3, data)
        #expect(bytes == [0x0F, 0x00, 0x1F, 0xC0, 0x00, 0x00])
        #expect(result.succeeded && result.problems.isEmpty)
    }

    /// A bad code in a Group 3 row (8 zeros then a 1 starts no black code): the row keeps its
    /// runs so far and is white to its end, and decoding resumes at the next EOL.
    @Test func group3BadCodeResynchronisesAtTheNextEOL() throws {
        let data = Self.bits(Self.eol + "0111 10 1000" + Self.eol + "0111 000000001 1010" + Self.eol + "00110101 000101")
        let (bytes, result) = try Self.decode(.group3OneDimensional, width: 8, rows: 3, data)
        #expect(bytes == [0x38, 0x00, 0xFF])
        #expect(result.succeeded)
        #expect(result.problems == [.badCode(line: 1, x: 2), .badLength(line: 1, got: 2, expected: 8)])
    }

    /// Group 4 data that ends after row 0: the zeros after it read as an EOL, which ends the
    /// strip; libtiff accepts that once a row was decoded, and paints the row white.
    @Test func group4EndingEarlyKeepsTheRowsDecoded() throws {
        let (bytes, result) = try Self.decode(.group4, width: 8, rows: 3, Self.bits("001 0111 10 1"))
        #expect(bytes == [0x38, 0x00, 0x00])
        #expect(result.succeeded)
        #expect(result.problems.contains(.badLength(line: 1, got: 0, expected: 8)))
        // No data at all: the first row fails, and so does the strip.
        let (_, empty) = try Self.decode(.group4, width: 8, rows: 2, [])
        #expect(!empty.succeeded && empty.rowsPainted == 1)
        #expect(empty.problems.first == .prematureEnd(line: 0, x: 0))
    }

    /// More runs than libtiff's array holds (width 32 → 64 entries for 2-D): 32 horizontal
    /// modes of white 0 + black 0 fill it, and the strip stops without painting the row.
    @Test func runArrayOverflowStopsTheStrip() throws {
        let data = Self.bits(String(repeating: "001 00110101 0000110111 ", count: 33))
        let (bytes, result) = try Self.decode(.group4, width: 32, rows: 1, data)
        #expect(!result.succeeded && result.rowsPainted == 0)
        #expect(result.problems.last == .runOverflow(line: 0))
        #expect(bytes == [0, 0, 0, 0])
    }

    /// A TIFF with FillOrder 2 (bits of each byte reversed) decodes as the FillOrder 1 file, and
    /// WhiteIsZero bits render inverted (1 = black).
    @Test func fillOrderTwoInATIFF() throws {
        let data = Self.bits("001 1011 011 1" + "010 000011 1" + "0001 1")
        func file(fillOrder: UInt16) -> [UInt8] {
            var b = TIFFBuilder(.little)
            b.data = fillOrder == 2 ? data.map { TIFFDecompressor.reversedBits[Int($0)] } : data
            b.short(256, 16); b.short(257, 3); b.short(258, 1)
            b.short(259, 4)                          // Compression: CCITT Group 4
            b.short(262, 0)                          // WhiteIsZero
            b.short(266, fillOrder)                  // FillOrder
            b.long(273, b.dataOffset); b.short(277, 1); b.short(278, 3)
            b.long(279, UInt32(data.count))
            return b.build()
        }
        let (normal, _) = try decodeTIFF(file(fillOrder: 1))
        let (reversed, _) = try decodeTIFF(file(fillOrder: 2))
        #expect(normal.first?.tightBytes == [0xF0, 0xFF, 0xE0, 0x3F, 0xFF, 0xFF])
        #expect(reversed.first?.tightBytes == normal.first?.tightBytes)
    }

    /// CCITT needs 1 bit per sample (libtiff: "Bits/sample must be 1").
    @Test func ccittWithEightBitSamplesIsRefused() {
        var b = TIFFBuilder.gray8(.little, width: 2, height: 1, pixels: [0, 0])
        b.entries = b.entries.map { $0.tag == 259 ? (259, 3, 1, [4, 0]) : $0 }
        do { _ = try decodeTIFF(b.build()); Issue.record("accepted") } catch {
            #expect(error.kind == .malformed)
        }
    }

    // MARK: Against libtiff, with damage

    /// Single-strip CCITT files (so libtiff's RGBA interface, which reuses its strip buffer, has
    /// nothing stale to show) with random bytes of their data changed: PureImage paints exactly
    /// libtiff's pixels, bad rows and all.
    static func damageSources() -> [[UInt8]] {
        var files: [[UInt8]] = []
        let generated = packageRoot() + "/Conformance/generated/tiff/"
        for name in ["bilevel_g3_fill2.tif", "bilevel_g3_2d_fill2.tif", "bilevel_mh_strips.tif"] {
            if let bytes = try? ImageFiles.read(generated + name) { files.append(bytes) }
        }
        if let root = Corpus.root {
            for name in ["tiff/pillow/hopper_g4.tif", "tiff/image-rs/testsuite/fax4.tiff", "tiff/pillow/hopper_g4_500.tif"] {
                if let bytes = try? ImageFiles.read(root + "/" + name) { files.append(bytes) }
            }
        }
        return files
    }

    @Test(.enabled(if: !damageSources().isEmpty, "run Conformance/generate_corpus.py or set PUREIMAGE_CORPUS"))
    func damagedDataMatchesLibtiff() throws {
        var random = TIFFRobustnessTests.Random(state: 0x2545_F491_4F6C_DD1D)
        var compared = 0
        var failures: [String] = []
        for original in Self.damageSources() {
            let source = try ImageSource(bytes: original)
            let layoutOffsets = try Self.stripRange(original)
            for trial in 0..<60 {
                var bytes = original
                for _ in 0..<(1 + Int(random.next() % 3)) {
                    let index = layoutOffsets.lowerBound + Int(random.next() % UInt64(layoutOffsets.count))
                    bytes[index] ^= UInt8(truncatingIfNeeded: 1 | random.next())
                }
                var reference = PIRefImage()
                _ = bytes.withUnsafeBufferPointer { pi_ref_tiff_decode_rgba($0.baseAddress, $0.count, 0, &reference) }
                defer { pi_ref_image_free(&reference) }
                guard reference.status >= 0, let pixels = reference.pixels else { continue }
                let theirs = Array(UnsafeBufferPointer(start: pixels, count: reference.size))
                let ours = try ImageSource(bytes: bytes).image(options: ImageDecodingOptions(output: .format(.rgba8Premultiplied))).tightBytes
                compared += 1
                if let difference = firstDifference(ours, theirs) {
                    failures.append("\(try source.properties().extra.first?.value ?? "") trial \(trial): \(difference)")
                }
            }
        }
        report("CCITT damage vs libtiff: \(compared) damaged files compared, \(failures.count) differ")
        for failure in failures.prefix(10) { report("CCITT damage FAIL " + failure) }
        #expect(failures.isEmpty)
        #expect(compared > 100)
    }

    /// The byte range of the (only) strip of a TIFF, read with the library's own IFD parser.
    static func stripRange(_ bytes: [UInt8]) throws -> Range<Int> {
        let reader = RandomAccessReader(bytes)
        let header = try TIFFHeader(parsing: reader)
        let directory = try #require(try TIFFDirectory.parse(at: header.firstIFD, reader: reader, endianness: header.endianness,
                                                              variant: header.variant, isClosed: true))
        let layout = try TIFFImageLayout(directory: directory, reader: reader, limits: .default)
        let start = layout.offsets[0]
        return start ..< min(bytes.count, start + max(1, layout.byteCounts[0]))
    }
}
