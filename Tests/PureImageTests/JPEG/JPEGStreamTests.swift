import Testing
@testable import PureImage

/// Whole streams built by hand, checked against libjpeg-turbo (CReference) as the oracle:
/// restart markers and their recovery, truncation at every offset, any chunking.
@Suite struct JPEGStreamTests {
    /// An 8-bit grayscale stream, `blocks` × 1 blocks wide, every block the same one byte of
    /// entropy data:
    ///
    ///     DC table: "0" → category 3, "10" → category 0
    ///     AC table: "0" → EOB (0x00), "10" → run 0 / size 1 (0x01)
    ///     0x5A = 0 101 10 1 0:  DC category 3, bits 101 = +5;  AC 0/1, bit 1 = +1;  EOB
    ///
    /// so each block (with DC predictor reset at each restart) has DC +5 (or +5 per block
    /// cumulatively without restarts) and coefficient 1 = +1. Quantization is all ones.
    static func stream(blocks: Int, restartInterval: Int = 0, restartCodes: [UInt8]? = nil, vertical: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)       // DQT 0, all 1
        let (height, width) = vertical ? (blocks * 8, 8) : (8, blocks * 8)
        bytes += [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, UInt8(height), 0x00, UInt8(width), 0x01, 0x01, 0x11, 0x00]  // SOF0, gray
        bytes += [0xFF, 0xC4, 0x00, 0x15, 0x00, 1, 1] + [UInt8](repeating: 0, count: 14) + [0x03, 0x00]  // DHT DC0
        bytes += [0xFF, 0xC4, 0x00, 0x15, 0x10, 1, 1] + [UInt8](repeating: 0, count: 14) + [0x00, 0x01]  // DHT AC0
        if restartInterval > 0 { bytes += [0xFF, 0xDD, 0x00, 0x04, 0x00, UInt8(restartInterval)] }     // DRI
        bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]                        // SOS
        for block in 0..<blocks {
            if restartInterval > 0 && block > 0 && block % restartInterval == 0 {
                let number = block / restartInterval - 1
                bytes += [0xFF, restartCodes?[number] ?? UInt8(0xD0 + number % 8)]
            }
            bytes.append(0x5A)
        }
        return bytes + [0xFF, 0xD9]
    }

    static func expectSameAsLibjpeg(_ bytes: [UInt8], _ comment: Comment? = nil) {
        let reference = JPEGTestSupport.reference(bytes)
        switch JPEGTestSupport.decode(bytes) {
        case .success(let ours):
            #expect(reference.status >= 0, comment)
            #expect(ours.bitmap.bytes == reference.pixels, comment)
        case .failure(let error):
            #expect(reference.status < 0 || error.kind == .unsupported, "\(error)")
        }
    }

    @Test func oneBlockByHand() throws {
        let bytes = Self.stream(blocks: 1)
        guard case .success(let ours) = JPEGTestSupport.decode(bytes) else { Issue.record("decode failed"); return }
        #expect(ours.bitmap.width == 8 && ours.bitmap.height == 8)
        // DC 5 → level 128 + 5/8 ≈ 128.6; the (0,1) term adds a small horizontal cosine.
        #expect(ours.bitmap.bytes[0] == 129 && ours.bitmap.bytes[7] == 128)
        Self.expectSameAsLibjpeg(bytes)
    }

    @Test func restartMarkersAndRecovery() {
        Self.expectSameAsLibjpeg(Self.stream(blocks: 6, restartInterval: 1), "clean restarts")
        Self.expectSameAsLibjpeg(Self.stream(blocks: 6, restartInterval: 2), "interval 2")
        // RST1 where RST0 was expected: one of the next two → the interval decodes as zeros.
        Self.expectSameAsLibjpeg(Self.stream(blocks: 6, restartInterval: 1, restartCodes: [0xD1, 0xD1, 0xD2, 0xD3, 0xD4]), "future restart")
        // RST5 far from RST0: discarded, decoding resumes.
        Self.expectSameAsLibjpeg(Self.stream(blocks: 6, restartInterval: 1, restartCodes: [0xD5, 0xD1, 0xD2, 0xD3, 0xD4]), "far restart")
        // RST7 (one before): scan ahead to the next marker.
        Self.expectSameAsLibjpeg(Self.stream(blocks: 6, restartInterval: 1, restartCodes: [0xD0, 0xD0, 0xD2, 0xD3, 0xD4]), "earlier restart")
        // A missing restart marker.
        var missing = Self.stream(blocks: 4, restartInterval: 1)
        if let at = missing.firstIndex(of: 0xD1), missing[at - 1] == 0xFF { missing.removeSubrange(at - 1 ... at) }
        Self.expectSameAsLibjpeg(missing, "missing restart")
    }

    @Test func truncationAtEveryOffsetMatchesLibjpeg() {
        let full = Self.stream(blocks: 6, restartInterval: 2)
        for length in 1..<full.count {
            let prefix = Array(full.prefix(length))
            Self.expectSameAsLibjpeg(prefix, "prefix \(length)")
            let decoder = JPEGDecoder(options: DecodeOptions())
            var input = InputBuffer(prefix, isClosed: false)
            // Not closed: the decoder waits for more.
            #expect((try? decoder.advance(&input)) != .finished, "prefix \(length) finished without EOI")
        }
    }

    @Test func anyChunkingGivesTheOneShotResult() throws {
        let full = Self.stream(blocks: 6, restartInterval: 2)
        guard case .success(let oneShot) = JPEGTestSupport.decode(full) else { Issue.record("decode failed"); return }
        for chunk in [1, 2, 3, 7, 50] {
            let (decoder, progress) = try JPEGTestSupport.decodeInChunks(full, chunk: chunk)
            #expect(progress == .finished)
            #expect(try decoder.frame(at: 0).bytes == oneShot.bitmap.bytes, "chunk \(chunk)")
            #expect(decoder.truncation == nil)
        }
    }

    /// A run of 0xFF fill bytes before a 00 is one data byte (0xFF) however long it is, so an
    /// MCU can read far more than its bits' worth of input: the incremental decoder must still
    /// keep the state to retry from when such a run reaches the end of the bytes so far
    /// (`BaselineScan.mayReachEnd`). The run here is 3 000 bytes in the middle of a 31-block
    /// scan; chunks of 700–3 500 bytes start MCUs ≥ 640 bytes before the end whose fills run
    /// into it.
    @Test func fillRunsInsideTheDataGiveTheOneShotResult() throws {
        var full = Self.stream(blocks: 31, vertical: true)
        let scanData = try #require(full.indices.first { full[$0] == 0xFF && full[$0 + 1] == 0xDA }) + 10
        full.insert(contentsOf: [UInt8](repeating: 0xFF, count: 3_000) + [0x00], at: scanData + 10)
        guard case .success(let oneShot) = JPEGTestSupport.decode(full) else { Issue.record("decode failed"); return }
        #expect(JPEGTestSupport.asLibjpegBytes(oneShot) == JPEGTestSupport.reference(full).pixels)
        for chunk in [700, 1_000, 1_500, 2_000, 3_500] {
            let (decoder, progress) = try JPEGTestSupport.decodeInChunks(full, chunk: chunk)
            #expect(progress == .finished)
            #expect(try decoder.frame(at: 0).bytes == oneShot.bitmap.bytes, "chunk \(chunk)")
            #expect(decoder.warnings.map(\.description) == oneShot.warnings.map(\.description), "chunk \(chunk)")
        }
    }

    @Test func bandsAppearBeforeTheEnd() throws {
        // 8 wide, 6 block rows high: each MCU row is one band of 8 output rows. (A restart
        // interval, so that no MCU waits for libjpeg's 512-byte fast-path lookahead.)
        let bytes = Self.stream(blocks: 6, restartInterval: 1, vertical: true)
        let decoder = JPEGDecoder(options: DecodeOptions())
        // Ends after block 5's data and the RST4 after it: a bit-buffer fill waits for seven
        // more bytes or a marker (as libjpeg's does), so the data alone would not finish block 5.
        var input = InputBuffer(Array(bytes.dropLast(3)), isClosed: false)
        _ = try decoder.advance(&input)
        #expect(decoder.decodedRows == 40)
        #expect(decoder.completedFrameCount == 0 && decoder.availableFrameCount == 1)
        let partial = try #require(decoder.partialFrame())
        #expect(partial.decodedRows == 40)
        // The rows not decoded yet are zero: the renderer allocates its output without a fill
        // and zeroes them when the partial image takes the buffer.
        let partialBytes = partial.bitmap.tightBytes
        #expect(partialBytes.count == 8 * 48)
        #expect(partialBytes[(8 * 40)...].allSatisfy { $0 == 0 })
        #expect(partialBytes[..<(8 * 40)].contains { $0 != 0 })
        input.append(contentsOf: bytes.suffix(3))
        #expect(try decoder.advance(&input) == .finished)
        #expect(decoder.decodedRows == 48 && decoder.completedFrameCount == 1)
        Self.expectSameAsLibjpeg(bytes)
    }

    @Test func unsupportedProcessesAreTyped() {
        var progressive = Self.stream(blocks: 1)
        if let at = progressive.firstIndex(of: 0xC0), progressive[at - 1] == 0xFF { progressive[at] = 0xC2 }
        // SOF2 is decoded now; a sequential scan header (Ss 0, Se 63) in a progressive frame
        // is refused as libjpeg-turbo refuses it (JERR_BAD_PROGRESSION).
        if case .failure(let error) = JPEGTestSupport.decode(progressive) {
            #expect(error.kind == .malformed && (error.reason as? JPEGError) == .badProgression(ss: 0, se: 63, ah: 0, al: 0))
            #expect(JPEGTestSupport.reference(progressive).status < 0)
        } else {
            Issue.record("a progressive frame with a sequential scan decoded")
        }
    }

    /// Huffman-coded data read as arithmetic-coded (the SOF0 relabelled SOF9): the QM decoder
    /// runs over bytes it was not made for — bad codes, markers inside the data, restart
    /// intervals with and without the expected markers — and must end where libjpeg-turbo ends.
    @Test func huffmanDataReadAsArithmeticMatchesLibjpeg() {
        let variants: [(String, [UInt8])] = [
            ("one block", Self.stream(blocks: 1)),
            ("six blocks", Self.stream(blocks: 6)),
            ("restarts", Self.stream(blocks: 6, restartInterval: 1)),
            ("wrong restarts", Self.stream(blocks: 6, restartInterval: 2, restartCodes: [0xD3, 0xD1])),
        ]
        for (name, huffman) in variants {
            var arithmetic = huffman
            guard let at = arithmetic.firstIndex(of: 0xC0), arithmetic[at - 1] == 0xFF else { Issue.record("no SOF0 in \(name)"); continue }
            arithmetic[at] = 0xC9
            let reference = JPEGTestSupport.reference(arithmetic)
            #expect(reference.status >= 0, "\(name): libjpeg-turbo decodes garbage as arithmetic data too")
            guard case .success(let ours) = JPEGTestSupport.decode(arithmetic) else { Issue.record("\(name) failed"); continue }
            #expect(ours.bitmap.bytes == reference.pixels, "\(name)")
        }
    }
}

extension JPEGStreamTests {
    @Test func inspectorListsEveryMarker() {
        let entries = Inspector.inspect(Self.stream(blocks: 4, restartInterval: 2))
        #expect(entries.map(\.name) == ["signature", "SOI", "DQT", "SOF0", "DHT", "DHT", "DRI", "SOS", "entropy data", "EOI", "end"])
        #expect(entries[3].detail.contains("width 32 height 8"))
        #expect(entries[6].detail.contains("restart interval 2"))
        #expect(entries[8].detail.contains("1 restart markers"))
        #expect(entries[2].offset == 2)
    }
}
