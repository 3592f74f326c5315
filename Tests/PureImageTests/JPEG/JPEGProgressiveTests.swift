import CReference
import CReferenceJPEG3
import Foundation
import Testing
@testable import PureImage
import PureImageConformance

/// Progressive JPEG (T.81 Annex G): the four scan kinds on a hand-built stream, scan-parameter
/// checks, baseline == progressive (jpegtran), and the image after each scan against
/// libjpeg-turbo's buffered-image output.
@Suite struct JPEGProgressiveTests {
    static let generated = GeneratedCorpus.root + "/jpeg"

    // MARK: - One 8×8 block through all four scan kinds

    /// An 8×8 grayscale progressive stream, every field annotated. Quantization is all 1s so
    /// coefficients are sample-domain values.
    static let fourScans: [UInt8] = {
        var b: [UInt8] = [0xFF, 0xD8]                                  // SOI
        b += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64) // DQT Tq 0, all 1
        b += [0xFF, 0xC2, 0x00, 0x0B, 0x08, 0x00, 0x08, 0x00, 0x08, 0x01] // SOF2: P 8, 8×8, Nf 1
        b += [0x01, 0x11, 0x00]                                         // C 1, H 1 V 1, Tq 0
        // DHT DC 0: L1 = 1, L2 = 1; `0` → 0x02 (size 2), `10` → 0x00.
        b += [0xFF, 0xC4, 0x00, 0x15, 0x00, 0x01, 0x01] + [UInt8](repeating: 0, count: 14) + [0x02, 0x00]
        // DHT AC 0: `0` → 0x01 (run 0, size 1), `10` → 0x00 (EOB, EOBRUN 1).
        b += [0xFF, 0xC4, 0x00, 0x15, 0x10, 0x01, 0x01] + [UInt8](repeating: 0, count: 14) + [0x01, 0x00]
        // Scan 1, DC first, Al 1: `0` T = 2, `11` DIFF = +3 → DC = 3 << 1 = 6. Pad with 1s.
        b += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x00, 0x01, 0b0111_1111]
        // Scan 2, AC first Ss 1 Se 2, Al 1: `0` RS 0x01, `1` → +1 << 1 = 2 at zz 1;
        // `0` RS 0x01, `0` → −1 << 1 = −2 at zz 2; k passes Se, no EOB needed.
        b += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x01, 0x02, 0x01, 0b0100_1111]
        // Scan 3, DC refinement Ah 1 Al 0: bit `1` → DC |= 1 = 7. 0xFF is stuffed as FF 00.
        b += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x00, 0x10, 0xFF, 0x00]
        // Scan 4, AC refinement Ss 1 Se 63 Ah 1 Al 0: `0` RS 0x01 and sign `1` (a new +1);
        // zz 1 is non-zero: correction `1` → 2 + 1 = 3; zz 2 non-zero: correction `0` (stays
        // −2); zz 3 is zero, the run of 0 ends: the new +1 goes there. `10` EOB. Pad `11`.
        b += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x01, 0x3F, 0x10, 0b0110_1011]
        b += [0xFF, 0xD9]                                               // EOI
        return b
    }()

    /// Properties come from the header alone: SOF2 says progressive, and a source that is only
    /// asked for its properties (the header probe, which stops at the first SOS) agrees with one
    /// that decoded everything.
    @Test func propertiesSayProgressiveWithoutDecoding() throws {
        let probed = try ImageSource(bytes: Self.fourScans).headerProperties()
        #expect(probed.isProgressive && probed.width == 8 && probed.height == 8 && probed.colorModel == .gray)
        let decoded = try ImageSource(bytes: Self.fourScans).properties()
        #expect(decoded.isProgressive && decoded.width == 8 && decoded.height == 8 && decoded.colorModel == .gray)
        // A baseline frame (SOF0 in place of SOF2, one sequential scan) is not progressive.
        var baseline = Self.fourScans
        baseline[2 + 69 + 1] = 0xC0
        #expect(try ImageSource(bytes: baseline).headerProperties().isProgressive == false)
    }

    /// Processes this decoder does not decode — the hierarchical ones — are described from
    /// their frame header all the same (as `jpeg_read_header` of a decoder that has them):
    /// SOF5 is not progressive, SOF6 and SOF14 are, a 12-bit SOF13 has 12 bits per component;
    /// each `describe()` says why it is not decoded, and `decode` throws `.unsupported` at the SOF.
    /// So does a JPEG-LS frame header (SOF55, T.87), laid out as T.81's.
    @Test(arguments: [(UInt8(0xC5), UInt8(8), false), (0xCD, 12, false), (0xC6, 8, true), (0xCE, 8, true), (0xF7, 8, false)])
    func unsupportedProcessesAreDescribed(sof: UInt8, precision: UInt8, progressive: Bool) throws {
        var bytes = Self.fourScans
        let sofAt = 2 + 69
        bytes[sofAt + 1] = sof
        bytes[sofAt + 4] = precision
        let source = try ImageSource(bytes: bytes)
        let description = try source.describe()
        #expect(description.properties.isProgressive == progressive)
        #expect(description.properties.width == 8 && description.properties.bitsPerComponent == Int(precision))
        #expect(description.warnings.contains { $0.message.contains("not decoded") })
        let error = #expect(throws: DecodeError.self) { try source.decode() }
        #expect(error?.kind == .unsupported && error?.offset.map { $0 >= sofAt } == true)
        #expect(description.refusal != nil && description.refusal?.description == error?.description)
    }

    /// FF F7 after a T.81 frame header is no JPEG-LS file: an unknown marker in damaged data.
    @Test func jpegLSMarkerAfterAFrameIsMalformed() throws {
        var bytes = Self.fourScans
        let afterSOF = 2 + 69 + 2 + (Int(bytes[2 + 69 + 2]) << 8 | Int(bytes[2 + 69 + 3]))
        bytes.insert(contentsOf: [0xFF, 0xF7, 0x00, 0x02], at: afterSOF)
        let error = #expect(throws: DecodeError.self) { try ImageSource(bytes: bytes).decode() }
        #expect(error?.kind == .malformed && error?.offset == afterSOF)
        #expect(throws: DecodeError.self) { try ImageSource(bytes: bytes).describe() }
    }

    @Test func fourScanKindsByHand() throws {
        let decoder = JPEGDecoder(options: DecodeOptions())
        decoder.keepsWholeImage = true
        var input = InputBuffer(Self.fourScans, isClosed: true)
        #expect(try decoder.advance(&input) == .finished)
        let block = try #require(decoder.coefficientsForTesting.first)
        // Natural order: zz 1 = (0,1) → 1, zz 2 = (1,0) → 8, zz 3 = (2,0) → 16.
        #expect(block[0] == 7 && block[1] == 3 && block[8] == -2 && block[16] == 1)
        #expect(block.enumerated().allSatisfy { [0, 1, 8, 16].contains($0.offset) || $0.element == 0 })
        // Scan 4 refines 1…63 although only 1…2 had a first scan: libjpeg-turbo warns once per
        // coefficient 3…63 (JWRN_BOGUS_PROGRESSION) and decodes it anyway; so do we.
        #expect(decoder.warnings.count == 61)
        #expect(decoder.warnings.allSatisfy { $0.message.hasPrefix("Inconsistent progression sequence for component 0") })
        #expect(JPEGTestSupport.reference(Self.fourScans).status == 1)
        expectSameAsLibjpeg(Self.fourScans)
        // After scan 1 only the DC is there, and smoothing estimates nothing for a lone block.
        #expect(decoder.progressiveScans.map(\.ss) == [0, 1, 0, 1])
    }

    /// Scan 4 cut inside its data: libjpeg fills zeros, keeps what the scans gave, warns.
    @Test func truncatedRefinementScan() {
        let cut = Array(Self.fourScans.prefix(Self.fourScans.count - 3))
        expectSameAsLibjpeg(cut)
        if case .success(let ours) = JPEGTestSupport.decode(cut) { #expect(ours.truncated) }
    }

    // MARK: - Scan parameters (G.1.1.1, jdphuff.c start_pass_phuff_decoder)

    /// Offset of the n-th SOS's Ss byte in `fourScans`-shaped streams (Ns = 1).
    static func ssOffset(_ bytes: [UInt8], scan: Int) -> Int? {
        var seen = 0
        for i in 0..<(bytes.count - 1) where bytes[i] == 0xFF && bytes[i + 1] == 0xDA {
            if seen == scan { return i + 4 + 1 + 2 * Int(bytes[i + 4]) }
            seen += 1
        }
        return nil
    }

    @Test func refusedScanParameters() throws {
        // (scan, byte after Ss, value): Se ≠ 0 in a DC scan; Ss > Se; Se > 63; Al > 13; Al ≠ Ah − 1.
        let patches: [(Int, Int, UInt8, JPEGError)] = [
            (0, 1, 5, .badProgression(ss: 0, se: 5, ah: 0, al: 1)),
            (1, 0, 3, .badProgression(ss: 3, se: 2, ah: 0, al: 1)),
            (3, 1, 64, .badProgression(ss: 1, se: 64, ah: 1, al: 0)),
            (0, 2, 0x0E, .badProgression(ss: 0, se: 0, ah: 0, al: 14)),
            (2, 2, 0x20, .badProgression(ss: 0, se: 0, ah: 2, al: 0)),
        ]
        for (scan, delta, value, expected) in patches {
            var bytes = Self.fourScans
            let at = try #require(Self.ssOffset(bytes, scan: scan))
            bytes[at + delta] = value
            guard case .failure(let error) = JPEGTestSupport.decode(bytes) else {
                Issue.record("scan \(scan) patched \(value) decoded"); continue
            }
            #expect(error.kind == .malformed && (error.reason as? JPEGError) == expected)
            #expect(JPEGTestSupport.reference(bytes).status < 0)
        }
    }

    @Test func inconsistentProgressionIsAWarning() throws {
        // Scan 2 claims Ah 2 Al 1 although nothing was sent for zz 1, 2: libjpeg warns
        // (JWRN_BOGUS_PROGRESSION) and decodes it as a refinement scan.
        var bytes = Self.fourScans
        let at = try #require(Self.ssOffset(bytes, scan: 1))
        bytes[at + 2] = 0x21
        guard case .success(let ours) = JPEGTestSupport.decode(bytes) else { Issue.record("refused"); return }
        #expect(ours.warnings.contains { $0.message.hasPrefix("Inconsistent progression sequence for component 0 coefficient 1") })
        #expect(JPEGTestSupport.reference(bytes).status == 1)
        expectSameAsLibjpeg(bytes)
    }

    func expectSameAsLibjpeg(_ bytes: [UInt8], scale: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) {
        let reference = JPEGTestSupport.reference(bytes, scale: scale)
        switch JPEGTestSupport.decode(bytes, scale: scale) {
        case .success(let ours):
            #expect(reference.status >= 0, "libjpeg: \(reference.message)", sourceLocation: sourceLocation)
            #expect(JPEGTestSupport.asLibjpegBytes(ours) == reference.pixels, sourceLocation: sourceLocation)
        case .failure(let error):
            #expect(reference.status < 0, "ours: \(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - Baseline == progressive (jpegtran -progressive is lossless in the DCT domain)

    @Test(.enabled(if: GeneratedCorpus.isAvailable, "Conformance/generated is absent"), arguments: ["sample_2x2_64x64.jpg", "sample_1x1_33x31.jpg", "gray_255x129.jpg", "restart1_33x31.jpg", "rgb_33x31.jpg"])
    func baselineAndProgressiveAgree(_ name: String) throws {
        let path = Self.generated + "/" + name
        let baseline = try GeneratedCorpus.read("jpeg/" + name)
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/jpegtran"), "jpegtran (libjpeg-turbo-progs) is not installed")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pi-progressive-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/jpegtran")
        process.arguments = ["-progressive", "-copy", "all", "-outfile", output.path, path]
        try process.run()
        process.waitUntilExit()
        let progressive = try #require(JPEGTestSupport.read(output.path))
        #expect(progressive.contains(0xC2))
        for scale in [1, 2, 4, 8] {
            func coefficients(_ bytes: [UInt8]) throws -> ([[Int16]], [UInt8]) {
                let decoder = JPEGDecoder(options: DecodeOptions(jpegScaleDenominator: scale))
                decoder.keepsWholeImage = true
                var input = InputBuffer(bytes, isClosed: true)
                _ = try decoder.advance(&input)
                return (decoder.coefficientsForTesting, try decoder.frame(at: 0).bytes)
            }
            let (a, pixelsA) = try coefficients(baseline)
            let (b, pixelsB) = try coefficients(progressive)
            if scale == 8 {
                // At 1/8 a sequential scan stores only the DC term of a block whose IDCT is
                // 1×1 (jdhuff.c `ac_needed`); the progressive decode keeps every term.
                let dcTerms = { (planes: [[Int16]]) in planes.map { plane in stride(from: 0, to: plane.count, by: 64).map { plane[$0] } } }
                #expect(!a.isEmpty && dcTerms(a) == dcTerms(b), "\(name) DC coefficients")
            } else {
                #expect(!a.isEmpty && a == b, "\(name) coefficients")
            }
            #expect(pixelsA == pixelsB, "\(name) 1/\(scale)")
            expectSameAsLibjpeg(progressive, scale: scale)
        }
    }

    // MARK: - The image after each scan (libjpeg-turbo buffered-image mode)

    final class Passes {
        var images: [Int: [UInt8]] = [:]
    }

    /// libjpeg-turbo's output pass after each completed scan (`pi_ref_jpeg_decode_scans`).
    static func referencePasses(_ bytes: [UInt8]) -> [Int: [UInt8]] {
        let passes = Passes()
        let context = Unmanaged.passUnretained(passes).toOpaque()
        var message = [CChar](repeating: 0, count: 256)
        _ = bytes.withUnsafeBufferPointer { buffer in
            pi_ref_jpeg_decode_scans(buffer.baseAddress, buffer.count, context, { context, scan, image in
                guard let context, let image, let pixels = image.pointee.pixels else { return }
                let passes = Unmanaged<Passes>.fromOpaque(context).takeUnretainedValue()
                passes.images[Int(scan)] = Array(UnsafeBufferPointer(start: pixels, count: image.pointee.size))
            }, &message)
        }
        return passes.images
    }

    /// The same with libjpeg-turbo 3 (`pi_ref_jpeg3_decode_scans`), for 12-bit files.
    static func referencePasses3(_ bytes: [UInt8]) -> [Int: [UInt8]] {
        let passes = Passes()
        let context = Unmanaged.passUnretained(passes).toOpaque()
        var message = [CChar](repeating: 0, count: 256)
        _ = bytes.withUnsafeBufferPointer { buffer in
            pi_ref_jpeg3_decode_scans(buffer.baseAddress, buffer.count, context, { context, scan, image in
                guard let context, let image, let pixels = image.pointee.pixels else { return }
                let passes = Unmanaged<Passes>.fromOpaque(context).takeUnretainedValue()
                passes.images[Int(scan)] = Array(UnsafeBufferPointer(start: pixels, count: image.pointee.size))
            }, &message)
        }
        return passes.images
    }

    /// Our partial image after scan n: the bytes up to the next SOS marker (FF DA included,
    /// input open), then `partialFrame()`; the last scan's image is the final frame.
    static func ourPasses(_ bytes: [UInt8]) throws -> [Int: [UInt8]] {
        var starts: [Int] = []
        for i in 0..<(bytes.count - 1) where bytes[i] == 0xFF && bytes[i + 1] == 0xDA { starts.append(i) }
        var result: [Int: [UInt8]] = [:]
        for (index, _) in starts.enumerated() {
            let decoder = JPEGDecoder(options: DecodeOptions())
            if index + 1 < starts.count {
                var input = InputBuffer(Array(bytes.prefix(starts[index + 1] + 2)), isClosed: false)
                _ = try decoder.advance(&input)
                if let partial = decoder.partialFrame() { result[index + 1] = partial.bitmap.bytes }
            } else {
                var input = InputBuffer(bytes, isClosed: true)
                _ = try decoder.advance(&input)
                result[index + 1] = try decoder.frame(at: 0).bytes
            }
        }
        return result
    }

    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var sum = 0.0
        for i in 0..<a.count { let d = Double(a[i]) - Double(b[i]); sum += d * d }
        return sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / Double(a.count)))
    }

    /// Exact match after every scan, smoothing included (decode_smooth_data's arithmetic).
    @Test(.enabled(if: GeneratedCorpus.isAvailable, "Conformance/generated is absent"), arguments: ["progressive_255x129.jpg", "scans_spectral_bands_255x129.jpg", "scans_deep_refinement_255x129.jpg",
                      "restart1_progressive_33x31.jpg", "progressive_gray_501x333.jpg", "sample_2x2_progressive_33x31.jpg"])
    func everyScanMatchesBufferedImageMode(_ name: String) throws {
        try Self.compareScans(try GeneratedCorpus.read("jpeg/" + name), name: name)
    }

    @Test(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
    func everyScanOfTheCorpusPeacock() throws {
        try Self.compareScans(try Corpus.read("jpeg/wuffs/peacock.progressive.jpeg"), name: "peacock.progressive.jpeg")
    }

    /// Arithmetic-coded progressive files (SOF10): the image after every scan, block smoothing
    /// included, as libjpeg-turbo's buffered-image mode shows it. (Not jpegsuite's smallest
    /// files: for an image of two iMCU rows, libjpeg's output pass after a DC scan reads on into
    /// the next scan — jdcoefct.c keeps the input two rows ahead of a DC scan's output — and
    /// shows coefficients of a scan whose bytes `ourPasses` has not given us yet.)
    @Test(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"),
          arguments: ["jpeg/jpegsuite/progressive_arithmetic/32x32x8_grayscale_successive_ac.jpg",
                      "jpeg/jpegsuite/progressive_arithmetic/32x32x8_restarts.jpg"])
    func everyScanOfArithmeticFilesMatchesBufferedImageMode(_ path: String) throws {
        try Self.compareScans(try Corpus.read(path), name: path)
    }

    @Test(.enabled(if: GeneratedCorpus.jpegSamplingIsAvailable, "Conformance/generated/jpeg-sampling is absent"),
          arguments: ["arithprog_2x2_a.jpg", "arithprog_restart2_a.jpg", "arithprog_rgb_b.jpg"])
    func everyScanOfGeneratedArithmeticFilesMatchesBufferedImageMode(_ name: String) throws {
        let path = GeneratedCorpus.jpegSampling + "/" + name
        let bytes = try #require(JPEGTestSupport.read(path), "\(path) is missing")
        try Self.compareScans(bytes, name: name)
    }

    /// 12-bit progressive files (Huffman and arithmetic): every scan's image against
    /// libjpeg-turbo 3's buffered-image mode, 16-bit samples on both sides.
    @Test(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"),
          arguments: ["jpeg/jpegsuite/progressive_huffman/32x32x12_ycbcr.jpg", "jpeg/jpegsuite/progressive_huffman/32x32x12_grayscale.jpg",
                      "jpeg/jpegsuite/progressive_arithmetic/32x32x12_ycbcr_interleaved.jpg"])
    func everyScanOfTwelveBitFilesMatchesBufferedImageMode(_ path: String) throws {
        #expect(LibjpegTurbo3.isAvailable, "\(LibjpegTurbo3.unavailableReason ?? "")")
        try Self.compareScans(try Corpus.read(path), name: path, libjpegTurbo3: true)
    }

    static func compareScans(_ bytes: [UInt8], name: String, libjpegTurbo3: Bool = false) throws {
        let reference = libjpegTurbo3 ? referencePasses3(bytes) : referencePasses(bytes)
        let ours = try ourPasses(bytes)
        #expect(!reference.isEmpty)
        for (scan, image) in reference.sorted(by: { $0.key < $1.key }) {
            guard let mine = ours[scan] else { Issue.record("\(name): no partial image after scan \(scan)"); continue }
            let value = psnr(mine, image)
            #expect(mine == image, "\(name) scan \(scan): PSNR \(value) dB")
        }
    }

    // MARK: - Damage

    /// Cut at every offset (every few for the larger file): truncated progressive files render
    /// what the scans gave, smoothing rows past the cut with the previous scan's bits, and are
    /// marked truncated; libjpeg-turbo gives the same pixels.
    @Test(.enabled(if: GeneratedCorpus.isAvailable, "Conformance/generated is absent"), TestTime.limit(minutes: 2),
          arguments: ["scans_spectral_bands_33x31.jpg", "restart1_progressive_33x31.jpg", "progressive_255x129.jpg"])
    func truncationAtEveryOffsetMatchesLibjpeg(_ name: String) throws {
        let full = try GeneratedCorpus.read("jpeg/" + name)
        let step = max(1, full.count / 300)
        for length in stride(from: 2, to: full.count - 2, by: step) {
            let prefix = Array(full.prefix(length))
            let reference = JPEGTestSupport.reference(prefix)
            switch JPEGTestSupport.decode(prefix) {
            case .success(let ours):
                #expect(ours.truncated, "\(name) cut at \(length)")
                #expect(JPEGTestSupport.asLibjpegBytes(ours) == reference.pixels, "\(name) cut at \(length): \(reference.message)")
            case .failure(let error):
                #expect(reference.status < 0, "\(name) cut at \(length): \(error)")
            }
        }
    }

    /// Fed in pieces of 1, 7 and 50 bytes, a progressive file gives the one-shot image.
    @Test(.enabled(if: GeneratedCorpus.isAvailable, "Conformance/generated is absent"))
    func chunkingGivesTheOneShotResult() throws {
        let bytes = try GeneratedCorpus.read("jpeg/scans_deep_refinement_33x31.jpg")
        let whole = try JPEGTestSupport.decode(bytes).get().bitmap.bytes
        for size in [1, 7, 50] {
            let decoder = JPEGDecoder(options: DecodeOptions())
            var input = InputBuffer([], isClosed: false)
            var sent = 0
            var progress = DecodeProgress.needMoreInput
            while sent < bytes.count {
                let next = min(bytes.count, sent + size)
                input.append(contentsOf: bytes[sent..<next])
                sent = next
                if sent == bytes.count { input.close() }
                progress = try decoder.advance(&input)
                _ = decoder.partialFrame()
            }
            #expect(progress == .finished)
            #expect(try decoder.frame(at: 0).bytes == whole, "pieces of \(size)")
        }
    }

    /// Corrupt progressive files: no crash, no hang, and whatever both accept is identical.
    @Test(.enabled(if: GeneratedCorpus.isAvailable, "Conformance/generated is absent"), TestTime.limit(minutes: 2))
    func mutatedProgressiveFilesMatchLibjpeg() throws {
        let bytes = try GeneratedCorpus.read("jpeg/scans_spectral_bands_33x31.jpg")
        var seed: UInt64 = 0x5EED_0002
        func next() -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        var differing = 0, decoded = 0, refused = 0
        for _ in 0..<400 {
            var mutated = bytes
            for _ in 0..<(1 + next() % 4) {
                let at = 200 + next() % max(1, mutated.count - 200)
                if at < mutated.count { mutated[at] = UInt8(truncatingIfNeeded: next()) }
            }
            let reference = JPEGTestSupport.reference(mutated)
            switch JPEGTestSupport.decode(mutated) {
            case .success(let ours):
                decoded += 1
                if reference.status >= 0, JPEGTestSupport.asLibjpegBytes(ours) != reference.pixels { differing += 1 }
            case .failure:
                refused += 1
            }
        }
        #expect(differing == 0)
        #expect(decoded + refused == 400 && decoded > 100, "\(decoded) decoded, \(refused) refused")
    }
}
