import CommandLineSupport
import PureImage
import Synchronization

/// Runs the comparison over folders of images and aggregates the results.
public struct ConformanceRun: Sendable {
    public var reports: [FileReport] = []
    /// Files that are not images of a known format (reference renderings, descriptors).
    public var otherFiles = 0
    /// The part of the corpus this run covers (`pureimage conform --shard K/N`).
    public var shard = Shard.whole
    /// Files walked so far over every root added, companions included: the next file's index.
    public internal(set) var walked = 0
    /// The roots added, in order.
    public internal(set) var roots: [String] = []

    public init() {}

    /// Extensions of files that accompany images in corpora and are not decoded.
    static let companionExtensions: Set<String> = ["ppm", "pgm", "pbm", "pam", "conf", "rgba", "txt", "md", "tsv", "json", "sh", "py", "html", "csv", "xml", "raw", "bin", "yuv"]

    /// One file to compare.
    struct Work: Sendable {
        let index: Int
        let root: String
        let path: String
        let relative: String
        let suite: String
        let size: Int
    }

    /// Compares every file under `root` (see `add(roots:…)`).
    public mutating func add(root: String, expectations: Expectations, tamper: OutputTamper? = nil,
                             jobs: Int = 1,
                             compareFile: (@Sendable (String, String, String) -> FileReport)? = nil,
                             progress: (@Sendable (Int, Int, String) -> Void)? = nil) {
        add(roots: [root], expectations: expectations, tamper: tamper, jobs: jobs, compareFile: compareFile, progress: progress)
    }

    /// Compares every file under each root that belongs to `shard`, `jobs` files at a time.
    /// The reports come out in the walk's order whatever `jobs` is, so a run's results do not
    /// depend on it. `progress` is called as files finish (from the workers' threads) with the
    /// number done, the number to do and the file's path.
    public mutating func add(roots: [String], expectations: Expectations, tamper: OutputTamper? = nil,
                             jobs: Int = 1, keepImages: Bool = true,
                             compareFile: (@Sendable (String, String, String) -> FileReport)? = nil,
                             progress: (@Sendable (Int, Int, String) -> Void)? = nil) {
        var work: [Work] = []
        self.roots += roots
        for root in roots {
            let rootName = root.split(separator: "/").last.map(String.init) ?? root
            for path in CorpusWalk.files(under: root) {
                let index = walked
                walked += 1
                guard shard.contains(index) else { continue }
                let relative = String(path.dropFirst(root.count + 1))
                let extensionName = relative.split(separator: ".").last.map { $0.lowercased() } ?? ""
                if relative.split(separator: "/").last?.contains(".") == true, Self.companionExtensions.contains(extensionName) {
                    otherFiles += 1
                    continue
                }
                let suite = rootName + "/" + (relative.split(separator: "/").first.map(String.init) ?? "")
                work.append(Work(index: index, root: root, path: path, relative: relative, suite: suite, size: CorpusWalk.size(of: path)))
            }
        }

        let compare: @Sendable (Work) -> FileReport? = { item in
            var report: FileReport
            if let compareFile {
                report = compareFile(item.path, item.relative, item.suite)
            } else {
                guard let bytes = try? ImageFiles.read(item.path) else { return nil }
                report = FileComparison.compare(bytes: bytes, path: item.path, relativePath: item.relative, suite: item.suite, tamper: tamper)
            }
            if report.format == "unknown" && report.verdict == .noReference { return nil }
            report.root = item.root
            report.index = item.index
            expectations.apply(to: &report)
            // Images are kept for the HTML report only, and never for identical files.
            if report.verdict == .identical || !keepImages { report.ours = nil; report.reference = nil }
            return report
        }
        let items = work   // an immutable copy the workers share
        let workers = max(1, min(jobs, items.count))
        // With several workers, the largest files start first (longest-job-first keeps the
        // workers busy to the end); the reports still come back in walk order.
        let schedule = workers == 1 ? nil : items.indices.sorted { (items[$0].size, $1) > (items[$1].size, $0) }
        let results = ParallelResults<FileReport?>(count: items.count, schedule: schedule)
        let body: @Sendable () -> Void = {
            while let slot = results.claim() {
                let report = compare(items[slot])
                let done = results.store(report, at: slot)
                progress?(done, items.count, items[slot].relative)
            }
        }
        runWorkers(workers, body)
        for report in results.values {
            if let report { reports.append(report) } else { otherFiles += 1 }
        }
    }

    public var unexpected: [FileReport] { reports.filter { !$0.expected } }

    /// One row of the summary table.
    public struct Row: Sendable {
        public var format: String
        public var suite: String
        public var counts: [Verdict: Int] = [:]
        public var unexpected = 0
        public var files: Int { counts.values.reduce(0, +) }
    }

    public var rows: [Row] {
        var table: [String: Row] = [:]
        for report in reports {
            let key = report.format + "\u{0}" + report.suite
            var row = table[key] ?? Row(format: report.format, suite: report.suite)
            row.counts[report.verdict, default: 0] += 1
            if !report.expected { row.unexpected += 1 }
            table[key] = row
        }
        return table.values.sorted { ($0.format, $0.suite) < ($1.format, $1.suite) }
    }

    public var totals: Row {
        var total = Row(format: "all", suite: "")
        for row in rows {
            for (verdict, count) in row.counts { total.counts[verdict, default: 0] += count }
            total.unexpected += row.unexpected
        }
        return total
    }

    static let columns: [(title: String, verdicts: [Verdict])] = [
        ("identical", [.identical]),
        ("tolerance", [.withinTolerance]),
        ("mismatch", [.mismatched]),
        ("rejected", [.rejectedByBoth]),
        ("partial", [.partial]),
        ("ours-only-err", [.oursRejected]),
        ("ref-only-err", [.referenceRejected]),
        ("unsupported", [.unsupported]),
        ("no-ref", [.noReference]),
        ("crashed", [.crashed]),
    ]

    /// The summary as a fixed-width text table.
    public func table() -> String {
        var lines: [String] = []
        let header = ["format".pad(6), "suite".pad(34), "files".lpad(6)] + Self.columns.map { $0.title.lpad(max(8, $0.title.count + 1)) } + ["unexpected".lpad(11)]
        lines.append(header.joined(separator: " "))
        for row in rows + [totals] {
            var cells = [row.format.pad(6), row.suite.pad(34), String(row.files).lpad(6)]
            for column in Self.columns {
                let count = column.verdicts.reduce(0) { $0 + (row.counts[$1] ?? 0) }
                cells.append(String(count).lpad(max(8, column.title.count + 1)))
            }
            cells.append(String(row.unexpected).lpad(11))
            lines.append(cells.joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }

    /// The whole run as JSON: totals, rows, and every file.
    public func json() -> JSONValue {
        func counts(_ row: Row) -> JSONValue {
            var object = JSONObject()
            object["files"] = .int(row.files)
            for verdict in Verdict.allCases { object[verdict.rawValue] = .int(row.counts[verdict] ?? 0) }
            object["unexpected"] = .int(row.unexpected)
            return .object(object)
        }
        var root = JSONObject()
        if shard != .whole { root["shard"] = .string(shard.description) }
        root["roots"] = .array(roots.map { .string($0) })
        root["walked"] = .int(walked)
        root["totals"] = counts(totals)
        root["otherFiles"] = .int(otherFiles)
        root["rows"] = .array(rows.map { row in
            var object = JSONObject()
            object["format"] = .string(row.format)
            object["suite"] = .string(row.suite)
            object["counts"] = counts(row)
            return .object(object)
        })
        root["files"] = .array(reports.map { report in
            var object = JSONObject()
            object["root"] = .string(report.root)
            object["index"] = .int(report.index)
            object["path"] = .string(report.relativePath)
            object["suite"] = .string(report.suite)
            object["format"] = .string(report.format)
            object["verdict"] = .string(report.verdict.rawValue)
            object["expected"] = .bool(report.expected)
            if let expectation = report.expectation { object["expectation"] = .string(expectation) }
            object["frames"] = .int(report.frames)
            object["detail"] = .string(report.detail)
            object["referenceDigest"] = .string(OutputDigest.text(report.referenceDigest))
            object["oursDigest"] = .string(OutputDigest.text(report.oursDigest))
            if let difference = report.difference, difference.x >= 0 {
                var first = JSONObject()
                first["frame"] = .int(report.differingFrame ?? 0)
                first["x"] = .int(difference.x)
                first["y"] = .int(difference.y)
                first["channel"] = .int(difference.channel)
                first["ours"] = .int(difference.ours)
                first["reference"] = .int(difference.reference)
                object["firstDifference"] = .object(first)
                object["maxDifference"] = .int(difference.maxDifference)
                object["differingSamples"] = .int(difference.differingSamples)
            }
            return .object(object)
        })
        return .object(root)
    }
}

extension String {
    func pad(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func lpad(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
