import Testing
@testable import PureImage

/// `ImageSource.decodeScaledDownRows` hands out exactly the rows of `decodedAndScaledDown`:
/// same bytes, same size, bands contiguous from row 0 — on every generated file at two limits
/// and three outputs, and on a file large enough to need many bands.
@Suite struct ScaledRowStreamingTests {
    enum Outcome: Equatable {
        case rows([UInt8], width: Int, height: Int)
        case failed(DecodeError.Kind)
    }

    static func whole(_ source: ImageSource, limit: Int, _ output: ImageDecodingOptions.Output) -> Outcome {
        do {
            let bitmap = try source.decodedAndScaledDown(limitBytes: limit, output: output)
            return .rows(bitmap.tightBytes, width: bitmap.width, height: bitmap.height)
        } catch {
            return .failed(error.kind)
        }
    }

    /// The streamed rows, with a recorded issue when the bands are not contiguous full-width rows.
    static func streamed(_ source: ImageSource, limit: Int, _ output: ImageDecodingOptions.Output, _ what: String) -> (Outcome, bands: Int) {
        var rows: [UInt8] = [], next = 0, bands = 0
        var size: (width: Int, height: Int)?
        do {
            _ = try source.decodeScaledDownRows(limitBytes: limit, output: output) { band in
                if let size { #expect(size == (band.rows.width, band.frameHeight), "\(what): size changed") }
                size = (band.rows.width, band.frameHeight)
                #expect(band.firstRow == next && band.rows.height > 0, "\(what): band at \(band.firstRow), expected \(next)")
                #expect(band.rows.bytesPerRow == band.rows.format.minimumBytesPerRow(width: band.rows.width), "\(what): rows not tight")
                next = band.firstRow + band.rows.height
                rows += band.rows.bytes
                bands += 1
            }
        } catch let error as DecodeError {
            return (.failed(error.kind), bands)
        } catch {
            Issue.record("\(what): \(error)")
            return (.failed(.malformed), bands)
        }
        guard let size else { return (.rows([], width: 0, height: 0), 0) }
        #expect(next == size.height, "\(what): \(next) of \(size.height) rows")
        return (.rows(rows, width: size.width, height: size.height), bands)
    }

    static func summary(_ outcome: Outcome) -> String {
        switch outcome {
        case .failed(let kind): "failed (\(kind))"
        case .rows(let rows, let width, let height): "\(width)x\(height), \(rows.count) bytes"
        }
    }

    @Test(.enabled(if: GeneratedCorpus.isAvailable, "Conformance/generated is absent"))
    func generatedFilesStreamTheScaledRows() throws {
        let paths = GIFTest.files(under: GeneratedCorpus.root).filter { !$0.hasSuffix(".tsv") && !$0.contains("jpeg-sampling") }
        var compared = 0, scaled = 0
        for path in paths {
            guard let bytes = try? ImageFiles.read(path), let source = try? ImageSource(bytes: bytes),
                  let header = try? source.properties() else { continue }
            // (Damaged headers claim sizes whose product overflows: clamped, they still fail alike.)
            let area = min(header.width, 1 << 20) * min(header.height, 1 << 20) * 4
            // A third of the pixels (a large-image limit), and a thumbnail-sized one.
            for limit in [max(4, area / 3), 1024] {
                for output: ImageDecodingOptions.Output in [.display, .canonicalRGBA, .format(.rgb8)] {
                    let expected = Self.whole(source, limit: limit, output)
                    let (outcome, _) = Self.streamed(source, limit: limit, output, "\(path) \(limit) \(output)")
                    if outcome != expected {
                        Issue.record("\(path) limit \(limit) \(output): streamed \(Self.summary(outcome)), whole \(Self.summary(expected))")
                    }
                    compared += 1
                    if (try? source.downscalePlan(limitBytes: limit).scalesDown) == true { scaled += 1 }
                }
            }
        }
        #expect(compared >= 5000 && scaled >= 2000, "\(compared) compared, \(scaled) scaled")
    }

    /// A destination of many 256 KiB bands, and the unscaled case (rows from `decodeRows`).
    @Test func manyBandsAndTheUnscaledCase() throws {
        let built = PNGDecoderTests.build(colorType: 6, depth: 8, width: 1500, height: 900, seed: 11)
        let source = try ImageSource(bytes: built.png)
        let limit = 1500 * 900 * 4 / 2
        let (outcome, bands) = Self.streamed(source, limit: limit, .display, "1500x900 at half")
        #expect(outcome == Self.whole(source, limit: limit, .display))
        #expect(bands >= 10, "\(bands) bands")
        let (unscaled, _) = Self.streamed(source, limit: 0, .display, "1500x900 unscaled")
        #expect(unscaled == Self.whole(source, limit: 0, .display))
    }

    /// An error thrown by the consumer comes back unchanged, and stops the delivery.
    @Test func theConsumersErrorIsRethrown() throws {
        struct Stop: Error {}
        let built = PNGDecoderTests.build(colorType: 2, depth: 8, width: 900, height: 700, seed: 3)
        let source = try ImageSource(bytes: built.png)
        var calls = 0
        #expect(throws: Stop.self) { try source.decodeScaledDownRows(limitBytes: 900 * 700) { _ in calls += 1; throw Stop() } }
        #expect(calls == 1)
    }
}
