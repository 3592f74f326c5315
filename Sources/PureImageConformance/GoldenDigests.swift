import CReference
import Foundation

/// CRC-32s of what each side of a comparison produced, so a later run can say which side moved.
///
/// A file's digest is zlib's CRC-32 over every image the comparison looked at, in order: per
/// image a 16-byte header (width, height, channels and bits per sample as 32-bit little-endian
/// integers) and then its samples as compared (16-bit samples in host order, which is
/// little-endian on every machine the reference libraries are compared on). For TIFF the
/// decoded-samples comparison (`SampleComparison`) is folded in after the RGBA images.
enum OutputDigest {
    static func adding(_ image: ComparableImage, to digest: UInt32?) -> UInt32 {
        adding(header: [image.width, image.height, image.channels, image.bits], samples: image.samples, to: digest)
    }

    static func adding(header: [Int], samples: [UInt8], to digest: UInt32?) -> UInt32 {
        var headerBytes: [UInt8] = []
        for value in header {
            let word = UInt32(truncatingIfNeeded: value)
            headerBytes += [UInt8(word & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word >> 16 & 0xFF), UInt8(word >> 24)]
        }
        var crc = headerBytes.withUnsafeBufferPointer { pi_ref_crc32(digest ?? 0, $0.baseAddress, $0.count) }
        crc = samples.withUnsafeBufferPointer { pi_ref_crc32(crc, $0.baseAddress, $0.count) }
        return crc
    }

    /// Eight lowercase hex digits, or "-" when that side produced nothing.
    static func text(_ digest: UInt32?) -> String {
        guard let digest else { return "-" }
        let hex = String(digest, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}

/// The reference libraries and machine a run used (recorded in, and compared with, the manifest).
public struct ReferenceEnvironment: Sendable, Equatable {
    /// "libpng 1.6.39; libjpeg-turbo 2.1.5; giflib 5.2.1; libtiff 4.5.0; libwebp 1.2.4; libjpeg-turbo 3 …".
    public var libraries: String
    /// Architecture and the SIMD code libjpeg-turbo picks on it, e.g. "x86_64, SIMD AVX2".
    public var machine: String

    public init(libraries: String, machine: String) {
        self.libraries = libraries
        self.machine = machine
    }

    /// This process's libraries and machine.
    public static var current: ReferenceEnvironment {
        var buffer = [CChar](repeating: 0, count: 256)
        pi_ref_library_versions(&buffer, buffer.count)
        var libraries = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        libraries += "; " + (LibjpegTurbo3.version ?? "libjpeg-turbo 3 unavailable")
        return ReferenceEnvironment(libraries: libraries, machine: machineDescription())
    }

    /// libjpeg-turbo chooses its SIMD code at run time from the CPU (x86-64: AVX2 when the CPU
    /// and OS have it, else SSE2; Arm: Neon) unless `JSIMD_FORCE…` variables say otherwise; its
    /// islow output is the same either way, which is what a manifest made on another machine checks.
    static func machineDescription() -> String {
        var system = utsname()
        uname(&system)
        let architecture = withUnsafeBytes(of: &system.machine) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let flags = Set(((try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? "")
            .split(separator: "\n")
            .first { $0.hasPrefix("flags") || $0.hasPrefix("Features") }?
            .split(separator: " ").map(String.init) ?? [])
        let environment = ProcessInfo.processInfo.environment
        let forced = ["JSIMD_FORCENONE", "JSIMD_FORCESSE2", "JSIMD_FORCEAVX2", "JSIMD_FORCENEON"]
            .first { environment[$0] == "1" }
        let simd: String
        if let forced {
            simd = forced
        } else if architecture == "x86_64" {
            simd = flags.contains("avx2") ? "AVX2" : "SSE2"
        } else if architecture == "aarch64" || architecture.hasPrefix("arm") {
            simd = flags.contains("asimd") || flags.contains("neon") ? "Neon" : "none"
        } else {
            simd = "unknown"
        }
        return "\(architecture), libjpeg-turbo SIMD \(simd)"
    }
}

extension FileReport {
    /// The manifest's key: the corpus root's name and the path below it (`corpus/pngsuite/x.png`).
    public var goldenKey: String {
        (suite.split(separator: "/").first.map(String.init) ?? "") + "/" + relativePath
    }
}

/// `Conformance/golden.tsv`: for every file of the shared corpus, the digests of the reference
/// library's output and of PureImage's, with the library versions and machine they were made
/// with. A run elsewhere compares its digests with these: a reference digest that moved while
/// ours did not is the reference's change (a library version, a SIMD path); ours moving is a
/// decoder change, whatever the verdict says.
public struct GoldenDigests: Sendable {
    public struct Entry: Sendable, Equatable {
        public var format: String
        public var verdict: String
        public var reference: String
        public var ours: String
    }

    public var environment: ReferenceEnvironment
    public var entries: [String: Entry] = [:]

    static let header = """
        # PureImage golden digests (pureimage conform PATH --write-golden FILE; checked by --golden FILE).
        # Per file: zlib CRC-32 over each compared image (width, height, channels, bits as 32-bit
        # little-endian, then the samples as compared; TIFF's decoded samples after), "-" for none.
        """

    /// The digests of `run`, made in `environment`.
    public init(run: ConformanceRun, environment: ReferenceEnvironment) {
        self.environment = environment
        for report in run.reports {
            entries[report.goldenKey] = Entry(format: report.format, verdict: report.verdict.rawValue,
                                              reference: OutputDigest.text(report.referenceDigest),
                                              ours: OutputDigest.text(report.oursDigest))
        }
    }

    public struct ParseError: Error, CustomStringConvertible {
        public var line: Int
        public var text: String
        public var description: String { "golden manifest line \(line): \(text)" }
    }

    /// Reads a manifest written by `serialized()`.
    public init(parsing text: String) throws {
        environment = ReferenceEnvironment(libraries: "", machine: "")
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if line.hasPrefix("#") {
                if columns.count == 2 && columns[0] == "# libraries" { environment.libraries = columns[1] }
                if columns.count == 2 && columns[0] == "# machine" { environment.machine = columns[1] }
                continue
            }
            guard columns.count == 5, columns[3].count == 8 || columns[3] == "-", columns[4].count == 8 || columns[4] == "-" else {
                throw ParseError(line: index + 1, text: "expected file, format, verdict, reference and ours digests separated by tabs")
            }
            entries[columns[0]] = Entry(format: columns[1], verdict: columns[2], reference: columns[3], ours: columns[4])
        }
        guard !environment.libraries.isEmpty else {
            throw ParseError(line: 1, text: "no \"# libraries\" line")
        }
    }

    /// The manifest's text, sorted by file.
    public func serialized() -> String {
        var lines = [Self.header, "# libraries\t\(environment.libraries)", "# machine\t\(environment.machine)",
                     "# file\tformat\tverdict\treference\tours"]
        for key in entries.keys.sorted() {
            guard let entry = entries[key] else { continue }
            lines.append([key, entry.format, entry.verdict, entry.reference, entry.ours].joined(separator: "\t"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// How `run` (made in `current`) compares with the manifest. A run over a folder inside the
    /// corpus (`conform ../shared/corpus/webp`) is matched by the path's tail. (Not by the path
    /// below the root alone: `generated/jpeg/a.jpg` must not pass for `corpus/jpeg/a.jpg`.)
    public func check(_ run: ConformanceRun, current: ReferenceEnvironment) -> GoldenCheck {
        var check = GoldenCheck(manifest: environment, current: current)
        var seen = Set<String>()
        var walkedFolders = Set<String>()   // the run's roots, as manifest paths
        let tails = uniqueTails()
        for report in run.reports {
            let key = entries[report.goldenKey] != nil ? report.goldenKey : tails[report.goldenKey]
            guard let key, let entry = entries[key] else {
                check.notInManifest += 1
                continue
            }
            seen.insert(key)
            walkedFolders.insert(String(key.dropLast(report.relativePath.count + 1)))
            let referenceMoved = entry.reference != OutputDigest.text(report.referenceDigest)
            let oursMoved = entry.ours != OutputDigest.text(report.oursDigest)
            switch (referenceMoved, oursMoved) {
            case (false, false): check.unchanged += 1
            case (true, false): check.referenceChanged.append(key)
            case (false, true): check.decoderChanged.append(key)
            case (true, true): check.bothChanged.append(key)
            }
        }
        // Files the manifest lists under a folder this run walked, which the run did not see.
        check.missing = entries.keys.filter { key in
            !seen.contains(key) && walkedFolders.contains { key.hasPrefix($0 + "/") }
        }.sorted()
        return check
    }

    /// Each manifest key under every shorter name it ends with (`webp/a.webp` and `a.webp` for
    /// `corpus/webp/a.webp`), kept only where one key has that tail.
    private func uniqueTails() -> [String: String] {
        var tails: [String: String] = [:]
        var ambiguous = Set<String>()
        for key in entries.keys {
            var tail = Substring(key)
            while let slash = tail.firstIndex(of: "/") {
                tail = tail[tail.index(after: slash)...]
                let name = String(tail)
                if tails[name] == nil { tails[name] = key } else { ambiguous.insert(name) }
            }
        }
        for name in ambiguous { tails[name] = nil }
        return tails
    }
}

/// The outcome of checking a run against the manifest.
public struct GoldenCheck: Sendable {
    public var manifest: ReferenceEnvironment
    public var current: ReferenceEnvironment
    public var unchanged = 0
    /// Only the reference library's output moved: a library or platform change.
    public var referenceChanged: [String] = []
    /// Only PureImage's output moved.
    public var decoderChanged: [String] = []
    public var bothChanged: [String] = []
    /// Files of the run the manifest does not list, and manifest files the run did not see.
    public var notInManifest = 0
    public var missing: [String] = []

    /// PureImage's output is what the manifest recorded for every file it lists.
    public var decoderUnchanged: Bool { decoderChanged.isEmpty && bothChanged.isEmpty && missing.isEmpty }

    /// A summary for the terminal: counts, then the files that moved (at most `limit` per kind).
    public func summary(limit: Int = 20) -> String {
        var lines = ["golden: \(unchanged) unchanged, \(referenceChanged.count) reference changed, \(decoderChanged.count) decoder changed, \(bothChanged.count) both changed, \(missing.count) missing from this run, \(notInManifest) not in the manifest"]
        if manifest.libraries != current.libraries {
            lines.append("golden: libraries differ — manifest: \(manifest.libraries); this run: \(current.libraries)")
        }
        if manifest.machine != current.machine {
            lines.append("golden: machine differs — manifest: \(manifest.machine); this run: \(current.machine)")
        }
        for (title, keys) in [("reference changed", referenceChanged), ("DECODER CHANGED", decoderChanged),
                              ("BOTH CHANGED", bothChanged), ("MISSING", missing)] {
            for key in keys.prefix(limit) { lines.append("golden: \(title): \(key)") }
            if keys.count > limit { lines.append("golden: … and \(keys.count - limit) more \(title.lowercased())") }
        }
        return lines.joined(separator: "\n")
    }
}
