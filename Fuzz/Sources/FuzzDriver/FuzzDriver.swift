@_spi(Reference) import PureImage

/// One fuzz input, driven through the public API the way an app uses it, along one of three
/// paths (chosen by the input's length):
///
/// 1. `ImageSource` → properties → warnings → up to `maxFrames` frames in straight RGBA, and
///    frame 0 in SDWebImage's display BGRA, upright per the orientation; then `Inspector.inspect`
///    (`pureimage inspect`: the decoder run again with its structure log and every
///    description it builds);
/// 2. a thumbnail (from the image and from an EXIF thumbnail) and a scaled-down decode (the
///    streaming downscaler); then frame 0's rows from the input written to a file and read in
///    small pieces (`decodeRows(contentsOfFile:)`: PNG, JPEG and GIF read in order with their
///    consumed input dropped, TIFF at offsets), compared with `decodeRows` on the bytes, and
///    that with the one-shot frame 0 of a first-frame-only source; and the scaled-down rows
///    from the file (`decodeScaledDownRows(contentsOfFile:)`) compared with those of the bytes;
/// 3. frame 0 one-shot, then `IncrementalImageSource` fed in fixed or pseudo-random pieces
///    (chosen by the input, the random split points seeded by it) with partial images between
///    updates.
///
/// Errors are expected (the input is hostile); crashes, traps, leaks, hangs and memory blow-ups
/// are what the fuzzer looks for. Three properties are checked too, because they are contracts:
/// when the final data is in, the incremental source gives exactly the one-shot pixels (or fails
/// the same way), whatever the chunking; a file read in pieces gives the rows (or the kind of
/// error) of its bytes in memory, which are the one-shot frame's; and a JPEG decoded in
/// coefficient bands gives the whole-image decode's rows. A difference traps, so libFuzzer keeps
/// the input.
public enum FuzzDriver {
    /// Frames decoded per input: enough for disposal and composition paths, bounded so an
    /// animation of many tiny frames does not dominate the run.
    static let maxFrames = 4

    /// Limits while fuzzing: 2^16 pixels (e.g. 256 × 256) and 128 MiB per decode. Inputs of a
    /// few hundred bytes that claim megapixels are legal (a truncated file decodes what is
    /// there, in time proportional to the pixels it claims), and they crowd out everything else:
    /// with 2^20 pixels, the 7 % of the JPEG corpus declaring more than 2^18 took 88 % of its
    /// replay time (37.1 s for 5 082 inputs; 6.7 s with 2^16, and 327 executions a second over
    /// a 10-minute ASan run where 2^20 gave 72–280). Only 26 of the 433 JPEG seeds (12 of 281 TIFF) declare more
    /// than 2^16 pixels; larger declarations still run every header path, the limit checks and
    /// the downscaler (whose source may exceed the limit). `fuzz-replay` times inputs with these
    /// limits (the "1 s" bound) or with the defaults (`--default-limits`), and
    /// `Docs/Robustness.md`'s bombs are measured with the defaults.
    nonisolated(unsafe) public static var limits = DecodeLimits(maxPixels: 1 << 16, maxMemoryBytes: 128 << 20)

    static var options: DecodeOptions { DecodeOptions(limits: limits) }

    public static func run(_ data: UnsafePointer<UInt8>?, _ size: Int, format: ImageFormat?) {
        let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
        // Each input takes one of three paths, chosen by its length: every path gets inputs from
        // the whole corpus, and each execution costs a third of running all three.
        switch Path(rawValue: bytes.count % 3) ?? .frames {
        case .frames:
            _ = decodeOneShot(bytes, format: format, allFrames: true)
            _ = Inspector.inspect(bytes, limits: limits)
        case .scaled:
            // A JPEG's one-shot frame 0 is decoded once, for both checks.
            let jpegFrame = decodeScaled(bytes, format: format)
            decodeFromFile(bytes, oneShotJPEG: jpegFrame)
        case .incremental:
            let oneShot = decodeOneShot(bytes, format: format, allFrames: false)
            let chunking: Chunking = bytes.count % 2 == 0 ? .fixed : .random
            let incremental = decodeIncrementally(bytes, chunking: chunking)
            // The incremental source sniffs the format: compare only when that gives `format` too.
            if format == nil || (try? ImageSource(bytes: bytes, options: options))?.format == format {
                check(oneShot, equals: incremental, chunking: chunking, size: bytes.count)
            }
        }
    }

    enum Path: Int {
        case frames, scaled, incremental
    }

    static func makeSource(_ bytes: [UInt8], format: ImageFormat?, options: DecodeOptions = Self.options) throws(DecodeError) -> ImageSource {
        if let format { return try ImageSource(bytes: bytes, format: format, options: options) }
        return try ImageSource(bytes: bytes, options: options)
    }

    /// What one decode path produced, reduced to what must agree between paths.
    enum Outcome: Equatable {
        case failed(DecodeError.Kind)
        case pixels(Bitmap)
    }

    /// The header walk (properties of every frame), then frame 0 in straight RGBA (the outcome
    /// compared with the incremental path) with its warnings and truncation; with `allFrames`,
    /// up to `maxFrames` frames (as many as the decode delivers) and frame 0 again in the
    /// display format, upright.
    static func decodeOneShot(_ bytes: [UInt8], format: ImageFormat?, allFrames: Bool) -> Outcome {
        do throws(DecodeError) {
            let source = try makeSource(bytes, format: format)
            // The walk runs on every input; only the decode decides the outcome (the headers can
            // be whole where the image data is not).
            if let description = try? source.describe() {
                for index in 0 ..< min(maxFrames, description.properties.frameCount) { _ = try? source.properties(at: index) }
            }
            let first = try source.decode(at: 0, options: .init(output: .canonicalRGBA))
            _ = first.warnings
            _ = first.truncation
            if allFrames {
                _ = try source.image(at: 0, options: .init(output: .display, applyOrientation: true))
                for index in 1 ..< max(1, min(maxFrames, first.properties.frameCount)) {
                    _ = try source.image(at: index, options: .init(output: .canonicalRGBA))
                }
            }
            return .pixels(first.bitmap)
        } catch {
            return .failed(error.kind)
        }
    }

    /// The streaming paths: a thumbnail, and the scaled-down decode at a small limit. A
    /// progressive JPEG goes through the banded decode (bands of 1–3 MCU rows, chosen by the
    /// input's length — its length divided by 3: this path takes the lengths ≡ 1 mod 3) that the
    /// downscaler keeps for files of more than 32 MB of coefficients, and its frame 0 decoded in
    /// those bands must be the whole-image decode's (a band resumes each scan from the state a
    /// first pass over non-zero masks left, so a mask that differs from its block's
    /// coefficients shows as different rows). The banded decode also holds what the whole one
    /// does not — each scan's bytes and its entropy state at every band — so it may fail a
    /// memory limit the whole decode passes (a tall image of many scans): not a difference.
    /// Returns a JPEG's whole-image frame 0 (`decodeFromFile` compares with it too).
    static func decodeScaled(_ bytes: [UInt8], format: ImageFormat?) -> Rows? {
        let bandRows = 1 + (bytes.count / 3) % 3
        var options = Self.options
        options.decodeJPEGCoefficientsInBands(ofRows: bandRows)
        guard let source = try? makeSource(bytes, format: format, options: options) else { return nil }
        _ = try? source.thumbnail(maxPixelSize: 48, applyOrientation: true)
        _ = try? source.thumbnail(maxPixelSize: 48, from: .embeddedIfPresent)   // the EXIF IFD1 JPEG, when there is one
        _ = try? source.decodedAndScaledDown(limitBytes: 1 << 14)
        if source.format == .jpeg {
            let inBands = Rows(oneShotOf: bytes, options: options), whole = Rows(oneShotOf: bytes, options: Self.options)
            if inBands != whole && inBands != .failed(.limitExceeded) {
                trap("frame 0 in bands of \(bandRows) MCU rows differs from the whole-image decode on \(bytes.count) bytes: \(summary(inBands)) vs \(summary(whole))")
            }
            return whole
        }
        return nil
    }

    /// Frame 0's rows (and truncation), or the kind of error that ended the decode.
    enum Rows: Equatable {
        case rows([UInt8], truncated: Bool)
        case failed(DecodeError.Kind)

        /// Frame 0 of a first-frame-only source, one-shot: what `decodeRows` must deliver.
        init(oneShotOf bytes: [UInt8], options: DecodeOptions) {
            var firstOnly = options
            firstOnly.firstFrameOnly = true
            do {
                let decoded = try ImageSource(bytes: bytes, options: firstOnly).decode(at: 0, options: .init(output: .canonicalRGBA))
                let bitmap = decoded.bitmap
                // Tight rows, as bands deliver them (canonical RGBA is 8 or 16 bits a sample).
                let rowBytes = bitmap.format.minimumBytesPerRow(width: bitmap.width) ?? bitmap.bytesPerRow
                var rows: [UInt8] = []
                for y in 0 ..< bitmap.height {
                    rows += bitmap.bytes[y * bitmap.bytesPerRow ..< y * bitmap.bytesPerRow + rowBytes]
                }
                self = .rows(rows, truncated: decoded.truncation != nil)
            } catch {
                self = .failed(error.kind)
            }
        }

        init(_ decode: ((RowBand) throws -> Void) throws -> StreamedFrame) {
            var rows: [UInt8] = []
            do {
                let frame = try decode { rows += $0.rows.bytes }
                self = .rows(rows, truncated: frame.truncation != nil)
            } catch {
                self = .failed((error as? DecodeError)?.kind ?? .io)
            }
        }
    }

    /// The input as a file, decoded with `decodeRows(contentsOfFile:)` in pieces of 64–255 bytes
    /// (chosen by the input's length), must give `decodeRows` on the bytes.
    /// `oneShotJPEG`: frame 0 of the bytes when `decodeScaled` decoded it as a JPEG already (the
    /// GIF window option below changes nothing for a JPEG).
    static func decodeFromFile(_ bytes: [UInt8], oneShotJPEG: Rows? = nil) {
        let path = "/dev/shm/pureimage-fuzz-\(getpid())"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { return }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        defer { unlink(path) }
        guard written == bytes.count else { return }
        let window = 64 + bytes.count % 192
        // A GIF streams in the smallest LZW window it allows, so that it slides (the fuzzing
        // limits keep frames under the default window's megabyte).
        var options = Self.options
        options.streamGIFInTheSmallestWindow()
        let inMemory = Rows { body in try ImageSource(bytes: bytes, options: options).decodeRows(output: .canonicalRGBA, body) }
        let fromFile = Rows { body in
            try ImageSource.decodeRows(contentsOfFile: path, options: options, output: .canonicalRGBA, window: window, body)
        }
        if inMemory != fromFile {
            trap("decodeRows(contentsOfFile:) in pieces of \(window) differs from decodeRows on \(bytes.count) bytes: \(summary(fromFile)) vs \(summary(inMemory))")
        }
        let oneShot = oneShotJPEG ?? Rows(oneShotOf: bytes, options: options)
        if inMemory != oneShot {
            trap("decodeRows differs from the one-shot frame 0 on \(bytes.count) bytes: \(summary(inMemory)) vs \(summary(oneShot))")
        }
        // Scaled down (the harness's 16 KiB limit) from the file — a PNG or GIF walked and then
        // decoded in pieces, a JPEG in pieces, a TIFF at offsets — as from the bytes.
        let scaledInMemory = Rows { body in
            try ImageSource(bytes: bytes, options: options).decodeScaledDownRows(limitBytes: 1 << 14, output: .canonicalRGBA, body)
        }
        let scaledFromFile = Rows { body in
            try ImageSource.decodeScaledDownRows(contentsOfFile: path, options: options, limitBytes: 1 << 14, output: .canonicalRGBA,
                                                 jpegDCTScaling: true, window: window, body)
        }
        if scaledInMemory != scaledFromFile {
            trap("decodeScaledDownRows(contentsOfFile:) in pieces of \(window) differs from the call on \(bytes.count) bytes: \(summary(scaledFromFile)) vs \(summary(scaledInMemory))")
        }
    }

    static func summary(_ rows: Rows) -> String {
        switch rows {
        case .rows(let bytes, let truncated): return "\(bytes.count) bytes of rows\(truncated ? ", truncated" : "")"
        case .failed(let kind): return "failed (\(kind.rawValue))"
        }
    }

    enum Chunking {
        case fixed, random
    }

    static func decodeIncrementally(_ bytes: [UInt8], chunking: Chunking) -> Outcome {
        let source = IncrementalImageSource(options: options)
        var offset = 0
        var generator = SplitMix64(seed: UInt64(bytes.count) &* 0x9E37_79B9 &+ UInt64(bytes.first ?? 0))
        var updates = 0
        while offset < bytes.count {
            let piece: Int
            switch chunking {
            case .fixed: piece = 509
            case .random: piece = 1 + Int(generator.next() % 2048)
            }
            let end = min(bytes.count, offset + piece)
            source.append(bytes[offset ..< end], final: end == bytes.count)
            offset = end
            updates += 1
            // Partial images cost a render each; every few updates is enough to cover them.
            if updates % 4 == 1 { _ = source.partialImage(options: .init(output: .display)) }
        }
        if bytes.isEmpty { source.append([UInt8](), final: true) }
        _ = source.partialImage()
        do throws(DecodeError) {
            return .pixels(try source.image(at: 0, options: .init(output: .canonicalRGBA)))
        } catch {
            return .failed(error.kind)
        }
    }

    /// Incremental == one-shot. Both failing counts as agreement whatever the kinds (a one-shot
    /// decode may fail on frame 0 for a reason the incremental path reports as its status).
    static func check(_ oneShot: Outcome, equals incremental: Outcome, chunking: Chunking, size: Int) {
        switch (oneShot, incremental) {
        case (.failed, .failed):
            return
        case (.pixels(let a), .pixels(let b)) where a.tightlyPacked() == b.tightlyPacked():
            return
        default:
            trap("incremental (\(chunking)) differs from one-shot on \(size) bytes: \(describe(oneShot)) vs \(describe(incremental))")
        }
    }

    static func describe(_ outcome: Outcome) -> String {
        switch outcome {
        case .failed(let kind): return "failed (\(kind.rawValue))"
        case .pixels(let bitmap): return "\(bitmap.width)x\(bitmap.height) \(bitmap.format)"
        }
    }

    /// A crash libFuzzer records with the input; the message goes to stderr first (stdout is
    /// buffered and would be lost).
    static func trap(_ message: String) -> Never {
        let line = Array("FuzzDriver: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        abort()
    }
}

/// A small deterministic generator (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", 2014), so a reproducer replays the same chunking.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

#if canImport(Glibc)
import Glibc
#endif
