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
@Suite("GIF corpus vs giflib")
struct GIFCorpusTests {
    @Test func corpusMatchesGiflib() throws {
        guard let root = getenv("PUREIMAGE_CORPUS").map({ String(cString: $0) }) else { return }
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
    @Test func corpusTruncationsAndCorruptionsNeverCrash() throws {
        guard let root = getenv("PUREIMAGE_CORPUS").map({ String(cString: $0) }) else { return }
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
    }
}

/// The pygif test suite's own expectations (`*.conf` + raw RGBA frames): composed canvases and
/// delays, where its expectations use the same rules as ours. Files whose `.conf` lists no
/// frames (the suite's "undefined behaviour" cases) are skipped, and so are files where pygif
/// merges images without a delay into one displayed frame (a different frame model). pygif paints the background
/// colour on disposal 2 and the initial canvas; where that differs from transparent we compare
/// colour only on opaque pixels of our canvas and report the rest.
@Suite("GIF pygif expectations")
struct GIFPygifTests {
    @Test func composedFramesMatchPygif() throws {
        guard let root = getenv("PUREIMAGE_CORPUS").map({ String(cString: $0) }) else { return }
        let folder = root + "/gif/pygif-test-suite"
        let confs = GIFTest.files(under: folder).filter { $0.hasSuffix(".conf") }
        var matched = 0, mismatched: [String] = [], skipped = 0
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
                  let width = config["width"].flatMap({ Int($0) }) else { skipped += 1; continue }
            let frames = frameList.split(separator: ",").map(String.init)
            let decoded = GIFTest.decode(try ImageFiles.read(folder + "/" + input))
            guard decoded.error == nil else { mismatched.append("\(input): rejected (\(decoded.error.map { "\($0)" } ?? ""))"); continue }
            var problems: [String] = []
            if decoded.decoder.availableFrameCount != frames.count {
                // pygif merges images that have no delay into the next displayed frame; we (like
                // giflib and ImageIO) count every image. Nothing to compare frame by frame.
                mismatched.append("\(input): frame model differs (pygif \(frames.count) displayed frames, \(decoded.decoder.availableFrameCount) images)")
                continue
            }
            for (i, name) in frames.enumerated() where i < decoded.decoder.availableFrameCount {
                guard let section = sections[name], let pixels = section["pixels"] else { continue }
                let expected = try ImageFiles.read(folder + "/" + pixels)
                let ours = try decoded.decoder.frame(at: i).bytes
                if let delay = section["delay"].flatMap({ Int($0) }), decoded.decoder.frameInfo(at: i)?.delayCentiseconds != delay {
                    problems.append("frame \(i) delay")
                }
                if ours != expected {
                    // Compare colour where we are opaque; pygif's background fill shows where we are transparent.
                    var colourDiffers = false
                    for p in stride(from: 0, to: min(ours.count, expected.count), by: 4) where ours[p + 3] == 255 && ours[p ..< p + 4] != expected[p ..< p + 4] {
                        colourDiffers = true
                    }
                    problems.append("frame \(i) " + (colourDiffers ? "COLOURS DIFFER: " + (GIFTest.firstDifference(ours, expected, width: width) ?? "") : "differs only where our canvas is transparent (background fill)"))
                }
            }
            if problems.isEmpty { matched += 1 } else { mismatched.append("\(input): " + problems.joined(separator: "; ")) }
        }
        for line in mismatched { print("GIF pygif: \(line)") }
        print("GIF pygif summary: \(matched) match / \(mismatched.count) differ / \(skipped) without expected frames")
        #expect(!mismatched.contains { $0.contains("COLOURS DIFFER") })
    }
}
