import Testing
@testable import PureImage

/// A TIFF page decoded by `ImageSource.decode(at:)` to anything but its native format converts
/// each rendered band into a page in that format (`DecodeOptions.directOutput`,
/// `TIFFPageDecoder`), and must give the bytes of the native decode converted by
/// `Bitmap.converted(to:)` — for every page (up to four per file) of every TIFF of the corpus
/// that decodes, and for truncated copies.
@Suite(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
struct TIFFDirectPageTests {
    @Test func corpusMatchesTheConvertedNativeDecode() throws {
        let entries = Corpus.manifest().filter { $0.format == "tiff" }
        try #require(entries.count > 100, "the corpus lists \(entries.count) TIFFs")
        var compared = 0, direct = 0, truncated = 0
        for entry in entries {
            guard let whole = Corpus.read(entry) else { continue }
            for bytes in [whole, Array(whole.prefix(whole.count * 2 / 3))] {
                guard let pages = try? ImageSource(bytes: bytes, format: .tiff).properties().frameCount else { continue }
                for index in 0 ..< min(pages, 4) {
                    guard let native = try? ImageSource(bytes: bytes, format: .tiff).decode(at: index, options: .init(output: .native)) else { continue }
                    if native.truncation != nil { truncated += 1 }
                    for (name, output) in PNGDirectImageTests.outputs {
                        // A fresh source each time: the direct decode runs only before the page's shared one.
                        guard let decoded = try? ImageSource(bytes: bytes, format: .tiff).decode(at: index, options: .init(output: output)) else {
                            Issue.record("\(entry.path) page \(index), \(name): decodes natively but not to this output")
                            continue
                        }
                        let expected = try PNGDirectImageTests.expected(native, output)
                        if decoded.bitmap.bytes != expected.bytes || decoded.bitmap.format != expected.format {
                            Issue.record("\(entry.path) page \(index) (\(bytes.count) of \(whole.count) bytes), \(name): the direct decode differs from the converted native one")
                        }
                        #expect(decoded.truncation?.kind == native.truncation?.kind, "\(entry.path), \(name)")
                        #expect(decoded.warnings.count == native.warnings.count, "\(entry.path), \(name)")
                        compared += 1
                        var options = DecodeOptions()
                        options.directOutput = output
                        options.onlyPage = index
                        let decoder = TIFFDecoder(options: options)
                        var input = InputBuffer(bytes, isClosed: true)
                        if (try? decoder.advance(&input)) != nil, let page = try? decoder.frame(at: index), page.format != native.bitmap.format {
                            direct += 1
                        }
                    }
                }
            }
        }
        #expect(direct > compared / 3, "\(direct) of \(compared) decodes were written directly")
        #expect(truncated > 30, "\(truncated) truncated pages decoded")
    }
}
