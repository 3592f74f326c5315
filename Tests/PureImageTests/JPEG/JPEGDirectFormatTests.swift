import Testing
@testable import PureImage

/// A JPEG decoded to a 4-byte RGB format writes that format from the renderer
/// (`DecodeOptions.jpegDirectFormat`, `FourByteRGB`), and must give the bytes of the native
/// decode converted by `Bitmap.converted(to:)` — for every file of the corpus that decodes,
/// truncated and damaged ones included, in each of the four byte orders.
@Suite(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
struct JPEGDirectFormatTests {
    static let targets: [(String, PixelFormat)] = [
        ("canonical RGBA", .rgba8),
        ("display", .display(hasAlpha: false)),
        ("ARGB big-endian", PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .first, byteOrder: .order32Big)),
        ("RGBX little-endian", PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipLast, byteOrder: .order32Little)),
    ]

    @Test func everyTargetOrderIsOneTheRendererWrites() {
        let orders = Set(Self.targets.compactMap { FourByteRGB(target: $0.1)?.order })
        #expect(orders == [.rgbx, .bgrx, .xrgb, .xbgr])
        #expect(FourByteRGB(target: .rgb8) == nil)
        #expect(FourByteRGB(target: .rgba16) == nil)
    }

    /// The direct decode is not kept: the same source then decodes natively (and keeps that),
    /// and a display decode after it converts the kept frame — every answer the same pixels.
    @Test func directThenNativeThenDirectAgree() throws {
        let root = Corpus.root ?? "."
        let path = try #require(JPEGTestSupport.corpusFiles(root: root, prefixes: ["jpeg/", "libjpeg-turbo/", "imagetestsuite/", "photos/"]).first { $0.contains("testorig") },
                                "the corpus has libjpeg-turbo's testorig.jpg")
        let bytes = try #require(JPEGTestSupport.read(root + "/" + path))
        let source = try ImageSource(bytes: bytes, format: .jpeg)
        let display = ImageDecodingOptions(output: .display)
        let first = try source.decode(options: display)
        let native = try source.decode(options: .init(output: .native))
        let second = try source.decode(options: display)
        #expect(native.bitmap.format == .rgb8)
        #expect(first.bitmap.format == .display(hasAlpha: false))
        #expect(first.bitmap.bytes == second.bitmap.bytes)
        let converted = try native.bitmap.converted(to: first.bitmap.format, bytesPerRow: first.bitmap.bytesPerRow)
        #expect(converted.bytes == first.bitmap.bytes)
        #expect(first.properties.width == native.properties.width && first.warnings.count == native.warnings.count)
    }

    @Test func corpusMatchesTheConvertedNativeDecode() throws {
        let root = Corpus.root ?? "."
        let files = JPEGTestSupport.corpusFiles(root: root, prefixes: ["jpeg/", "libjpeg-turbo/", "imagetestsuite/", "photos/"])
        try #require(files.count > 400, "the corpus lists \(files.count) JPEGs")
        var compared = 0, direct = 0
        for path in files {
            guard let bytes = JPEGTestSupport.read(root + "/" + path),
                  let native = try? ImageSource(bytes: bytes, format: .jpeg).decode(options: .init(output: .native)) else { continue }
            for (name, target) in Self.targets {
                // A fresh source each time: the direct decode runs only before the shared one.
                let source = try ImageSource(bytes: bytes, format: .jpeg)
                let decoded = try source.decode(options: .init(output: .format(target)))
                // Tight rows, as every bitmap the library delivers (0 would let it pad them).
                let expected = try native.bitmap.converted(to: target, bytesPerRow: target.minimumBytesPerRow(width: native.bitmap.width) ?? 0)
                if decoded.bitmap.bytes != expected.bytes || decoded.bitmap.format != expected.format {
                    Issue.record("\(path), \(name): the direct decode differs from the converted native one")
                }
                #expect(decoded.truncation?.kind == native.truncation?.kind, "\(path), \(name)")
                #expect(decoded.warnings.count == native.warnings.count, "\(path), \(name)")
                compared += 1
                // Whether the renderer wrote the target itself (rather than native rows).
                var options = DecodeOptions()
                options.jpegDirectFormat = target
                let decoder = JPEGDecoder(options: options)
                var input = InputBuffer(bytes, isClosed: true)
                _ = try? decoder.advance(&input)
                if let frame = try? decoder.frame(at: 0), frame.format == target { direct += 1 }
            }
        }
        // Most of the corpus takes the direct path (8-bit gray or colour); the rest is converted.
        #expect(direct > compared / 2, "\(direct) of \(compared) decodes were written directly")
    }
}
