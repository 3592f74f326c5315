#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which clock times the decoders (`--clock`).
enum TimingClock: String {
    /// CLOCK_THREAD_CPUTIME_ID: CPU time of this thread, user plus kernel (page faults of the
    /// output buffer included). The bench is one thread doing no I/O, so on an idle machine this
    /// equals wall time; on a shared one it leaves out the time the scheduler gave to other
    /// processes, which otherwise lands at random on one side of an A/B pair. The default.
    case cpu
    /// CLOCK_MONOTONIC: wall time.
    case wall

    var id: clockid_t { self == .cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC }
}

/// Set once from the command line before anything is timed.
nonisolated(unsafe) var timingClock = TimingClock.cpu

/// The current reading of `timingClock` in seconds; only differences are meaningful.
@inline(__always)
func now() -> Double {
    var spec = timespec()
    clock_gettime(timingClock.id, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

/// Wall time in seconds (CLOCK_MONOTONIC), for the run's total duration.
func wallNow() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

/// Keeps the optimiser from discarding work whose result is otherwise unused: every timed
/// closure returns an Int (e.g. the output size) that ends up here.
nonisolated(unsafe) var blackHoleSink = 0

@inline(never)
func blackHole(_ value: Int) {
    blackHoleSink &+= value
}

/// Order statistics of a sample list (milliseconds or ratios).
struct Summary {
    let count: Int
    let median: Double
    let minimum: Double
    let p25: Double
    let p75: Double

    init(_ values: [Double]) {
        precondition(!values.isEmpty)
        let sorted = values.sorted()
        count = sorted.count
        minimum = sorted[0]
        median = Summary.quantile(sorted, 0.5)
        p25 = Summary.quantile(sorted, 0.25)
        p75 = Summary.quantile(sorted, 0.75)
    }

    /// Linear interpolation between closest ranks (the "type 7" quantile of R and numpy).
    static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }

    /// Interquartile range relative to the median: (p75 − p25) / median. 0.04 means the middle
    /// half of the samples lies within a band 4 % of the median wide.
    var relativeSpread: Double { median > 0 ? (p75 - p25) / median : 0 }
}

/// How many timed iterations a case gets, and how many warm-ups precede them.
struct IterationPolicy {
    /// Untimed rounds of each side before timing (after the verification decode, which is a
    /// warm-up too: it touches the same code, tables and allocator paths).
    var warmups: Int
    /// Fixed count from `--iterations`, or nil to size by `budgetSeconds`.
    var fixed: Int?
    /// Wall-clock time aimed at for one case's timed part (both sides together).
    var budgetSeconds: Double
    var minimum: Int
    var maximum: Int
    /// The minimum for heavy cases, whose round (all sides) takes longer than `heavySeconds`:
    /// their minimum is stable with fewer rounds, and each round costs seconds.
    var heavyMinimum: Int
    var heavySeconds: Double

    /// The count for a case whose one round of all sides takes `pairSeconds`.
    func iterations(pairSeconds: Double) -> Int {
        if let fixed { return fixed }
        guard pairSeconds > 0 else { return maximum }
        let floor = pairSeconds > heavySeconds ? heavyMinimum : minimum
        return max(floor, min(maximum, Int(budgetSeconds / pairSeconds)))
    }
}

/// The timings of one case: PureImage and the reference alternated A B A B … so that drift
/// (frequency scaling, other processes, cache state) hits both sides equally.
struct Measurement {
    var ours: [Double] = []        // milliseconds, one per iteration
    var reference: [Double] = []   // milliseconds, one per iteration
    /// The extra libraries' times (milliseconds, one per iteration), by column name.
    var others: [String: [Double]] = [:]

    /// Per-iteration ratios ours/reference. Taking the ratio inside each A-B pair cancels slow
    /// drift that a ratio of two medians would keep.
    var pairRatios: [Double] {
        zip(ours, reference).map { $0 / $1 }
    }
}

/// Times one function `count` times (used for the limit columns and for reference-only rows).
func timeRepeated(_ count: Int, warmups: Int, _ body: () -> Int) -> [Double] {
    for _ in 0..<warmups { blackHole(body()) }
    var samples: [Double] = []
    samples.reserveCapacity(count)
    for _ in 0..<count {
        let start = now()
        blackHole(body())
        samples.append((now() - start) * 1000)
    }
    return samples
}

/// Untimed rounds of each side in turn; returns the wall time of the last round (both sides
/// together, or 0 when `rounds` is 0), which sizes the timed part: the budget is about how long
/// the run takes.
func warmUp(_ rounds: Int, _ sides: [() -> Int]) -> Double {
    var last = 0.0
    for _ in 0..<rounds {
        let start = wallNow()
        for side in sides { blackHole(side()) }
        last = wallNow() - start
    }
    return last
}

/// `rounds` timed rounds ours, reference, then each further library, ours, reference, … appended
/// to `measurement`. Each closure returns an Int fed to `blackHole`. `ours` cannot fail any
/// more: the case was verified before timing.
func alternate(_ rounds: Int, into measurement: inout Measurement, ours: () -> Int, reference: () -> Int,
               others: [(name: String, decode: () -> Int)] = []) {
    measurement.ours.reserveCapacity(measurement.ours.count + rounds)
    measurement.reference.reserveCapacity(measurement.reference.count + rounds)
    for _ in 0..<rounds {
        let t0 = now()
        blackHole(ours())
        let t1 = now()
        blackHole(reference())
        let t2 = now()
        measurement.ours.append((t1 - t0) * 1000)
        measurement.reference.append((t2 - t1) * 1000)
        for other in others {
            let start = now()
            blackHole(other.decode())
            measurement.others[other.name, default: []].append((now() - start) * 1000)
        }
    }
}

/// The share of `total` rounds that pass `pass` of `passes` runs (the first passes take the
/// remainder, so the shares add up to `total`).
func roundsInPass(_ pass: Int, of passes: Int, total: Int) -> Int {
    total / passes + (pass < total % passes ? 1 : 0)
}
