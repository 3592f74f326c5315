import CReference
import Foundation
import Testing
@testable import PureImage
import PureImageConformance

/// Every JPEG of the corpus against libjpeg-turbo 2.1.5 (CReference), sample for sample.
/// Runs only when PUREIMAGE_CORPUS points at the corpus root (skipped, visibly, otherwise).
@Suite(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
struct JPEGCorpusTests {
    static var root: String { Corpus.root ?? "." }

    struct Tally: CustomStringConvertible {
        var identical = 0, differing = 0, unsupported = 0, unsupportedByBoth = 0, bothRejected = 0, onlyReferenceAccepts = 0, onlyWeAccept = 0
        /// Decoded by us; no libjpeg-turbo implements the process (lossless arithmetic, DNL):
        /// checked against their twins instead (`losslessArithmeticEqualsHuffmanTwins`,
        /// `dnlFilesEqualTheirRewrittenTwins`).
        var noReference = 0
        /// Of the identical ones, compared with libjpeg-turbo 3 (12-bit, lossless).
        var byVersion3 = 0
        var reasons: [String: Int] = [:]
        var notes: [String] = []
        var description: String {
            "identical \(identical) (\(byVersion3) against libjpeg-turbo 3) / differing \(differing) / unsupported \(unsupported) (libjpeg decodes them) + \(unsupportedByBoth) (libjpeg refuses too)"
                + " / both rejected \(bothRejected) / only libjpeg accepts \(onlyReferenceAccepts) / only we accept \(onlyWeAccept)"
                + " / no reference decoder \(noReference)"
                + (reasons.isEmpty ? "" : "; unsupported: " + reasons.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
    }

    static func noReferenceExists(_ message: String) -> Bool { JPEGTestSupport.noReferenceExists(message) }

    static func compare(_ files: [String], root: String, scale: Int) throws -> Tally {
        var tally = Tally()
        for path in files {
            let bytes = try #require(JPEGTestSupport.read(root + "/" + path), "\(path) is unreadable")
            let reference = JPEGTestSupport.reference(bytes, scale: scale)
            let ours = JPEGTestSupport.decode(bytes, scale: scale, asStored: reference.asStored)
            switch (reference.status >= 0, ours) {
            case (true, .success(let image)):
                let mine = JPEGTestSupport.asLibjpegBytes(image)
                if image.bitmap.width == reference.width, image.bitmap.height == reference.height, mine == reference.pixels {
                    tally.identical += 1
                    if reference.library != "libjpeg-turbo 2.1.5" { tally.byVersion3 += 1 }
                } else {
                    tally.differing += 1
                    var first = -1
                    for i in 0..<min(mine.count, reference.pixels.count) where mine[i] != reference.pixels[i] { first = i; break }
                    let count = zip(mine, reference.pixels).filter { $0 != $1 }.count
                    tally.notes.append("DIFF \(path) 1/\(scale): \(image.bitmap.width)x\(image.bitmap.height) vs \(reference.width)x\(reference.height), \(count) samples differ, first at \(first) (libjpeg: \(reference.message))")
                }
            case (true, .failure(let error)):
                if error.kind == .unsupported {
                    tally.unsupported += 1
                    tally.reasons[String(describing: error.reason).prefix(while: { $0 != "(" && $0 != " " }).description, default: 0] += 1
                } else {
                    tally.onlyReferenceAccepts += 1
                    tally.notes.append("ONLY-LIBJPEG \(path): \(error)")
                }
            case (false, .failure(let error)):
                if error.kind == .unsupported { tally.unsupportedByBoth += 1 } else { tally.bothRejected += 1 }
            case (false, .success) where noReferenceExists(reference.message) || JPEGTestSupport.refusesDNL(reference.message):
                tally.noReference += 1
            case (false, .success):
                tally.onlyWeAccept += 1
                tally.notes.append("ONLY-OURS \(path): libjpeg says \(reference.message)")
            }
        }
        return tally
    }

    @Test(TestTime.limit(minutes: 5))
    func baselineFilesMatchLibjpegTurbo() throws {
        let files = JPEGTestSupport.corpusFiles(root: Self.root, prefixes: ["libjpeg-turbo/", "jpeg/", "photos/"])
        #expect(files.count >= 400, "the manifest lists \(files.count) JPEGs")
        for scale in [1, 2, 4, 8] {
            let tally = try Self.compare(files, root: Self.root, scale: scale)
            print("JPEG corpus 1/\(scale): \(files.count) files: \(tally)")
            for note in tally.notes { print("  " + note) }
            #expect(tally.differing == 0 && tally.onlyReferenceAccepts == 0 && tally.onlyWeAccept == 0, "scale 1/\(scale)")
            #expect(tally.identical >= 340, "scale 1/\(scale): only \(tally.identical) identical")
            // 12-bit and lossless files, compared with libjpeg-turbo 3 (57 in the corpus).
            #expect(tally.byVersion3 >= 50, "scale 1/\(scale): \(tally.byVersion3) compared with libjpeg-turbo 3 (\(LibjpegTurbo3.unavailableReason ?? "available"))")
        }
    }

    /// Lossless arithmetic coding (SOF11) has no reference decoder (libjpeg-turbo 3 leaves it
    /// out). jpegsuite codes the same pictures both ways: every SOF11 file with a Huffman
    /// (SOF3) twin of the same name decodes to the twin's samples — which libjpeg-turbo 3
    /// checks in `baselineFilesMatchLibjpegTurbo`. The arithmetic files without a twin (other
    /// precisions and sizes) must decode whole, without warnings.
    @Test func losslessArithmeticEqualsHuffmanTwins() throws {
        let files = JPEGTestSupport.corpusFiles(root: Self.root, prefixes: ["jpeg/jpegsuite/lossless_arithmetic/"])
        #expect(files.count >= 25, "\(files.count) lossless arithmetic files")
        var twins = 0, alone = 0
        for path in files where !path.contains("dnl") {
            let bytes = try #require(JPEGTestSupport.read(Self.root + "/" + path))
            guard case .success(let ours) = JPEGTestSupport.decode(bytes, asStored: true) else {
                Issue.record("\(path) does not decode")
                continue
            }
            #expect(!ours.truncated && ours.warnings.isEmpty, "\(path): \(ours.warnings)")
            let twinPath = Self.root + "/" + path.replacingOccurrences(of: "lossless_arithmetic", with: "lossless_huffman")
            guard let twinBytes = JPEGTestSupport.read(twinPath) else {
                alone += 1
                continue
            }
            guard case .success(let twin) = JPEGTestSupport.decode(twinBytes, asStored: true) else {
                Issue.record("\(twinPath) does not decode")
                continue
            }
            #expect(ours.bitmap == twin.bitmap, "\(path) differs from its Huffman twin")
            twins += 1
        }
        print("JPEG lossless arithmetic: \(twins) files equal their Huffman twins, \(alone) without a twin decoded whole")
        #expect(twins >= 20 && alone >= 5)
    }

    /// T.81 B.2.5 DNL: a frame whose SOF says Y = 0 gets its height from the DNL segment after
    /// the first scan. No libjpeg-turbo decodes such files, so each is rewritten — NL put in
    /// the SOF, the DNL segment removed — and the rewritten twin decoded by libjpeg-turbo
    /// (or, for lossless arithmetic coding, which it lacks, by us) must give our samples.
    @Test func dnlFilesEqualTheirRewrittenTwins() throws {
        let files = JPEGTestSupport.corpusFiles(root: Self.root, prefixes: ["jpeg/jpegsuite/"]).filter { $0.hasSuffix("_dnl.jpg") && !$0.contains("/ls/") }
        var compared = 0
        for path in files {
            let bytes = try #require(JPEGTestSupport.read(Self.root + "/" + path))
            let twin = try #require(Self.withoutDNL(bytes), "\(path): no SOF with Y = 0 and DNL")
            guard case .success(let ours) = JPEGTestSupport.decode(bytes) else {
                Issue.record("\(path) does not decode")
                continue
            }
            let reference = JPEGTestSupport.reference(twin)
            if reference.status >= 0 {
                #expect(JPEGTestSupport.asLibjpegBytes(ours) == reference.pixels, "\(path) differs from its rewritten twin (\(reference.library))")
            } else {
                #expect(JPEGTestSupport.noReferenceExists(reference.message), "\(path): \(reference.message)")
                guard case .success(let twinDecoded) = JPEGTestSupport.decode(twin) else {
                    Issue.record("\(path)'s twin does not decode")
                    continue
                }
                #expect(ours.bitmap == twinDecoded.bitmap, "\(path) differs from its rewritten twin")
            }
            compared += 1
        }
        print("JPEG DNL: \(compared) files equal their rewritten twins")
        #expect(compared >= 5)
    }

    /// `pureimage inspect` names each frame's coding process and shows DAC conditioning, the
    /// predictor and point transform of lossless scans, and DNL's line count.
    @Test func inspectorShowsProcessesConditioningAndLines() throws {
        func entries(_ path: String) throws -> [InspectionEntry] { Inspector.inspect(try Corpus.read(path)) }
        let arithmetic = try entries("jpeg/jpegsuite/progressive_arithmetic/32x32x8_conditioning_bounds_4_6.jpg")
        #expect(arithmetic.contains { $0.name == "SOF10" && $0.detail.contains("progressive DCT, arithmetic") })
        #expect(arithmetic.contains { $0.name == "DAC" && $0.detail.contains("DC0 L 4 U 6") })
        let lossless = try entries("jpeg/jpegsuite/lossless_huffman/32x32x8_grayscale_predictor5.jpg")
        #expect(lossless.contains { $0.name == "SOF3" && $0.detail.contains("lossless, Huffman") })
        #expect(lossless.contains { $0.name == "SOS" && $0.detail.contains("predictor 5, point transform 0") })
        let dnl = try entries("jpeg/jpegsuite/baseline/32x32x8_dnl.jpg")
        #expect(dnl.contains { $0.name == "SOF0" && $0.detail.contains("height 0 (defined by DNL)") })
        #expect(dnl.contains { $0.name == "DNL" && $0.detail.contains("number of lines 32") })
        let twelve = try entries("libjpeg-turbo/testorig12.jpg")
        #expect(twelve.contains { $0.name.hasPrefix("SOF") && $0.detail.contains("precision 12") })
    }

    /// `bytes` with the DNL segment's NL written into the SOF's Y (which is 0) and the DNL
    /// segment removed; nil when the file has no such pair.
    static func withoutDNL(_ bytes: [UInt8]) -> [UInt8]? {
        var out = bytes
        var sofHeight: Int?
        var i = 2
        while i + 3 < out.count {
            guard out[i] == 0xFF else { i += 1; continue }
            let code = out[i + 1]
            if code == 0xDC, i + 5 < out.count, out[i + 2] == 0, out[i + 3] == 4, let at = sofHeight {
                out[at] = out[i + 4]
                out[at + 1] = out[i + 5]
                out.removeSubrange(i ..< i + 6)
                return out
            }
            if (0xC0...0xCF).contains(code) && ![0xC4, 0xC8, 0xCC].contains(code) && i + 6 < out.count {
                guard out[i + 5] == 0 && out[i + 6] == 0 else { return nil }
                sofHeight = i + 5
            }
            i += 2
        }
        return nil
    }

    /// imagetestsuite's real-world and fuzzed JPEGs: no crash, no hang, and every outcome is
    /// libjpeg-turbo's (the same pixels, or both refuse).
    @Test(TestTime.limit(minutes: 2))
    func imageTestSuiteMatchesLibjpegTurbo() throws {
        let files = JPEGTestSupport.corpusFiles(root: Self.root, prefixes: ["imagetestsuite/"])
        #expect(files.count >= 50, "the manifest lists \(files.count) imagetestsuite JPEGs")
        let tally = try Self.compare(files, root: Self.root, scale: 1)
        print("JPEG imagetestsuite: \(files.count) files: \(tally)"); for note in tally.notes { print("  " + note) }
        #expect(tally.differing == 0 && tally.onlyReferenceAccepts == 0 && tally.onlyWeAccept == 0)
        #expect(tally.identical + tally.bothRejected + tally.unsupportedByBoth == files.count)
    }
}

/// Files written by Conformance/generate_jpeg.sh (every sampling combination cjpeg makes,
/// arithmetic-coded variants, 12-bit and lossless files), against libjpeg-turbo at every scale. `scripts/test.sh` generates them first; skipped,
/// visibly, when they are absent.
@Suite(.enabled(if: GeneratedCorpus.jpegSamplingIsAvailable, "Conformance/generated/jpeg-sampling is absent (run Conformance/generate_jpeg.sh)"))
struct JPEGGeneratedTests {
    @Test func generatedFilesMatchLibjpegTurbo() throws {
        let folder = GeneratedCorpus.jpegSampling
        let files = GIFTest.files(under: folder).filter { $0.hasSuffix(".jpg") }.map { String($0.dropFirst(folder.count + 1)) }
        #expect(files.count >= 450, "\(files.count) generated files")
        #expect(files.filter { $0.hasPrefix("arith") }.count >= 60, "arithmetic-coded files (cjpeg -arithmetic)")
        for scale in [1, 2, 4, 8] {
            let tally = try JPEGCorpusTests.compare(files, root: folder, scale: scale)
            print("JPEG generated 1/\(scale): \(files.count) files: \(tally)")
            for note in tally.notes { print("  " + note) }
            #expect(tally.differing == 0 && tally.onlyReferenceAccepts == 0 && tally.onlyWeAccept == 0, "scale 1/\(scale)")
            // The 12-bit and lossless files of generate_jpeg_precision.py, against libjpeg-turbo 3.
            #expect(tally.byVersion3 >= 120, "scale 1/\(scale): \(tally.byVersion3) compared with libjpeg-turbo 3")
        }
    }
}

extension JPEGCorpusTests {
    /// jpeg/exif-orientation/Portrait_N.jpg carries EXIF orientation N (1…8; 0 is invalid → 1).
    @Test func exifOrientations() throws {
        for n in 0...8 {
            let bytes = try Corpus.read("jpeg/exif-orientation/Portrait_\(n).jpg")
            let decoder = JPEGDecoder(options: DecodeOptions())
            var input = InputBuffer(bytes, isClosed: true)
            _ = try decoder.advance(&input)
            #expect(decoder.properties?.orientation.rawValue == max(n, 1), "Portrait_\(n)")
            #expect(decoder.properties?.exif?.prefix(2).elementsEqual([0x4D, 0x4D]) == true || decoder.properties?.exif?.prefix(2).elementsEqual([0x49, 0x49]) == true)
        }
    }
}

extension JPEGCorpusTests {
    static let truncationSamples = [
        "jpeg/jpeg-decoder/reftest/restarts.jpg",
        "jpeg/jpeg-decoder/reftest/mozilla/jpg-size-33x33.jpg",
        "jpeg/jpegsuite/baseline/32x32x8_ycbcr.jpg",          // three scans
        "jpeg/jpegsuite/baseline/32x32x8_cmyk_interleaved.jpg",
        "jpeg/jpegsuite/baseline/32x32x8_restarts.jpg",
        "libjpeg-turbo/testorig.jpg",
        // Arithmetic coding (libjpeg-turbo 2.1.5), 12-bit and lossless (libjpeg-turbo 3).
        "libjpeg-turbo/testimgari.jpg",
        "jpeg/jpegsuite/extended_arithmetic/32x32x8_restarts.jpg",
        "jpeg/jpegsuite/progressive_arithmetic/32x32x8_ycbcr.jpg",
        "libjpeg-turbo/testorig12.jpg",
        "jpeg/jpegsuite/extended_huffman/32x32x12_ycbcr.jpg",        // three 12-bit scans
        "jpeg/jpegsuite/lossless_huffman/32x32x8_restarts.jpg",
        "jpeg/jpegsuite/lossless_huffman/32x32x16_grayscale.jpg",
        "jpeg/jpegsuite/lossless_huffman/32x32x8_rgb.jpg",
    ]

    /// Every prefix of a few corpus files: libjpeg-turbo's result (image or error) is ours.
    @Test(TestTime.limit(minutes: 2))
    func truncatedCorpusFilesMatchLibjpeg() throws {
        var compared = 0, lossyOnly = 0
        for path in Self.truncationSamples {
            let full = try Corpus.read(path)
            let step = max(1, full.count / 400)
            for length in stride(from: 2, to: full.count, by: step) {
                let prefix = Array(full.prefix(length))
                let reference = JPEGTestSupport.reference(prefix)
                switch JPEGTestSupport.decode(prefix) {
                case .success(let ours) where JPEGTestSupport.cannotOutputMissingScans(reference):
                    // PureImage shows the components decoded so far, flagged as truncated.
                    #expect(ours.truncated, "\(path) cut at \(length)")
                    lossyOnly += 1
                case .success(let ours):
                    #expect(reference.status >= 0, "\(path) cut at \(length): libjpeg says \(reference.message)")
                    let same = JPEGTestSupport.asLibjpegBytes(ours) == reference.pixels
                    #expect(same, "\(path) cut at \(length): the samples differ from \(reference.library)'s")
                case .failure(let error):
                    #expect(reference.status < 0, "\(path) cut at \(length): \(error)")
                }
                compared += 1
            }
        }
        print("JPEG truncation: \(compared) prefixes compared with libjpeg-turbo (\(lossyOnly) multi-scan lossless prefixes libjpeg-turbo 3 cannot output)")
        #expect(compared >= 1000)
    }

    /// Byte-at-a-time and odd chunk sizes give the one-shot result.
    @Test func chunkedCorpusFilesMatchOneShot() throws {
        for (index, path) in Self.truncationSamples.enumerated() {
            let full = try Corpus.read(path)
            guard case .success(let oneShot) = JPEGTestSupport.decode(full) else {
                Issue.record("\(path) does not decode one-shot")
                continue
            }
            let chunk = [1, 3, 17, 64, 500, 4096][index % 6]
            let (decoder, _) = try JPEGTestSupport.decodeInChunks(full, chunk: chunk)
            #expect(try decoder.frame(at: 0).bytes == oneShot.bitmap.bytes, "\(path) in chunks of \(chunk)")
        }
    }
}

extension JPEGCorpusTests {
    /// Seeded random byte mutations of a few small files: every outcome is an image or a
    /// typed error (a trap would end the test run), each decode ends, and each outcome is
    /// libjpeg-turbo's (same pixels, or both refuse) at full size and at 1/4.
    @Test(TestTime.limit(minutes: 3))
    func mutatedFilesMatchLibjpegTurbo() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(truncatingIfNeeded: state >> 1)
        }
        var outcomes = (images: 0, errors: 0, differing: 0, onlyOurs: 0, onlyLibjpeg: 0, missingScans: 0)
        var examples: [String] = []
        for path in Self.truncationSamples {
            let original = try Corpus.read(path)
            for mutation in 0..<300 {
                var bytes = original
                for _ in 0..<(1 + next() % 6) {
                    let at = next() % bytes.count
                    bytes[at] = next() % 3 == 0 ? 0xFF : UInt8(truncatingIfNeeded: next())
                }
                for scale in [1, 4] {
                    let reference = JPEGTestSupport.reference(bytes, scale: scale)
                    switch JPEGTestSupport.decode(bytes, scale: scale) {
                    case .success(let ours):
                        outcomes.images += 1
                        if reference.status >= 0 && JPEGTestSupport.asLibjpegBytes(ours) != reference.pixels {
                            outcomes.differing += 1
                            examples.append("\(path) mutation \(mutation) 1/\(scale): samples differ from \(reference.library)'s")
                        }
                        if JPEGTestSupport.cannotOutputMissingScans(reference) {
                            outcomes.missingScans += 1
                        } else if reference.status < 0 {
                            outcomes.onlyOurs += 1
                            examples.append("\(path) mutation \(mutation) 1/\(scale): only we decode (\(reference.library): \(reference.message))")
                        }
                    case .failure(let error):
                        outcomes.errors += 1
                        if reference.status >= 0 {
                            outcomes.onlyLibjpeg += 1
                            examples.append("\(path) mutation \(mutation) 1/\(scale): only \(reference.library) decodes (ours: \(error))")
                        }
                    }
                }
            }
        }
        print("JPEG mutations: \(outcomes.images) images, \(outcomes.errors) typed errors; against libjpeg-turbo: "
              + "\(outcomes.differing) differ, \(outcomes.onlyOurs) only we decode, \(outcomes.onlyLibjpeg) only libjpeg decodes, "
              + "\(outcomes.missingScans) lossless files with scans missing that libjpeg-turbo 3 cannot output")
        #expect(outcomes.images + outcomes.errors == Self.truncationSamples.count * 300 * 2)
        #expect(outcomes.differing == 0 && outcomes.onlyOurs == 0 && outcomes.onlyLibjpeg == 0,
                "\(examples.count) disagreements:\n\(examples.prefix(12).joined(separator: "\n"))")
        // Mutations must reach both outcomes, or the test exercises one path only.
        #expect(outcomes.images > 500 && outcomes.errors > 500)
    }
}
