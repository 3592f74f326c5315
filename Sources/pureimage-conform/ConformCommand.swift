import Foundation
import PureImage
import PureImageConformance

/// `pureimage conform [PATH ...] [--json FILE] [--report FILE.html] [--isolate] [--expectations FILE]
/// [--golden FILE] [--write-golden FILE]`
enum ConformCommand {
    static let help = """
    usage: pureimage conform [PATH ...] [--json FILE] [--report FILE.html] [--isolate]
                             [--expectations FILE] [--golden FILE] [--write-golden FILE]

    Decodes every image under each PATH with PureImage and with the reference library
    (PNG: libpng; JPEG: libjpeg-turbo; GIF: giflib plus the composition rules; TIFF: libtiff;
    WebP: libwebp's WebPDecodeRGBA, and WebPAnimDecoder for animations) and reports, file by file, whether they agree. Prints a table per format and suite.
    Default PATHs: the package's Conformance/generated and $PUREIMAGE_EXTRA_CORPUS (when set).
    --json FILE          every file's verdict, the table and totals as JSON
    --report FILE.html   a self-contained page with images and difference heat maps
    --isolate            decode each file in a child process, so a crash is counted
    --expectations FILE  allowed verdicts beyond identical/rejected-by-both/partial
                         (default: Conformance/expectations.tsv of the package this tool
                         was built from, wherever the command runs; a rule naming one file
                         also applies when PATH is a sub-folder or a parent of its corpus root)
    --golden FILE        compare each file's output digests (CRC-32 of the reference's
                         and of PureImage's pixels) with a manifest such as
                         Conformance/golden.tsv, and say which side moved: the reference
                         (a library version or platform) or the decoder
    --write-golden FILE  write this run's digests, library versions and machine as a
                         manifest (make it on the corpus root: pureimage conform
                         ../shared/corpus --write-golden Conformance/golden.tsv)
    Exit status 0 when every verdict is within the expectations and (with --golden) no
    decoder output moved, 1 otherwise, 2 usage.
    """

    /// A file of the package this tool was built from, found from this source file's path at
    /// build time (`#filePath`: Sources/pureimage/ConformCommand.swift), so the defaults do not
    /// depend on the working directory.
    static func packageFile(_ relative: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(relative).path
    }

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, valued: ["--json", "--report", "--expectations", "--golden", "--write-golden"],
                                   allowedFlags: ["--isolate", "--help", "-h"])
        if parsed.has("--help") || parsed.has("-h") { print(help); return ExitStatus.success }
        var roots = parsed.positional
        if roots.isEmpty {
            let generated = packageFile("Conformance/generated")
            if CorpusWalk.isDirectory(generated) { roots.append(generated) }
            if let extra = ProcessInfo.processInfo.environment["PUREIMAGE_EXTRA_CORPUS"], !extra.isEmpty { roots.append(extra) }
        }
        guard !roots.isEmpty else {
            throw UsageError(message: "no PATH given, no Conformance/generated folder and no PUREIMAGE_EXTRA_CORPUS")
        }
        for root in roots where !CorpusWalk.isDirectory(root) {
            throw UsageError(message: "\(root) is not a folder")
        }
        var golden: GoldenDigests?
        if let goldenPath = parsed.value("--golden") {
            guard let bytes = try? ImageFiles.read(goldenPath) else { throw UsageError(message: "cannot read \(goldenPath)") }
            do {
                golden = try GoldenDigests(parsing: String(decoding: bytes, as: UTF8.self))
            } catch {
                throw UsageError(message: "\(goldenPath): \(error)")
            }
        }
        let expectationsPath = parsed.value("--expectations") ?? packageFile("Conformance/expectations.tsv")
        var expectations = Expectations()
        if let bytes = try? ImageFiles.read(expectationsPath) {
            expectations = Expectations(parsing: String(decoding: bytes, as: UTF8.self))
        } else if parsed.value("--expectations") != nil {
            throw UsageError(message: "cannot read \(expectationsPath)")
        } else {
            printError("conform: warning: no expectations file (\(expectationsPath) is missing; give one with --expectations FILE): "
                       + "every verdict other than identical, rejected-by-both, partial and no-reference counts as unexpected")
        }

        let interactive = isatty(2) != 0
        let isolate = parsed.has("--isolate")
        var run = ConformanceRun()
        for root in roots {
            let cleanRoot = root.hasSuffix("/") ? String(root.dropLast()) : root
            run.add(root: cleanRoot, expectations: expectations,
                    compareFile: isolate ? { path, relative, suite in Isolation.compare(path: path, relativePath: relative, suite: suite) } : nil,
                    progress: interactive ? { index, count, path in
                        printProgress("\r\u{1B}[K[\(index)/\(count)] \(cleanRoot)/\(path)")
                    } : nil)
        }
        if interactive { printProgress("\r\u{1B}[K") }

        print(run.table())
        for report in run.unexpected.prefix(60) {
            print("UNEXPECTED \(report.suite) \(report.relativePath): \(report.verdict.rawValue): \(report.detail)")
        }
        if run.unexpected.count > 60 { print("… and \(run.unexpected.count - 60) more (see --json)") }
        if let jsonPath = parsed.value("--json") {
            try FileIO.write(Array(run.json().serialized().utf8), to: jsonPath)
        }
        if let reportPath = parsed.value("--report") {
            try FileIO.write(Array(HTMLReport.render(run).utf8), to: reportPath)
        }
        if let goldenPath = parsed.value("--write-golden") {
            try FileIO.write(Array(GoldenDigests(run: run, environment: .current).serialized().utf8), to: goldenPath)
        }
        var goldenHolds = true
        if let golden {
            let check = golden.check(run, current: .current)
            print(check.summary())
            goldenHolds = check.decoderUnchanged
        }
        let totals = run.totals
        print("conform: \(totals.files) images: \(totals.counts[.identical] ?? 0) identical, \(run.unexpected.count) outside the expectations")
        return run.unexpected.isEmpty && goldenHolds ? ExitStatus.success : ExitStatus.invalidInput
    }

    static func printProgress(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
}

/// `--isolate`: each file is compared by `pureimage conform-one FILE RELATIVE SUITE` in a child
/// process, which prints its verdict as `key=value` lines; a child killed by a signal is a crash.
enum Isolation {
    static func compare(path: String, relativePath: String, suite: String) -> FileReport {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0].contains("/") ? CommandLine.arguments[0] : "/proc/self/exe")
        process.arguments = ["conform-one", path, relativePath, suite]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        var report = FileReport(path: path, relativePath: relativePath, suite: suite, format: "unknown",
                                verdict: .crashed, detail: "", frames: 0)
        do {
            try process.run()
        } catch {
            report.detail = "could not start the child process: \(error)"
            return report
        }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal {
            report.format = FormatSniffer.sniff((try? ImageFiles.read(path))?.prefix(16) ?? []).formatName
            report.detail = "child process killed by signal \(process.terminationStatus)"
            return report
        }
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals], value = String(line[line.index(after: equals)...])
            switch key {
            case "verdict": report.verdict = Verdict(rawValue: value) ?? .crashed
            case "format": report.format = value
            case "frames": report.frames = Int(value) ?? 0
            case "detail": report.detail = value
            case "oursDigest": report.oursDigest = UInt32(value, radix: 16)
            case "referenceDigest": report.referenceDigest = UInt32(value, radix: 16)
            case "difference":
                let numbers = value.split(separator: ",").compactMap { Int($0) }
                if numbers.count == 8 {
                    report.difference = PixelDifference(x: numbers[0], y: numbers[1], channel: numbers[2], ours: numbers[3],
                                                        reference: numbers[4], maxDifference: numbers[5], differingSamples: numbers[6])
                    report.differingFrame = numbers[7]
                }
            default: break
            }
        }
        return report
    }

    /// The child side.
    static func runChild(_ arguments: [String]) -> Int32 {
        guard arguments.count == 3, let bytes = try? ImageFiles.read(arguments[0]) else { return ExitStatus.usage }
        let report = FileComparison.compare(bytes: bytes, path: arguments[0], relativePath: arguments[1], suite: arguments[2])
        var lines = ["verdict=\(report.verdict.rawValue)", "format=\(report.format)", "frames=\(report.frames)",
                     "detail=\(report.detail.replacingOccurrences(of: "\n", with: " "))"]
        if let digest = report.oursDigest { lines.append("oursDigest=\(String(digest, radix: 16))") }
        if let digest = report.referenceDigest { lines.append("referenceDigest=\(String(digest, radix: 16))") }
        if let d = report.difference {
            lines.append("difference=\(d.x),\(d.y),\(d.channel),\(d.ours),\(d.reference),\(d.maxDifference),\(d.differingSamples),\(report.differingFrame ?? 0)")
        }
        print(lines.joined(separator: "\n"))
        return ExitStatus.success
    }
}

extension FormatSniffer.Result {
    var formatName: String {
        switch self {
        case .format(let format), .nearMiss(let format): return format.rawValue
        case .needMoreBytes, .unknown: return "unknown"
        }
    }
}
