import Testing
@testable import PureImage

/// Hand-built marker segments, annotated byte by byte (STYLE.md item 18).
@Suite struct JPEGSegmentTests {
    static func segment(_ marker: UInt8, _ body: [UInt8], length: Int? = nil) -> JPEGSegment {
        JPEGSegment(marker: marker, markerOffset: 0, declaredLength: length ?? body.count + 2, body: body[...])
    }

    @Test func frameHeader() throws {
        let sof = Self.segment(0xC0, [
            0x08,        // P: 8-bit samples
            0x00, 0x10,  // Y: 16 lines
            0x00, 0x18,  // X: 24 samples per line
            0x03,        // Nf: 3 components
            0x01, 0x22, 0x00,  // C1: H 2, V 2, Tq 0
            0x02, 0x11, 0x01,  // C2: H 1, V 1, Tq 1
            0x03, 0x11, 0x01,  // C3: H 1, V 1, Tq 1
        ])
        let frame = try FrameHeader(parsing: sof)
        #expect(frame.width == 24 && frame.height == 16 && frame.precision == 8)
        #expect(frame.components.map(\.h) == [2, 1, 1] && frame.components.map(\.tq) == [0, 1, 1])
    }

    @Test func frameHeaderRejectsZeroWidthAndBadLength() throws {
        // X = 0 is an empty image (libjpeg JERR_EMPTY_IMAGE).
        #expect(throws: DecodeError.self) { try FrameHeader(parsing: Self.segment(0xC0, [8, 0, 8, 0, 0, 1, 1, 0x11, 0])) }
        // Y = 0 is left to the DNL segment after the first scan (B.2.5).
        #expect(try FrameHeader(parsing: Self.segment(0xC0, [8, 0, 0, 0, 8, 1, 1, 0x11, 0])).height == 0)
        // Lf says 12, but 1 component needs 11.
        #expect(throws: DecodeError.self) { try FrameHeader(parsing: Self.segment(0xC0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0, 0], length: 12)) }
    }

    @Test func quantizationTables8And16Bit() throws {
        var body: [UInt8] = [0x00]                      // Pq 0 (8-bit), Tq 0
        body += (1...64).map { UInt8($0) }              // Q in zig-zag order: 1, 2, 3, …
        body += [0x13]                                  // Pq 1 (16-bit), Tq 3
        for k in 0..<64 { body += [0x01, UInt8(k)] }    // 256 + k
        let tables = try QuantizationTables.parse(Self.segment(0xDB, body))
        #expect(tables.count == 2)
        #expect(tables[0].values[0] == 1 && tables[0].values[1] == 2 && tables[0].values[8] == 3)  // zig-zag 2 → natural 8
        #expect(tables[1].index == 3 && tables[1].sixteenBit && tables[1].values[63] == 256 + 63)
        // Tq = 4 is out of range (JERR_DQT_INDEX).
        #expect(throws: DecodeError.self) { try QuantizationTables.parse(Self.segment(0xDB, [0x04] + [UInt8](repeating: 1, count: 64))) }
    }

    /// A DHT with one DC table, and the codes Annex C assigns to it, decoded by hand:
    ///
    ///     lengths: one code of length 1, one of length 2, one of length 3
    ///     symbols: 0x03, 0x00, 0x05
    ///     C.2:  length 1: "0"  → 0x03
    ///           length 2: "10" → 0x00
    ///           length 3: "110" → 0x05
    @Test func huffmanTableCodes() throws {
        let body: [UInt8] = [0x00,                           // Tc 0 (DC), Th 0
                             1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // L1…L16
                             0x03, 0x00, 0x05]                // V
        let specs = try HuffmanTables.parse(Self.segment(0xC4, body))
        #expect(specs.count == 1 && specs[0].isDC && specs[0].symbols == [3, 0, 5])
        let table = try HuffmanTable(specs[0])
        // 9-bit lookahead: "0xxxxxxxx" → length 1, symbol 3; "10xxxxxxx" → length 2, 0; "110xxxxxx" → 3, 5.
        #expect(table.lookup[0b0_0000_0000] == 1 << 8 | 3)
        #expect(table.lookup[0b0_1111_1111] == 1 << 8 | 3)
        #expect(table.lookup[0b1_0000_0000] == 2 << 8 | 0)
        #expect(table.lookup[0b1_1000_0000] == 3 << 8 | 5)
        #expect(table.lookup[0b1_1100_0000] == 0)  // "111…" is no code
        #expect(table.maxCode[1] == 0 && table.maxCode[2] == 2 && table.maxCode[3] == 6 && table.maxCode[4] == -1)
    }

    @Test func huffmanTableRejections() throws {
        // Two codes of length 1 would need the all-ones code "1": JERR_BAD_HUFF_TABLE.
        let overfull = HuffmanTables.Specification(isDC: false, index: 0, counts: [2] + [Int](repeating: 0, count: 15), symbols: [0, 1])
        #expect(throws: JPEGError.self) { try HuffmanTable(overfull) }
        // DC symbols above 15 are refused.
        let badDC = HuffmanTables.Specification(isDC: true, index: 0, counts: [1] + [Int](repeating: 0, count: 15), symbols: [16])
        #expect(throws: JPEGError.self) { try HuffmanTable(badDC) }
        // Th = 4 (JERR_DHT_INDEX).
        #expect(throws: DecodeError.self) { try HuffmanTables.parse(Self.segment(0xC4, [0x04] + [UInt8](repeating: 0, count: 16))) }
    }

    @Test func standardTablesAreComplete() throws {
        for spec in [HuffmanTables.standardDC0, HuffmanTables.standardDC1, HuffmanTables.standardAC0, HuffmanTables.standardAC1] {
            #expect(spec.counts.reduce(0, +) == spec.symbols.count)
            _ = try HuffmanTable(spec)
        }
    }

    /// The code of ≤ `width` bits that the `width`-bit string `index` starts with, found by
    /// generating the codes by hand (T.81 C.1 and C.2: lengths in order, each code the previous
    /// plus one, shifted left when the length grows).
    static func leadingCode(_ spec: HuffmanTables.Specification, _ index: Int, width: Int) -> (length: Int, symbol: Int)? {
        var code = 0, position = 0
        for length in 1...16 {
            for _ in 0..<spec.counts[length - 1] {
                if length <= width && index >> (width - length) == code { return (length, Int(spec.symbols[position])) }
                code += 1
                position += 1
            }
            code <<= 1
        }
        return nil
    }

    /// F.2.2.1 EXTEND, as written.
    static func extend(_ bits: Int, size: Int) -> Int {
        size == 0 ? 0 : bits < 1 << (size - 1) ? bits - (1 << size) + 1 : bits
    }

    /// `fastAC` and `sequentialAC` against F.2.2.2 decoded by hand, for every string of
    /// `fastBits` bits: a hit consumes a code and the value bits after it (run, EXTEND of them,
    /// bits used); a miss is a code or value that does not fit. `sequentialAC` adds exactly the
    /// EOB and ZRL codes (run 63 and 15, value 0, the code's length), 10-bit ones included.
    @Test func fastACAndSequentialACAreDecodeThenReceiveExtend() throws {
        // A table with a 10-bit EOB and a 10-bit ZRL, besides the two standard ones (whose EOB
        // has 4 and 2 bits, ZRL 11 and 10).
        let long = HuffmanTables.Specification(isDC: false, index: 2, counts: [0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 0, 0, 0, 0, 0, 0],
                                               symbols: [0x01, 0x11, 0x02, 0x21, 0x03, 0x31, 0x04, 0x41, 0x00, 0xF0])
        for spec in [HuffmanTables.standardAC0, HuffmanTables.standardAC1, long] {
            let table = try HuffmanTable(spec)
            let fast = HuffmanTable.fastBits
            var hits = 0, added = 0
            for index in 0 ..< 1 << fast {
                var expected: Int32 = 0
                if let (length, symbol) = Self.leadingCode(spec, index, width: fast) {
                    let run = symbol >> 4, size = symbol & 15
                    if size > 0 && length + size <= fast {
                        let bits = (index >> (fast - length - size)) & ((1 << size) - 1)
                        expected = Int32(Self.extend(bits, size: size)) << 16 | Int32(run << 8 | (length + size))
                        hits += 1
                    }
                    if symbol == 0x00 || symbol == 0xF0 {
                        #expect(table.fastAC[index] == 0)
                        #expect(table.sequentialAC[index] == Int32((symbol == 0 ? 63 : 15) << 8 | length))
                        added += 1
                        continue
                    }
                }
                #expect(table.fastAC[index] == expected)
                #expect(table.sequentialAC[index] == expected)
            }
            #expect(hits > 1 << (fast - 2))
            #expect(added > 0)
        }
        #expect((64 ..< 128).allSatisfy { JPEGZigZag.naturalPointer[$0] == 63 })
    }

    /// `fastDC` against F.2.2.1 decoded by hand: for every string of `fastBits` bits, a hit
    /// consumes the code and its SSSS bits and gives EXTEND of them; a miss is a code or value
    /// that does not fit. A DC table fills no AC entries.
    @Test func fastDCIsDecodeThenReceiveExtend() throws {
        // Standard DC1 has a 10-bit code (SSSS 10, too long with its bits); this one has a
        // 10-bit code for SSSS 0, which fits.
        let long = HuffmanTables.Specification(isDC: true, index: 2, counts: [0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 0, 0, 0, 0, 0, 0],
                                               symbols: [1, 2, 3, 4, 5, 6, 7, 8, 9, 0])
        for spec in [HuffmanTables.standardDC0, HuffmanTables.standardDC1, long] {
            let table = try HuffmanTable(spec)
            let fast = HuffmanTable.fastBits
            var hits = 0
            for index in 0 ..< 1 << fast {
                var expected: Int32 = 0
                if let (length, size) = Self.leadingCode(spec, index, width: fast), length + size <= fast {
                    let bits = (index >> (fast - length - size)) & ((1 << size) - 1)
                    expected = Int32(Self.extend(bits, size: size)) << 16 | Int32(length + size)
                    hits += 1
                }
                #expect(table.fastDC[index] == expected)
                #expect(table.fastAC[index] == 0 && table.sequentialAC[index] == 0)
            }
            #expect(hits > 1 << (fast - 2))
        }
    }

    @Test func scanHeaderMatchesComponentsInOrder() throws {
        let frame = try FrameHeader(parsing: Self.segment(0xC0, [8, 0, 8, 0, 8, 3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]))
        let sos = Self.segment(0xDA, [
            0x02,        // Ns: 2 components
            0x03, 0x11,  // Cs 3: Td 1, Ta 1
            0x02, 0x10,  // Cs 2: Td 1, Ta 0
            0x00, 0x3F, 0x00,  // Ss 0, Se 63, Ah/Al 0
        ])
        let scan = try ScanHeader(parsing: sos, frame: frame)
        #expect(scan.components.map(\.frameIndex) == [2, 1])
        #expect(scan.components.map(\.acTable) == [1, 0])
        // Naming component 2 twice is an error (B.2.3).
        #expect(throws: DecodeError.self) { try ScanHeader(parsing: Self.segment(0xDA, [2, 2, 0, 2, 0, 0, 63, 0]), frame: frame) }
    }

    @Test func markerScannerSkipsFillAndGarbage() {
        let bytes: [UInt8] = [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xFF, 0xFF, 0xD9]
        let result = bytes.withUnsafeBufferPointer { MarkerScanner.next(in: $0, from: 0, end: $0.count) }
        // 0x12 (1), FF 00 (2), 0x34 (1) discarded; the fill FFs are not counted.
        #expect(result == .marker(code: 0xD9, offset: 6, next: 8, discarded: 4))
        let short: [UInt8] = [0x00, 0xFF]
        #expect(short.withUnsafeBufferPointer { MarkerScanner.next(in: $0, from: 0, end: $0.count) } == .endOfBytes(discarded: 1))
    }

    @Test func metadataSegments() {
        var metadata = JPEGMetadata()
        // APP0 JFIF 1.02, dpi, 72×72, no thumbnail.
        _ = metadata.absorb(Self.segment(0xE0, [0x4A, 0x46, 0x49, 0x46, 0x00, 1, 2, 1, 0, 72, 0, 72, 0, 0]))
        #expect(metadata.jfif == JFIFProperties(majorVersion: 1, minorVersion: 2, densityUnit: 1, xDensity: 72, yDensity: 72))
        // APP1 EXIF, little-endian, IFD0 with one entry: Orientation (274) SHORT 1 = 6.
        let exif: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0,
                             0x49, 0x49, 42, 0, 8, 0, 0, 0,
                             1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0]
        _ = metadata.absorb(Self.segment(0xE1, exif))
        #expect(metadata.orientation == Orientation(rawValue: 6))
        #expect(metadata.exif?.first == 0x49)
        // The same in big-endian.
        var other = JPEGMetadata()
        _ = other.absorb(Self.segment(0xE1, [0x45, 0x78, 0x69, 0x66, 0, 0, 0x4D, 0x4D, 0, 42, 0, 0, 0, 8,
                                             0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 8, 0, 0, 0, 0, 0, 0]))
        #expect(other.orientation == Orientation(rawValue: 8))
        // ICC in two chunks, given out of order.
        let icc = Array("ICC_PROFILE".utf8) + [0]
        _ = metadata.absorb(Self.segment(0xE2, icc + [2, 2, 0xCC, 0xDD]))
        _ = metadata.absorb(Self.segment(0xE2, icc + [1, 2, 0xAA, 0xBB]))
        #expect(metadata.iccProfile().profile == [0xAA, 0xBB, 0xCC, 0xDD])
        // Adobe APP14, transform 2 (YCCK).
        _ = metadata.absorb(Self.segment(0xEE, [0x41, 0x64, 0x6F, 0x62, 0x65, 0, 100, 0, 0, 0, 0, 2]))
        #expect(metadata.adobeTransform == 2)
        _ = metadata.absorb(Self.segment(0xFE, Array("hello".utf8) + [0]))
        #expect(metadata.comments == ["hello"])
    }

    @Test func missingICCChunkDropsTheProfile() {
        var metadata = JPEGMetadata()
        let icc = Array("ICC_PROFILE".utf8) + [0]
        _ = metadata.absorb(Self.segment(0xE2, icc + [1, 2, 0xAA]))
        #expect(metadata.iccProfile().profile == nil)
    }
}

extension JPEGSegmentTests {
    /// The worked example of Docs/JPEG.md at the coefficient level: 0x5A = 0 101 10 1 0 with
    /// DC "0" → 3, "10" → 0 and AC "0" → EOB, "10" → 0x01 gives DC +5 and ZZ(1) = +1.
    @Test func huffmanDecodeByHand() throws {
        let zeros = [Int](repeating: 0, count: 14)
        let dc = try HuffmanTable(HuffmanTables.Specification(isDC: true, index: 0, counts: [1, 1] + zeros, symbols: [0x03, 0x00]))
        let ac = try HuffmanTable(HuffmanTables.Specification(isDC: false, index: 0, counts: [1, 1] + zeros, symbols: [0x00, 0x01]))
        let frame = try FrameHeader(parsing: Self.segment(0xC0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0]))
        let geometry = try FrameGeometry(frame: frame, scaleDenominator: 1)
        let store = try CoefficientStore(geometry: geometry, wholeImage: true, interleavedRows: false, budget: MemoryBudget(limits: .default))
        let slot = BaselineScan.Slot(component: 0, scanIndex: 0, dx: 0, dy: 0, stepX: 1, stepY: 1,
                                     dc: dc.pointers, ac: ac.pointers, plane: store.planes[0])
        var scan = BaselineScan(slots: [slot], tables: [dc, ac], store: store, interleaved: false, mcusPerRow: 1, mcuRows: 1,
                                restartInterval: 0, zeroBlocks: false, start: 0)
        let data: [UInt8] = [0x5A, 0xFF, 0xD9]
        let progress = data.withUnsafeBufferPointer { scan.run($0, end: $0.count, closed: true) }
        #expect(progress == .rowDone(0))
        let block = store.planes[0].block(x: 0, y: 0)
        #expect(block[0] == 5)
        #expect(block[1] == 1)
        #expect((2..<64).allSatisfy { block[$0] == 0 })
        #expect(scan.state.reader.realBits >= 0)  // no padding bits were needed
    }
}
