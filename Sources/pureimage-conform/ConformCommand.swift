import CommandLineSupport
import Foundation
import PureImage
import PureImageConformance

/// `pureimage-conform [PATH ...] [--json FILE] [--report FILE.html] [--isolate] [--jobs N]
/// [--shard K/N] [--merge JSON ...] [--expectations FILE] [--golden FILE] [--write-golden FILE]`
/// (also reached as `pureimage conform …`)
enum ConformCommand {
    static let help = """
    usage: pureimage-conform [PATH ...] [--json FILE] [--report FILE.html] [--isolate]
                             [--jobs N] [--shard K/N] [--merge]
                             [--expectations FILE] [--golden FILE] [--write-golden FILE]
           (or `pureimage conform …`, which runs this tool)

    Decodes every image under each PATH with PureImage and with the reference library
    (PNG: libpng; JPEG: libjpeg-turbo; GIF: giflib plus the composition rules; TIFF: libtiff;
    WebP: libwebp's WebPDecodeRGBA, and WebPAnimDecoder for animations) and reports, file by file, whether they agree. Prints a table per format and suite.
    Default PATHs: the package's Conformance/generated and $PUREIMAGE_EXTRA_CORPUS (when set).
    --json FILE          every file's verdict, the table and totals as JSON
    --report FILE.html   a page to browse the results: summary, filters, entries grouped by
                         verdict with their images and difference maps (the images go to
                         the folder FILE.html.files beside it; open FILE.html from disk)
    --isolate            decode each file in a child process, so a crash is counted
    --jobs N             compare N files at a time (default: one per core); the results and
                         their order do not depend on N
    --shard K/N          compare only shard K of N: file i of the walk over all PATHs belongs
                         to shard (i mod N) + 1, so N jobs, on any machines, split a corpus
                         deterministically; write each one's --json
    --merge              the PATHs are --json files of the N shards of one split: put them
                         back together (same verdicts, order and totals as one run) and
                         print, --json, --report, --golden or --write-golden as one run
                         would (--report compares the non-identical files again for their
                         images, so their corpus must still be where the shards saw it)
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
    /// build time (`#filePath`: Sources/pureimage-conform/ConformCommand.swift), so the defaults do not
    /// depend on the working directory.
    static func packageFile(_ relative: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(relative).path
    }

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, valued: ["--json", "--report", "--expectations", "--golden", "--write-golden", "--jobs", "--shard"],
                                   allowedFlags: ["--isolate", "--merge", "--help", "-h"])
        if parsed.has("--help") || parsed.has("-h") { print(help); return ExitStatus.success }
        var jobs = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        if let text = parsed.value("--jobs") {
            guard let value = Int(text), (1...256).contains(value) else { throw UsageError(message: "--jobs takes a number from 1 to 256") }
            jobs = value
        }
        var shard = Shard.whole
        if let text = parsed.value("--shard") {
            guard let value = Shard(parsing: text) else { throw UsageError(message: "--shard takes K/N with 1 ≤ K ≤ N, e.g. 2/8") }
            shard = value
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
        let interactive = isatty(2) != 0
        var run: ConformanceRun
        if parsed.has("--merge") {
            guard parsed.value("--shard") == nil else { throw UsageError(message: "--merge and --shard do not go together") }
            run = try merge(parsed.positional, reportImages: parsed.value("--report") != nil, jobs: jobs)
        } else {
            run = try compare(parsed, shard: shard, jobs: jobs, interactive: interactive)
        }
        return try finish(run, parsed, golden: golden)
    }

    struct MergeInputError: Error, CustomStringConvertible {
        let description: String
    }

    /// The --json files of a split, merged.
    static func merge(_ paths: [String], reportImages: Bool, jobs: Int) throws -> ConformanceRun {
        guard !paths.isEmpty else { throw UsageError(message: "--merge needs the --json files of the shards") }
        var documents: [JSONValue] = []
        for path in paths {
            guard let bytes = try? ImageFiles.read(path) else { throw UsageError(message: "cannot read \(path)") }
            do {
                documents.append(try JSONValue(parsing: String(decoding: bytes, as: UTF8.self)))
            } catch {
                throw MergeInputError(description: "\(path): \(error)")
            }
        }
        var run = try ConformanceRun(merging: documents)   // a missing or repeated shard: exit 1
        if reportImages { run.compareAgainForImages(jobs: jobs) }
        return run
    }

    static func compare(_ parsed: Arguments, shard: Shard, jobs: Int, interactive: Bool) throws -> ConformanceRun {
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

        let isolate = parsed.has("--isolate")
        var run = ConformanceRun()
        run.shard = shard
        printError("conform: \(roots.joined(separator: ", "))\(shard == .whole ? "" : ", shard \(shard)"), \(jobs) job\(jobs == 1 ? "" : "s")")
        let isolated: @Sendable (String, String, String) -> FileReport = { path, relative, suite in
            Isolation.compare(path: path, relativePath: relative, suite: suite)
        }
        let counter: @Sendable (Int, Int, String) -> Void = { done, count, path in
            printProgress("\r\u{1B}[K[\(done)/\(count)] \(path)")
        }
        // In a log (not a terminal): a line at every tenth of the files, on stderr.
        let tenths: @Sendable (Int, Int, String) -> Void = { done, count, _ in
            let step = max(1, count / 10)
            if done % step == 0 || done == count { printError("conform: \(done)/\(count) files compared") }
        }
        run.add(roots: roots.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }, expectations: expectations, jobs: jobs,
                keepImages: parsed.value("--report") != nil, compareFile: isolate ? isolated : nil, progress: interactive ? counter : tenths)
        if interactive { printProgress("\r\u{1B}[K") }
        return run
    }

    /// Prints the table and what falls outside the expectations, writes the outputs asked for.
    static func finish(_ run: ConformanceRun, _ parsed: Arguments, golden: GoldenDigests?) throws -> Int32 {
        print(run.table())
        for report in run.unexpected.prefix(60) {
            print("UNEXPECTED \(report.suite) \(report.relativePath): \(report.verdict.rawValue): \(report.detail)")
        }
        if run.unexpected.count > 60 { print("… and \(run.unexpected.count - 60) more (see --json)") }
        if let jsonPath = parsed.value("--json") {
            try FileIO.write(Array(run.json().serialized().utf8), to: jsonPath)
        }
        if let reportPath = parsed.value("--report") {
            try HTMLReport.write(run, to: reportPath)
        }
        if let goldenPath = parsed.value("--write-golden"), run.shard == .whole {
            try FileIO.write(Array(GoldenDigests(run: run, environment: .current).serialized().utf8), to: goldenPath)
        }
        var goldenHolds = true
        if let golden, run.shard == .whole {
            let check = golden.check(run, current: .current)
            print(check.summary())
            goldenHolds = check.decoderUnchanged
        }
        let totals = run.totals
        if run.shard != .whole && (parsed.value("--golden") != nil || parsed.value("--write-golden") != nil) { print("conform: shard \(run.shard): the golden check and --write-golden wait for --merge") }
        print("conform: \(totals.files) images: \(totals.counts[.identical] ?? 0) identical, \(run.unexpected.count) outside the expectations")
        return run.unexpected.isEmpty && goldenHolds ? ExitStatus.success : ExitStatus.invalidInput
    }

    static func printProgress(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
}

/// `--isolate`: each file is compared by `pureimage-conform conform-one FILE RELATIVE SUITE` in a child
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
