import CommandLineSupport
import PureImageConformance

/// One finished row.
struct CaseResult {
    /// Downscale rows set `skipReason` in their first pass (the child's run is the verification).
    var benchCase: BenchCase
    /// Alternating A/B timings, when ours was timed.
    var measurement: Measurement?
    /// Reference-only timings, when ours was skipped but the reference decoded.
    var referenceOnly: [Double]?
    var limits: [(name: String, summary: Summary)] = []
    /// Downscale rows: every child run's report (PureImage's only from runs paired with a
    /// reference run), and why the reference's child failed, if it did.
    var oursMemory: [ChildReport] = []
    var referenceMemory: [ChildReport] = []
    var referenceFailure: String?

    var ours: Summary? { measurement.map { Summary($0.ours) } }
    var reference: Summary? {
        if let measurement { return Summary(measurement.reference) }
        return referenceOnly.map { Summary($0) }
    }
    /// The distribution of the per-round ratios ours/reference (its median and spread).
    var pairRatios: Summary? { measurement.map { Summary($0.pairRatios) } }
    /// The headline ratio: fastest ours / fastest reference. Both sides are deterministic,
    /// CPU-bound work timed on the thread's CPU clock, so interference (another process evicting
    /// caches, sharing memory bandwidth) only ever adds time, and each side's minimum is its best
    /// estimate. On the shared 2-core development machine it repeats across runs far better than
    /// the median of the per-round ratios (see Docs/Performance.md, "Stability").
    var ratio: Double? {
        guard let ours, let reference, reference.minimum > 0 else { return nil }
        return ours.minimum / reference.minimum
    }
    var iterations: Int { measurement?.ours.count ?? referenceOnly?.count ?? 0 }
    var status: String { measurement != nil ? "timed" : "skipped" }

    func limit(_ name: String) -> Summary? { limits.first { $0.name == name }?.summary }

    /// An extra library's times (libspng, stb_image), when it was timed.
    func other(_ name: String) -> Summary? {
        guard let times = measurement?.others[name], !times.isEmpty else { return nil }
        return Summary(times)
    }

    /// ours minimum / that library's minimum, as `ratio` is for the reference.
    func otherRatio(_ name: String) -> Double? {
        guard let ours, let other = other(name), other.minimum > 0 else { return nil }
        return ours.minimum / other.minimum
    }

    /// Downscale rows: the largest peak (VmHWM, kB) over the child runs of each side; the peak
    /// hardly varies between runs, and the largest is the one to plan memory for.
    var oursPeakKB: Int? { oursMemory.map(\.peakKB).max() }
    var referencePeakKB: Int? { referenceMemory.map(\.peakKB).max() }
}

// MARK: - Number formatting (no Foundation)

/// `value` with `decimals` digits after the point, rounded half away from zero.
func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(scaled - Double(whole) * scale)
    var text = (value < 0 && scaled > 0 ? "-" : "") + String(whole)
    if decimals > 0 {
        let digits = String(fraction)
        text += "." + String(repeating: "0", count: decimals - digits.count) + digits
    }
    return text
}

/// Milliseconds with three significant-ish digits: 0.123, 1.23, 12.3, 123.
func milliseconds(_ value: Double) -> String {
    value < 1 ? fixed(value, 3) : value < 10 ? fixed(value, 2) : value < 100 ? fixed(value, 1) : fixed(value, 0)
}

func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let count = text.count
    guard count < width else { return text }
    let fill = String(repeating: " ", count: width - count)
    return right ? fill + text : text + fill
}

/// Megapixels per second for `pixels` decoded in `ms` milliseconds.
func megapixelsPerSecond(_ pixels: Int, _ ms: Double) -> Double {
    ms > 0 ? Double(pixels) / 1e6 / (ms / 1000) : 0
}

// MARK: - Table

enum Table {
    static let columns: [(title: String, width: Int, right: Bool)] = [
        ("file", 46, false), ("fmt", 4, false), ("layout (ours | reference)", 44, false), ("MP", 5, true),
        ("ours ms", 8, true), ("min", 7, true), ("ref ms", 8, true), ("min", 7, true),
        ("ours MP/s", 9, true), ("ref MP/s", 8, true), ("ratio", 6, true), ("med r", 6, true), ("spread", 7, true),
        ("memcpy", 7, true), ("inflate", 7, true), ("n", 3, true),
        ("spng", 7, true), ("r spng", 6, true), ("stb", 7, true), ("r stb", 6, true),
    ]

    static func line(_ cells: [String]) -> String {
        zip(columns, cells).map { pad($1, $0.width, right: $0.right) }.joined(separator: " ")
    }

    static var header: String {
        let title = line(columns.map(\.title))
        return title + "\n" + String(repeating: "-", count: title.count)
    }

    static func row(_ result: CaseResult) -> String {
        let c = result.benchCase
        let megapixels = fixed(Double(c.pixels) / 1e6, 1)
        var cells = [c.file, c.format.rawValue, c.layout.isEmpty ? "-" : c.layout, c.pixels > 0 ? megapixels : "-"]
        let ours = result.ours, reference = result.reference, ratio = result.pairRatios
        cells += [ours.map { milliseconds($0.median) } ?? "-", ours.map { milliseconds($0.minimum) } ?? "-",
                  reference.map { milliseconds($0.median) } ?? "-", reference.map { milliseconds($0.minimum) } ?? "-",
                  ours.map { fixed(megapixelsPerSecond(c.pixels, $0.median), 1) } ?? "-",
                  reference.map { fixed(megapixelsPerSecond(c.pixels, $0.median), 1) } ?? "-",
                  result.ratio.map { fixed($0, 2) } ?? "-", ratio.map { fixed($0.median, 2) } ?? "-",
                  ratio.map { fixed($0.relativeSpread * 100, 1) + "%" } ?? "-",
                  result.limit("memcpy").map { milliseconds($0.minimum) } ?? "-",
                  result.limit("inflate").map { milliseconds($0.minimum) } ?? "-",
                  String(result.iterations)]
        // The extra libraries: minimum ms and ours/that library.
        for name in CaseFactory.otherNames {
            cells += [result.other(name).map { milliseconds($0.minimum) } ?? "-", result.otherRatio(name).map { fixed($0, 2) } ?? "-"]
        }
        var text = line(cells)
        if let reason = c.skipReason { text += "\n    skipped: " + reason }
        // Timed extra libraries passed their check (the JSON keeps what it found, e.g. stb_image's
        // PSNR on JPEG); only the ones left out are explained here.
        for other in c.others where other.decode == nil {
            text += "\n    \(other.name): \(other.check)"
        }
        return text
    }
}

/// The downscaler rows: both sides ran in child processes; peak = the child's VmHWM.
enum DownscaleTable {
    static let columns: [(title: String, width: Int, right: Bool)] = [
        ("file", 46, false), ("kind", 16, false), ("source", 11, false), ("destination", 11, false),
        ("ours ms", 8, true), ("ours peak MB", 12, true), ("before MB", 9, true),
        ("ref full ms", 11, true), ("ref peak MB", 11, true), ("RGBA MB", 8, true), ("ratio", 6, true), ("n", 3, true),
    ]

    static func line(_ cells: [String]) -> String {
        zip(columns, cells).map { pad($1, $0.width, right: $0.right) }.joined(separator: " ")
    }

    static var header: String {
        let title = line(columns.map(\.title))
        return "downscaler: PureImage decodedAndScaledDown (display output) against the reference library's full decode, each run in a fresh child process\n"
            + "ms = minimum over the runs (child's clock, the timed call only); peak MB = the child's VmHWM (its largest over the runs);\n"
            + "before MB = VmHWM after reading the file, before the timed call (runtime, libraries and the file's bytes);\n"
            + "RGBA MB = width x height x 4 of the source, what a full RGBA8 decode holds; ratio = ours ms / ref full ms\n"
            + title + "\n" + String(repeating: "-", count: title.count)
    }

    static func megabytes(_ kilobytes: Int?) -> String {
        kilobytes.map { fixed(Double($0) / 1024, 0) } ?? "-"
    }

    static func row(_ result: CaseResult) -> String {
        let c = result.benchCase
        let ours = result.ours, reference = result.reference
        let cells = [c.file, c.kind.label, "\(c.width)x\(c.height)",
                     c.destinationWidth > 0 ? "\(c.destinationWidth)x\(c.destinationHeight)" : "-",
                     ours.map { milliseconds($0.minimum) } ?? "-", megabytes(result.oursPeakKB),
                     megabytes(result.oursMemory.map(\.inputKB).max()),
                     reference.map { milliseconds($0.minimum) } ?? "-", megabytes(result.referencePeakKB),
                     fixed(Double(c.pixels * 4) / 1_048_576, 0), result.ratio.map { fixed($0, 2) } ?? "-",
                     String(result.iterations)]
        var text = line(cells)
        if let reason = c.skipReason { text += "\n    skipped: " + reason }
        if let failure = result.referenceFailure { text += "\n    reference: " + failure }
        return text
    }
}

// MARK: - JSON

/// Schema "pureimage-bench/2" (documented in Docs/Performance.md): /1 plus `others` and `downscale`.
enum JSONReport {
    static func document(machine: MachineInfo, loadAtEnd: String, options: BenchOptions,
                         results: [CaseResult], seconds: Double) -> JSONValue {
        var root = JSONObject()
        root["schema"] = .string("pureimage-bench/2")
        root["date"] = .string(machine.date)
        var host = JSONObject()
        host["cpu"] = .string(machine.cpuModel)
        host["logical_cpus"] = .int(machine.logicalCPUs)
        host["kernel"] = .string(machine.kernel)
        host["load_average_start"] = .string(machine.loadAverageAtStart)
        host["load_average_end"] = .string(loadAtEnd)
        root["machine"] = .object(host)
        var toolchain = JSONObject()
        toolchain["swift"] = .string(machine.swiftVersion)
        toolchain["configuration"] = .string(isDebugBuild ? "debug" : "release")
        root["toolchain"] = .object(toolchain)
        var settings = JSONObject()
        settings["quick"] = .bool(options.quick)
        settings["clock"] = .string(options.clock == .cpu ? "thread-cpu" : "wall")
        settings["warmups"] = .int(options.policy.warmups)
        settings["passes"] = .int(options.passes)
        settings["memory"] = .string(memoryPolicyApplied ? memoryPolicy.rawValue : "default")
        settings["iterations"] = options.iterations.map { .int($0) } ?? .string("auto")
        settings["formats"] = .array(options.formats.sorted().map { .string($0) })
        settings["wall_seconds"] = .double(rounded(seconds, 1))
        root["settings"] = .object(settings)
        root["cases"] = .array(results.map(caseObject))
        return .object(root)
    }

    static func caseObject(_ result: CaseResult) -> JSONValue {
        let c = result.benchCase
        var object = JSONObject()
        object["file"] = .string(c.file)
        object["format"] = .string(c.format.rawValue)
        object["variant"] = .string(c.variant)
        object["kind"] = .string(c.kind.label)
        object["layout"] = .string(c.layout)
        object["width"] = .int(c.width)
        object["height"] = .int(c.height)
        object["pixels"] = .int(c.pixels)
        object["status"] = .string(result.status)
        object["reason"] = c.skipReason.map { .string($0) } ?? .null
        object["iterations"] = .int(result.iterations)
        func number(_ value: Double?, _ digits: Int = 4) -> JSONValue { value.map { .double(rounded($0, digits)) } ?? .null }
        let ours = result.ours, reference = result.reference, ratio = result.pairRatios
        object["ours_ms"] = number(ours?.median)
        object["ours_min_ms"] = number(ours?.minimum)
        object["ref_ms"] = number(reference?.median)
        object["ref_min_ms"] = number(reference?.minimum)
        object["ours_mpps"] = number(ours.map { megapixelsPerSecond(c.pixels, $0.median) }, 2)
        object["ref_mpps"] = number(reference.map { megapixelsPerSecond(c.pixels, $0.median) }, 2)
        // Every timed call, in the order timed (rounds of all passes), for other estimators.
        func samples(_ values: [Double]?) -> JSONValue { values.map { .array($0.map { .double(rounded($0, 4)) }) } ?? .null }
        object["ours_samples_ms"] = samples(result.measurement?.ours)
        object["ref_samples_ms"] = samples(result.measurement?.reference ?? result.referenceOnly)
        object["ratio"] = number(result.ratio)
        object["ratio_median"] = number(ratio?.median)
        object["ratio_p25"] = number(ratio?.p25)
        object["ratio_p75"] = number(ratio?.p75)
        object["spread"] = number(ratio?.relativeSpread)
        // Limits are floors: their minimum is the best estimate (noise only ever adds time).
        object["memcpy_ms"] = number(result.limit("memcpy")?.minimum)
        object["inflate_ms"] = number(result.limit("inflate")?.minimum)
        // The extra libraries, by column name; only for rows where they apply.
        var others = JSONObject()
        for other in c.others {
            var entry = JSONObject()
            let summary = result.other(other.name)
            entry["check"] = .string(other.check)
            entry["ms"] = number(summary?.median)
            entry["min_ms"] = number(summary?.minimum)
            entry["ratio"] = number(result.otherRatio(other.name))
            entry["samples_ms"] = samples(result.measurement?.others[other.name])
            others[other.name] = .object(entry)
        }
        object["others"] = .object(others)
        if case .downscale(let limit) = c.kind {
            var downscale = JSONObject()
            downscale["limit_bytes"] = .int(limit)
            downscale["destination_width"] = .int(c.destinationWidth)
            downscale["destination_height"] = .int(c.destinationHeight)
            func megabytes(_ kilobytes: Int?) -> JSONValue { kilobytes.map { .double(rounded(Double($0) / 1024, 1)) } ?? .null }
            downscale["ours_peak_rss_mb"] = megabytes(result.oursPeakKB)
            downscale["ours_input_rss_mb"] = megabytes(result.oursMemory.map(\.inputKB).max())
            downscale["ref_peak_rss_mb"] = megabytes(result.referencePeakKB)
            downscale["ref_input_rss_mb"] = megabytes(result.referenceMemory.map(\.inputKB).max())
            downscale["full_rgba_mb"] = .double(rounded(Double(c.pixels * 4) / 1_048_576, 1))
            downscale["reference_failure"] = result.referenceFailure.map { .string($0) } ?? .null
            object["downscale"] = .object(downscale)
        } else {
            object["downscale"] = .null
        }
        return .object(object)
    }

    static func rounded(_ value: Double, _ digits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}

#if DEBUG
let isDebugBuild = true
#else
let isDebugBuild = false
#endif
