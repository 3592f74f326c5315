// pureimage-bench: PureImage and the reference C decoders timed side by side (issue 11).
//
// For every image: read it into memory, decode it once with both sides and compare every
// sample (a row whose pixels differ, or that PureImage cannot decode yet, is reported as
// "skipped: <reason>" and never timed), then warm up and time the two alternately
// A B A B … in this one thread, spread over a few passes through all the cases. Beside them,
// the "limits": a memcpy of the output size and, for PNG, zlib's inflate of the IDAT stream
// alone. See Docs/Performance.md.

import PureImage
import PureImageConformance

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let options = BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
let policy = options.policy
timingClock = options.clock
let machine = MachineInfo.current()
let started = wallNow()

// MARK: Inputs

/// Where the default corpus lives, relative to the working directory (the package root, as
/// scripts/bench.sh runs it).
let generatedCorpus = "Conformance/bench-corpus/" + (options.quick ? "quick" : "default")

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
}

/// One pass over one case: warm-ups (the policy's count in the first pass, where they also size
/// the case; one in later passes, to bring its code and data back into the caches), then this
/// pass's share of the timed rounds. Cases the reference rejects are not timed at all.
func runPass(_ run: inout CaseRun, pass: Int, of passes: Int) {
    let benchCase = run.result.benchCase
    guard let reference = benchCase.reference else { return }
    let sides = benchCase.ours.map { [$0, reference] } ?? [reference]
    if pass == 0 {
        let sizing = warmUp(policy.fixed == nil ? max(1, policy.warmups) : policy.warmups, sides)
        run.totalRounds = policy.iterations(pairSeconds: sizing)
    } else {
        _ = warmUp(1, sides)
    }
    let rounds = roundsInPass(pass, of: passes, total: run.totalRounds)
    if let ours = benchCase.ours {
        var measurement = run.result.measurement ?? Measurement()
        alternate(rounds, into: &measurement, ours: ours, reference: reference)
        run.result.measurement = measurement
    } else {
        // PureImage skipped: time the reference alone, so the row still shows the target.
        run.result.referenceOnly = (run.result.referenceOnly ?? []) + timeRepeated(rounds, warmups: 0, reference)
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
print("\(machine.swiftVersion) · \(isDebugBuild ? "DEBUG build (timings meaningless)" : "release build") · single thread · clock \(options.clock == .cpu ? "thread CPU time" : "wall (monotonic)") · warm-ups \(policy.warmups) · iterations \(options.iterations.map(String.init) ?? "auto") · passes \(options.passes)")
print("ratio = ours min / ref min (> 1: PureImage slower); med r = median over A/B rounds of ours/ref; spread = (p75 − p25) / med r")
print("limits (minimum ms): memcpy = copy of an output-sized buffer; inflate = zlib uncompress of the PNG IDAT stream alone\n")
if let load = Double(machine.loadAverageAtStart.split(separator: " ").first ?? ""), load > 0.5 * Double(machine.logicalCPUs) {
    print("note: the machine is busy (1-minute load \(fixed(load, 2)) on \(machine.logicalCPUs) CPUs); expect noisier ratios\n")
}

// Verify every case first (each decodes both sides once and compares the pixels); the files'
// bytes stay in memory for the passes.
var runs: [CaseRun] = []
CaseFactory.incrementalMinimumPixels = options.quick ? 250_000 : 4_000_000
for (path, display) in inputFiles() {
    guard let bytes = try? ImageFiles.read(path), case .format(let format) = FormatSniffer.sniff(bytes),
          options.formats.contains(format.rawValue) else { continue }
    for benchCase in CaseFactory.cases(file: display, variant: variantName(path), bytes: bytes, format: format) {
        runs.append(CaseRun(result: CaseResult(benchCase: benchCase)))
    }
}

// Passes over the whole case list, each taking its share of every case's rounds: a burst of
// other work on the machine then touches a part of several cases' rounds rather than all of
// one case's, and each side's minimum stays clean. With one pass, rows print as they finish.
let passes = options.passes
if passes > 1 {
    print("verified \(runs.count) cases; timing in \(passes) passes over all of them, rows follow at the end")
    fflush(nil)
} else {
    print(Table.header)
}
for pass in 0..<passes {
    for index in runs.indices {
        runPass(&runs[index], pass: pass, of: passes)
        if pass == passes - 1 {
            measureLimits(&runs[index])
            if passes == 1 {
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
if passes > 1 {
    print("\n" + Table.header)
    for result in results { print(Table.row(result)) }
}

let elapsed = wallNow() - started
let timed = results.filter { $0.measurement != nil }
print("\n\(results.count) cases, \(timed.count) timed, \(results.count - timed.count) skipped; \(fixed(elapsed, 1)) s")
if !timed.isEmpty {
    // Geometric mean of the ratios per format: one headline number per decoder.
    for format in ImageFormat.allCases {
        for kind in ["decode 1/8", "decode", "incremental"] {
            let ratios = timed.filter { $0.benchCase.format == format && $0.benchCase.kind.label == kind
                                        || (kind == "incremental" && $0.benchCase.format == format && $0.benchCase.kind.label.hasPrefix(kind)) }.compactMap(\.ratio)
            guard !ratios.isEmpty else { continue }
            let mean = exp(ratios.map { log($0) }.reduce(0, +) / Double(ratios.count))
            let against = kind == "incremental" ? "incremental 4 KiB vs PureImage one-shot" : "vs the reference library"
            print("\(format.rawValue): geometric mean ratio \(fixed(mean, 2)) over \(ratios.count) cases (\(kind): \(against))")
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
