import Testing
import CReference
import PureImageConformance
@testable import PureImage

/// WebP compression (50001): hand-built pages whose strips are small VP8L images, each case
/// checked against libtiff's WebP codec (its RGBA interface and its decoded samples).
@Suite struct TIFFWebPTests {
    /// A WebP file holding one solid-colour VP8L image (five single-symbol codes: no pixel bits).
    static func solidWebP(width: Int, height: Int, rgba: [UInt8], alphaUsed: Bool) -> [UInt8] {
        var w = VP8LHandBuiltTests.plainImageStart(width: width, height: height, alphaUsed: alphaUsed)
        for symbol in [rgba[1], rgba[0], rgba[2], rgba[3], 0] { w.simpleCode([Int(symbol)]) }
        return VP8LHandBuiltTests.riff(w.bytes)
    }

    /// A little-endian page of 8-bit samples whose strips are `strips` (WebP files), one after another.
    static func page(width: Int, height: Int, rowsPerStrip: Int, samples: Int, bits: UInt16 = 8, planar: UInt16 = 1,
                     predictor: UInt16? = nil, strips: [[UInt8]]) -> [UInt8] {
        var b = TIFFBuilder(.little)
        b.appendStrips(strips)
        b.short(256, UInt16(width)); b.short(257, UInt16(height))
        b.entries.append((258, 3, UInt32(samples), (0..<samples).flatMap { _ in b.u16(bits) }))
        b.short(259, 50001); b.short(262, 2)
        b.short(277, UInt16(samples)); b.short(278, UInt16(rowsPerStrip))
        b.short(284, planar)
        if let predictor { b.short(317, predictor) }
        if samples == 4 { b.short(338, 2) }   // ExtraSamples: unassociated alpha
        b.entries.sort { $0.tag < $1.tag }
        return b.build()
    }

    static let red: [UInt8] = [200, 10, 20, 255], green: [UInt8] = [5, 180, 60, 255], blue: [UInt8] = [0, 30, 250, 255]

    /// Three strips of 2, 2 and 1 rows (the last holds only the rows left in the image), each
    /// a WebP of exactly that size; RGB samples are the WebP's colours, alpha dropped.
    @Test func rgbStripsHoldTheirWebPImages() throws {
        let strips = [Self.red, Self.green, Self.blue].enumerated().map { index, colour in
            Self.solidWebP(width: 5, height: index == 2 ? 1 : 2, rgba: colour, alphaUsed: false)
        }
        let samples = try TIFFReference.expectMatchesLibtiff(Self.page(width: 5, height: 5, rowsPerStrip: 2, samples: 3, strips: strips), "RGB strips")
        let expected = [Self.red, Self.green, Self.blue].enumerated().flatMap { index, colour in
            [UInt8]((0..<(index == 2 ? 5 : 10)).flatMap { _ in colour.prefix(3) })
        }
        #expect(samples == expected)
    }

    /// A WebP without alpha fills a 4-sample page (libtiff accepts it: encoders drop an opaque
    /// alpha); one with alpha keeps it.
    @Test func rgbaPagesTakeWebPsWithAndWithoutAlpha() throws {
        let translucent: [UInt8] = [90, 80, 70, 128]
        let strips = [Self.solidWebP(width: 3, height: 2, rgba: Self.red, alphaUsed: false),
                      Self.solidWebP(width: 3, height: 2, rgba: translucent, alphaUsed: true)]
        let samples = try TIFFReference.expectMatchesLibtiff(Self.page(width: 3, height: 4, rowsPerStrip: 2, samples: 4, strips: strips), "RGBA")
        #expect(samples == [UInt8]((0..<6).flatMap { _ in Self.red } + (0..<6).flatMap { _ in translucent }))
    }

    /// libtiff attaches no predictor to WebP: a Predictor tag changes nothing.
    @Test func predictorTagIsIgnored() throws {
        let strips = [Self.solidWebP(width: 4, height: 2, rgba: Self.green, alphaUsed: false)]
        let withPredictor = try TIFFReference.expectMatchesLibtiff(Self.page(width: 4, height: 2, rowsPerStrip: 2, samples: 3, predictor: 2, strips: strips), "predictor")
        #expect(withPredictor == [UInt8]((0..<8).flatMap { _ in Self.green.prefix(3) }))
    }

    /// libtiff 4.5 lets the page's sample count choose RGB or RGBA: a WebP with alpha in a
    /// 3-sample page decodes, its alpha dropped.
    @Test func alphaIsDroppedInAThreeSamplePage() throws {
        let strips = [Self.solidWebP(width: 2, height: 2, rgba: [90, 80, 70, 128], alphaUsed: true)]
        let samples = try TIFFReference.expectMatchesLibtiff(Self.page(width: 2, height: 2, rowsPerStrip: 2, samples: 3, strips: strips), "alpha in RGB")
        #expect(samples == [UInt8]((0..<4).flatMap { _ in [90, 80, 70] as [UInt8] }))
    }

    /// Each failure leaves its whole strip unwritten (zero), with a warning at the strip, and the
    /// other strips decode: a WebP taller than the strip, a truncated one, and bytes that are not
    /// WebP.
    @Test(arguments: ["size", "truncated", "garbage"])
    func badStripIsZeroAndWarned(_ damage: String) throws {
        let good = Self.solidWebP(width: 4, height: 2, rgba: Self.blue, alphaUsed: false)
        let bad: [UInt8]
        switch damage {
        case "size": bad = Self.solidWebP(width: 4, height: 3, rgba: Self.red, alphaUsed: false)
        case "truncated": bad = Array(Self.solidWebP(width: 4, height: 2, rgba: Self.red, alphaUsed: false).prefix(22))
        default: bad = [UInt8](repeating: 0x5A, count: 40)
        }
        let file = Self.page(width: 4, height: 4, rowsPerStrip: 2, samples: 3, strips: [good, bad])
        let samples = try TIFFReference.expectMatchesLibtiff(file, damage, failedStrip: true)
        #expect(samples == [UInt8]((0..<8).flatMap { _ in Self.blue.prefix(3) }) + [UInt8](repeating: 0, count: 24))
        let decoded = try ImageSource(bytes: file).decode(options: ImageDecodingOptions(output: .native))
        #expect(decoded.warnings.contains { $0.message.hasPrefix("WebP:") }, "\(decoded.warnings)")
    }

    /// libwebp writes any image that fits the chunk's buffer: a narrower one fills the left
    /// columns (the rest keep what the buffer held) and the chunk succeeds; a shorter one fills
    /// its rows and libtiff then fails the chunk. The first strip is solid green, so libtiff's
    /// RGBA interface, which reuses its strip buffer, shows green where the second writes nothing.
    @Test(arguments: ["narrower", "shorter"])
    func smallerImagesFillTheirPart(_ shape: String) throws {
        let first = Self.solidWebP(width: 4, height: 2, rgba: Self.green, alphaUsed: false)
        let second = shape == "narrower" ? Self.solidWebP(width: 3, height: 2, rgba: Self.red, alphaUsed: false)
                                         : Self.solidWebP(width: 4, height: 1, rgba: Self.red, alphaUsed: false)
        let file = Self.page(width: 4, height: 4, rowsPerStrip: 2, samples: 3, strips: [first, second])
        let samples = try TIFFReference.expectMatchesLibtiff(file, shape, failedStrip: shape == "shorter")
        let red = [UInt8](Self.red.prefix(3)), none = [UInt8](repeating: 0, count: 3)
        let secondStrip = shape == "narrower" ? [red, red, red, none, red, red, red, none].flatMap { $0 }
                                              : [red, red, red, red, none, none, none, none].flatMap { $0 }
        #expect(Array(samples.suffix(24)) == secondStrip)
    }

    /// libtiff's WebP codec takes 3 or 4 contiguous 8-bit samples only.
    @Test func otherLayoutsAreRefusedWithATypedError() throws {
        let strip = Self.solidWebP(width: 2, height: 2, rgba: Self.red, alphaUsed: false)
        for (samples, bits, planar) in [(1, UInt16(8), UInt16(1)), (3, 16, 1), (3, 8, 2)] {
            let file = Self.page(width: 2, height: 2, rowsPerStrip: 2, samples: samples, bits: bits, planar: planar,
                                 strips: [strip, strip, strip])
            #expect(throws: DecodeError.self) { try ImageSource(bytes: file).image(options: ImageDecodingOptions(output: .native)) }
            do {
                _ = try ImageSource(bytes: file).image(options: ImageDecodingOptions(output: .native))
            } catch {
                #expect(error.kind == .unsupported, "\(samples) × \(bits) bits, planar \(planar): \(error)")
            }
        }
    }
}
