@testable import PureImage
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every GIF under `$PUREIMAGE_CORPUS` against giflib (`pi_ref_gif_decode`): frame count,
/// each frame's pixels (indices through the active table, transparency as alpha) against our
/// un-composed frame, delays, disposal, transparent index, loop count; and our composed canvas
/// against `GIFTest.referenceCanvases` built from giflib's frames.
///
/// Where giflib stops with an error after some frames (status 1), only the frames it returned
/// are compared (we keep reading after a damaged frame, as browsers do — Docs/GIF.md).
@Suite("GIF corpus vs giflib", .enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
struct GIFCorpusTests {
    @Test func corpusMatchesGiflib() throws {
        let root = Corpus.root ?? "."
        let paths = GIFTest.files(under: root).filter { path in
            guard let bytes = try? ImageFiles.read(path) else { return false }
            return path.lowercased().hasSuffix(".gif") || bytes.starts(with: Array("GIF8".utf8))
        }
        var identical = 0, differing = 0, rejected = 0, giflibRejected = 0, bothRejected = 0
        var problems: [String] = []
        var notes: [String] = []
        for path in paths {
            let bytes = try ImageFiles.read(path)
            let reference = GIFTest.reference(bytes)
            let ours = GIFTest.decode(bytes)
            let decoder = ours.decoder
            if reference.status < 0 {
                if ours.error != nil { bothRejected += 1 } else { giflibRejected += 1 }
                // No reference; still render every frame (no crash, no hang).
                for i in 0 ..< decoder.availableFrameCount { _ = try? decoder.frame(at: i) }
                let outcome = ours.error.map { "rejected: \($0)" } ?? "\(decoder.availableFrameCount) frames, \(decoder.warnings.count) warnings"
                notes.append("\(path): giflib rejects (\(reference.message)); ours: \(outcome)")
                continue
            }
            if let error = ours.error {
                rejected += 1
                problems.append("\(path): rejected (\(error)); giflib: \(reference.frames.count) frames, \(reference.message)")
                continue
            }
            var issues: [String] = []
            let count = reference.frames.count
            if reference.status == 0 && decoder.availableFrameCount != count {
                issues.append("frame count \(decoder.availableFrameCount) vs giflib \(count)")
            }
            if reference.status == 1 && decoder.availableFrameCount < count {
                issues.append("frame count \(decoder.availableFrameCount) < giflib's \(count) complete frames")
            }
            if reference.status == 0 && decoder.properties?.loopCount != reference.loopCount {
                issues.append("loop count \(String(describing: decoder.properties?.loopCount)) vs giflib \(String(describing: reference.loopCount))")
            }
            let canvases = GIFTest.referenceCanvases(width: reference.width, height: reference.height, frames: reference.frames)
            for (i, frame) in reference.frames.enumerated() where i < decoder.availableFrameCount {
                guard let info = decoder.frameInfo(at: i) else { continue }
                if (info.left, info.top, info.width, info.height) != (frame.left, frame.top, frame.width, frame.height) {
                    issues.append("frame \(i): rectangle differs"); continue
                }
                if info.delayCentiseconds != frame.delay || info.disposalValue != frame.disposal || info.transparentIndex != frame.transparent {
                    issues.append("frame \(i): GCE delay/disposal/transparent \(info.delayCentiseconds)/\(info.disposalValue)/\(String(describing: info.transparentIndex)) vs \(frame.delay)/\(frame.disposal)/\(String(describing: frame.transparent))")
                }
                let timing = decoder.properties?.frames[i].delay ?? -1
                if timing != Double(frame.delay) / 100 { issues.append("frame \(i): FrameTiming \(timing)") }
                let raw = try decoder.rawFrame(at: i)
                if let difference = GIFTest.firstDifference(raw.bytes, frame.rgba, width: frame.width) {
                    issues.append("frame \(i) pixels: \(difference)")
                }
                let composed = try decoder.frame(at: i)
                if let difference = GIFTest.firstDifference(composed.bytes, canvases[i], width: reference.width) {
                    issues.append("frame \(i) canvas: \(difference)")
                }
            }
            if reference.status == 1 {
                notes.append("\(path): giflib partial (\(reference.frames.count) frames, \(reference.message)); ours: \(decoder.availableFrameCount) frames, first warning: \(decoder.warnings.first.map { "\($0)" } ?? "none")")
            }
            if issues.isEmpty { identical += 1 } else {
                differing += 1
                problems.append("\(path): " + issues.prefix(3).joined(separator: "; "))
            }
        }
        for note in notes { print("GIF corpus note: \(note)") }
        for problem in problems { print("GIF corpus: \(problem)") }
        print("GIF corpus summary: \(paths.count) files: identical \(identical) / differing \(differing) / rejected \(rejected) / giflib-rejected \(giflibRejected) (both rejected \(bothRejected))")
        #expect(differing == 0)
        #expect(rejected == 0)
    }

    /// Malformed files made from every corpus GIF: truncated at ~40 points and with bytes
    /// overwritten at seeded random places. Nothing may crash or hang; what decodes must render.
    @Test(TestTime.limit(minutes: 3))
    func corpusTruncationsAndCorruptionsNeverCrash() throws {
        let root = Corpus.root ?? "."
        let paths = GIFTest.files(under: root).filter { $0.lowercased().hasSuffix(".gif") }
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Int {
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
            return Int(truncatingIfNeeded: seed >> 1)
        }
        var variants = 0, decoded = 0
        for path in paths {
            let bytes = try ImageFiles.read(path)
            guard bytes.count > 13 else { continue }
            var inputs: [[UInt8]] = []
            for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 40)) { inputs.append(Array(bytes.prefix(length))) }
            for _ in 0 ..< 20 {
                var corrupt = bytes
                for _ in 0 ..< 1 + next() % 3 { corrupt[6 + next() % (corrupt.count - 6)] = UInt8(truncatingIfNeeded: next()) }
                inputs.append(corrupt)
            }
            for input in inputs {
                variants += 1
                let result = GIFTest.decode(input)
                if result.error == nil { decoded += 1 }
                for i in 0 ..< min(result.decoder.availableFrameCount, 64) { _ = try? result.decoder.frame(at: i) }
                _ = Inspector.inspect(input)
            }
        }
        print("GIF corpus malformed: \(variants) variants of \(paths.count) files, \(decoded) decoded (partially or fully), no crash")
        #expect(paths.count >= 150 && variants >= paths.count * 40)
        // Truncations and corruptions reach both outcomes (decoded and refused).
        #expect(decoded > variants / 4 && decoded < variants)
    }
}

/// The pygif test suite's own expectations (`*.conf` + raw RGBA frames), for every file whose
/// `.conf` lists frames: the number of displayed frames, each one's delay and pixels.
///
/// Two differences of model, both checked exactly rather than skipped:
/// - pygif shows images without a delay together with the next one (one displayed frame)
///   unless the `.conf` says `force-animation = yes`; we, like giflib and ImageIO, count every
///   image. Displayed frame k is compared with our canvas after the k-th image that has a delay
///   (or the last image).
/// - pygif paints the background colour on the initial canvas and on disposal 2; browsers (and
///   we) leave those pixels transparent. Where our canvas is transparent, pygif's pixel must be
///   transparent or the background colour; everywhere else the pixels must be equal.
@Suite("GIF pygif expectations", .enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
struct GIFPygifTests {
    @Test func composedFramesMatchPygif() throws {
        let folder = (Corpus.root ?? ".") + "/gif/pygif-test-suite"
        let confs = GIFTest.files(under: folder).filter { $0.hasSuffix(".conf") }
        #expect(confs.count >= 80, "\(confs.count) .conf files")
        var matched = 0, mismatched: [String] = [], withoutFrames = 0
        for conf in confs {
            let text = String(decoding: try ImageFiles.read(conf), as: UTF8.self)
            var sections: [String: [String: String]] = [:]
            var current = ""
            for line in text.split(separator: "\n") {
                let trimmed = String(line)
                if trimmed.hasPrefix("#") { continue }
                if trimmed.hasPrefix("[") { current = String(trimmed.dropFirst().dropLast()); continue }
                guard let eq = trimmed.firstIndex(of: "=") else { continue }
                let key = String(trimmed[..<eq]).filter { $0 != " " }
                let value = String(trimmed[trimmed.index(after: eq)...]).drop { $0 == " " }
                sections[current, default: [:]][key] = String(value)
            }
            guard let config = sections["config"], let input = config["input"],
                  let frameList = config["frames"], !frameList.isEmpty,
                  let width = config["width"].flatMap({ Int($0) }) else { withoutFrames += 1; continue }
            let frames = frameList.split(separator: ",").map(String.init)
            let background = config["background"].flatMap(Self.rgb)
            let decoded = GIFTest.decode(try ImageFiles.read(folder + "/" + input))
            guard decoded.error == nil else { mismatched.append("\(input): rejected (\(decoded.error.map { "\($0)" } ?? ""))"); continue }
            let decoder = decoded.decoder
            // Our image shown as each of pygif's displayed frames: every image with
            // `force-animation`, else the images with a delay, and the last one.
            var shown = Array(0 ..< decoder.availableFrameCount)
            if config["force-animation"] != "yes" {
                shown = shown.filter { (decoder.frameInfo(at: $0)?.delayCentiseconds ?? 0) > 0 }
                if let last = (0 ..< decoder.availableFrameCount).last, shown.last != last { shown.append(last) }
            }
            guard shown.count == frames.count else {
                mismatched.append("\(input): \(frames.count) displayed frames expected, \(shown.count) shown of \(decoder.availableFrameCount) images")
                continue
            }
            var problems: [String] = []
            for (k, name) in frames.enumerated() {
                guard let section = sections[name], let pixels = section["pixels"] else {
                    problems.append("frame \(k): no pixels in the .conf")
                    continue
                }
                let expected = try ImageFiles.read(folder + "/" + pixels)
                let ours = try decoder.frame(at: shown[k]).bytes
                if let delay = section["delay"].flatMap({ Int($0) }), decoder.frameInfo(at: shown[k])?.delayCentiseconds != delay {
                    problems.append("frame \(k) delay \(decoder.frameInfo(at: shown[k])?.delayCentiseconds ?? -1), expected \(delay)")
                }
                guard ours.count == expected.count else {
                    problems.append("frame \(k): \(ours.count) bytes, expected \(expected.count)")
                    continue
                }
                for p in stride(from: 0, to: ours.count, by: 4) where ours[p ..< p + 4] != expected[p ..< p + 4] {
                    let transparentHere = ours[p + 3] == 0
                    let pygifBackground = expected[p + 3] == 255 && background.map { Array(expected[p ..< p + 3]) == $0 } == true
                    if transparentHere && (expected[p + 3] == 0 || pygifBackground) { continue }
                    problems.append("frame \(k): " + (GIFTest.firstDifference(ours, expected, width: width) ?? "pixel \(p / 4) differs"))
                    break
                }
            }
            if problems.isEmpty { matched += 1 } else { mismatched.append("\(input): " + problems.joined(separator: "; ")) }
        }
        for line in mismatched { print("GIF pygif: \(line)") }
        print("GIF pygif summary: \(matched) match / \(mismatched.count) differ / \(withoutFrames) without expected frames")
        #expect(mismatched.isEmpty)
        #expect(matched + withoutFrames == confs.count)
    }

    /// `#rrggbb` → [r, g, b].
    static func rgb(_ text: String) -> [UInt8]? {
        guard text.hasPrefix("#"), text.count == 7, let value = Int(text.dropFirst(), radix: 16) else { return nil }
        return [UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
