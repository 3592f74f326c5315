import Testing
@testable import PureImage

/// A PNG decoded by `ImageSource.decode(at:)` to anything but its native format writes that
/// format as its rows are unfiltered (`DecodeOptions.directOutput`, `PNGDirectImage`), and must
/// give the bytes of the native decode converted by `Bitmap.converted(to:)` — for every PNG of
/// the corpus that decodes, for truncated copies of them (the rows a file never delivered), and
/// in formats that take each of `PixelConverter`'s routes.
@Suite(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
struct PNGDirectImageTests {
    static let outputs: [(String, ImageDecodingOptions.Output)] = [
        ("canonical RGBA", .canonicalRGBA),
        ("display", .display),
        ("RGBA8", .format(.rgba8)),
        ("premultiplied ARGB big-endian", .format(PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .premultipliedFirst, byteOrder: .order32Big))),
        ("RGB8", .format(.rgb8)),
        ("gray + alpha 16-bit little-endian", .format(PixelFormat(colorModel: .gray, bitsPerComponent: 16, alphaInfo: .last, byteOrder: .order16Little))),
    ]

    /// The native decode, converted the way `deliver` converts a stored image.
    static func expected(_ native: DecodedFrame, _ output: ImageDecodingOptions.Output) throws -> Bitmap {
        guard let target = output.target(native: native.bitmap.format, hasAlpha: native.properties.hasAlpha) else { return native.bitmap }
        return try native.bitmap.converted(to: target, bytesPerRow: target.minimumBytesPerRow(width: native.bitmap.width) ?? 0)
    }

    /// Whether a decode with `output` wrote the image itself (rather than storing native rows).
    static func wroteDirectly(_ bytes: [UInt8], _ output: ImageDecodingOptions.Output) -> Bool {
        var options = DecodeOptions()
        options.directOutput = output
        let decoder = PNGDecoder(options: options)
        var input = InputBuffer(bytes, isClosed: true)
        _ = try? decoder.advance(&input)
        return decoder.directImage != nil
    }

    @Test func corpusMatchesTheConvertedNativeDecode() throws {
        let entries = Corpus.manifest().filter { $0.format == "png" }
        try #require(entries.count > 150, "the corpus lists \(entries.count) PNGs")
        var compared = 0, direct = 0, truncated = 0
        for entry in entries {
            guard let whole = Corpus.read(entry) else { continue }
            // The file, and a copy cut two thirds of the way in (most of PngSuite is tiny, so
            // the cut lands in the image data: rows the file never delivered).
            for bytes in [whole, Array(whole.prefix(whole.count * 2 / 3))] {
                guard let native = try? ImageSource(bytes: bytes, format: .png).decode(options: .init(output: .native)) else { continue }
                if native.truncation != nil { truncated += 1 }
                for (name, output) in Self.outputs {
                    // A fresh source each time: the direct decode runs only before the shared one.
                    let decoded = try ImageSource(bytes: bytes, format: .png).decode(options: .init(output: output))
                    let expected = try Self.expected(native, output)
                    if decoded.bitmap.bytes != expected.bytes || decoded.bitmap.format != expected.format {
                        Issue.record("\(entry.path) (\(bytes.count) of \(whole.count) bytes), \(name): the direct decode differs from the converted native one")
                    }
                    #expect(decoded.truncation?.kind == native.truncation?.kind, "\(entry.path), \(name)")
                    #expect(decoded.warnings.count == native.warnings.count, "\(entry.path), \(name)")
                    compared += 1
                    if Self.wroteDirectly(bytes, output) { direct += 1 }
                }
            }
        }
        // Interlaced and colour-keyed files are stored and converted; the rest is written directly.
        #expect(direct > compared / 3, "\(direct) of \(compared) decodes were written directly")
        #expect(truncated > 50, "\(truncated) truncated copies decoded")
    }

    /// The direct decode is not kept: the same source then decodes natively (and keeps that),
    /// and a display decode after it converts the kept frame — every answer the same pixels.
    @Test func directThenNativeThenDirectAgree() throws {
        let entry = try #require(Corpus.manifest().first { $0.path.hasSuffix("basn2c08.png") }, "PngSuite's basn2c08.png")
        let bytes = try #require(Corpus.read(entry))
        #expect(Self.wroteDirectly(bytes, .display))
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
    @Test func animationsAreNotWrittenDirectly() throws {
        let entry = try #require(Corpus.manifest().first { $0.format == "apng" }, "an APNG in the corpus")
        let bytes = try #require(Corpus.read(entry))
        #expect(!Self.wroteDirectly(bytes, .canonicalRGBA))
    }
}
