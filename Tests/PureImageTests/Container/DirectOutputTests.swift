import Testing
@testable import PureImage

/// `ImageSource.decode(at:)` to anything but the native format runs a decode that writes the
/// requested format itself (`DecodeOptions.directOutput`): a still PNG converts each scanline as
/// it is unfiltered (`DirectImage`), a JPEG each rendered row its renderer does not write as
/// 4-byte RGB itself (`DirectImage`), a TIFF page each rendered band (`TIFFPageDecoder`), a
/// still GIF composes its canvas in the format (`GIFCanvasFormat`), a still WebP converts each
/// batch of rows in place as it is written (`WebPRaster.convertRows(to:)`; the lossy codec
/// writes the display format itself). Each must give the bytes of the native decode
/// converted by `Bitmap.converted(to:)` — for every file of the corpus that decodes (up to four
/// pages of a TIFF), for a copy cut two thirds of the way in (rows the file never delivered),
/// in formats that take each of `PixelConverter`'s routes.
@Suite(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
struct DirectOutputTests {
    static let outputs: [(String, ImageDecodingOptions.Output)] = [
        ("canonical RGBA", .canonicalRGBA),
        ("display", .display),
        ("RGBA8", .format(.rgba8)),
        ("premultiplied ARGB big-endian", .format(PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .premultipliedFirst, byteOrder: .order32Big))),
        ("RGB8", .format(.rgb8)),
        ("gray + alpha 16-bit little-endian", .format(PixelFormat(colorModel: .gray, bitsPerComponent: 16, alphaInfo: .last, byteOrder: .order16Little))),
    ]

    /// The native decode, converted the way `deliver` converts a kept frame.
    static func expected(_ native: DecodedFrame, _ output: ImageDecodingOptions.Output) throws -> Bitmap {
        guard let target = output.target(native: native.bitmap.format, hasAlpha: native.properties.hasAlpha) else { return native.bitmap }
        return try native.bitmap.converted(to: target, bytesPerRow: target.minimumBytesPerRow(width: native.bitmap.width) ?? 0)
    }

    /// Frame `index` of `bytes` from a decoder given `directOutput` alone (no `ImageSource`), in
    /// the format it delivers: not the native one when it wrote the output itself.
    static func directFrame(_ format: ImageFormat, _ bytes: [UInt8], index: Int, _ output: ImageDecodingOptions.Output) -> Bitmap? {
        var options = DecodeOptions()
        options.directOutput = output
        if format == .tiff { options.onlyPage = index }
        guard let decoder = try? DecodeSession.makeDecoder(for: format, options: options) else { return nil }
        var input = InputBuffer(bytes, isClosed: true)
        guard (try? decoder.advance(&input)) != nil else { return nil }
        return try? decoder.frame(at: index)
    }

    /// Compares every decodable file of the corpus format; returns how many decodes were
    /// compared, how many were written directly, and how many were of truncated input.
    static func compareCorpus(_ manifestFormat: String, as format: ImageFormat, pagesPerFile: Int = 1,
                              outputs: [(String, ImageDecodingOptions.Output)] = outputs) throws -> (compared: Int, direct: Int, truncated: Int) {
        let entries = Corpus.manifest().filter { $0.format == manifestFormat }
        try #require(entries.count > 50, "the corpus lists \(entries.count) files of format \(manifestFormat)")
        var compared = 0, direct = 0, truncated = 0
        for entry in entries {
            guard let whole = Corpus.read(entry) else { continue }
            for bytes in [whole, Array(whole.prefix(whole.count * 2 / 3))] {
                guard let frames = try? ImageSource(bytes: bytes, format: format).properties().frameCount else { continue }
                for index in 0 ..< min(max(1, frames), pagesPerFile) {
                    guard let native = try? ImageSource(bytes: bytes, format: format).decode(at: index, options: .init(output: .native)) else { continue }
                    if native.truncation != nil { truncated += 1 }
                    for (name, output) in outputs {
                        // A fresh source each time: the direct decode runs only before the shared one.
                        guard let decoded = try? ImageSource(bytes: bytes, format: format).decode(at: index, options: .init(output: output)) else {
                            Issue.record("\(entry.path) frame \(index), \(name): decodes natively but not to this output")
                            continue
                        }
                        let expected = try expected(native, output)
                        if decoded.bitmap.bytes != expected.bytes || decoded.bitmap.format != expected.format {
                            Issue.record("\(entry.path) frame \(index) (\(bytes.count) of \(whole.count) bytes), \(name): the direct decode differs from the converted native one")
                        }
                        #expect(decoded.truncation?.kind == native.truncation?.kind, "\(entry.path), \(name)")
                        #expect(decoded.warnings.count == native.warnings.count, "\(entry.path), \(name)")
                        compared += 1
                        if let frame = directFrame(format, bytes, index: index, output), frame.format != native.bitmap.format { direct += 1 }
                    }
                }
            }
        }
        return (compared, direct, truncated)
    }

    @Test func png() throws {
        let counts = try Self.compareCorpus("png", as: .png)
        // Interlaced and colour-keyed files are stored and converted; the rest is written directly.
        #expect(counts.direct > counts.compared / 3, "\(counts.direct) of \(counts.compared) decodes were written directly")
        #expect(counts.truncated > 50, "\(counts.truncated) truncated copies decoded")
    }

    /// `directFrame` gives the decoder `directOutput` alone (not `jpegDirectFormat`), so every
    /// JPEG here goes through `DirectImage`; `ImageSource` gives both, so the 8-bit colour and
    /// gray files it decodes to a 4-byte RGB format are written by the renderer itself — which
    /// JPEGDirectFormatTests covers in four byte orders, so only three outputs here: the display
    /// format (4-byte, through `DirectImage` for 12/16-bit and CMYK files and in `directFrame`),
    /// RGB8 and 16-bit gray + alpha (through `DirectImage` for every file).
    @Test func jpeg() throws {
        let outputs = Self.outputs.filter { ["display", "RGB8", "gray + alpha 16-bit little-endian"].contains($0.0) }
        try #require(outputs.count == 3)
        let counts = try Self.compareCorpus("jpeg", as: .jpeg, outputs: outputs)
        #expect(counts.direct > counts.compared / 2, "\(counts.direct) of \(counts.compared) decodes were written directly")
        #expect(counts.truncated > 50, "\(counts.truncated) truncated copies decoded")
    }

    /// 12-bit and 16-bit JPEGs to the display format: converted row by row through the 65 536-entry
    /// table (`WideOpaqueConversion`) when the image has enough pixels for it, else kept native
    /// and converted whole (a small image's samples scaled to the full range first) — the same
    /// bytes either way.
    @Test(arguments: [("jpeg/jpeg-decoder/reftest/lossless/2/MR4.jpg", true),
                      ("jpeg/jpeg-decoder/reftest/lossless/1/jpeg_lossless_sel2.jpg", true),
                      ("jpeg/jpegsuite/extended_arithmetic/32x32x12_ycbcr_interleaved.jpg", false)])
    func wideJPEGSamples(path: String, writtenDirectly: Bool) throws {
        let bytes = try Corpus.read(path)
        let native = try ImageSource(bytes: bytes, format: .jpeg).decode(options: .init(output: .native))
        #expect(native.bitmap.format.bitsPerComponent == 16)
        let display = try ImageSource(bytes: bytes, format: .jpeg).decode(options: .init(output: .display))
        #expect(display.bitmap.bytes == (try Self.expected(native, .display)).bytes)
        #expect(display.bitmap.format == .display(hasAlpha: false))
        let direct = Self.directFrame(.jpeg, bytes, index: 0, .display)
        #expect((direct?.format == .display(hasAlpha: false)) == writtenDirectly)
    }

    @Test func tiff() throws {
        let counts = try Self.compareCorpus("tiff", as: .tiff, pagesPerFile: 4)
        #expect(counts.direct > counts.compared / 3, "\(counts.direct) of \(counts.compared) decodes were written directly")
        #expect(counts.truncated > 30, "\(counts.truncated) truncated pages decoded")
    }

    @Test func gif() throws {
        let counts = try Self.compareCorpus("gif", as: .gif)
        // Stills to the display format and premultiplied ARGB, the 4-byte targets other than
        // RGBA8 itself: about a tenth of the decodes (most of the corpus's GIFs are animated).
        #expect(counts.direct > counts.compared / 10, "\(counts.direct) of \(counts.compared) decodes were composed in the output format")
        #expect(counts.truncated > 10, "\(counts.truncated) truncated copies decoded")
    }

    @Test func webp() throws {
        let counts = try Self.compareCorpus("webp", as: .webp)
        #expect(counts.direct > counts.compared / 10, "\(counts.direct) of \(counts.compared) decodes were converted in place")
        #expect(counts.truncated > 10, "\(counts.truncated) truncated copies decoded")
    }

    /// The direct decode is not kept: the same source then decodes natively (and keeps that),
    /// and a display decode after it converts the kept frame — every answer the same pixels.
    @Test func directThenNativeThenDirectAgree() throws {
        let entry = try #require(Corpus.manifest().first { $0.path.hasSuffix("basn2c08.png") }, "PngSuite's basn2c08.png")
        let bytes = try #require(Corpus.read(entry))
        #expect(Self.directFrame(.png, bytes, index: 0, .display)?.format == .display(hasAlpha: false))
        let source = try ImageSource(bytes: bytes, format: .png)
        let first = try source.decode(options: .init(output: .display))
        let native = try source.decode(options: .init(output: .native))
        let second = try source.decode(options: .init(output: .display))
        #expect(native.bitmap.format == .rgb8)
        #expect(first.bitmap.format == .display(hasAlpha: false))
        #expect(first.bitmap.bytes == second.bitmap.bytes)
        #expect(try Self.expected(native, .display).bytes == first.bitmap.bytes)
    }

    /// An APNG's frame 0 is composed from the animation, so it is never written directly.
    @Test func animatedPNGIsNotWrittenDirectly() throws {
        let entry = try #require(Corpus.manifest().first { $0.format == "apng" }, "an APNG in the corpus")
        let bytes = try #require(Corpus.read(entry))
        var options = DecodeOptions()
        options.directOutput = .canonicalRGBA
        let decoder = PNGDecoder(options: options)
        var input = InputBuffer(bytes, isClosed: true)
        _ = try decoder.advance(&input)
        #expect(decoder.directImage == nil)
    }
}
