import Testing
@testable import PureImage

/// SampleFormat (§19), depths beyond 16 bits, the floating-point predictor (Technical Note 3),
/// and the decoded-samples layer (`ImageSource.decodedSamples`).
@Suite struct TIFFSampleFormatTests {
    /// A zlib stream of stored (uncompressed) Deflate blocks, so tests can build Deflate TIFFs
    /// by hand: 78 01, then blocks of BFINAL/BTYPE=00, LEN, NLEN, bytes; then Adler-32.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(65535, data.count - start)
            let final: UInt8 = start + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
            out += data[start ..< start + count]
            start += count
        } while start < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        let adler = b << 16 | a
        return out + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    }

    /// A one-strip Deflate TIFF of `width`×`height`, `samples` samples of `bits`, SampleFormat
    /// `format`, Predictor `predictor`, holding `stored` (before compression).
    static func deflateTIFF(_ order: TIFFBuilder.Order, width: Int, height: Int, samples: Int, bits: Int, format: UInt16,
                            predictor: UInt16, photometric: UInt16 = 1, stored: [UInt8]) -> [UInt8] {
        var b = TIFFBuilder(order)
        b.data = zlibStored(stored)
        b.short(256, UInt16(width)); b.short(257, UInt16(height))
        b.entries.append((258, 3, UInt32(samples), (0..<samples).flatMap { _ in b.u16(UInt16(bits)) }))
        b.short(259, 8)                               // Adobe Deflate
        b.short(262, photometric)
        b.long(273, b.dataOffset)
        b.short(277, UInt16(samples)); b.short(278, UInt16(height))
        b.long(279, UInt32(b.data.count))
        b.short(317, predictor)
        b.entries.append((339, 3, UInt32(samples), (0..<samples).flatMap { _ in b.u16(format) }))
        return b.build()
    }

    /// Floating-point predictor by hand: float32 1.0 (3F 80 00 00) and 2.0 (40 00 00 00) as byte
    /// planes 3F 40 | 80 00 | 00 00 | 00 00, each byte minus the one before: 3F 01 40 80 00 00 00 00.
    /// The planes are big-endian whatever the file's byte order.
    @Test(arguments: [TIFFBuilder.Order.little, .big])
    func floatingPointPredictorByHand(order: TIFFBuilder.Order) throws {
        let file = Self.deflateTIFF(order, width: 2, height: 1, samples: 1, bits: 32, format: 3, predictor: 3,
                                    stored: [0x3F, 0x01, 0x40, 0x80, 0, 0, 0, 0])
        let source = try ImageSource(bytes: file)
        let samples = try source.decodedSamples()
        #expect(samples.bytes == [0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x40])   // little-endian 1.0, 2.0
        #expect(samples.sampleFormat == 3)
        let native = try source.image(options: ImageDecodingOptions(output: .native))
        #expect(native.format == PixelFormat(colorModel: .gray, bitsPerComponent: 32, alphaInfo: .none, componentType: .float))
        #expect(native.bytes == [0x3F, 0x80, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00])
        // Float → 8-bit: clipped to 0…1, so 1.0 and 2.0 both give 255.
        #expect(try native.converted(to: .gray8).tightBytes == [255, 255])
    }

    /// Predictor 2 on 32-bit samples adds whole words modulo 2^32: FFFFFFFF + 2 = 1.
    @Test func horizontalPredictorOn32BitSamples() throws {
        let file = Self.deflateTIFF(.big, width: 3, height: 1, samples: 1, bits: 32, format: 1, predictor: 2,
                                    stored: [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 2, 0, 0, 1, 0])
        let samples = try ImageSource(bytes: file).decodedSamples()
        #expect(samples.bytes == [0xFF, 0xFF, 0xFF, 0xFF, 1, 0, 0, 0, 1, 1, 0, 0])
        // 32-bit integers have no Bitmap form (libtiff's RGBA interface refuses them too).
        #expect(throws: DecodeError.self) { try ImageSource(bytes: file).image() }
    }

    /// Half floats and Adobe's 24-bit floats widen to binary32 exactly: normal, subnormal,
    /// zero, infinity.
    @Test func narrowFloatsWidenExactly() {
        #expect(TIFFRendering.halfToFloatBits(0x3C00) == Float(1).bitPattern)
        #expect(TIFFRendering.halfToFloatBits(0xC000) == Float(-2).bitPattern)
        #expect(TIFFRendering.halfToFloatBits(0x0001) == Float(5.9604645e-08).bitPattern)       // 2^-24
        #expect(TIFFRendering.halfToFloatBits(0x7C00) == Float.infinity.bitPattern)
        #expect(TIFFRendering.float24ToFloatBits(0x3F_0000) == Float(1).bitPattern)             // exponent 63 = bias
        #expect(TIFFRendering.float24ToFloatBits(0x40_8000) == Float(3).bitPattern)             // 2 × 1.5
        #expect(TIFFRendering.float24ToFloatBits(0x00_0001) == Float(sign: .plus, exponent: -78, significand: 1).bitPattern)
        #expect(TIFFRendering.float24ToFloatBits(0x80_0000) == (-Float(0)).bitPattern)
    }

    /// 12-bit samples decode (packed, as stored), though no Bitmap shows them.
    @Test func twelveBitSamplesAreDecoded() throws {
        // Two 12-bit samples ABC, DEF packed: AB CD EF.
        let file = Self.deflateTIFF(.little, width: 2, height: 1, samples: 1, bits: 12, format: 1, predictor: 1,
                                    stored: [0xAB, 0xCD, 0xEF])
        let samples = try ImageSource(bytes: file).decodedSamples()
        #expect(samples.bytes == [0xAB, 0xCD, 0xEF])
        #expect(samples.bitsPerSample == 12 && samples.rowBytes == 3)
    }

    /// Float pixels to integers: ≤ 0 and NaN → 0, ≥ 1 → max, else round(v × 65535) at 16 bits.
    @Test func floatConversionClipsAndRounds() throws {
        let values: [Float] = [0, 0.5, 1, 2, -1, .nan]
        let bytes = values.flatMap { v -> [UInt8] in let b = v.bitPattern; return [UInt8(b >> 24), UInt8(b >> 16 & 0xFF), UInt8(b >> 8 & 0xFF), UInt8(b & 0xFF)] }
        let bitmap = try Bitmap(width: 6, height: 1, format: PixelFormat(colorModel: .gray, bitsPerComponent: 32, alphaInfo: .none, componentType: .float), bytes: bytes)
        let gray16 = try bitmap.converted(to: PixelFormat(colorModel: .gray, bitsPerComponent: 16, alphaInfo: .none))
        #expect(gray16.tightBytes == [0, 0, 0x80, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0])   // 0.5 × 65535 + 0.5 = 32768
        #expect(throws: BitmapError.self) { try gray16.converted(to: bitmap.format) }
    }

    /// SGI's DataType tag (32996) sets the sample format as libtiff reads it: 0 → void (4).
    @Test func dataTypeTagSetsTheSampleFormat() throws {
        var b = TIFFBuilder.gray8(.little, width: 2, height: 1, pixels: [1, 2])
        b.short(32996, 0)
        #expect(try ImageSource(bytes: b.build()).decodedSamples().sampleFormat == 4)
    }
}
