/// `Conformance/expectations.tsv`: which verdicts beyond the default ones a file may have, and
/// why. One rule per line: `pattern<TAB>verdict<TAB>reason`.
/// - `pattern` is matched against the file's path relative to its corpus root (`*` matches any
///   run of characters, `/` included); `FORMAT:pattern` also requires the format (`jpeg:*`).
/// - `verdict` is a `Verdict` raw value; `within-tolerance:N` allows samples to differ by at
///   most N; `VERDICT:text` (any other verdict) requires the detail to contain `text`, so a rule
///   such as `jpeg:*  unsupported:arithmetic coding` admits exactly one kind of refusal.
///
/// Without a rule, a file may be `identical`, `rejected-by-both`, `partial` (the truncated-input
/// policy) or `no-reference`; anything else falls short of the expectations.
public struct Expectations: Sendable {
    public struct Rule: Sendable {
        public var format: String?
        public var pattern: String
        public var verdict: Verdict
        public var tolerance: Int
        /// Text the report's detail must contain ("" = anything).
        public var detailContains: String
        public var reason: String

        func matches(_ report: FileReport) -> Bool {
            if let format, format != report.format { return false }
            guard Expectations.matches(pattern, report.relativePath) || Expectations.sharesTail(pattern, report.relativePath) else { return false }
            return detailContains.isEmpty || report.detail.contains(detailContains)
        }
    }

    public private(set) var rules: [Rule] = []

    public static let defaultVerdicts: Set<Verdict> = [.identical, .rejectedByBoth, .partial, .noReference]

    public init(rules: [Rule] = []) { self.rules = rules }

    /// Parses the file's text; lines starting with `#` and blank lines are ignored.
    public init(parsing text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && line.contains(where: { $0 != " " && $0 != "\t" && $0 != "\r" }) {
            let columns = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard columns.count == 3 else { continue }
            var pattern = columns[0]
            var format: String?
            if let colon = pattern.firstIndex(of: ":") {
                format = String(pattern[..<colon])
                pattern = String(pattern[pattern.index(after: colon)...])
            }
            var verdictText = columns[1]
            var qualifier = ""
            if let colon = verdictText.firstIndex(of: ":") {
                qualifier = String(verdictText[verdictText.index(after: colon)...])
                verdictText = String(verdictText[..<colon])
            }
            guard let verdict = Verdict(rawValue: verdictText) else { continue }
            let tolerance = verdict == .withinTolerance ? Int(qualifier) ?? 0 : 0
            rules.append(Rule(format: format, pattern: pattern, verdict: verdict, tolerance: tolerance,
                              detailContains: verdict == .withinTolerance ? "" : qualifier, reason: columns[2]))
        }
    }

    /// Decides whether `report` meets the expectations; a mismatch within a listed tolerance
    /// becomes `withinTolerance`.
    public func apply(to report: inout FileReport) {
        let matching = rules.filter { $0.matches(report) }
        if report.verdict == .mismatched, let difference = report.difference, difference.x >= 0,
           let rule = matching.first(where: { $0.verdict == .withinTolerance && difference.maxDifference <= $0.tolerance }) {
            report.verdict = .withinTolerance
            report.expected = true
            report.expectation = rule.reason
            return
        }
        if let rule = matching.first(where: { $0.verdict == report.verdict }) {
            report.expected = true
            report.expectation = rule.reason
            return
        }
        report.expected = Self.defaultVerdicts.contains(report.verdict)
    }

    /// Glob match with `*` only.
    /// A rule naming one file (no `*`) also applies when the run's root is a sub-folder or a
    /// parent of the corpus root the rule was written for: one path ends with "/" + the other
    /// (`tiff/pillow/x.tif` matches `pillow/x.tif` and `corpus/tiff/pillow/x.tif`).
    static func sharesTail(_ pattern: String, _ path: String) -> Bool {
        guard !pattern.contains("*"), !pattern.isEmpty, !path.isEmpty else { return false }
        return pattern.hasSuffix("/" + path) || path.hasSuffix("/" + pattern)
    }

    static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.utf8), t = Array(text.utf8)
        var pi = 0, ti = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count && p[pi] == UInt8(ascii: "*") {
                star = pi; mark = ti; pi += 1
            } else if pi < p.count && p[pi] == t[ti] {
                pi += 1; ti += 1
            } else if star >= 0 {
                pi = star + 1; mark += 1; ti = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == UInt8(ascii: "*") { pi += 1 }
        return pi == p.count
    }
}
