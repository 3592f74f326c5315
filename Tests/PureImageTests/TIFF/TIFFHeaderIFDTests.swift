import Testing
@testable import PureImage

/// Hand-built TIFFs: header in both byte orders, each field type, value-or-offset, IFD loops,
/// offsets outside the file, absurd counts.
@Suite struct TIFFHeaderIFDTests {
    /// "II" 2A 00, first IFD at 8 … and the same image big-endian.
    @Test(arguments: [TIFFBuilder.Order.little, .big])
    func grayImageInBothByteOrders(order: TIFFBuilder.Order) throws {
        let bytes = TIFFBuilder.gray8(order, width: 3, height: 2, pixels: [0, 10, 20, 30, 40, 250]).build()
        #expect(Array(bytes.prefix(4)) == (order == .little ? [0x49, 0x49, 0x2A, 0x00] : [0x4D, 0x4D, 0x00, 0x2A]))
        let (bitmaps, decoder) = try decodeTIFF(bytes)
        #expect(bitmaps.count == 1)
        #expect(bitmaps[0].format == .gray8)
        #expect(bitmaps[0].tightBytes == [0, 10, 20, 30, 40, 250])
        #expect(decoder.properties?.width == 3 && decoder.properties?.height == 2)
    }

    /// BigTIFF (magic 43): the same 3×2 gray image through 16-byte header, 8-byte entry count
    /// and 20-byte entries, in both byte orders, decodes to the same pixels.
    @Test(arguments: [TIFFBuilder.Order.little, .big])
    func bigTIFFGrayImage(order: TIFFBuilder.Order) throws {
        let pixels: [UInt8] = [0, 10, 20, 30, 40, 250]
        let bytes = TIFFBuilder.gray8(order, width: 3, height: 2, pixels: pixels, bigTIFF: true).build()
        // "II" 2B 00 08 00 00 00, first IFD at 16 + 6 = 22 (8 bytes).
        #expect(Array(bytes.prefix(8)) == (order == .little ? [0x49, 0x49, 0x2B, 0x00, 0x08, 0x00, 0x00, 0x00]
                                                             : [0x4D, 0x4D, 0x00, 0x2B, 0x00, 0x08, 0x00, 0x00]))
        let (bitmaps, decoder) = try decodeTIFF(bytes)
        #expect(bitmaps.first?.tightBytes == pixels)
        #expect(decoder.properties?.width == 3 && decoder.properties?.height == 2)
    }

    /// LONG8 strip offsets and byte counts (type 16), and a value of 8 bytes kept inline
    /// (BigTIFF's value field is 8 bytes wide: BitsPerSample 8, 8, 8, 8 as 4 SHORTs fits).
    @Test func bigTIFFLong8AndEightByteInlineValues() throws {
        var b = TIFFBuilder(.little)
        b.bigTIFF = true
        b.data = [1, 2, 3, 4, 5, 6, 7, 8]        // 2×1 RGBA
        b.short(256, 2)                          // ImageWidth
        b.short(257, 1)                          // ImageLength
        b.short(258, 8, 8, 8, 8)                 // BitsPerSample ×4 = 8 bytes: inline in BigTIFF
        b.short(259, 1)                          // Compression none
        b.short(262, 2)                          // RGB
        b.long8(273, 16)                         // StripOffsets LONG8
        b.short(277, 4)                          // SamplesPerPixel
        b.long8(279, 8)                          // StripByteCounts LONG8
        b.short(338, 2)                          // ExtraSamples: unassociated alpha
        let bytes = b.build()
        let (bitmaps, _) = try decodeTIFF(bytes)
        #expect(bitmaps.first?.tightBytes == [1, 2, 3, 4, 5, 6, 7, 8])
        let reader = RandomAccessReader(bytes)
        let header = try TIFFHeader(parsing: reader)
        let directory = try #require(try TIFFDirectory.parse(at: header.firstIFD, reader: reader, endianness: .littleEndian,
                                                              variant: .big, isClosed: true))
        #expect(directory.entry(258)?.isInline == true)
        #expect(try directory.integers(273, reader: reader, maxCount: 4) == [16])
    }

    /// The sides as libtiff reads them (TIFF 6.0 §8 says SHORT or LONG): any integer type but
    /// IFD8, and a value within 32 bits. A fuzzed classic TIFF whose ImageLength was an IFD8 of
    /// 2^63 − 1 reached the downscale plan as a height and overflowed it.
    static let imageLengthCases: [(type: UInt16, value: UInt64, outcome: String)] = [
        (16, 1, "decodes"),             // LONG8 within 32 bits
        (18, 1, "type"),                // IFD8
        (16, 1 << 32, "value"),         // LONG8 beyond 32 bits
        (17, (1 << 63) - 1, "value"),   // SLONG8 2^63 − 1
    ]

    @Test(arguments: imageLengthCases)
    func imageLengthTypesAndRange(_ entry: (type: UInt16, value: UInt64, outcome: String)) throws {
        let (type, value, outcome) = entry
        var b = TIFFBuilder.gray8(.little, width: 3, height: 1, pixels: [1, 2, 3])
        b.entries.removeAll { $0.tag == 257 }
        b.raw(257, type: type, count: 1, value: b.u64(value))
        b.entries.sort { $0.tag < $1.tag }
        let source = try ImageSource(bytes: b.build())
        switch outcome {
        case "decodes":
            #expect(try decodeTIFF(b.build()).bitmaps.first?.tightBytes == [1, 2, 3])
        default:
            do { _ = try source.decode(); Issue.record("accepted") } catch {
                #expect(error.kind == .malformed)
                if outcome == "type" { #expect(error.reason as? TIFFError == .invalidField(tag: 257, "ImageLength has type IFD8")) }
                else { #expect(error.reason as? TIFFError == .invalidValue(field: "ImageLength", value: Int(value))) }
            }
            // Neither the properties nor the downscale plan sees a side beyond 32 bits.
            if let properties = try? source.properties() { #expect(properties.height <= Int(UInt32.max)) }
            #expect(throws: DecodeError.self) { try source.decodedAndScaledDown(limitBytes: 1 << 14) }
        }
    }

    /// libtiff refuses a BigTIFF header whose offset size is not 8 or whose reserved field is
    /// not 0 ("Not a TIFF file, bad BigTIFF offsetsize / unused"), and so do we.
    @Test(arguments: [([UInt8](arrayLiteral: 4, 0, 0, 0), 4), ([8, 0, 0, 0x38], 6)])
    func badBigTIFFHeaderIsMalformed(field: [UInt8], offset: Int) {
        let bytes: [UInt8] = [0x49, 0x49, 43, 0] + field + [16, 0, 0, 0, 0, 0, 0, 0]
        do { _ = try decodeTIFF(bytes); Issue.record("accepted") } catch {
            #expect(error.kind == .malformed)
            #expect(error.offset == offset)
        }
    }

    /// A BigTIFF first-IFD offset beyond Int.max is outside the file, not a crash.
    @Test func bigTIFFHugeOffsetIsOutsideTheFile() {
        let bytes: [UInt8] = [0x49, 0x49, 43, 0, 8, 0, 0, 0] + [UInt8](repeating: 0xFF, count: 8)
        do { _ = try decodeTIFF(bytes); Issue.record("accepted") } catch {
            #expect(error.kind == .malformed)
        }
    }

    @Test func badMagicIsMalformed() {
        let bytes: [UInt8] = [0x49, 0x49, 41, 0, 8, 0, 0, 0]
        do { _ = try decodeTIFF(bytes); Issue.record("accepted") } catch {
            #expect(error.reason as? TIFFError == .badMagic(41))
        }
    }

    /// ImageWidth as LONG, ImageLength as BYTE, BitsPerSample SHORT ×3 stored at an offset
    /// (6 bytes > 4: the value-or-offset rule), XResolution RATIONAL, Software ASCII.
    @Test func fieldTypesAndValueOrOffset() throws {
        var b = TIFFBuilder(.big)
        b.data = [255, 0, 0, 0, 255, 0]         // 2×1 RGB: red, green
        b.long(256, 2)                          // ImageWidth LONG 2
        b.byte(257, 1)                          // ImageLength BYTE 1
        b.short(258, 8, 8, 8)                   // BitsPerSample SHORT×3 → stored at an offset
        b.short(259, 1)                         // Compression none
        b.short(262, 2)                         // RGB
        b.long(273, 8)                          // StripOffsets
        b.short(277, 3)                         // SamplesPerPixel
        b.long(279, 6)                          // StripByteCounts
        b.raw(282, type: 5, count: 1, value: [0, 0, 0, 72, 0, 0, 0, 1])   // XResolution RATIONAL 72/1 (offset)
        b.raw(305, type: 2, count: 4, value: Array("abc\0".utf8))          // Software ASCII, inline
        b.raw(999, type: 77, count: 1, value: [1, 2, 3, 4])                 // unknown type: ignored
        let (bitmaps, _) = try decodeTIFF(b.build())
        #expect(bitmaps.first?.format == .rgb8)
        #expect(bitmaps.first?.tightBytes == [255, 0, 0, 0, 255, 0])
        // The value-or-offset rule directly: 3 SHORTs (6 bytes) are not inline.
        let reader = RandomAccessReader(b.build())
        let directory = try #require(try TIFFDirectory.parse(at: 14, reader: reader, endianness: .bigEndian, variant: .classic, isClosed: true))
        let bits = try #require(directory.entry(258))
        #expect(!bits.isInline)
        #expect(try directory.integers(258, reader: reader, maxCount: 10) == [8, 8, 8])
        #expect(directory.entry(256)?.isInline == true)
        #expect(try directory.reals(282, reader: reader) == [72])
    }

    @Test func ifdLoopEndsTheChain() throws {
        var b = TIFFBuilder.gray8(.little, width: 1, height: 1, pixels: [7])
        b.nextIFD = 10                          // the IFD itself (8 + 1 data byte + 1 pad = 10)
        let (bitmaps, decoder) = try decodeTIFF(b.build())
        #expect(bitmaps.count == 1)
        #expect(decoder.properties?.frameCount == 1)
        #expect(decoder.warnings.contains { $0.message.contains("loop") })
    }

    @Test func ifdOutsideTheFileIsMalformed() {
        let bytes: [UInt8] = [0x49, 0x49, 42, 0, 0xFF, 0xFF, 0, 0]   // first IFD at 65535
        do { _ = try decodeTIFF(bytes); Issue.record("accepted") } catch {
            #expect(error.reason as? TIFFError == .directoryOutsideFile(offset: 65535))
        }
    }

    @Test func stripOutsideTheFileDecodesWithWarning() throws {
        var b = TIFFBuilder.gray8(.little, width: 2, height: 1, pixels: [1, 2])
        b.entries[5] = (273, 4, 1, b.u32(100_000))     // StripOffsets far past the end
        let (bitmaps, decoder) = try decodeTIFF(b.build())
        #expect(bitmaps.first?.tightBytes == [0, 0])
        #expect(!decoder.warnings.isEmpty)
    }

    @Test func absurdDimensionsFailFast() {
        var b = TIFFBuilder.gray8(.little, width: 1, height: 1, pixels: [0])
        b.entries[0] = (256, 4, 1, b.u32(60000))        // ImageWidth 60000
        b.entries[1] = (257, 4, 1, b.u32(60000))        // ImageLength 60000
        do { _ = try decodeTIFF(b.build()); Issue.record("accepted") } catch {
            #expect(error.kind == .limitExceeded)
        }
    }

    /// A StripOffsets entry claiming 2^31 − 1 values: only the values the image needs (one
    /// strip) are read, as libtiff reads strip arrays with the strip count as a limit.
    @Test func absurdOffsetCountReadsOnlyWhatIsNeeded() throws {
        // Data: the pixel (42) at 8, then at 12 the StripOffsets array's first LONG, 8.
        var b = TIFFBuilder.gray8(.little, width: 1, height: 1, pixels: [42, 0, 0, 0, 8, 0, 0, 0])
        b.entries[5] = (273, 4, 0x7FFF_FFFF, b.u32(12))  // StripOffsets ×(2^31 − 1): too big to be inline, array at 12
        let (bitmaps, _) = try decodeTIFF(b.build())
        #expect(bitmaps.first?.tightBytes == [42])
    }

    /// 2 000 000 one-row strips: refused before any strip array is read.
    @Test func absurdStripCountIsRefused() {
        var b = TIFFBuilder.gray8(.little, width: 1, height: 1, pixels: [0])
        b.entries[1] = (257, 4, 1, b.u32(2_000_000))     // ImageLength 2 000 000
        b.entries[7] = (278, 4, 1, b.u32(1))             // RowsPerStrip 1
        do { _ = try decodeTIFF(b.build()); Issue.record("accepted") } catch {
            #expect(error.kind == .limitExceeded)
        }
    }

    /// Every prefix of a valid file, closed: no crash, an error or a (partial) image.
    @Test func everyTruncationIsHandled() {
        let bytes = TIFFBuilder.gray8(.big, width: 4, height: 4, pixels: Array(0..<16)).build()
        for length in 0..<bytes.count {
            _ = try? decodeTIFF(Array(bytes.prefix(length)))
        }
    }

    /// Fed one byte at a time: `.needMoreInput` until the end, then the one-shot result.
    @Test func byteAtATimeEqualsOneShot() throws {
        let bytes = TIFFBuilder.gray8(.little, width: 4, height: 3, pixels: Array(100..<112)).build()
        let decoder = TIFFDecoder(options: DecodeOptions())
        var input = InputBuffer()
        for byte in bytes {
            input.append(contentsOf: [byte])
            let progress = try decoder.advance(&input)
            if input.writeIndex < bytes.count { #expect(progress == .needMoreInput) }
        }
        input.close()
        #expect(try decoder.advance(&input) == .finished)
        #expect(try decoder.frame(at: 0).tightBytes == Array(100..<112))
    }

    @Test func orientationTagIsReported() throws {
        var b = TIFFBuilder.gray8(.little, width: 1, height: 1, pixels: [9])
        b.short(274, 6)                                   // Orientation: RightTop
        let (_, decoder) = try decodeTIFF(b.build())
        #expect(decoder.properties?.orientation == .right)
    }

    @Test func whiteIsZeroIsInverted() throws {
        var b = TIFFBuilder.gray8(.little, width: 2, height: 1, pixels: [0, 200])
        b.entries[4] = (262, 3, 1, b.u16(0))              // WhiteIsZero
        let (bitmaps, _) = try decodeTIFF(b.build())
        #expect(bitmaps.first?.tightBytes == [255, 55])
    }
}

/// `pureimage inspect` names what the new fields mean.
@Suite struct TIFFInspectTests {
    @Test func inspectExplainsFaxAndBigTIFFFields() {
        var b = TIFFBuilder.gray8(.little, width: 1, height: 1, pixels: [0], bigTIFF: true)
        b.long(292, 5)                                   // T4Options: 2-D coding + fill bits
        b.short(339, 2)                                  // SampleFormat: signed
        b.entries.sort { $0.tag < $1.tag }
        let lines = Inspector.inspect(b.build()).map { "\($0.name) \($0.detail)" }
        #expect(lines.contains { $0.contains("43 (BigTIFF") })
        #expect(lines.contains { $0.hasPrefix("T4Options (292)") && $0.contains("2-D coding, fill bits before EOLs") })
        #expect(lines.contains { $0.hasPrefix("SampleFormat (339)") && $0.contains("signed integer") })
        #expect(lines.contains { $0.hasPrefix("Compression (259)") && $0.contains("(none)") })
    }
}
