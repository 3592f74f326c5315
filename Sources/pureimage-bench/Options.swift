#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let usage = """
usage: pureimage-bench [PATH ...] [--json FILE] [--iterations N] [--warmups N]
                       [--formats jpeg,png,gif,tiff] [--quick] [--clock cpu|wall] [--passes N]

Decodes each image from memory with PureImage and with the reference C library (libjpeg-turbo,
libpng, giflib, libtiff) in this one process, single-threaded, alternating the two after
warm-ups, once both sides' pixels have been checked equal. Prints a table; --json writes the
schema described in Docs/Performance.md.

  PATH            image files or folders (searched recursively). Default: the generated corpus
                  Conformance/bench-corpus/default (quick/ with --quick) plus, without --quick,
                  every image under $PUREIMAGE_EXTRA_CORPUS.
  --json FILE     also write the results as JSON
  --iterations N  timed A/B rounds per case (default: sized to ~\(Int(defaultBudgetSeconds)) s per case,
                  between \(defaultMinimumIterations) and \(defaultMaximumIterations))
  --warmups N     untimed rounds per side before timing (default 2; 1 with --quick); later
                  passes warm up once more
  --passes N      spread each case's rounds over N passes through all cases (default 3;
                  1 with --quick, which prints rows as they finish)
  --formats LIST  only these formats (comma-separated: jpeg,png,gif,tiff)
  --quick         the small smoke corpus, few iterations: finishes in well under a minute
  --clock KIND    cpu (default): this thread's CPU time, immune to other processes taking the
                  core; wall: CLOCK_MONOTONIC. Equal on an idle machine (single thread, no I/O).
"""

let defaultBudgetSeconds = 2.0   // keeps the default run (74 cases with the 1/8-scale and incremental rows) under 5 minutes
let defaultMinimumIterations = 11
let defaultMaximumIterations = 61

struct BenchOptions {
    var paths: [String] = []
    var jsonPath: String?
    var iterations: Int?
    var warmups: Int?
    var formats: Set<String> = ["jpeg", "png", "gif", "tiff"]
    var quick = false
    var clock = TimingClock.cpu
    var passesOption: Int?
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
                let known: Set<String> = ["jpeg", "png", "gif", "tiff"]
                for name in list where !known.contains(name) { fail("unknown format \(name) (jpeg, png, gif, tiff)") }
                options.formats = Set(list)
            case "--quick": options.quick = true
            case "--passes":
                guard let count = Int(value(argument)), count > 0 else { fail("--passes needs a positive number") }
                options.passesOption = count
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
            return IterationPolicy(warmups: warmups ?? 1, fixed: iterations, budgetSeconds: 1.0, minimum: 5, maximum: 25)
        }
        return IterationPolicy(warmups: warmups ?? 2, fixed: iterations, budgetSeconds: defaultBudgetSeconds,
                               minimum: defaultMinimumIterations, maximum: defaultMaximumIterations)
    }
}

func fail(_ message: String) -> Never {
    // File descriptor 2 directly: the C `stderr` global is not concurrency-safe in Swift 6.
    let text = "pureimage-bench: \(message)\n\(usage)\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    exit(2)
}
