import PureImage

/// Runs the comparison over folders of images and aggregates the results.
public struct ConformanceRun: Sendable {
    public var reports: [FileReport] = []
    /// Files that are not images of a known format (reference renderings, descriptors).
    public var otherFiles = 0

    public init() {}

    /// Extensions of files that accompany images in corpora and are not decoded.
    static let companionExtensions: Set<String> = ["ppm", "pgm", "pbm", "pam", "conf", "rgba", "txt", "md", "tsv", "json", "sh", "py", "html", "csv", "xml", "raw", "bin", "yuv"]

    /// Compares every file under `root`, calling `progress` before each.
    public mutating func add(root: String, expectations: Expectations, tamper: OutputTamper? = nil,
                             compareFile: ((String, String, String) -> FileReport)? = nil,
                             progress: ((Int, Int, String) -> Void)? = nil) {
        let rootName = root.split(separator: "/").last.map(String.init) ?? root
        let files = CorpusWalk.files(under: root)
        for (index, path) in files.enumerated() {
            let relative = String(path.dropFirst(root.count + 1))
            let suite = rootName + "/" + (relative.split(separator: "/").first.map(String.init) ?? "")
            progress?(index + 1, files.count, relative)
            let extensionName = relative.split(separator: ".").last.map { $0.lowercased() } ?? ""
            if relative.split(separator: "/").last?.contains(".") == true, Self.companionExtensions.contains(extensionName) {
                otherFiles += 1
                continue
            }
            var report: FileReport
            if let compareFile {
                report = compareFile(path, relative, suite)
            } else {
                guard let bytes = try? ImageFiles.read(path) else { otherFiles += 1; continue }
                report = FileComparison.compare(bytes: bytes, path: path, relativePath: relative, suite: suite, tamper: tamper)
            }
            if report.format == "unknown" && report.verdict == .noReference { otherFiles += 1; continue }
            expectations.apply(to: &report)
            if report.verdict == .identical { report.ours = nil; report.reference = nil }
            reports.append(report)
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
