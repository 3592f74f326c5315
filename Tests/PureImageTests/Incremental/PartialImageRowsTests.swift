import Testing
@testable import PureImage

/// `IncrementalImageSource.partialImageRows(output:_:)` hands out `partialImage`'s bytes band by
/// band: after every update of a chunked feed, in two outputs, the bands put together equal the
/// partial image (not-decoded area included), and it returns false exactly where
/// `partialImage` is nil.
@Suite(.enabled(if: GeneratedCorpus.isAvailable, "Conformance/generated is absent"))
struct PartialImageRowsTests {
    static let files = ["jpeg/progressive_501x333.jpg", "jpeg/progressive_255x129.jpg", "png/chunks_ancillary_all_rgb_adam7.png",
                        "png/chunks_ancillary_all_palette_adam7.png", "gif/delay0.gif", "webp/anim/gif2webp_delay0_mixed.webp"]

    @Test(arguments: files)
    func bandsAreThePartialImage(_ name: String) throws {
        let bytes = try GeneratedCorpus.read(name)
        var compared = 0, nothingYet = 0
        for output in [ImageDecodingOptions.Output.format(.rgba8), .display] {
            let source = IncrementalImageSource()
            let chunk = max(1, bytes.count / 9)
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + chunk)
                source.append(bytes[start..<end], final: end == bytes.count)
                start = end
                let whole = source.partialImage(options: .init(output: output))
                var joined: [UInt8] = [], nextRow = 0, height = -1
                let shown = try source.partialImageRows(output: output) { band in
                    #expect(band.firstRow == nextRow, "\(name): bands in order")
                    nextRow += band.rows.height
                    height = band.frameHeight
                    joined += band.rows.tightBytes
                }
                #expect(shown == (whole != nil), "\(name) at \(end) bytes: \(shown) vs \(whole as Any)")
                if let whole {
                    #expect(joined == whole.tightBytes && height == whole.height && nextRow == whole.height, "\(name) at \(end) bytes")
                    compared += 1
                } else {
                    nothingYet += 1
                }
            }
        }
        #expect(compared >= 8, "\(name): \(compared) partial images compared, \(nothingYet) updates with none")
    }
}
