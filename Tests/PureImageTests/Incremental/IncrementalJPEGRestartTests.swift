import Testing
@testable import PureImage

/// Progressive JPEG with restart markers and garbage before them, fed in small pieces: the
/// decoder suspends inside restart processing (the marker search has to get past the garbage)
/// and inside bit-buffer fills, and must then give exactly the one-shot result — pixels,
/// truncation and warnings. Two corrupt files of imagetestsuite once differed here.
@Suite struct IncrementalJPEGRestartTests {
    /// Twelve bytes with no 0xFF, skipped before the next marker with the warning "Corrupt JPEG
    /// data: N extraneous bytes before marker 0xd0". Longer than the seven bytes a bit-buffer
    /// fill takes in after an MCU's data byte, so the restart's marker search starts inside the
    /// garbage and has to wait for the rest of it.
    static let garbage: [UInt8] = Array(0x20...0x2B)

    /// A 32×8 grayscale progressive stream (four 8×8 blocks, one per MCU), restart interval 1,
    /// garbage after every MCU, cut inside the last scan (no EOI). Quantization is all 1s.
    static let stream: [UInt8] = {
        var b: [UInt8] = [0xFF, 0xD8]                                                  // SOI
        b += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)          // DQT Tq 0, all 1
        b += [0xFF, 0xC2, 0x00, 0x0B, 0x08, 0x00, 0x08, 0x00, 0x20, 0x01, 0x01, 0x11, 0x00] // SOF2: 32×8, one component
        // DHT DC 0: one code, `0` → 0x00 (DIFF 0).
        b += [0xFF, 0xC4, 0x00, 0x14, 0x00, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00]
        // DHT AC 0: `0` → 0x01 (run 0, size 1), `10` → 0x00 (EOB).
        b += [0xFF, 0xC4, 0x00, 0x15, 0x10, 0x01, 0x01] + [UInt8](repeating: 0, count: 14) + [0x01, 0x00]
        b += [0xFF, 0xDD, 0x00, 0x04, 0x00, 0x01]                                      // DRI 1
        /// SOS for component 1 with tables 0/0, then `mcus` copies of the one-byte MCU, each
        /// followed by the garbage and (between MCUs) RST0, RST1, …
        func scan(ss: UInt8, se: UInt8, ahAl: UInt8, mcu: UInt8, mcus: Int) -> [UInt8] {
            var s: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, ss, se, ahAl]
            for index in 0..<mcus {
                if index > 0 { s += [0xFF, 0xD0 + UInt8((index - 1) & 7)] }
                s += [mcu] + garbage
            }
            return s
        }
        // DC first, Al 0: `0` T = 0, so DC 0; pad with 1s.
        b += scan(ss: 0, se: 0, ahAl: 0x00, mcu: 0b0111_1111, mcus: 4)
        // AC first 1…63, Al 1: `0` RS 0x01 + `1` → +1 << 1 = 2 at zz 1; `10` EOB. Pad.
        b += scan(ss: 1, se: 63, ahAl: 0x01, mcu: 0b0110_1111, mcus: 4)
        // AC refinement 1…63, Ah 1 Al 0: `0` RS 0x01 + sign `1` (a new +1); zz 1 is non-zero,
        // correction `1` → 3; zz 2 is zero and ends the run: the +1 goes there. `10` EOB. Pad.
        // Cut after the third MCU's data and five garbage bytes.
        let last = scan(ss: 1, se: 63, ahAl: 0x10, mcu: 0b0111_0111, mcus: 4)
        b += last.prefix(10 + 2 * (1 + garbage.count + 2) + 1 + 5)
        return b
    }()

    @Test func handBuiltStreamIsWhatItSays() throws {
        let decoder = JPEGDecoder(options: DecodeOptions())
        decoder.keepsWholeImage = true
        var input = InputBuffer(Self.stream, isClosed: true)
        #expect(try decoder.advance(&input) == .finished)
        #expect(decoder.truncation != nil)
        let plane = try #require(decoder.coefficientsForTesting.first)
        // Natural order: zz 1 = (0,1) → 1, zz 2 = (1,0) → 8. Blocks 0…2 got the refinement.
        // Block 3 is past the cut: its restart finds the end of the data (libjpeg's inserted
        // EOI) and, with no shortage noted before, decodes from zero bits as libjpeg-turbo
        // does — no correction for zz 1, and a new −1 (sign bit 0) at zz 2.
        for block in 0..<4 {
            let coefficients = Array(plane[block * 64 ..< block * 64 + 64])
            #expect(coefficients[1] == (block < 3 ? 3 : 2) && coefficients[8] == (block < 3 ? 1 : -1), "block \(block)")
        }
        #expect(decoder.warnings.contains { $0.message.hasSuffix("extraneous bytes before marker 0xd0") })
        // The same pixels as libjpeg-turbo.
        let ours = try JPEGTestSupport.decode(Self.stream).get()
        #expect(JPEGTestSupport.asLibjpegBytes(ours) == JPEGTestSupport.reference(Self.stream).pixels)
    }

    /// Every chunk size from 1 to 7 bytes (and one large chunk), through the public
    /// incremental source: final status, pixels and warnings equal the one-shot decode.
    @Test(arguments: 1...8)
    func smallChunksGiveTheOneShotResult(_ size: Int) throws {
        let bytes = Self.stream
        let oneShot = try ImageSource(bytes: bytes).decode()
        let expected = oneShot.bitmap.tightBytes
        #expect(oneShot.truncation != nil)
        let expectedWarnings = try JPEGTestSupport.decode(bytes).get().warnings.map(Self.describe)
        let chunk = size == 8 ? bytes.count : size
        let source = Self.feed(bytes, chunk: chunk)
        #expect(source.status == .unexpectedEOF)
        #expect(try source.image().tightBytes == expected, "chunks of \(chunk)")
        #expect(source.warnings.map(Self.describe) == expectedWarnings, "chunks of \(chunk)")
    }

    /// The same layout as a baseline (sequential) stream: one scan of four MCUs, each one data
    /// byte (`0` DC 0, `0` RS 0x01 + `1` → +1 at zz 1, `10` EOB, padding) and the garbage,
    /// RST0…RST2 between them, cut after the third MCU's data and five garbage bytes. A fill
    /// that the end of a chunk cuts short must suspend the MCU, not decode the bits it got: the
    /// block loop once went on with them, and swallowed less garbage than the one-shot decode.
    static let baselineStream: [UInt8] = {
        var b = Array(stream.prefix(2 + 69))                                            // SOI, DQT
        b += [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x08, 0x00, 0x20, 0x01, 0x01, 0x11, 0x00] // SOF0: 32×8
        b += [0xFF, 0xC4, 0x00, 0x14, 0x00, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00]
        b += [0xFF, 0xC4, 0x00, 0x15, 0x10, 0x01, 0x01] + [UInt8](repeating: 0, count: 14) + [0x01, 0x00]
        b += [0xFF, 0xDD, 0x00, 0x04, 0x00, 0x01]                                      // DRI 1
        var s: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0, 63, 0]
        for index in 0..<4 {
            if index > 0 { s += [0xFF, 0xD0 + UInt8(index - 1)] }
            s += [0b0011_0111] + garbage
        }
        b += s.prefix(10 + 2 * (1 + garbage.count + 2) + 1 + 5)
        return b
    }()

    @Test(arguments: 1...8)
    func baselineSmallChunksGiveTheOneShotResult(_ size: Int) throws {
        let bytes = Self.baselineStream
        let oneShot = try ImageSource(bytes: bytes).decode()
        #expect(oneShot.truncation != nil)
        let expectedWarnings = try JPEGTestSupport.decode(bytes).get().warnings.map(Self.describe)
        #expect(expectedWarnings.contains { $0.hasSuffix("5 extraneous bytes before marker 0xd0") })
        let chunk = size == 8 ? bytes.count : size
        let source = Self.feed(bytes, chunk: chunk)
        #expect(source.status == .unexpectedEOF)
        #expect(try source.image().tightBytes == oneShot.bitmap.tightBytes, "chunks of \(chunk)")
        #expect(source.warnings.map(Self.describe) == expectedWarnings, "chunks of \(chunk)")
        // And libjpeg-turbo's pixels.
        let ours = try JPEGTestSupport.decode(bytes).get()
        #expect(JPEGTestSupport.asLibjpegBytes(ours) == JPEGTestSupport.reference(bytes).pixels)
    }

    /// The bytes through the public incremental source, `chunk` more at a time (the last update
    /// final), with a partial image between updates: rendering must not disturb the decode.
    static func feed(_ bytes: [UInt8], chunk: Int) -> IncrementalImageSource {
        let source = IncrementalImageSource()
        var sent = 0
        while sent < bytes.count {
            sent = min(bytes.count, sent + chunk)
            source.update(data: Array(bytes[0..<sent]), final: sent == bytes.count)
            _ = source.partialImage()
        }
        return source
    }

    static func describe(_ warning: DecodeWarning) -> String { "\(warning.offset ?? -1): \(warning.message)" }
}
