// pureimage-bench: PureImage and the reference C decoders timed side by side (issue 11).
//
// For every image: read it into memory, decode it once with both sides and compare every
// sample (a row whose pixels differ, or that PureImage cannot decode yet, is reported as
// "skipped: <reason>" and never timed), then warm up and time the two alternately
// A B A B … in this one thread, spread over a few passes through all the cases. Beside them,
// the "limits": a memcpy of the output size and, for PNG, zlib's inflate of the IDAT stream
// alone, and the extra libraries (libspng, stb_image) timed in the same rounds. Last, the
// downscaler rows: each run in a child process of this executable (Downscale.swift), which
// reports its time and peak resident memory. See Docs/Performance.md.

import PureImage
import PureImageConformance

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// A child process started by a downscale row: do its one job and exit.
if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "--child" {
    ChildWorker.main(Array(CommandLine.arguments.dropFirst(2)))
}

let options = BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
memoryPolicy = options.memory
memoryPolicyApplied = memoryPolicy.apply()
let policy = options.policy
timingClock = options.clock
let machine = MachineInfo.current()
let started = wallNow()

// MARK: Inputs

/// Where the default corpus lives, relative to the working directory (the package root, as
/// scripts/bench.sh runs it).
let generatedCorpus = "Conformance/bench-corpus/" + (options.quick ? "quick" : "default")
/// The huge images of the downscaler rows (default run only; they get no other rows).
let downscaleCorpus = "Conformance/bench-corpus/downscale"
/// With --quick, the downscaler rows run on these small files instead, with a limit small enough
/// to make them scale (300 000 bytes: 75 000 destination pixels out of 307 200), so the child
/// processes and the row are exercised on every CI run.
let quickDownscaleFiles = ["jpeg-baseline420-640x480.jpg", "png-rgb8-640x480.png", "tiff-lzw-640x480.tif"]
let quickDownscaleLimit = 300_000

/// (path on disk, name shown) for every file to try, in a stable order.
func inputFiles() -> [(path: String, display: String)] {
    var roots = options.paths
    if roots.isEmpty {
        guard CorpusWalk.isDirectory(generatedCorpus) else {
            fail("no \(generatedCorpus): run scripts/bench.sh, or python3 Conformance/generate_bench_corpus.py first")
        }
        roots.append(generatedCorpus)
        if !options.quick, let extra = getenv("PUREIMAGE_EXTRA_CORPUS"), let path = String(validatingCString: extra),
           !path.isEmpty, CorpusWalk.isDirectory(path) {
            roots.append(path)
        }
    }
    var files: [(String, String)] = []
    for root in roots {
        if CorpusWalk.isDirectory(root) {
            // Shown as "<root folder name>/<path below it>", e.g. default/png-rgb8-2000x1500.png.
            let trimmed = root.hasSuffix("/") ? String(root.dropLast()) : root
            let name = trimmed.split(separator: "/").last.map(String.init) ?? trimmed
            for path in CorpusWalk.files(under: trimmed) {
                files.append((path, name + path.dropFirst(trimmed.count)))
            }
        } else {
            files.append((root, root))
        }
    }
    return files
}

/// The case variant: the file name without its extension (generated files are named
/// `<format>-<variant>-<width>x<height>.<ext>`).
func variantName(_ path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: ".") else { return name }
    return String(name[..<dot])
}

// MARK: Run

/// One case through the passes.
struct CaseRun {
    var result: CaseResult
    /// Timed rounds over all passes, decided in the first pass from its warm-up.
    var totalRounds = 0
    /// Wall time of one round of all sides, from the first pass's last warm-up.
    var roundSeconds = 0.0
}

/// One pass over one case: warm-ups (the policy's count in the first pass, where they also size
/// the case; one in later passes, to bring its code and data back into the caches; heavy cases,
/// whose round takes longer than `heavyRoundSeconds`, get one in the first pass and none
/// later), then this pass's share of the timed rounds. Cases the reference rejects are not
/// timed at all.
func runPass(_ run: inout CaseRun, pass: Int, of passes: Int) {
    let benchCase = run.result.benchCase
    if case .downscale(let limit) = benchCase.kind {
        // One child run per side in the first pass, which sizes the row: as many runs as fit in
        // `downscaleBudgetSeconds` (at least 2, at most one per pass), the rest spread so that
        // the last pass has one.
        if pass == 0 {
            let runStart = wallNow()
            runDownscalePass(&run, limitBytes: limit)
            let seconds = wallNow() - runStart
            run.totalRounds = max(2, min(passes, Int(downscaleBudgetSeconds / max(seconds, 0.001))))
        } else if pass == passes - 1 || pass < run.totalRounds - 1 {
            runDownscalePass(&run, limitBytes: limit)
        }
        return
    }
    guard let reference = benchCase.reference else { return }
    let others = benchCase.ours == nil ? [] : benchCase.others.compactMap { other in other.decode.map { (name: other.name, decode: $0) } }
    let sides = (benchCase.ours.map { [$0, reference] } ?? [reference]) + others.map(\.decode)
    if pass == 0 {
        // The first warm-up round also sizes the case; a heavy case (a round over
        // heavyRoundSeconds) is warm after it, with the verification decode before it.
        let warmups = policy.fixed == nil ? max(1, policy.warmups) : policy.warmups
        var sizing = warmUp(min(1, warmups), sides)
        if sizing < heavyRoundSeconds && warmups > 1 { sizing = warmUp(warmups - 1, sides) }
        run.totalRounds = policy.iterations(pairSeconds: sizing)
        run.roundSeconds = sizing
    } else if run.roundSeconds < heavyRoundSeconds {
        _ = warmUp(1, sides)
    }
    let rounds = roundsInPass(pass, of: passes, total: run.totalRounds)
    if let ours = benchCase.ours {
        var measurement = run.result.measurement ?? Measurement()
        alternate(rounds, into: &measurement, ours: ours, reference: reference, others: others)
        run.result.measurement = measurement
    } else {
        // PureImage skipped: time the reference alone, so the row still shows the target.
        run.result.referenceOnly = (run.result.referenceOnly ?? []) + timeRepeated(rounds, warmups: 0, reference)
    }
}

/// One child run of PureImage's downscale for a downscale row, then one of the reference's
/// full decode (each a fresh process, so there is nothing to warm up; the parent
/// read the file once, so it is in the page cache). The first PureImage run also verifies the
/// result's size against the plan; a failure skips PureImage for the rest of the run.
func runDownscalePass(_ run: inout CaseRun, limitBytes: Int) {
    let benchCase = run.result.benchCase
    guard !benchCase.path.isEmpty else { return }
    var ours: ChildReport?
    if benchCase.skipReason == nil {
        switch ChildProcess.run(.pureimage, path: benchCase.path, limitBytes: limitBytes, clock: options.clock) {
        case .success(let report) where report.width == benchCase.destinationWidth && report.height == benchCase.destinationHeight:
            ours = report
        case .success(let report):
            run.result.benchCase.skipReason = "PureImage gave \(report.width)x\(report.height), the plan \(benchCase.destinationWidth)x\(benchCase.destinationHeight)"
        case .failure(let failure):
            run.result.benchCase.skipReason = "PureImage child: \(failure)"
        }
    }
    switch ChildProcess.run(.reference, path: benchCase.path, limitBytes: limitBytes, clock: options.clock) {
    case .success(let reference) where reference.width == benchCase.width && reference.height == benchCase.height:
        if let ours {
            var measurement = run.result.measurement ?? Measurement()
            measurement.ours.append(ours.milliseconds)
            measurement.reference.append(reference.milliseconds)
            run.result.measurement = measurement
            run.result.oursMemory.append(ours)
        } else {
            run.result.referenceOnly = (run.result.referenceOnly ?? []) + [reference.milliseconds]
        }
        run.result.referenceMemory.append(reference)
    case .success(let reference):
        run.result.referenceFailure = "reference decoded \(reference.width)x\(reference.height), the file says \(benchCase.width)x\(benchCase.height)"
    case .failure(let failure):
        run.result.referenceFailure = "reference child: \(failure)"
    }
}

/// The limit columns of a timed case: at most 15 rounds each (after one warm-up), minimum kept.
func measureLimits(_ run: inout CaseRun) {
    guard run.result.iterations > 0 else { return }
    let rounds = max(3, min(15, run.result.iterations))
    for probe in run.result.benchCase.limits {
        guard let body = probe.prepare() else { continue }
        run.result.limits.append((probe.name, Summary(timeRepeated(rounds, warmups: 1, body))))
    }
}

print("pureimage-bench \(options.quick ? "--quick " : "")· \(machine.date) · \(machine.cpuModel) · \(machine.logicalCPUs) logical CPUs · load \(machine.loadAverageAtStart)")
print("\(machine.swiftVersion) · \(isDebugBuild ? "DEBUG build (timings meaningless)" : "release build") · single thread · clock \(options.clock == .cpu ? "thread CPU time" : "wall (monotonic)") · warm-ups \(policy.warmups) · iterations \(options.iterations.map(String.init) ?? "auto") · passes \(options.passes) · memory \(memoryDescription)")
print("ratio = ours min / ref min (> 1: PureImage slower); med r = median over A/B rounds of ours/ref; spread = (p75 − p25) / med r")
print("limits (minimum ms): memcpy = copy of an output-sized buffer; inflate = zlib uncompress of the PNG IDAT stream alone")
print("spng, stb: libspng and stb_image in the same rounds, minimum ms and r = ours min / theirs min; checked first: pixels equal")
print("  to the reference's, except stb_image's JPEG (its own IDCT): PSNR ≥ \(fixed(CaseFactory.stbJPEGMinimumPSNR, 0)) dB against libjpeg-turbo\n")
if let load = Double(machine.loadAverageAtStart.split(separator: " ").first ?? ""), load > 0.5 * Double(machine.logicalCPUs) {
    print("note: the machine is busy (1-minute load \(fixed(load, 2)) on \(machine.logicalCPUs) CPUs); expect noisier ratios\n")
}

// Verify every case first (each decodes both sides once and compares the pixels); the files'
// bytes stay in memory for the passes.
var runs: [CaseRun] = []
CaseFactory.incrementalMinimumPixels = options.quick ? 250_000 : 4_000_000
CaseFactory.displayMinimumPixels = options.quick ? 250_000 : 3_000_000
for (path, display) in inputFiles() {
    guard let bytes = try? ImageFiles.read(path), case .format(let format) = FormatSniffer.sniff(bytes),
          options.formats.contains(format.rawValue) else { continue }
    for benchCase in CaseFactory.cases(file: display, variant: variantName(path), bytes: bytes, format: format) {
        runs.append(CaseRun(result: CaseResult(benchCase: benchCase)))
    }
}

// The downscaler rows, after all others: the huge images in the default run (only when the
// corpus is used, not for PATH arguments), the quick files with a small limit under --quick.
var downscaleInputs: [(path: String, display: String, limit: Int)] = []
if options.paths.isEmpty && options.downscale {
    if options.quick {
        downscaleInputs = quickDownscaleFiles.map { (generatedCorpus + "/" + $0, "quick/" + $0, quickDownscaleLimit) }
    } else if CorpusWalk.isDirectory(downscaleCorpus) {
        downscaleInputs = CorpusWalk.files(under: downscaleCorpus).map { ($0, "downscale" + $0.dropFirst(downscaleCorpus.count), 0) }
    } else {
        print("note: no \(downscaleCorpus) (made by Conformance/generate_bench_corpus.py): no downscaler rows\n")
    }
}
for (path, display, limit) in downscaleInputs {
    guard let bytes = try? ImageFiles.read(path), case .format(let format) = FormatSniffer.sniff(bytes),
          options.formats.contains(format.rawValue),
          let benchCase = CaseFactory.downscale(file: display, path: path, variant: variantName(path), bytes: bytes,
                                                format: format, limitBytes: limit) else { continue }
    runs.append(CaseRun(result: CaseResult(benchCase: benchCase)))
}

// Passes over the whole case list, each taking its share of every case's rounds: a burst of
// other work on the machine then touches a part of several cases' rounds rather than all of
// one case's, and each side's minimum stays clean. With one pass, rows print as they finish.
let passes = options.passes
if passes > 1 {
    print("verified \(runs.count) cases in \(fixed(wallNow() - started, 1)) s; timing in \(passes) passes over all of them, rows follow at the end")
    fflush(nil)
} else {
    print(Table.header)
}
for pass in 0..<passes {
    for index in runs.indices {
        runPass(&runs[index], pass: pass, of: passes)
        if pass == passes - 1 {
            measureLimits(&runs[index])
            if passes == 1 && !runs[index].result.benchCase.kind.isDownscale {
                print(Table.row(runs[index].result))
                fflush(nil)   // rows appear as they finish, also through a pipe (`stdout` is not Sendable)
            }
        }
    }
    if passes > 1 {
        print("pass \(pass + 1)/\(passes) done at \(fixed(wallNow() - started, 1)) s")
        fflush(nil)
    }
}
let results = runs.map(\.result)
let decodeResults = results.filter { !$0.benchCase.kind.isDownscale }
let downscaleResults = results.filter { $0.benchCase.kind.isDownscale }
if passes > 1 {
    print("\n" + Table.header)
    for result in decodeResults { print(Table.row(result)) }
}
if !downscaleResults.isEmpty {
    print("\n" + DownscaleTable.header)
    for result in downscaleResults { print(DownscaleTable.row(result)) }
}

// The animation-memory rows: each animation of bench-corpus/playback played to its end, as APNG
// and as GIF, by PureImage in fresh child processes (two runs each: the minimum time, the
// largest peak). What they show: the APNG decoder keeps frames compressed, as GIF does.
let playbackCorpus = "Conformance/bench-corpus/playback"
if options.paths.isEmpty && options.downscale && CorpusWalk.isDirectory(playbackCorpus) {
    print("\nplayback: every frame in order through one ImageSource (display output), PureImage, a fresh child process per run;")
    print("peak MB = the child's VmHWM, before MB = after reading the file; peak ratio = APNG peak / GIF peak (target ≤ 1.5)")
    print(["file", "frames", "APNG ms", "APNG peak MB", "GIF ms", "GIF peak MB", "before MB", "peak ratio"]
        .enumerated().map { pad($1, [24, 6, 8, 12, 8, 11, 10, 10][$0], right: $0 > 0) }.joined(separator: " "))
    for apng in CorpusWalk.files(under: playbackCorpus) where apng.hasSuffix(".png") {
        let gif = String(apng.dropLast(4)) + ".gif"
        func play(_ path: String) -> (ms: Double, peakKB: Int, beforeKB: Int, frames: Int)? {
            var best: (ms: Double, peakKB: Int, beforeKB: Int, frames: Int)?
            for _ in 0 ..< 2 {
                guard case .success(let report) = ChildProcess.run(.play, path: path, limitBytes: 0, clock: options.clock) else { return nil }
                best = (min(best?.ms ?? .infinity, report.milliseconds), max(best?.peakKB ?? 0, report.peakKB), report.inputKB, report.width)
            }
            return best
        }
        let name = String(apng.split(separator: "/").last ?? "").dropLast(4)
        guard let ours = play(apng), let theirs = play(gif), ours.frames == theirs.frames else {
            print("\(name): a child failed or the frame counts differ")
            continue
        }
        let cells = [String(name), String(ours.frames), fixed(ours.ms, 1), DownscaleTable.megabytes(ours.peakKB), fixed(theirs.ms, 1),
                     DownscaleTable.megabytes(theirs.peakKB), "\(DownscaleTable.megabytes(ours.beforeKB))/\(DownscaleTable.megabytes(theirs.beforeKB))",
                     fixed(Double(ours.peakKB) / Double(max(1, theirs.peakKB)), 2)]
        print(cells.enumerated().map { pad($1, [24, 6, 8, 12, 8, 11, 10, 10][$0], right: $0 > 0) }.joined(separator: " "))
    }
}

let elapsed = wallNow() - started
let timed = results.filter { $0.measurement != nil }
print("\n\(results.count) cases, \(timed.count) timed, \(results.count - timed.count) skipped; \(fixed(elapsed, 1)) s")
/// The geometric mean of some ratios.
func geometricMean(_ ratios: [Double]) -> Double {
    exp(ratios.map { log($0) }.reduce(0, +) / Double(ratios.count))
}
if !timed.isEmpty {
    // Geometric mean of the ratios per format: one headline number per decoder.
    for format in ImageFormat.allCases {
        for kind in ["decode 1/8", "decode", "incremental", "display", "downscale", "properties"] {
            let rows = timed.filter { $0.benchCase.format == format && ($0.benchCase.kind.label == kind || kind != "decode" && $0.benchCase.kind.label.hasPrefix(kind)) }
            let ratios = rows.compactMap(\.ratio)
            guard !ratios.isEmpty else { continue }
            let against = kind == "incremental" ? "incremental 4 KiB vs PureImage one-shot"
                : kind == "display" ? "display BGRA vs PureImage native"
                : kind == "properties" ? "headers only vs the reference's header call"
                : kind == "downscale" ? "PureImage downscale vs the reference's full decode" : "vs the reference library"
            var line = "\(format.rawValue): geometric mean ratio \(fixed(geometricMean(ratios), 2)) over \(ratios.count) cases (\(kind): \(against))"
            for name in CaseFactory.otherNames {
                let others = rows.compactMap { $0.otherRatio(name) }
                if !others.isEmpty { line += "; vs \(name) \(fixed(geometricMean(others), 2)) over \(others.count)" }
            }
            print(line)
        }
    }
}

if let jsonPath = options.jsonPath {
    let document = JSONReport.document(machine: machine, loadAtEnd: MachineInfo.loadAverage(), options: options,
                                       results: results, seconds: elapsed)
    guard let file = fopen(jsonPath, "w") else { fail("cannot write \(jsonPath)") }
    fputs(document.serialized() + "\n", file)
    fclose(file)
    print("wrote \(jsonPath)")
}
blackHole(0)
if blackHoleSink == Int.min { print("") }   // reads the sink so no timed result is dead code
