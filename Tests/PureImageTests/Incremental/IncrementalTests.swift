import Testing
@testable import PureImage

/// The incremental source against one-shot decoding: for any chunking, the final status and
/// pixels equal the one-shot result, the status sequence only moves forward, and truncated
/// final data gives `unexpectedEOF` with the one-shot decode of the truncated bytes.
@Suite struct IncrementalTests {
    /// The one-shot outcome: every frame's canonical RGBA, or the error kind.
    enum Outcome: Equatable {
        case frames([[UInt8]], truncated: Bool)
        case failed(DecodeError.Kind)
    }

    static func oneShot(_ bytes: [UInt8]) -> Outcome {
        do {
            let source = try ImageSource(bytes: bytes)
            let first = try source.decode(at: 0)
            // The frames the decode delivers (the headers may describe more than damaged data gives).
            let count = first.properties.frameCount
            var frames = [first.bitmap.tightBytes]
            var truncated = first.truncation != nil
            for index in 1..<max(1, count) {
                if source.format == .tiff {
                    // One-shot TIFF pages are decoded one by one; the incremental source decodes
                    // them in order and, like a viewer, keeps the pages before a failing one.
                    guard let page = try? source.decode(at: index) else { break }
                    frames.append(page.bitmap.tightBytes)
                    truncated = truncated || page.truncation != nil
                } else {
                    frames.append(try source.image(at: index).tightBytes)
                }
            }
            return .frames(frames, truncated: truncated)
        } catch {
            return .failed(error.kind)
        }
    }

    /// Feeds `bytes` in the chunk sizes `sizes` (cycled) with ImageIO's "everything so far"
    /// convention; returns the outcome and checks the status sequence.
    static func incremental(_ bytes: [UInt8], chunkSizes sizes: [Int]) -> (Outcome, [IncrementalStatus]) {
        let source = IncrementalImageSource()
        var statuses: [IncrementalStatus] = [source.status]
        var sent = 0, turn = 0
        while sent < bytes.count {
            let start = sent
            sent = min(bytes.count, sent + max(1, sizes[turn % sizes.count]))
            turn += 1
            if sizes == [1] {
                // Byte by byte through the appending variant (everything-so-far would copy O(n²)).
                source.append(bytes[start..<sent], final: sent == bytes.count)
            } else {
                source.update(data: Array(bytes[0..<sent]), final: sent == bytes.count)
            }
            statuses.append(source.status)
            // A partial image can be asked for at any moment without disturbing the decode.
            if turn % 7 == 0 { _ = source.partialImage() }
        }
        if bytes.isEmpty { source.update(data: [], final: true); statuses.append(source.status) }
        switch source.status {
        case .complete, .unexpectedEOF:
            // No header at all: what a one-shot decode reports as its error.
            guard let count = source.properties?.frameCount, count > 0 || source.error == nil else {
                return (.failed(source.error?.kind ?? .truncated), statuses)
            }
            do {
                let frames = try (0..<count).map { try source.image(at: $0).tightBytes }
                return (.frames(frames, truncated: source.status == .unexpectedEOF), statuses)
            } catch {
                return (.failed((error as? DecodeError)?.kind ?? .malformed), statuses)
            }
        case .invalidData:
            return (.failed(source.error?.kind ?? .malformed), statuses)
        default:
            return (.failed(.truncated), statuses)
        }
    }

    static func isMonotone(_ statuses: [IncrementalStatus]) -> Bool {
        zip(statuses, statuses.dropFirst()).allSatisfy { $0 <= $1 }
    }

    /// Seeded chunk sizes between 1 and `maximum`.
    static func randomSizes(seed: UInt64, count: Int = 64, maximum: Int) -> [Int] {
        var state = seed | 1
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(maximum)) + 1
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
    func corpusFilesAnyChunking() {
        let formats: Set<String> = ["png", "apng", "gif", "jpeg", "tiff", "webp"]
        var files = 0, byteByByte = 0
        var failures: [String] = []
        for (index, entry) in Corpus.manifest().enumerated() where formats.contains(entry.format) {
            guard let bytes = Corpus.read(entry) else { failures.append("\(entry.path): unreadable"); continue }
            files += 1
            let expected = Self.oneShot(bytes)
            var chunkings: [[Int]] = [[bytes.count], Self.randomSizes(seed: UInt64(index) + 1, maximum: 4096), [4096]]
            if bytes.count <= 16_384 { chunkings.append([1]); byteByByte += 1 }
            for sizes in chunkings {
                let (outcome, statuses) = Self.incremental(bytes, chunkSizes: sizes)
                if outcome != expected {
                    failures.append("\(entry.path) chunks \(sizes.prefix(3)): differs from one-shot (\(expected.summary) vs \(outcome.summary))")
                }
                if !Self.isMonotone(statuses) { failures.append("\(entry.path): status went backwards: \(statuses)") }
            }
        }
        report("incremental == one-shot: \(files) PNG/APNG/GIF/JPEG/TIFF/WebP files (whole, 4 KiB, seeded random chunks; \(byteByByte) also byte by byte): \(failures.count) failures")
        for failure in failures.prefix(30) { report("INCREMENTAL FAIL " + failure) }
        #expect(failures.isEmpty)
        #expect(files >= 1600 && byteByByte >= 1300, "\(files) files, \(byteByByte) byte by byte")
    }

    @Test func handBuiltFilesAnyChunkingAndTruncation() throws {
        for (colorType, depth) in [(UInt8(6), UInt8(8)), (3, 2), (0, 16)] {
            let built = PNGDecoderTests.build(colorType: colorType, depth: depth, width: 23, height: 17, seed: UInt64(depth))
            for bytes in [built.png, built.interlacedPNG] {
                let expected = Self.oneShot(bytes)
                for sizes in [[1], [2, 3, 5], [bytes.count], Self.randomSizes(seed: 7, maximum: 40)] {
                    let (outcome, statuses) = Self.incremental(bytes, chunkSizes: sizes)
                    #expect(outcome == expected)
                    #expect(Self.isMonotone(statuses) && statuses.last == .complete)
                }
                // Truncated final data: unexpectedEOF (or invalid before any pixel) and the
                // partial image equal to the one-shot decode of the same truncated bytes.
                for cut in stride(from: 1, to: bytes.count, by: 9) {
                    let truncated = Array(bytes.prefix(cut))
                    let source = IncrementalImageSource()
                    source.update(data: Array(truncated.prefix(cut / 2)), final: false)
                    source.update(data: truncated, final: true)
                    #expect(source.status == .unexpectedEOF || source.status == .invalidData, "cut \(cut): \(source.status)")
                    if case .frames(let frames, _) = Self.oneShot(truncated) {
                        #expect(source.status == .unexpectedEOF)
                        #expect(source.partialImage()?.tightBytes == frames.last)
                    }
                }
            }
        }
    }

    /// `update(data:)` takes any collection of bytes — a slice whose indices start past 0 (as
    /// Foundation's `Data` slices do), an `UnsafeRawBufferPointer` — with the same result as
    /// arrays.
    @Test func updateTakesAnyCollectionOfBytes() throws {
        let built = PNGDecoderTests.build(colorType: 6, depth: 8, width: 31, height: 19, seed: 3)
        let bytes = built.png
        guard case .frames(let expected, _) = Self.oneShot(bytes) else { Issue.record("the PNG does not decode"); return }
        // The file inside a larger buffer: slices of it have indices starting at 5.
        let padded = [UInt8](repeating: 0xEE, count: 5) + bytes + [0xEE]
        let fromSlices = IncrementalImageSource()
        let fromPointers = IncrementalImageSource()
        for end in Array(stride(from: 37, through: bytes.count, by: 37)) + [bytes.count] {
            let prefix = padded[5..<(5 + end)]
            #expect(prefix.startIndex == 5)
            fromSlices.update(data: prefix, final: end == bytes.count)
            Array(prefix).withUnsafeBytes { fromPointers.update(data: $0, final: end == bytes.count) }
        }
        for source in [fromSlices, fromPointers] {
            #expect(source.status == .complete)
            #expect(try source.image(at: 0).tightBytes == expected[0])
        }
    }

    @Test func statusMovesThroughTheStates() throws {
        let built = PNGDecoderTests.build(colorType: 2, depth: 8, width: 40, height: 30, seed: 1)
        let bytes = built.png
        let source = IncrementalImageSource()
        #expect(source.status == .unknownType && source.properties == nil)
        source.update(data: Array(bytes.prefix(4)), final: false)
        #expect(source.status == .unknownType)
        source.update(data: Array(bytes.prefix(20)), final: false)
        #expect(source.status == .readingHeader && source.format == .png && source.properties == nil)
        source.update(data: Array(bytes.prefix(40)), final: false)
        #expect(source.status == .incomplete)
        #expect(source.properties?.width == 40 && source.properties?.height == 30)
        #expect(source.partialImage() == nil)   // no pixel data yet
        source.update(data: bytes, final: true)
        #expect(source.status == .complete)
        #expect(try source.image().tightBytes == (try ImageSource(bytes: bytes).image().tightBytes))
        // Errors are sticky; nothing changes after a final status.
        let broken = IncrementalImageSource()
        broken.update(data: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 0], final: false)
        broken.update(data: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [UInt8](repeating: 0, count: 17), final: false)
        #expect(broken.status == .invalidData)
        let error = broken.error?.description
        broken.update(data: bytes, final: true)
        #expect(broken.status == .invalidData && broken.error?.description == error)
        // Garbage is invalid as soon as the signature says so; too few bytes at the end is EOF.
        let garbage = IncrementalImageSource()
        garbage.update(data: Array("hello, world".utf8), final: false)
        #expect(garbage.status == .invalidData && garbage.error?.kind == .unknownFormat)
        let short = IncrementalImageSource()
        short.update(data: [0x89, 0x50], final: true)
        #expect(short.status == .unexpectedEOF)
    }

    /// Rows so far for a sequential image: decoded rows equal the final image's, the rest
    /// are transparent.
    @Test func partialImageShowsRowsSoFar() throws {
        let built = PNGDecoderTests.build(colorType: 6, depth: 8, width: 16, height: 12, seed: 5)
        let final = try ImageSource(bytes: built.png).image().tightBytes
        let source = IncrementalImageSource()
        var sawPartial = false
        for length in stride(from: 1, through: built.png.count, by: 16) {
            source.update(data: Array(built.png.prefix(length)), final: false)
            guard let partial = source.partialImage()?.tightBytes else { continue }
            sawPartial = true
            let rowBytes = 16 * 4
            for y in 0..<12 {
                let row = partial[y * rowBytes ..< (y + 1) * rowBytes]
                let alphaZero = stride(from: 3, to: rowBytes, by: 4).allSatisfy { row[row.startIndex + $0] == 0 }
                #expect(row == final[y * rowBytes ..< (y + 1) * rowBytes] || alphaZero, "row \(y) at \(length) bytes")
            }
        }
        #expect(sawPartial)
    }

    /// Adam7: after each complete pass, the partial image is the pass's pixels replicated over
    /// their blocks, computed here independently from the pass geometry of PNG §8.2.
    @Test func adam7PartialImageAfterEachPass() throws {
        let width = 13, height = 11
        let built = PNGDecoderTests.build(colorType: 0, depth: 8, width: width, height: height, seed: 9)
        let final = try ImageSource(bytes: built.interlacedPNG).image(options: ImageDecodingOptions(output: .native)).tightBytes
        // The expected rendering after passes 1...k: each pixel takes the value of the pixel at
        // the top-left of the block of the latest pass (≤ k) that covers it.
        let origins = PNGPass.adam7Origins
        func expected(afterPasses k: Int) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: width * height)
            for p in 0..<k {
                let (x0, y0, dx, dy) = origins[p]
                let bw = x0 > 0 ? x0 : dx, bh = y0 > 0 ? y0 : dy
                for y in stride(from: y0, to: height, by: dy) {
                    for x in stride(from: x0, to: width, by: dx) {
                        for by in y ..< min(height, y + bh) { for bx in x ..< min(width, x + bw) { out[by * width + bx] = final[y * width + x] } }
                    }
                }
            }
            return out
        }
        // Scanlines of each pass, to know where each pass ends in the inflated stream.
        let passes = PNGPass.passes(width: width, height: height, interlaced: true)
        let scanlineBytes = passes.map { $0.isEmpty ? 0 : $0.height * ($0.width + 1) }
        // Feed the raw zlib stream uncompressed-ish: rebuild the file with a stored (level 0) IDAT so
        // byte positions map to scanlines, one IDAT per pass.
        let raw = PNGBuilder.adam7Scanlines(width: width, height: height, bitsPerPixel: 8, rowBytes: width, image: final)
        var builder = PNGBuilder()
        builder.header(width: width, height: height, depth: 8, colorType: 0, interlaced: true)
        let headerLength = builder.bytes.count
        let compressed = ZlibDeflater.deflate(raw, level: 0)
        builder.chunk("IDAT", compressed)
        builder.end()
        let file = builder.bytes
        // Stored deflate: 2-byte zlib header, then blocks with a 5-byte header each (one block
        // here, raw.count < 65535), then the data: byte i of `raw` is at 7 + i in the stream.
        #expect(raw.count < 65_535)
        var consumed = 0
        for k in 1...7 {
            consumed += scanlineBytes[k - 1]
            let source = IncrementalImageSource()
            source.update(data: Array(file.prefix(headerLength + 8 + 7 + consumed)), final: false)
            let partial = try #require(source.partialImage(options: ImageDecodingOptions(output: .native)))
            #expect(partial.tightBytes == expected(afterPasses: k), "after pass \(k)")
        }
    }
}

extension IncrementalTests.Outcome {
    var summary: String {
        switch self {
        case .frames(let frames, let truncated): return "\(frames.count) frames\(truncated ? ", truncated" : "")"
        case .failed(let kind): return "failed: \(kind.rawValue)"
        }
    }
}
