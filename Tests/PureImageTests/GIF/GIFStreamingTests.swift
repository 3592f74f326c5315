@_spi(Reference) @testable import PureImage
import Testing

/// Frame 0 decoded while its data arrives (`GIFFirstFrameStream`, the streaming decode) against
/// the one-shot decode, with windows and bands small enough that every file slides its window
/// many times; and the LZW window slide (`LZWDecoder.slide`) against a whole decode, on code
/// streams whose table stays full for a whole image (strings defined at its start used at its
/// end) as well as cleared ones, cut and damaged ones.
@Suite("GIF streaming")
struct GIFStreamingTests {
    // MARK: - The LZW window

    /// A GIF LZW encoder for the tests (GIF89a Appendix F). Without `clearWhenFull` a full
    /// table is kept to the end (the "deferred clear" some encoders use), so that codes defined
    /// at the start of the data are used at its end.
    static func encode(_ data: [UInt8], minimumCodeSize m: Int, clearWhenFull: Bool) -> [UInt8] {
        let clear = 1 << m
        var codes: [(code: Int, width: Int)] = [(clear, m + 1)]
        var table: [Int: Int] = [:]
        var nextFree = clear + 2
        var width = m + 1
        guard var prefix = data.first.map(Int.init) else { return GIFLZWTests.pack(codes + [(clear + 1, width)]) }
        for byte in data.dropFirst() {
            let key = prefix << 8 | Int(byte)
            if let code = table[key] { prefix = code; continue }
            codes.append((prefix, width))
            prefix = Int(byte)
            if nextFree < LZWDecoder.tableSize {
                table[key] = nextFree
                nextFree += 1
                // The decoder defines this entry one code later, and widens when its next free
                // slot reaches 2^width: the code after the next is the first to be wider.
                if nextFree > 1 << width && width < LZWDecoder.maxCodeWidth { width += 1 }
            } else if clearWhenFull {
                codes.append((clear, width))
                table.removeAll()
                nextFree = clear + 2
                width = m + 1
            }
        }
        codes.append((prefix, width))
        codes.append((clear + 1, width))
        return GIFLZWTests.pack(codes)
    }

    /// Deterministic bytes below `alphabet`: a stretch of noise (which fills the table), a
    /// long run of one value (long strings), then the noise again (its strings, defined at the
    /// start, used at the end when the table is kept).
    static func data(count: Int, alphabet: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        func next() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: (state >> 33) % UInt64(alphabet))
        }
        let noise = (0 ..< count / 3).map { _ in next() }
        return noise + [UInt8](repeating: noise[0], count: count - 2 * noise.count) + noise
    }

    /// `codes` decoded into a window of `windowBytes`, fed `chunk` bytes at a time and slid at
    /// every pause with everything decoded dropped but the dictionary's strings, as
    /// `GIFFirstFrameStream` slides it: the bytes produced, in order, and the final stop.
    static func slidingDecode(_ codes: [UInt8], minimumCodeSize: Int, total: Int, windowBytes: Int,
                              chunk: Int) -> (output: [UInt8], stop: LZWDecoder.Stop?, slides: Int) {
        let margin = GIFFirstFrameStream.margin
        var lzw = LZWDecoder(variant: .gif, minimumCodeSize: minimumCodeSize)
        var window = [UInt8](repeating: 0, count: min(total, windowBytes))
        var liveStart = 0, livePixel = 0, delivered = 0, slides = 0
        var output: [UInt8] = []
        var stop: LZWDecoder.Stop?
        func deliver() {
            let from = delivered - livePixel + liveStart
            output += window[from ..< lzw.written]
            delivered = livePixel + lzw.written - liveStart
        }
        var position = 0
        while position < codes.count && stop == nil {
            let piece = Array(codes[position ..< min(codes.count, position + chunk)])
            position += piece.count
            var taken = 0
            while stop == nil {
                let frameEnd = total - livePixel + liveStart
                let capacity = min(window.count, frameEnd)
                let pauseAt = frameEnd <= window.count ? capacity : window.count - margin
                let result = piece.withUnsafeBytes { bytes in
                    window.withUnsafeMutableBufferPointer { out in
                        lzw.decode(UnsafeRawBufferPointer(rebasing: bytes[taken...]),
                                   into: UnsafeMutableBufferPointer(rebasing: out[0 ..< capacity]), pausingAt: pauseAt)
                    }
                }
                taken += result.consumed
                if result.stop == .needMoreInput { break }
                guard result.stop == .paused else { stop = result.stop; break }
                deliver()
                let plan = lzw.planSlide(droppingBefore: lzw.written)
                let (cut, pinned) = lzw.slide(&window, as: plan, room: 2 * margin + 1)
                #expect(lzw.written == plan.keptBytes && window.count >= plan.keptBytes + 2 * margin + 1)
                livePixel += cut - liveStart
                liveStart = pinned
                slides += 1
                #expect(lzw.dictionary.invariantsHold(written: lzw.written, endCode: lzw.endCode))
            }
        }
        deliver()
        return (output, stop, slides)
    }

    @Test(TestTime.limit(minutes: 2), arguments: [(8, false), (8, true), (2, false), (2, true), (4, false)])
    func aSlidingWindowDecodesWhatTheWholeOutputDoes(minimumCodeSize: Int, clearWhenFull: Bool) {
        let total = 60_000
        let data = Self.data(count: total, alphabet: min(1 << minimumCodeSize, 16), seed: UInt64(minimumCodeSize * 2 + (clearWhenFull ? 1 : 0)))
        let codes = Self.encode(data, minimumCodeSize: minimumCodeSize, clearWhenFull: clearWhenFull)
        // The encoder is right: the whole decode gives the data back.
        let whole = GIFLZWTests.run(codes, minimumCodeSize: minimumCodeSize, capacity: total)
        #expect(whole.output == data)
        #expect(whole.stop == .outputFull)
        // Cut short, damaged (bytes overwritten in the middle), and with more pixels asked for
        // than the codes hold (the end code comes first).
        var damaged = codes
        for i in stride(from: codes.count / 2, to: min(codes.count, codes.count / 2 + 40), by: 3) { damaged[i] ^= 0x5A }
        let variants: [(name: String, codes: [UInt8], total: Int)] = [
            ("whole", codes, total), ("cut", Array(codes.prefix(codes.count * 2 / 3)), total),
            ("damaged", damaged, total), ("end code early", codes, total + 5_000),
        ]
        let margin = GIFFirstFrameStream.margin
        for variant in variants {
            let reference = GIFLZWTests.run(variant.codes, minimumCodeSize: minimumCodeSize, capacity: variant.total)
            for windowBytes in [2 * margin + 100, 3 * margin, 20_000] {
                for chunk in [1, 97, 255, variant.codes.count] {
                    let sliding = Self.slidingDecode(variant.codes, minimumCodeSize: minimumCodeSize, total: variant.total,
                                                     windowBytes: windowBytes, chunk: chunk)
                    let label = "\(variant.name), window \(windowBytes), chunk \(chunk)"
                    #expect(sliding.output == reference.output, "\(label): \(sliding.output.count) bytes, whole \(reference.output.count)")
                    #expect((sliding.stop ?? .needMoreInput) == reference.stop, "\(label)")
                    // The window slid: at least once for every window of output past the first.
                    #expect(sliding.slides >= (reference.output.count - windowBytes) / windowBytes, "\(label): \(sliding.slides) slides")
                }
            }
        }
    }

    // MARK: - Frame 0 streamed

    /// Frame 0 of `bytes` from the streaming decoder (window and bands as small as they go, fed
    /// `chunk` bytes at a time) and from the one-shot decode, with their warnings and truncation.
    static func streamedAndOneShot(_ bytes: [UInt8], chunk: Int) -> (streamed: Outcome, oneShot: Outcome) {
        var options = DecodeOptions()
        options.firstFrameOnly = true
        var smallest = options
        smallest.streamGIFInTheSmallestWindow()

        let streaming = GIFDecoder(options: smallest)
        var rows: [UInt8] = []
        var bands = 0
        streaming.rowSink = { band in
            rows += band.bytes
            bands += 1
        }
        var input = InputBuffer()
        var streamed = Outcome()
        do {
            var position = 0
            while position < bytes.count {
                input.append(contentsOf: bytes[position ..< min(bytes.count, position + chunk)])
                position += chunk
                _ = try streaming.advance(&input)
            }
            input.close()
            _ = try streaming.advance(&input)
            streamed = Outcome(pixels: rows, warnings: streaming.warnings, truncation: streaming.truncation, bands: bands)
        } catch {
            streamed = Outcome(error: error)
        }

        let whole = GIFTest.decode(bytes, options: options)
        var oneShot = Outcome(error: whole.error)
        if whole.error == nil {
            let frame = try? whole.decoder.frame(at: 0)
            oneShot = Outcome(pixels: frame?.bytes ?? [], warnings: whole.decoder.warnings, truncation: whole.decoder.truncation)
        }
        return (streamed, oneShot)
    }

    struct Outcome: Equatable {
        var pixels: [UInt8] = []
        var warnings: [DecodeWarning] = []
        var truncation: DecodeError?
        var error: DecodeError?
        var bands = 0

        init(pixels: [UInt8] = [], warnings: [DecodeWarning] = [], truncation: DecodeError? = nil, bands: Int = 0) {
            self.pixels = pixels
            self.warnings = warnings
            self.truncation = truncation
            self.bands = bands
        }

        init(error: (any Error)?) {
            self.error = error as? DecodeError
        }

        static func text(_ warnings: [DecodeWarning]) -> [String] { warnings.map { "\($0.offset ?? -1): \($0.description)" } }

        /// What must agree (the streamed decode hands its rows out in bands; the one-shot has none).
        static func == (a: Outcome, b: Outcome) -> Bool {
            a.pixels == b.pixels && text(a.warnings) == text(b.warnings) && a.truncation?.description == b.truncation?.description
                && a.error?.description == b.error?.description
        }
    }

    /// A GIF89a of one frame: a 256-entry grey global table, the frame at (`left`, `top`), its
    /// indices `pixels` LZW-coded (minimum code size 8) in 255-byte sub-blocks.
    static func gif(canvas: (width: Int, height: Int), frame: (left: Int, top: Int, width: Int, height: Int),
                    interlaced: Bool, pixels: [UInt8], clearWhenFull: Bool) -> [UInt8] {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        var bytes = Array("GIF89a".utf8) + le16(canvas.width) + le16(canvas.height) + [0xF7, 0, 0]
        for entry in 0 ..< 256 { bytes += [UInt8(entry), UInt8(255 - entry), UInt8(entry / 2)] }
        bytes += [0x2C] + le16(frame.left) + le16(frame.top) + le16(frame.width) + le16(frame.height) + [interlaced ? 0x40 : 0]
        bytes.append(8)
        let codes = encode(pixels, minimumCodeSize: 8, clearWhenFull: clearWhenFull)
        var position = 0
        while position < codes.count {
            let size = min(255, codes.count - position)
            bytes.append(UInt8(size))
            bytes += codes[position ..< position + size]
            position += size
        }
        return bytes + [0, 0x3B]
    }

    @Test(TestTime.limit(minutes: 2))
    func framesStreamedInASlidingWindowAreTheOneShotFrames() {
        typealias Case = (name: String, canvas: (width: Int, height: Int), frame: (left: Int, top: Int, width: Int, height: Int), interlaced: Bool)
        let cases: [Case] = [
            ("covering", (301, 200), (0, 0, 301, 200), false),
            ("inset", (301, 200), (17, 23, 250, 150), false),
            ("past the canvas", (200, 120), (50, 40, 300, 200), false),
            ("below the canvas", (200, 120), (0, 130, 200, 60), false),
            ("interlaced", (301, 200), (0, 0, 301, 200), true),
            ("one wide row", (65_000, 2), (0, 0, 65_000, 1), false),
        ]
        for (index, item) in cases.enumerated() {
            let pixels = Self.data(count: item.frame.width * item.frame.height, alphabet: 40 + index * 30, seed: UInt64(index))
            for clearWhenFull in [false, true] {
                let file = Self.gif(canvas: item.canvas, frame: item.frame, interlaced: item.interlaced, pixels: pixels, clearWhenFull: clearWhenFull)
                // Whole, cut inside the image data, and with a sub-block damaged.
                var damaged = file
                for i in stride(from: file.count / 2, to: file.count / 2 + 30, by: 2) { damaged[i] ^= 0x33 }
                for (variant, bytes) in [("whole", file), ("cut", Array(file.prefix(file.count * 3 / 5))), ("damaged", damaged)] {
                    for chunk in [file.count, 1_000, 61] {
                        let (streamed, oneShot) = Self.streamedAndOneShot(bytes, chunk: chunk)
                        let label = "\(item.name), clear \(clearWhenFull), \(variant), chunk \(chunk)"
                        #expect(streamed == oneShot, "\(label): \(streamed.pixels.count) / \(oneShot.pixels.count) bytes, warnings \(streamed.warnings) / \(oneShot.warnings)")
                        #expect(!streamed.pixels.isEmpty, "\(label)")
                        if variant == "cut" { #expect(streamed.truncation != nil, "\(label)") }
                    }
                }
            }
        }
    }

    /// The window's worst case: a table grown to 4 093 ever longer strings of one colour (the
    /// KwKwK chain 6, 7, 8, …) and then kept full to the end, its longest string (4 091 pixels)
    /// repeated — 27 KB of codes for 100 M pixels, every string pinned at every slide (8.4 MB of
    /// them). The window must stay small and the slides cheap: the decode holds at most a few
    /// times the pinned strings and streams the frame in about the time of its rows.
    @Test(TestTime.limit(minutes: 2))
    func aTableKeptFullOfLongStringsStreamsInBoundedMemory() throws {
        var codes: [(code: Int, width: Int)] = [(4, 3), (0, 3)]
        var width = 3, nextFree = 6
        func emitted() {
            if nextFree < LZWDecoder.tableSize {
                nextFree += 1
                if nextFree > 1 << width && width < LZWDecoder.maxCodeWidth { width += 1 }
            }
        }
        emitted()
        for code in 6 ..< LZWDecoder.tableSize {
            codes.append((code, width))
            emitted()
        }
        let chainPixels = 1 + (6 ..< LZWDecoder.tableSize).reduce(0) { $0 + $1 - 4 }
        let (frameWidth, frameHeight) = (10_000, 10_000)
        let repeats = (frameWidth * frameHeight - chainPixels) / 4_091 + 1
        codes += repeatElement((code: 4_095, width: 12), count: repeats)
        codes.append((5, 12))
        let data = GIFLZWTests.pack(codes)

        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        var file = Array("GIF89a".utf8) + le16(frameWidth) + le16(frameHeight) + [0xF1, 0, 0]
        file += [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120]
        file += [0x2C] + le16(0) + le16(0) + le16(frameWidth) + le16(frameHeight) + [0, 2]
        for start in stride(from: 0, to: data.count, by: 255) {
            let piece = data[start ..< min(data.count, start + 255)]
            file += [UInt8(piece.count)] + piece
        }
        file += [0, 0x3B]
        #expect(file.count < 40_000)

        var options = DecodeOptions()
        options.firstFrameOnly = true
        let decoder = GIFDecoder(options: options)
        var rows = 0
        var wrong = 0
        decoder.rowSink = { band in
            // Every pixel is index 0: (10, 20, 30), opaque.
            band.bytes.withUnsafeBytes { raw in
                for pixel in raw.bindMemory(to: UInt32.self) where pixel != UInt32(littleEndian: 0xFF1E_140A) { wrong += 1 }
            }
            rows += band.height
        }
        var input = InputBuffer(file, isClosed: true)
        #expect(try decoder.advance(&input) == .finished)
        #expect(rows == frameHeight)
        #expect(wrong == 0)
        #expect(decoder.warnings.isEmpty, "\(decoder.warnings)")
        // The window: the 8.4 MB of pinned strings, as much room again, a band — far from the
        // frame's 100 MB of indices.
        #expect(decoder.budget.peak < 32 << 20, "peak \(decoder.budget.peak) bytes")
    }

    @Test(TestTime.limit(minutes: 5), .enabled(if: Corpus.isAvailable || GeneratedCorpus.isAvailable, "neither corpus is present"))
    func corpusFramesStreamedInASlidingWindowAreTheOneShotFrames() throws {
        let roots = [Corpus.root, GeneratedCorpus.isAvailable ? GeneratedCorpus.root : nil].compactMap { $0 }
        var files = 0, streamed = 0
        for root in roots {
            for path in GIFTest.files(under: root) {
                guard let bytes = try? ImageFiles.read(path), bytes.starts(with: Array("GIF8".utf8)) else { continue }
                files += 1
                for chunk in [bytes.count, 509] {
                    let (ours, oneShot) = Self.streamedAndOneShot(bytes, chunk: chunk)
                    #expect(ours == oneShot, "\(path), chunk \(chunk): warnings \(ours.warnings) / \(oneShot.warnings), error \(String(describing: ours.error)) / \(String(describing: oneShot.error))")
                    if chunk == bytes.count && ours.bands > 1 { streamed += 1 }
                }
            }
        }
        report("GIF streaming: \(files) corpus files, \(streamed) delivered in more than one band, each equal to the one-shot frame")
        // (Both corpora: 292 and 221 on 2026-12-07 — the bands are 1-row, so only canvases of one
        // row, and files that fail before a row, give one band or none.)
        let minimum = roots.count == 2 ? (files: 250, streamed: 200) : (files: 50, streamed: 30)
        #expect(files >= minimum.files && streamed >= minimum.streamed, "\(files) files, \(streamed) streamed in more than one band")
    }
}
