import Testing
import PureImageConformance
@testable import PureImage

/// Hand-built PNGs for each branch of the spec, decoded by PureImage and by libpng.
@Suite struct PNGDecoderTests {
    /// Every legal colour type × bit depth (PNG §11.2.2 Table 11.1).
    static let combinations: [(colorType: UInt8, depth: UInt8)] = [
        (0, 1), (0, 2), (0, 4), (0, 8), (0, 16),
        (2, 8), (2, 16),
        (3, 1), (3, 2), (3, 4), (3, 8),
        (4, 8), (4, 16),
        (6, 8), (6, 16),
    ]

    static func samplesPerPixel(_ colorType: UInt8) -> Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 1 }

    /// Deterministic pseudo-random bytes.
    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &+ 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    struct Built {
        let png: [UInt8]
        let interlacedPNG: [UInt8]
    }

    /// A `width × height` image of random samples in both interlace methods, with optional
    /// tRNS (`transparency`) and a palette for colour type 3. Scanlines use every filter type
    /// (row y gets filter y % 5) so unfiltering is exercised too.
    static func build(colorType: UInt8, depth: UInt8, width: Int, height: Int, transparency: [UInt8]? = nil, seed: UInt64) -> Built {
        let bitsPerPixel = Int(depth) * samplesPerPixel(colorType)
        let rowBytes = (width * bitsPerPixel + 7) / 8
        var image = noise(rowBytes * height, seed: seed)
        if colorType == 3 {
            // Keep indices inside a palette of 2^depth entries... except the last row, which
            // may point past a shorter palette when depth is 8 (libpng pads with black).
            image = image.map { depth == 8 ? $0 % 200 : $0 }
        }
        func assemble(interlaced: Bool) -> [UInt8] {
            var builder = PNGBuilder()
            builder.header(width: width, height: height, depth: depth, colorType: colorType, interlaced: interlaced)
            if colorType == 3 {
                let entries = depth == 8 ? 180 : 1 << Int(depth)
                builder.chunk("PLTE", noise(entries * 3, seed: seed ^ 0xABCD))
            }
            if let transparency { builder.chunk("tRNS", transparency) }
            let bpp = max(1, bitsPerPixel / 8)
            var scanlines: [UInt8]
            if interlaced {
                scanlines = PNGBuilder.adam7Scanlines(width: width, height: height, bitsPerPixel: bitsPerPixel, rowBytes: rowBytes, image: image)
            } else {
                scanlines = []
                var previous: [UInt8] = []
                for y in 0..<height {
                    let row = Array(image[y * rowBytes ..< (y + 1) * rowBytes])
                    let type = UInt8(y % 5)
                    scanlines += [type] + PNGFilterTests.filter(type, row: row, previous: previous, bpp: bpp)
                    previous = row
                }
            }
            builder.imageData(scanlines, pieces: 3)
            builder.end()
            return builder.bytes
        }
        return Built(png: assemble(interlaced: false), interlacedPNG: assemble(interlaced: true))
    }

    static func decodeCanonical(_ bytes: [UInt8]) throws -> [UInt8] {
        try ImageSource(bytes: bytes).image().tightBytes
    }

    @Test(arguments: combinations.indices)
    func everyColourTypeAndDepthMatchesLibpngInBothInterlaceMethods(_ index: Int) throws {
        let (colorType, depth) = Self.combinations[index]
        for (width, height) in [(1, 1), (7, 5), (33, 17)] {
            let built = Self.build(colorType: colorType, depth: depth, width: width, height: height, seed: UInt64(index * 100 + width))
            let plain = try Self.decodeCanonical(built.png)
            let interlaced = try Self.decodeCanonical(built.interlacedPNG)
            #expect(plain == interlaced, "type \(colorType) depth \(depth) \(width)×\(height): Adam7 differs from non-interlaced")
            let reference = ReferenceDecoders.png(built.png)
            #expect(reference.status == .ok)
            #expect(firstDifference(plain, reference.frames.first?.samples ?? []) == nil, "type \(colorType) depth \(depth) \(width)×\(height)")
        }
    }

    /// Scanlines are inflated in blocks of ≈ 128 KiB (`PNGImageData.blockTarget`): an image
    /// several blocks tall, whose rows use every filter type (so blocks begin with rows that
    /// read the one above, kept from the previous block), against libpng; its Adam7 twin
    /// (passes of several blocks) against it; and both fed in pieces (a block boundary falling
    /// anywhere in a feed) against the one-shot decode, including a truncated copy.
    @Test func imagesSpanningSeveralInflateBlocksMatchLibpng() throws {
        // 1001 RGB pixels: 3004-byte scanlines, 43 to a block, 150 rows: four blocks, the last
        // one short; the row count does not divide by the block's.
        let built = Self.build(colorType: 2, depth: 8, width: 1001, height: 150, seed: 0xB10C)
        #expect(PNGImageData.blockTarget / 3004 == 43)
        let plain = try Self.decodeCanonical(built.png)
        let reference = ReferenceDecoders.png(built.png)
        #expect(reference.status == .ok)
        #expect(firstDifference(plain, reference.frames.first?.samples ?? []) == nil)
        #expect(try Self.decodeCanonical(built.interlacedPNG) == plain)
        for bytes in [built.png, built.interlacedPNG, Array(built.png.prefix(built.png.count * 2 / 3))] {
            let oneShot = IncrementalTests.oneShot(bytes)
            for sizes in [[4093], [1, 777, 65536, 13]] {
                let (outcome, statuses) = IncrementalTests.incremental(bytes, chunkSizes: sizes)
                #expect(outcome == oneShot, "chunks \(sizes), \(bytes.count) bytes")
                #expect(IncrementalTests.isMonotone(statuses))
            }
        }
    }

    /// §11.3.2.1 tRNS in each of its forms.
    @Test func transparencyInEveryForm() throws {
        let cases: [(UInt8, UInt8, [UInt8])] = [
            (0, 1, [0, 1]), (0, 2, [0, 2]), (0, 4, [0, 9]), (0, 8, [0, 77]), (0, 16, [0x12, 0x34]),
            (2, 8, [0, 10, 0, 20, 0, 30]), (2, 16, [0x01, 0x02, 0x03, 0x04, 0x05, 0x06]),
            (3, 1, [0]), (3, 2, [0, 128]), (3, 4, [10, 20, 30]), (3, 8, [0, 50, 100, 150, 200]),
        ]
        for (colorType, depth, trns) in cases {
            // Small random samples so that keys actually occur: mask the noise into a few values.
            let built = Self.build(colorType: colorType, depth: depth, width: 16, height: 9, transparency: trns, seed: UInt64(depth) * 7 + UInt64(colorType))
            let ours = try Self.decodeCanonical(built.png)
            let reference = ReferenceDecoders.png(built.png)
            #expect(firstDifference(ours, reference.frames.first?.samples ?? []) == nil, "tRNS type \(colorType) depth \(depth)")
            #expect(try Self.decodeCanonical(built.interlacedPNG) == ours)
            #expect(try ImageSource(bytes: built.png).properties().hasAlpha)
        }
        // A key that occurs: 8-bit gray image of all 77s with key 77 is fully transparent.
        var builder = PNGBuilder()
        builder.header(width: 2, height: 1, depth: 8, colorType: 0)
        builder.chunk("tRNS", [0, 77])
        builder.imageData(PNGBuilder.scanlines([[77, 78]]))
        builder.end()
        #expect(try Self.decodeCanonical(builder.bytes) == [77, 77, 77, 0, 78, 78, 78, 255])
    }

    @Test func idatSplitAcrossManyChunksAndFedByteByByte() throws {
        let built = Self.build(colorType: 6, depth: 8, width: 20, height: 20, seed: 3)
        let whole = try Self.decodeCanonical(built.png)
        // Re-split the image data into 1-byte IDAT chunks.
        var builder = PNGBuilder()
        builder.header(width: 20, height: 20, depth: 8, colorType: 6)
        let scanlines = (0..<20).flatMap { y -> [UInt8] in [0] + Self.noise(80, seed: UInt64(y)) }
        builder.imageData(scanlines, pieces: 10_000)
        builder.end()
        #expect(try Self.decodeCanonical(builder.bytes).count == 1600)
        // The same machine fed one byte at a time gives the one-shot result.
        let decoder = PNGDecoder(options: DecodeOptions())
        var input = InputBuffer()
        var progress = DecodeProgress.needMoreInput
        for byte in built.png {
            input.append(contentsOf: [byte])
            progress = try decoder.advance(&input)
        }
        #expect(progress == .finished)
        #expect(try decoder.frame(at: 0).canonicalRGBA().tightBytes == whole)
    }

    // MARK: - Errors, each with its offset

    static func error(_ bytes: [UInt8]) -> DecodeError? {
        do { _ = try ImageSource(bytes: bytes).image(); return nil } catch { return error }
    }

    @Test func criticalCRCMismatchIsAnErrorAncillaryIsAWarning() throws {
        var bad = PNGBuilder()
        bad.header(width: 1, height: 1, depth: 8, colorType: 0)
        bad.chunk("gAMA", [0, 0, 0xB1, 0x8F], corruptCRC: true)
        bad.imageData(PNGBuilder.scanlines([[42]]))
        bad.end()
        let decoded = try ImageSource(bytes: bad.bytes).decode()
        #expect(decoded.bitmap.tightBytes == [42, 42, 42, 255])
        #expect(decoded.warnings.contains { $0.message.contains("CRC mismatch in gAMA") })

        var critical = PNGBuilder()
        critical.chunk("IHDR", PNGBuilder.be32(1) + PNGBuilder.be32(1) + [8, 0, 0, 0, 0], corruptCRC: true)
        let error = try #require(Self.error(critical.bytes))
        #expect(error.kind == .malformed && error.offset == 29)   // CRC field of IHDR: 8 + 8 + 13
        guard case PNGError.crcMismatch(let type, _, _)? = error.reason as? PNGError else {
            Issue.record("expected crcMismatch, got \(error)"); return
        }
        #expect(type == "IHDR")
    }

    @Test func chunkOrderAndUnknownChunks() throws {
        // IHDR must come first.
        var builder = PNGBuilder()
        builder.chunk("gAMA", [0, 0, 0xB1, 0x8F])
        #expect(Self.error(builder.bytes)?.reason as? PNGError == .chunkOrder("first chunk is gAMA, not IHDR"))

        // Unknown critical chunk: refused. Unknown ancillary chunk: skipped.
        var critical = PNGBuilder()
        critical.header(width: 1, height: 1, depth: 8, colorType: 0)
        critical.chunk("ABCD", [1, 2, 3])
        #expect(Self.error(critical.bytes)?.reason as? PNGError == .unknownCriticalChunk(type: "ABCD"))
        var ancillary = PNGBuilder()
        ancillary.header(width: 1, height: 1, depth: 8, colorType: 0)
        ancillary.chunk("abCD", [1, 2, 3])
        ancillary.imageData(PNGBuilder.scanlines([[9]]))
        ancillary.end()
        #expect(try Self.decodeCanonical(ancillary.bytes) == [9, 9, 9, 255])

        // Indexed without PLTE.
        var noPalette = PNGBuilder()
        noPalette.header(width: 1, height: 1, depth: 8, colorType: 3)
        noPalette.imageData(PNGBuilder.scanlines([[0]]))
        #expect(Self.error(noPalette.bytes)?.reason as? PNGError == .missingPalette)

        // Invalid chunk type bytes.
        var invalidType = PNGBuilder()
        invalidType.header(width: 1, height: 1, depth: 8, colorType: 0)
        invalidType.chunk("ab1D", [])
        #expect(Self.error(invalidType.bytes)?.reason as? PNGError == .invalidChunkType(bytes: Array("ab1D".utf8)))

        // IDAT interrupted by another chunk before the image is complete.
        var split = PNGBuilder()
        split.header(width: 4, height: 4, depth: 8, colorType: 0)
        let compressed = ZlibDeflater.deflate(PNGBuilder.scanlines(Array(repeating: [1, 2, 3, 4], count: 4)))
        split.chunk("IDAT", Array(compressed.prefix(5)))
        split.chunk("tEXt", Array("a\u{0}b".utf8))
        split.chunk("IDAT", Array(compressed.dropFirst(5)))
        split.end()
        guard case PNGError.notEnoughImageData? = Self.error(split.bytes)?.reason as? PNGError else {
            Issue.record("expected notEnoughImageData"); return
        }
    }

    @Test func invalidHeaders() {
        func headerError(width: UInt32, height: UInt32, depth: UInt8, colorType: UInt8, compression: UInt8 = 0, filter: UInt8 = 0, interlace: UInt8 = 0) -> PNGError? {
            var builder = PNGBuilder()
            builder.chunk("IHDR", PNGBuilder.be32(width) + PNGBuilder.be32(height) + [depth, colorType, compression, filter, interlace])
            return Self.error(builder.bytes)?.reason as? PNGError
        }
        #expect(headerError(width: 0, height: 1, depth: 8, colorType: 0) == .invalidDimensions(width: 0, height: 1))
        #expect(headerError(width: 0x8000_0000, height: 1, depth: 8, colorType: 0) == .invalidDimensions(width: 0x8000_0000, height: 1))
        #expect(headerError(width: 1, height: 1, depth: 8, colorType: 1) == .invalidColorType(1))
        #expect(headerError(width: 1, height: 1, depth: 16, colorType: 3) == .invalidBitDepth(colorType: 3, bitDepth: 16))
        #expect(headerError(width: 1, height: 1, depth: 4, colorType: 2) == .invalidBitDepth(colorType: 2, bitDepth: 4))
        #expect(headerError(width: 1, height: 1, depth: 8, colorType: 0, compression: 1) == .invalidCompressionMethod(1))
        #expect(headerError(width: 1, height: 1, depth: 8, colorType: 0, filter: 1) == .invalidFilterMethod(1))
        #expect(headerError(width: 1, height: 1, depth: 8, colorType: 0, interlace: 2) == .invalidInterlaceMethod(2))
    }

    @Test func limitsRefuseOversizedHeadersBeforeAllocating() throws {
        var builder = PNGBuilder()
        builder.header(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, depth: 16, colorType: 6)
        let error = try #require(Self.error(builder.bytes))
        #expect(error.kind == .limitExceeded)
        #expect(error.offset == 16)   // the IHDR data, where the size was read
        // Tight limits refuse a modest image too.
        var small = PNGBuilder()
        small.header(width: 100, height: 100, depth: 8, colorType: 6)
        let limited = DecodeOptions(limits: DecodeLimits(maxPixels: 5000))
        do {
            _ = try ImageSource(bytes: small.bytes, options: limited).image()
            Issue.record("expected a limit error")
        } catch {
            #expect(error.kind == .limitExceeded)
        }
    }

    /// Every truncation point of a small RGBA file, plain and interlaced: closed input never
    /// crashes or hangs; it is either a typed error (nothing decodable yet) or a partial image
    /// marked truncated whose pixels so far equal the full decode's.
    @Test func truncationAtEveryOffset() throws {
        let built = Self.build(colorType: 6, depth: 8, width: 9, height: 7, seed: 11)
        for bytes in [built.png, built.interlacedPNG] {
            let full = try Self.decodeCanonical(bytes)
            for length in 0..<bytes.count {
                let prefix = Array(bytes.prefix(length))
                do {
                    let decoded = try ImageSource(bytes: prefix).decode()
                    let image = decoded.bitmap.tightBytes
                    #expect(image.count == full.count)
                    #expect(decoded.truncation != nil, "length \(length): a cut file must say it is truncated")
                    // Pixels decoded so far equal the full decode's; the rest are zero (Adam7:
                    // pixel by pixel; non-interlaced: whole rows, zero rows only at the end).
                    var mismatches = 0
                    for pixel in 0..<(full.count / 4) {
                        let ours = image[pixel * 4 ..< pixel * 4 + 4], whole = full[pixel * 4 ..< pixel * 4 + 4]
                        if ours != whole && ours != [0, 0, 0, 0] { mismatches += 1 }
                    }
                    #expect(mismatches == 0, "length \(length): \(mismatches) decoded pixels differ from the full decode")
                    if bytes == built.png {
                        let rowBytes = 9 * 4
                        let rowsDone = (0..<7).filter { y in image[y * rowBytes ..< (y + 1) * rowBytes] == full[y * rowBytes ..< (y + 1) * rowBytes] }
                        #expect(rowsDone == Array(0..<rowsDone.count), "length \(length): decoded rows are not a prefix")
                    }
                } catch {
                    #expect(error.kind == .truncated || error.kind == .unknownFormat || error.kind == .malformed,
                            "length \(length): \(error)")
                }
            }
        }
    }

    @Test func metadataBecomesProperties() throws {
        var builder = PNGBuilder()
        builder.header(width: 1, height: 1, depth: 8, colorType: 2)
        builder.chunk("gAMA", PNGBuilder.be32(45455))
        builder.chunk("tEXt", Array("Title".utf8) + [0] + Array("Caf\u{E9}".unicodeScalars.map { UInt8($0.value) }))
        builder.chunk("zTXt", Array("Comment".utf8) + [0, 0] + ZlibDeflater.deflate(Array("squeezed".utf8)))
        builder.chunk("iTXt", Array("Author".utf8) + [0, 0, 0] + Array("en".utf8) + [0] + [0] + Array("Zoë".utf8))
        // eXIf with orientation 6 (big-endian TIFF structure: MM, 42, IFD at 8, one entry).
        let exif: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0]
        builder.chunk("eXIf", exif)
        builder.imageData(PNGBuilder.scanlines([[1, 2, 3]]))
        builder.end()
        let properties = try ImageSource(bytes: builder.bytes).properties()
        #expect(properties.orientation == .right)
        #expect(properties.exif == exif)
        #expect(properties.text == [TextEntry(keyword: "Title", text: "Café"), TextEntry(keyword: "Comment", text: "squeezed"),
                                    TextEntry(keyword: "Author", text: "Zoë")])
        #expect(properties.png.gamma == 0.45455)
        // Orientation is reported, never applied unless asked.
        let source = try ImageSource(bytes: builder.bytes)
        #expect(try source.image().width == 1)
    }
}
