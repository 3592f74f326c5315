import Testing
@testable import PureImage

/// `ImageSource.decode(at:into:bytesPerRow:format:)` writes exactly the rows of a
/// first-frame-only `image(at: 0)` into the caller's buffer, tight or padded, and leaves the
/// padding alone — on every generated file of every format, in seven pixel formats (16-bit and
/// a little-endian 32-bit order among them); later frames and pages equal `image(at:)`.
@Suite struct CallerMemoryTests {
    static let formats: [PixelFormat] = [.rgba8, .rgba8Premultiplied, .display(hasAlpha: true), .rgb8, .gray8, .rgba16,
                                         PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .first, byteOrder: .order32Little)]
    /// What the padding is filled with before the decode (and must still hold after it).
    static let fill: UInt8 = 0xA5

    enum Outcome: Equatable, CustomStringConvertible {
        case rows([UInt8], truncated: Bool)
        case failed(DecodeError.Kind)

        var description: String {
            switch self {
            case .rows(let rows, let truncated): "\(rows.count) bytes\(truncated ? ", truncated" : "")"
            case .failed(let kind): "failed (\(kind))"
            }
        }
    }

    /// The first-frame-only `image(at: 0)` and its size.
    static func oneShot(_ bytes: [UInt8], _ format: PixelFormat) -> (Outcome, size: (width: Int, height: Int)?) {
        do {
            var firstOnly = DecodeOptions()
            firstOnly.firstFrameOnly = true
            let decoded = try ImageSource(bytes: bytes, options: firstOnly).decode(at: 0, options: .init(output: .format(format)))
            return (.rows(decoded.bitmap.tightBytes, truncated: decoded.truncation != nil), (decoded.bitmap.width, decoded.bitmap.height))
        } catch {
            return (.failed(error.kind), nil)
        }
    }

    /// The buffer's rows without their padding, after checking the padding was not touched.
    /// The buffer is sized by `destination(format:bytesPerRow:)`, or — for a file whose headers
    /// do not read, which that call cannot size — from the one-shot frame's `size`.
    static func intoBuffer(_ bytes: [UInt8], _ format: PixelFormat, padding: Int, size: (width: Int, height: Int)?,
                           _ what: String) -> Outcome {
        do {
            let source = try ImageSource(bytes: bytes)
            let tight: ImageSource.Destination
            if let fromHeaders = try? source.destination(format: format) {
                tight = fromHeaders
            } else if let size, let rowBytes = format.minimumBytesPerRow(width: size.width) {
                tight = ImageSource.Destination(width: size.width, height: size.height, bytesPerRow: rowBytes, byteCount: rowBytes * size.height)
            } else {
                tight = try source.destination(format: format)
            }
            let stride = tight.bytesPerRow + padding
            let destination = ImageSource.Destination(width: tight.width, height: tight.height, bytesPerRow: stride, byteCount: stride * tight.height)
            if let fromHeaders = try? source.destination(format: format, bytesPerRow: stride) {
                #expect(fromHeaders == destination, "\(what)")
            }
            var buffer = [UInt8](repeating: fill, count: destination.byteCount)
            let frame = try buffer.withUnsafeMutableBytes { try source.decode(into: $0, bytesPerRow: destination.bytesPerRow, format: format) }
            var rows: [UInt8] = []
            for y in 0..<destination.height {
                let start = y * destination.bytesPerRow
                rows += buffer[start ..< start + tight.bytesPerRow]
                if !buffer[start + tight.bytesPerRow ..< start + destination.bytesPerRow].allSatisfy({ $0 == fill }) {
                    Issue.record("\(what): padding of row \(y) written")
                }
            }
            return .rows(rows, truncated: frame.truncation != nil)
        } catch let error as DecodeError {
            return .failed(error.kind)
        } catch {
            Issue.record("\(what): \(error)")
            return .failed(.malformed)
        }
    }

    @Test(.enabled(if: GeneratedCorpus.isAvailable, "Conformance/generated is absent"))
    func generatedFilesDecodeIntoCallerMemory() throws {
        let paths = GIFTest.files(under: GeneratedCorpus.root).filter { !$0.hasSuffix(".tsv") && !$0.contains("jpeg-sampling") }
        var compared = 0, written = 0
        for path in paths {
            guard let bytes = try? ImageFiles.read(path) else { continue }
            for (index, format) in Self.formats.enumerated() {
                // Tight rows for some files, padded (odd, so rows start unaligned) for the others.
                let padding = (compared + index) % 2 == 0 ? 0 : 13
                let (expected, size) = Self.oneShot(bytes, format)
                let outcome = Self.intoBuffer(bytes, format, padding: padding, size: size, "\(path) \(format) +\(padding)")
                // A header that does not read cannot size the buffer: the decode's own failure
                // is then not reached, and either error kind stands for "no frame".
                if case .failed = expected, case .failed = outcome { compared += 1; continue }
                if outcome != expected { Issue.record("\(path) \(format) padding \(padding): buffer \(outcome), image(at: 0) \(expected)") }
                compared += 1
                if case .rows = outcome { written += 1 }
            }
        }
        #expect(compared >= 8000 && written >= 7000, "\(compared) compared, \(written) written")
    }

    /// Frames after the first (GIF, APNG and WebP animations, TIFF pages): the buffer holds
    /// `image(at: index)`'s rows, tight and padded, with the size `destination(at:)` gives.
    @Test(.enabled(if: GeneratedCorpus.isAvailable, "Conformance/generated is absent"))
    func laterFramesDecodeIntoCallerMemory() throws {
        let paths = GIFTest.files(under: GeneratedCorpus.root).filter { !$0.hasSuffix(".tsv") }
        var compared = 0
        for path in paths {
            guard let bytes = try? ImageFiles.read(path), let source = try? ImageSource(bytes: bytes),
                  let count = try? source.properties().frameCount, count > 1 else { continue }
            for index in Set([1, count - 1]) {
                for (format, padding) in [(PixelFormat.rgba8, 0), (.display(hasAlpha: true), 13), (.rgba16, 6)] {
                    let what = "\(path) frame \(index) \(format) +\(padding)"
                    let expected: Bitmap
                    do {
                        expected = try source.image(at: index, options: .init(output: .format(format)))
                    } catch {
                        var buffer = [UInt8](repeating: 0, count: 16)
                        #expect(throws: (any Error).self, "\(what)") { try buffer.withUnsafeMutableBytes { _ = try source.decode(at: index, into: $0, format: format) } }
                        continue
                    }
                    let tight = expected.tightBytes.count / max(1, expected.height)
                    let destination = try source.destination(at: index, format: format, bytesPerRow: tight + padding)
                    #expect(destination.width == expected.width && destination.height == expected.height, "\(what): \(destination)")
                    var buffer = [UInt8](repeating: Self.fill, count: destination.byteCount)
                    _ = try buffer.withUnsafeMutableBytes { try source.decode(at: index, into: $0, bytesPerRow: destination.bytesPerRow, format: format) }
                    var rows: [UInt8] = []
                    for y in 0..<destination.height {
                        let start = y * destination.bytesPerRow
                        rows += buffer[start ..< start + tight]
                        #expect(buffer[start + tight ..< start + destination.bytesPerRow].allSatisfy { $0 == Self.fill }, "\(what): padding of row \(y)")
                    }
                    #expect(rows == expected.tightBytes, "\(what)")
                    compared += 1
                }
            }
        }
        #expect(compared >= 100, "\(compared) later frames compared")
    }

    @Test func aFramePastTheLastIsRefused() throws {
        let built = PNGDecoderTests.build(colorType: 6, depth: 8, width: 9, height: 5, seed: 2)
        let source = try ImageSource(bytes: built.png)
        var buffer = [UInt8](repeating: 0, count: 9 * 4 * 5)
        #expect(throws: DecodeError.self) { _ = try source.destination(at: 1, format: .rgba8) }
        #expect(throws: DecodeError.self) { try buffer.withUnsafeMutableBytes { _ = try source.decode(at: 1, into: $0, format: .rgba8) } }
        #expect(buffer.allSatisfy { $0 == 0 })
    }

    @Test func aBufferThatCannotTakeTheFrameIsRefusedBeforeDecoding() throws {
        let built = PNGDecoderTests.build(colorType: 6, depth: 8, width: 9, height: 5, seed: 2)
        let source = try ImageSource(bytes: built.png)
        var small = [UInt8](repeating: 0, count: 9 * 4 * 5 - 1)
        #expect(throws: ImageSource.DestinationError.bufferTooSmall(given: 179, needed: 180)) {
            try small.withUnsafeMutableBytes { _ = try source.decode(into: $0, format: .rgba8) }
        }
        #expect(throws: ImageSource.DestinationError.bytesPerRowTooSmall(given: 35, minimum: 36)) {
            try small.withUnsafeMutableBytes { _ = try source.decode(into: $0, bytesPerRow: 35, format: .rgba8) }
        }
        #expect(small.allSatisfy { $0 == 0 })
    }
}
