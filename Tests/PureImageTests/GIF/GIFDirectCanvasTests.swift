import Testing
@testable import PureImage

/// A still GIF decoded by `ImageSource.decode(at:)` to a 4-byte format other than straight
/// RGBA composes its canvas in that format (`DecodeOptions.directOutput`, `GIFCanvasFormat`),
/// and must give the bytes of the native decode converted by `Bitmap.converted(to:)` — for
/// every GIF of the corpus that decodes and truncated copies (animations keep the shared
/// decode: checked too, they must agree all the same).
@Suite(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
struct GIFDirectCanvasTests {
    @Test func corpusMatchesTheConvertedNativeDecode() throws {
        let entries = Corpus.manifest().filter { $0.format == "gif" }
        try #require(entries.count > 50, "the corpus lists \(entries.count) GIFs")
        var compared = 0, direct = 0, truncated = 0
        for entry in entries {
            guard let whole = Corpus.read(entry) else { continue }
            for bytes in [whole, Array(whole.prefix(whole.count * 2 / 3))] {
                guard let native = try? ImageSource(bytes: bytes, format: .gif).decode(options: .init(output: .native)) else { continue }
                if native.truncation != nil { truncated += 1 }
                for (name, output) in PNGDirectImageTests.outputs {
                    // A fresh source each time: the direct decode runs only before the shared one.
                    let decoded = try ImageSource(bytes: bytes, format: .gif).decode(options: .init(output: output))
                    let expected = try PNGDirectImageTests.expected(native, output)
                    if decoded.bitmap.bytes != expected.bytes || decoded.bitmap.format != expected.format {
                        Issue.record("\(entry.path) (\(bytes.count) of \(whole.count) bytes), \(name): the direct decode differs from the converted native one")
                    }
                    #expect(decoded.truncation?.kind == native.truncation?.kind, "\(entry.path), \(name)")
                    #expect(decoded.warnings.count == native.warnings.count, "\(entry.path), \(name)")
                    compared += 1
                    var options = DecodeOptions()
                    options.directOutput = output
                    let decoder = GIFDecoder(options: options)
                    var input = InputBuffer(bytes, isClosed: true)
                    if (try? decoder.advance(&input)) != nil, let frame = try? decoder.frame(at: 0), frame.format != .rgba8 { direct += 1 }
                }
            }
        }
        // Stills to the display format and premultiplied ARGB: the 4-byte targets other than
        // RGBA8 itself (about a quarter of the corpus's decodes: most of its GIFs are animated).
        #expect(direct > compared / 10, "\(direct) of \(compared) decodes were composed in the output format")
        #expect(truncated > 10, "\(truncated) truncated copies decoded")
    }
}
