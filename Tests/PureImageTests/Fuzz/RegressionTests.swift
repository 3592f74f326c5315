import Testing
@_spi(Reference) @testable import PureImage

/// Every reproducer the fuzzer found, and the small bombs of Conformance/make_bombs.py, kept in
/// Fuzz/Regressions/FORMAT and run through the public API the way an app runs a file: the
/// properties, every frame (at most four), a thumbnail and a scaled-down decode. The whole outcome — sizes, pixel
/// digest, truncation, warnings count, or the typed error with its byte offset — must equal the
/// line recorded in Fuzz/Regressions/outcomes.tsv, so a fix that later regresses into a
/// different error, a different image or an accepted-but-empty decode is caught, not only a
/// crash.
///
/// The limits are small like the fuzzer's (2^22 pixels here, 2^16 in `FuzzDriver`; 128 MiB), so
/// every file finishes in milliseconds; `scripts/bombs.sh` runs the same files through the CLI
/// with the default limits and checks the 10 s / 2 GB bounds.
///
/// A new reproducer: copy it into Fuzz/Regressions/FORMAT, run this suite, and add the line the
/// failure prints after checking that the outcome is the right one.
@Suite("Fuzz regressions")
struct RegressionTests {
    static let folder = packageRoot() + "/Tests/PureImageTests/Fuzz/Regressions"
    static let limits = DecodeLimits(maxPixels: 1 << 22, maxMemoryBytes: 128 << 20)

    static func recordedOutcomes() throws -> [String: String] {
        let text = String(decoding: try ImageFiles.read(folder + "/outcomes.tsv"), as: UTF8.self)
        var outcomes: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let columns = line.split(separator: "\t", maxSplits: 1).map(String.init)
            if columns.count == 2 { outcomes[columns[0]] = columns[1] }
        }
        return outcomes
    }

    static func reproducers() -> [String] {
        GIFTest.files(under: folder).filter { !$0.hasSuffix(".tsv") }
            .map { String($0.dropFirst(folder.count + 1)) }.sorted()
    }

    @Test(TestTime.limit(minutes: 2))
    func everyReproducerHasItsRecordedOutcome() throws {
        let outcomes = try Self.recordedOutcomes()
        let files = Self.reproducers()
        #expect(files.count >= 12, "the regression folder lost files: \(files)")
        for file in files {
            let bytes = try ImageFiles.read(Self.folder + "/" + file)
            let actual = Self.outcome(of: bytes)
            guard let expected = outcomes[file] else {
                Issue.record("no recorded outcome for \(file); after checking it, add:\n\(file)\t\(actual)")
                continue
            }
            #expect(actual == expected, "\(file)\n  expected \(expected)\n  actual   \(actual)")
        }
        for file in outcomes.keys where !files.contains(file) {
            Issue.record("outcomes.tsv names \(file), which is not in the folder")
        }
    }

    /// The fuzzer also checks incremental == one-shot (its third path); a reproducer of that
    /// property is checked here the same way: fed in the fuzzer's 509-byte pieces and in seeded
    /// random pieces, every frame and the truncation equal the one-shot decode. Files whose
    /// header claims more than 2^20 pixels (the bombs, which the test above covers) are left
    /// out: a full decode of each would take seconds.
    @Test(TestTime.limit(minutes: 2))
    func incrementalEqualsOneShotOnEveryReproducer() throws {
        var checked = 0
        for (index, file) in Self.reproducers().enumerated() {
            let bytes = try ImageFiles.read(Self.folder + "/" + file)
            if let header = try? ImageSource(bytes: bytes).headerProperties(),
               Double(header.width) * Double(header.height) > Double(1 << 20) { continue }
            let expected = IncrementalTests.oneShot(bytes)
            for sizes in [[509], IncrementalTests.randomSizes(seed: UInt64(index) + 1, maximum: 4096)] {
                let (outcome, _) = IncrementalTests.incremental(bytes, chunkSizes: sizes)
                #expect(outcome == expected, "\(file) in pieces of \(sizes.prefix(3))")
            }
            checked += 1
        }
        #expect(checked >= 5, "\(checked) reproducers checked")
    }

    /// The fuzzer's file path checks `decodeRows` against the one-shot frame 0 of a
    /// first-frame-only source (the `decodeRows` contract), with its own limits (2^16 pixels) and
    /// GIFs in the smallest streaming window; every reproducer is checked the same way, in three
    /// outputs.
    @Test(TestTime.limit(minutes: 2))
    func decodeRowsEqualsTheOneShotFrameOnEveryReproducer() throws {
        let options = Self.harnessFileOptions
        var compared = 0
        for file in Self.reproducers() {
            let bytes = try ImageFiles.read(Self.folder + "/" + file)
            for output in [ImageDecodingOptions.Output.canonicalRGBA, .native, .display] {
                let expected = RowStreamingTests.oneShot(bytes, output, options: options)
                let (outcome, _) = RowStreamingTests.streamed(bytes, output, options: options, "\(file) \(output)")
                let same = outcome == expected   // (not inside #expect, which would print every row)
                #expect(same, "\(file) \(output): streamed \(Self.difference(outcome, expected))")
                compared += 1
            }
        }
        #expect(compared >= 60, "\(compared) decodes compared")
    }

    /// The options of the fuzz harness's file path: its own limits (2^16 pixels) and GIFs in the
    /// smallest streaming window.
    static var harnessFileOptions: DecodeOptions {
        var options = DecodeOptions(limits: DecodeLimits(maxPixels: 1 << 16, maxMemoryBytes: 128 << 20))
        options.streamGIFInTheSmallestWindow()
        return options
    }

    /// The fuzzer's file path also decodes every input from a file in pieces of 64–255 bytes
    /// (`decodeRows(contentsOfFile:window:)`, which drops consumed input where the decoder
    /// allows) and traps on any difference from `decodeRows` on the bytes; every reproducer is
    /// checked the same way, with the harness's limits, window and output.
    @Test(TestTime.limit(minutes: 2))
    func decodeRowsFromAFileInPiecesEqualsTheCallOnItsBytesOnEveryReproducer() throws {
        let options = Self.harnessFileOptions
        var compared = 0
        for file in Self.reproducers() {
            let path = Self.folder + "/" + file
            let bytes = try ImageFiles.read(path)
            let window = 64 + bytes.count % 192
            let (expected, _) = FileRowStreamingTests.collect { body in
                try ImageSource(bytes: bytes, options: options).decodeRows(output: .canonicalRGBA, body)
            }
            let (outcome, _) = FileRowStreamingTests.collect { body in
                try ImageSource.decodeRows(contentsOfFile: path, options: options, output: .canonicalRGBA, window: window, body)
            }
            let sameRows = outcome.rows == expected.rows   // (not inside #expect, which would print every row)
            let firstDifference = zip(outcome.rows, expected.rows).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            let same = sameRows && outcome.truncated == expected.truncated && outcome.failure == expected.failure
            let message: Comment = "\(file) in pieces of \(window): \(outcome.rows.count) bytes (first difference at \(firstDifference.map(String.init) ?? "none")), truncated \(outcome.truncated), \(outcome.failure.map { "\($0)" } ?? "no error"); from the bytes \(expected.rows.count), \(expected.truncated), \(expected.failure.map { "\($0)" } ?? "no error")"
            #expect(same, message)
            compared += 1
        }
        #expect(compared >= 20, "\(compared) reproducers compared")
    }

    /// Where two row outcomes part (the rows themselves would flood the log).
    static func difference(_ a: RowStreamingTests.Outcome, _ b: RowStreamingTests.Outcome) -> String {
        guard case .rows(let rowsA, let truncatedA) = a, case .rows(let rowsB, let truncatedB) = b, rowsA.count == rowsB.count else {
            return "\(RowStreamingTests.summary(a)), one-shot \(RowStreamingTests.summary(b))"
        }
        guard let first = rowsA.indices.first(where: { rowsA[$0] != rowsB[$0] }) else {
            return "\(rowsA.count) bytes, truncated \(truncatedA), one-shot truncated \(truncatedB)"
        }
        let end = min(first + 8, rowsA.count)
        return "\(rowsA.count) bytes, first difference at byte \(first): \(Array(rowsA[first..<end])), one-shot \(Array(rowsB[first..<end]))"
    }

    /// The public API's whole answer for one file, as one line.
    static func outcome(of bytes: [UInt8]) -> String {
        let source: ImageSource
        do {
            source = try ImageSource(bytes: bytes, options: DecodeOptions(limits: limits))
        } catch {
            return "source " + describe(error)
        }
        var parts: [String] = []
        var frameCount = 1
        do {
            let properties = try source.properties()
            frameCount = properties.frameCount
            parts.append("properties \(properties.width)x\(properties.height) frames \(properties.frameCount)")
        } catch {
            parts.append("properties " + describe(error))
        }
        // Truncation and warnings as the last decoded frame reports them (none if none decoded).
        var decoded: DecodedFrame?
        for index in 0..<min(max(frameCount, 1), 4) {
            do {
                let frame = try source.decode(at: index)
                decoded = frame
                parts.append("frame\(index) \(frame.bitmap.width)x\(frame.bitmap.height) \(digest(frame.bitmap.tightlyPacked().bytes))")
            } catch {
                parts.append("frame\(index) " + describe(error))
                break
            }
        }
        parts.append("truncated \(decoded?.truncation.map { "at \($0.offset ?? -1)" } ?? "no") warnings \(decoded?.warnings.count ?? 0)")
        do {
            let thumbnail = try source.thumbnail(maxPixelSize: 64)
            parts.append("thumbnail \(thumbnail.width)x\(thumbnail.height) \(digest(thumbnail.tightlyPacked().bytes))")
        } catch {
            parts.append("thumbnail " + describe(error))
        }
        // The harness's scaled-down decode (its budget: 16 KiB, 4096 destination pixels).
        do {
            let scaled = try source.decodedAndScaledDown(limitBytes: 1 << 14)
            parts.append("downscale \(scaled.width)x\(scaled.height) \(digest(scaled.tightlyPacked().bytes))")
        } catch {
            parts.append("downscale " + describe(error))
        }
        return parts.joined(separator: "; ")
    }

    static func describe(_ error: DecodeError) -> String {
        "error \(error.kind.rawValue) at \(error.offset.map(String.init) ?? "-"): \(error.reason)"
    }

    /// FNV-1a, 32 bits: enough to tell two pixel buffers apart in a regression line.
    static func digest(_ bytes: [UInt8]) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        let hex = String(hash, radix: 16)
        return "fnv " + String(repeating: "0", count: 8 - hex.count) + hex
    }
}
