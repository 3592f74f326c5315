#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let usage = """
usage: pureimage-bench [PATH ...] [--json FILE] [--iterations N] [--warmups N]
                       [--formats jpeg,png,gif,tiff,webp] [--quick] [--clock cpu|wall] [--passes N]
                       [--no-downscale] [--memory fresh|reuse]

Decodes each image from memory with PureImage and with the reference C library (libjpeg-turbo,
libpng, giflib, libtiff) in this one process, single-threaded, alternating the two after
warm-ups, once both sides' pixels have been checked equal; libspng (PNG) and stb_image (JPEG,
PNG, GIF) are timed in the same rounds as extra columns. Then the downscaler rows: PureImage's
decodedAndScaledDown(limitBytes: 0) on huge images against the reference's full decode, each
run in a child process that reports its time and peak resident memory. Prints tables; --json
writes the schema described in Docs/Performance.md.

  PATH            image files or folders (searched recursively). Default: the generated corpus
                  Conformance/bench-corpus/default (quick/ with --quick) plus, without --quick,
                  every image under $PUREIMAGE_EXTRA_CORPUS; and the downscaler rows on
                  Conformance/bench-corpus/downscale (with --quick: three quick/ files, limit
                  300 000 bytes). PATH arguments get no downscaler rows.
  --json FILE     also write the results as JSON
  --iterations N  timed A/B rounds per case (default: sized to ~\(fixed(defaultBudgetSeconds, 2)) s per case,
                  between \(defaultMinimumIterations) (\(defaultHeavyMinimumIterations) for cases whose round takes over
                  \(fixed(heavyRoundSeconds, 2)) s) and \(defaultMaximumIterations)); downscaler rows: 2 or 3
                  child runs per side, as many as fit in 15 s
  --warmups N     untimed rounds per side before timing (default 2; 1 with --quick); later
                  passes warm up once more. Cases whose round takes over 0.25 s warm up once,
                  in the first pass only
  --passes N      spread each case's rounds over N passes through all cases (default 3;
                  1 with --quick, which prints rows as they finish)
  --formats LIST  only these formats (comma-separated: jpeg,png,gif,tiff,webp)
  --quick         the small smoke corpus, few iterations: finishes in well under a minute
  --clock KIND    cpu (default): this thread's CPU time, immune to other processes taking the
                  core; wall: CLOCK_MONOTONIC. Equal on an idle machine (single thread, no I/O).
  --no-downscale  leave out the downscaler rows
  --memory KIND   fresh (default): glibc's malloc thresholds fixed at 128 KiB, so every large
                  buffer is mapped fresh from the kernel on every call, on both sides (page
                  faults included) — the same in every process, which keeps ratios repeatable;
                  reuse: the mmap threshold fixed at 32 MiB and trimming off, so buffers under
                  32 MiB are freed to the heap and reused, pages already faulted in, on both
                  sides (the compute-only view; also the same in every process)
"""

// The default run (74 timed cases with the 1/8-scale and incremental rows, up to four sides a
// round with the extra libraries' columns, and the downscaler rows) must stay under 5 minutes
// on the 2-core machine: ~1.25 s per case, at least 12 rounds (4 per pass: with 2 one disturbed
// stretch decided some medium cases' minimum, and stb_image's own minimum wanders by a few
// percent from process to process, less with more rounds) and at least 9 (3 per pass) for the
// heavy ones, whose round takes over 0.25 s: with 6, their minimum (mostly page faults of
// fresh buffers, see MemoryPolicy) moved by up to 7.5 % between two runs; 9 costs ~20 s.
let defaultBudgetSeconds = 1.25
let defaultMinimumIterations = 12
let defaultHeavyMinimumIterations = 9
let defaultMaximumIterations = 61

// (Constants used by the top-level code of main.swift live here: globals of other files are
// initialised on first use, those of main.swift only when execution reaches them.)

/// A round (all sides once) longer than this makes a case heavy: fewer rounds, and no warm-up
/// in later passes — its buffers are fresh pages on every call anyway (glibc maps allocations of
/// this size anew each time) and its working set is far beyond the caches.
let heavyRoundSeconds = 0.25

/// Wall time a downscale row may take over all passes: its runs take seconds each, so a row
/// whose first pair of runs (PureImage and the reference) takes up to 5 s gets 3 runs per side,
/// a slower one 2.
let downscaleBudgetSeconds = 15.0

struct BenchOptions {
    var paths: [String] = []
    var jsonPath: String?
    var iterations: Int?
    var warmups: Int?
    var formats: Set<String> = ["jpeg", "png", "gif", "tiff", "webp"]
    var quick = false
    var clock = TimingClock.cpu
    var passesOption: Int?
    var downscale = true
    var memory = MemoryPolicy.fresh
    var passes: Int { passesOption ?? (quick ? 1 : 3) }

    /// Parses the command line; prints the usage and exits with 2 on a usage error.
    static func parse(_ arguments: [String]) -> BenchOptions {
        var options = BenchOptions()
        var index = 0
        func value(_ flag: String) -> String {
            index += 1
            guard index < arguments.count else { fail("\(flag) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--json": options.jsonPath = value(argument)
            case "--iterations":
                guard let count = Int(value(argument)), count > 0 else { fail("--iterations needs a positive number") }
                options.iterations = count
            case "--warmups":
                guard let count = Int(value(argument)), count >= 0 else { fail("--warmups needs a number ≥ 0") }
                options.warmups = count
            case "--formats":
                let list = value(argument).split(separator: ",").map { $0.lowercased() }
                let known: Set<String> = ["jpeg", "png", "gif", "tiff", "webp"]
                for name in list where !known.contains(name) { fail("unknown format \(name) (jpeg, png, gif, tiff, webp)") }
                options.formats = Set(list)
            case "--quick": options.quick = true
            case "--no-downscale": options.downscale = false
            case "--passes":
                guard let count = Int(value(argument)), count > 0 else { fail("--passes needs a positive number") }
                options.passesOption = count
            case "--memory":
                guard let policy = MemoryPolicy(rawValue: value(argument)) else { fail("--memory is fresh or reuse") }
                options.memory = policy
            case "--clock":
                guard let clock = TimingClock(rawValue: value(argument)) else { fail("--clock is cpu or wall") }
                options.clock = clock
            case "-h", "--help":
                print(usage)
                exit(0)
            default:
                if argument.hasPrefix("--") { fail("unknown option \(argument)") }
                options.paths.append(argument)
            }
            index += 1
        }
        return options
    }

    var policy: IterationPolicy {
        if quick {
            return IterationPolicy(warmups: warmups ?? 1, fixed: iterations, budgetSeconds: 1.0, minimum: 5, maximum: 25,
                                   heavyMinimum: 5, heavySeconds: heavyRoundSeconds)
        }
        return IterationPolicy(warmups: warmups ?? 2, fixed: iterations, budgetSeconds: defaultBudgetSeconds,
                               minimum: defaultMinimumIterations, maximum: defaultMaximumIterations,
                               heavyMinimum: defaultHeavyMinimumIterations, heavySeconds: heavyRoundSeconds)
    }
}

func fail(_ message: String) -> Never {
    // File descriptor 2 directly: the C `stderr` global is not concurrency-safe in Swift 6.
    let text = "pureimage-bench: \(message)\n\(usage)\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    exit(2)
}
