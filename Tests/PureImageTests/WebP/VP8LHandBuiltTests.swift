@testable import PureImage
@testable import PureImageConformance
import Testing

/// VP8L bitstreams written bit by bit (RFC 9649 §3), one branch of the format each: simple and
/// normal prefix codes, the subtract-green transform, the colour cache, backward references
/// through the 2-D distance map, and the header checks. Every stream is also decoded by libwebp
/// (WebPDecodeRGBA), so a test proves both that the hand-written stream is what the spec says
/// and that PureImage decodes it to the pixels written down here.
@Suite struct VP8LHandBuiltTests {
    /// An LSB-first bit writer, as VP8L's `ReadBits(n)` reads.
    struct BitWriter {
        var bytes: [UInt8] = []
        var bitCount = 0

        mutating func write(_ value: Int, _ count: Int) {
            for i in 0..<count {
                if bitCount % 8 == 0 { bytes.append(0) }
                if (value >> i) & 1 == 1 { bytes[bytes.count - 1] |= UInt8(1 << (bitCount % 8)) }
                bitCount += 1
            }
        }

        /// A prefix code word: its bits go out from the most significant (the tree is walked
        /// from the root).
        mutating func writeCode(_ code: (bits: Int, length: Int)) {
            for i in stride(from: code.length - 1, through: 0, by: -1) { write((code.bits >> i) & 1, 1) }
        }

        /// §3.7.2.1.1 simple code: one or two symbols of at most 8 bits.
        mutating func simpleCode(_ symbols: [Int]) {
            write(1, 1)
            write(symbols.count - 1, 1)
            write(1, 1)                 // is_first_8bits
            write(symbols[0], 8)
            if symbols.count == 2 { write(symbols[1], 8) }
        }

        /// §3.7.2.1.2 normal code: the code-length code gives lengths 0...15 four bits each
        /// (a complete code of 16 words), then every symbol's length through it.
        mutating func normalCode(lengths: [Int]) {
            write(0, 1)
            write(19 - 4, 4)            // all 19 code-length-code lengths follow
            let order = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
            for symbol in order { write(symbol <= 15 ? 4 : 0, 3) }
            write(0, 1)                 // max_symbol: the whole alphabet
            for length in lengths { writeCode((length, 4)) }
        }
    }

    /// Canonical prefix codes for `lengths` (shorter codes first, then by symbol).
    static func canonicalCodes(_ lengths: [Int]) -> [Int: (bits: Int, length: Int)] {
        var codes: [Int: (bits: Int, length: Int)] = [:]
        var code = 0
        for length in 1...15 {
            for (symbol, l) in lengths.enumerated() where l == length {
                codes[symbol] = (code, length)
                code += 1
            }
            code <<= 1
        }
        return codes
    }

    /// The VP8L header (§3.4 of the lossless bitstream): signature, 14-bit sizes, alpha hint,
    /// version 0.
    static func header(width: Int, height: Int, alphaUsed: Bool, into writer: inout BitWriter) {
        writer.write(0x2F, 8)
        writer.write(width - 1, 14)
        writer.write(height - 1, 14)
        writer.write(alphaUsed ? 1 : 0, 1)
        writer.write(0, 3)
    }

    /// A simple-format WebP file around a VP8L payload (RIFF header, one chunk, padding byte).
    static func riff(_ payload: [UInt8], fourCC: String = "VP8L") -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let padded = payload + (payload.count % 2 == 1 ? [0] : [])
        let chunk = Array(fourCC.utf8) + le32(payload.count) + padded
        return Array("RIFF".utf8) + le32(4 + chunk.count) + Array("WEBP".utf8) + chunk
    }

    /// Decodes with PureImage and with libwebp; both must give `expected` (straight RGBA8).
    static func expectPixels(_ file: [UInt8], width: Int, height: Int, _ expected: [UInt8],
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let decoded = try ImageSource(bytes: file).decode(options: ImageDecodingOptions(output: .format(.rgba8)))
        let bitmap = decoded.bitmap.tightlyPacked()
        #expect(decoded.truncation == nil, sourceLocation: sourceLocation)
        #expect(bitmap.width == width && bitmap.height == height, sourceLocation: sourceLocation)
        #expect(bitmap.bytes == expected, "PureImage", sourceLocation: sourceLocation)
        let reference = ReferenceDecoders.webp(file)
        #expect(reference.status == .ok, "libwebp: \(reference.message)", sourceLocation: sourceLocation)
        #expect(reference.frames.first?.samples == expected, "libwebp", sourceLocation: sourceLocation)
    }

    /// No transform, no colour cache, one prefix-code group.
    static func plainImageStart(width: Int, height: Int, alphaUsed: Bool = true) -> BitWriter {
        var w = BitWriter()
        header(width: width, height: height, alphaUsed: alphaUsed, into: &w)
        w.write(0, 1)   // no (more) transforms
        w.write(0, 1)   // no colour cache
        w.write(0, 1)   // no meta prefix codes: one group for the whole image
        return w
    }

    /// Five single-symbol codes: every pixel is the same literal and costs no bits at all.
    @Test func solidColourFromSingleSymbolCodes() throws {
        var w = Self.plainImageStart(width: 3, height: 2)
        // Codes in group order: green, red, blue, alpha, distance.
        for symbol in [0x40, 0x80, 0x20, 0xC0, 0] { w.simpleCode([symbol]) }
        try Self.expectPixels(Self.riff(w.bytes), width: 3, height: 2,
                              ([0x80, 0x40, 0x20, 0xC0] as [UInt8]).repeated(6))
    }

    /// A two-symbol green code: one bit per pixel, the smaller symbol coded 0.
    @Test func twoSymbolCodeSpendsOneBitPerPixel() throws {
        var w = Self.plainImageStart(width: 4, height: 2, alphaUsed: false)
        w.simpleCode([10, 200])
        for symbol in [1, 2, 255, 0] { w.simpleCode([symbol]) }
        let pattern = [0, 1, 1, 0, 1, 0, 0, 1]
        for bit in pattern { w.write(bit, 1) }
        let expected = pattern.flatMap { [1, $0 == 0 ? 10 : 200, 2, 255] as [UInt8] }
        try Self.expectPixels(Self.riff(w.bytes), width: 4, height: 2, expected)
    }

    /// §4.3 subtract-green (transform type 2, no data): red and blue are stored minus green.
    @Test func subtractGreenTransformAddsGreenBack() throws {
        var w = BitWriter()
        Self.header(width: 2, height: 1, alphaUsed: false, into: &w)
        w.write(1, 1); w.write(2, 2)     // a transform: subtract green
        w.write(0, 1)                    // no more transforms
        w.write(0, 1); w.write(0, 1)     // no colour cache, one group
        w.simpleCode([100, 150])         // green
        w.simpleCode([200])              // red − green
        w.simpleCode([7])                // blue − green
        w.simpleCode([255]); w.simpleCode([0])
        w.write(0, 1); w.write(1, 1)     // green 100, then 150
        try Self.expectPixels(Self.riff(w.bytes), width: 2, height: 1,
                              [44, 100, 107, 255, 94, 150, 157, 255])   // (200 + g) mod 256, 7 + g
    }

    /// §3.6.2.x colour cache: a pixel coded as a cache index gets the colour hashed there,
    /// (0x1e35a7bd × ARGB) >> (32 − cache_bits), by every pixel before it.
    @Test func colourCacheIndexRepeatsAnEarlierColour() throws {
        let cacheBits = 3
        let argb: UInt32 = 0xFF30_6090   // alpha 255, red 0x30, green 0x60, blue 0x90
        let index = Int((0x1E35_A7BD &* argb) >> UInt32(32 - cacheBits))
        var w = BitWriter()
        Self.header(width: 3, height: 1, alphaUsed: false, into: &w)
        w.write(0, 1)                    // no transforms
        w.write(1, 1); w.write(cacheBits, 4)
        w.write(0, 1)                    // one group
        // Green alphabet: 256 literals + 24 length prefixes + 8 cache entries.
        var lengths = [Int](repeating: 0, count: 256 + 24 + (1 << cacheBits))
        lengths[0x60] = 1
        lengths[256 + 24 + index] = 1
        w.normalCode(lengths: lengths)
        let green = Self.canonicalCodes(lengths)
        w.simpleCode([0x30]); w.simpleCode([0x90]); w.simpleCode([0xFF]); w.simpleCode([0])
        w.writeCode(try #require(green[0x60]))                // a literal: enters the cache
        w.writeCode(try #require(green[256 + 24 + index]))    // the cache entry, twice
        w.writeCode(try #require(green[256 + 24 + index]))
        try Self.expectPixels(Self.riff(w.bytes), width: 3, height: 1, ([0x30, 0x60, 0x90, 0xFF] as [UInt8]).repeated(3))
    }

    /// §3.6.2.2 LZ77 backward references: length prefix symbols 256 + k (k < 4: length k + 1),
    /// distance codes through the 2-D map — code 1 is (0, 1), the pixel above; code 2 is
    /// (1, 0), the pixel to the left.
    @Test func backwardReferencesCopyFromLeftAndAbove() throws {
        var w = Self.plainImageStart(width: 4, height: 2, alphaUsed: false)
        // Green: literals 10 and 20, length prefixes 256 + 1 (length 2) and 256 + 3 (length 4).
        var lengths = [Int](repeating: 0, count: 256 + 24)
        for symbol in [10, 20, 256 + 1, 256 + 3] { lengths[symbol] = 2 }
        w.normalCode(lengths: lengths)
        let green = Self.canonicalCodes(lengths)
        w.simpleCode([0]); w.simpleCode([0]); w.simpleCode([255])
        // Distance: symbols 0 and 1 (distance codes 1 and 2), one bit each.
        w.simpleCode([0, 1])
        // Row 0: 10, then 2 copies of the pixel to the left, then 20.
        w.writeCode(try #require(green[10]))
        w.writeCode(try #require(green[256 + 1])); w.write(1, 1)   // length 2, distance code 2 (left)
        w.writeCode(try #require(green[20]))
        // Row 1: the 4 pixels above.
        w.writeCode(try #require(green[256 + 3])); w.write(0, 1)   // length 4, distance code 1 (above)
        let row: [UInt8] = [0, 10, 0, 255, 0, 10, 0, 255, 0, 10, 0, 255, 0, 20, 0, 255]
        try Self.expectPixels(Self.riff(w.bytes), width: 4, height: 2, row + row)
    }

    /// Header checks: a wrong signature byte or a version other than 0 is malformed; a payload
    /// that ends inside the header is truncated. libwebp refuses all three.
    @Test func headerErrorsAreTypedAndPlaced() throws {
        let good: [UInt8] = {
            var w = Self.plainImageStart(width: 2, height: 2)
            for symbol in [1, 2, 3, 4, 0] { w.simpleCode([symbol]) }
            return w.bytes
        }()
        var badSignature = good
        badSignature[0] = 0x2E
        var badVersion = good
        badVersion[4] |= 0x20            // bits 29...31 of the header: version 1
        for (name, payload, kind) in [("signature", badSignature, DecodeError.Kind.malformed),
                                      ("version", badVersion, .malformed),
                                      ("truncated header", Array(good.prefix(3)), .truncated)] {
            let file = Self.riff(payload)
            #expect(ReferenceDecoders.webp(file).status == .rejected, "libwebp accepts the bad \(name)")
            do {
                let source = try ImageSource(bytes: file)
                _ = try source.image()
                Issue.record("the bad \(name) decoded")
            } catch {
                #expect(error.kind == kind, "\(name): \(error)")
                // The payload starts at byte 20 (RIFF header 12, chunk header 8).
                #expect((error.offset ?? -1) >= 20 && (error.offset ?? -1) <= file.count, "\(name): \(error)")
            }
        }
    }
}

private extension Array {
    func repeated(_ count: Int) -> [Element] { (0..<count).flatMap { _ in self } }
}
