import CommandLineSupport
import PureImage
#if canImport(Glibc)
import Glibc
#endif

/// The conformance report as a page that stays usable at corpus scale (10 000+ images): one
/// HTML file plus a folder of PNGs beside it (`conform.html` and `conform.html.files/`), opened
/// from disk, no server.
///
/// - a summary table whose counts link to the entries they count (`#verdict=…&suite=…`);
/// - entries grouped by verdict: outside the expectations first, then mismatches, tolerances,
///   partial decodes, reference-only and ours-only errors, unsupported, crashes, rejected by
///   both, no reference; identical files only counted;
/// - filters by format, suite and verdict, deep links to one file (`#file=PATH`);
/// - images as thumbnails bounded to `thumbnailBox` in both dimensions, with the real size and a
///   link to the full-size PNG; partial and reference-only entries show whichever side produced
///   pixels; difference maps with their amplification legend.
public enum HTMLReport {
    /// The largest thumbnail, either side, in CSS pixels.
    public static let thumbnailBox = 240

    /// The page and the image files it links to (names relative to `folderName`).
    public struct Output {
        public var html: String
        public var folderName: String
        public var files: [(name: String, bytes: [UInt8])]
    }

    /// The order of the sections, and their titles.
    static let sections: [(verdict: Verdict, title: String)] = [
        (.mismatched, "Mismatched"),
        (.withinTolerance, "Within tolerance"),
        (.partial, "Partial (truncated input, both sides)"),
        (.referenceRejected, "Rejected by the reference only"),
        (.oursRejected, "Rejected by PureImage only"),
        (.unsupported, "Unsupported"),
        (.crashed, "Crashed"),
        (.rejectedByBoth, "Rejected by both"),
        (.noReference, "No reference"),
    ]

    /// Writes the page to `path` and its images to `path + ".files/"`.
    public static func write(_ run: ConformanceRun, to path: String, title: String = "PureImage conformance") throws {
        let folderName = (path.split(separator: "/").last.map(String.init) ?? path) + ".files"
        let output = render(run, folderName: folderName, title: title)
        let folder = path + ".files"
        _ = mkdir(folder, 0o755)
        for (name, bytes) in output.files { try FileIO.write(bytes, to: folder + "/" + name) }
        try FileIO.write(Array(output.html.utf8), to: path)
    }

    public static func render(_ run: ConformanceRun, folderName: String, title: String = "PureImage conformance") -> Output {
        var files: [(name: String, bytes: [UInt8])] = []
        let notIdentical = run.reports.filter { $0.verdict != .identical }
        let unexpected = notIdentical.filter { !$0.expected }
        let totals = run.totals

        var html = head(title)
        html += "<h1>\(escape(title))</h1>\n"
        html += "<p class=\"verdict\">\(totals.files) images compared: \(totals.counts[.identical] ?? 0) identical, "
        html += "<a href=\"#unexpected\">\(unexpected.count) outside the expectations</a>; \(run.otherFiles) other files skipped.</p>\n"
        html += summaryTable(run)
        html += filters(run)
        // Image URLs are relative to the page: the folder's name percent-encoded (a report named
        // "run #1.html" must not turn its links into fragments), then HTML-escaped where used.
        let folder = percentEncode(folderName) + "/"
        html += legend(folder: folder, &files)

        html += "<section id=\"unexpected\"><h2>Outside the expectations (\(unexpected.count))</h2>\n"
        if unexpected.isEmpty { html += "<p class=\"none\">None: every verdict is one the expectations allow.</p>\n" }
        for report in unexpected { html += entry(report, folder: folder, files: &files) }
        html += "</section>\n"
        for (verdict, sectionTitle) in sections {
            let members = notIdentical.filter { $0.expected && $0.verdict == verdict }
            guard !members.isEmpty else { continue }
            html += "<section id=\"v-\(verdict.rawValue)\"><h2>\(escape(sectionTitle)) (\(members.count))</h2>\n"
            for report in members { html += entry(report, folder: folder, files: &files) }
            html += "</section>\n"
        }
        html += "<section id=\"v-identical\"><h2>Identical (\(totals.counts[.identical] ?? 0))</h2>"
        html += "<p>Counted in the table above, per format and suite; not listed one by one.</p></section>\n"
        html += script
        html += "</body></html>\n"
        return Output(html: html, folderName: folderName, files: files)
    }

    // MARK: Parts of the page

    static func head(_ title: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>
        body { font: 13px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; max-width: 100%; }
        .tablewrap { overflow-x: auto; max-width: 100%; }
        table { border-collapse: collapse; margin-bottom: 1.5em; }
        th, td { border: 1px solid #ccc; padding: 1px 5px; text-align: right; white-space: nowrap; }
        th:nth-child(-n+2), td:nth-child(-n+2) { text-align: left; }
        tr.total { font-weight: bold; background: #f3f3f3; }
        td.bad { background: #fdd; }
        td a { text-decoration: none; }
        .filters { position: sticky; top: 0; background: #fff; padding: .5em 0; border-bottom: 1px solid #ddd; z-index: 1; }
        .filters label { margin-right: 1em; }
        .entry { border-top: 1px solid #ddd; padding: .8em 0; scroll-margin-top: 4em; }
        section { scroll-margin-top: 4em; }
        .entry.unexpected h3 { color: #b00; }
        .entry.target { background: #ffc; }
        .entry h3 { font-size: 14px; margin: 0 0 .3em; word-break: break-all; }
        .entry h3 a.self { color: #999; text-decoration: none; margin-left: .4em; }
        .images { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
        .images figure { margin: 0; }
        .images img { image-rendering: pixelated; border: 1px solid #999; max-width: \(thumbnailBox)px; max-height: \(thumbnailBox)px;
                      background: repeating-conic-gradient(#ddd 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
        figcaption { font-size: 12px; color: #555; }
        .legend img { height: 16px; width: 328px; image-rendering: pixelated; vertical-align: middle; border: 1px solid #999; }
        .legend span { font-size: 12px; color: #555; }
        .none { color: #555; }
        [hidden] { display: none !important; }
        </style></head><body>

        """
    }

    static func summaryTable(_ run: ConformanceRun) -> String {
        // "unexpected" comes right after the file count: it must never be the column that scrolls away.
        var html = "<div class=\"tablewrap\"><table id=\"summary\"><tr><th>format</th><th>suite</th><th>files</th><th>unexpected</th>"
        for column in ConformanceRun.columns { html += "<th>\(column.title)</th>" }
        html += "</tr>\n"
        for (index, row) in (run.rows + [run.totals]).enumerated() {
            let isTotal = index == run.rows.count
            var scope = ""
            if !isTotal { scope = "&format=\(percentEncode(row.format))&suite=\(percentEncode(row.suite))" }
            html += "<tr\(isTotal ? " class=\"total\"" : "")><td>\(escape(row.format))</td><td>\(escape(row.suite))</td><td>\(row.files)</td>"
            html += row.unexpected > 0
                ? "<td class=\"bad\"><a href=\"#verdict=unexpected\(scope)\">\(row.unexpected)</a></td>"
                : "<td>0</td>"
            for column in ConformanceRun.columns {
                let count = column.verdicts.reduce(0) { $0 + (row.counts[$1] ?? 0) }
                let verdict = column.verdicts[0]
                if count > 0 && verdict != .identical {
                    html += "<td><a href=\"#verdict=\(verdict.rawValue)\(scope)\">\(count)</a></td>"
                } else {
                    html += "<td>\(count)</td>"
                }
            }
            html += "</tr>\n"
        }
        return html + "</table></div>\n"
    }

    static func filters(_ run: ConformanceRun) -> String {
        func options(_ values: [String]) -> String {
            (["all"] + values).map { "<option value=\"\($0 == "all" ? "" : escape($0))\">\(escape($0))</option>" }.joined()
        }
        let formats = Set(run.reports.map(\.format)).sorted()
        let suites = Set(run.reports.map(\.suite)).sorted()
        let verdicts = ["unexpected"] + sections.map(\.verdict.rawValue)
        return """
        <div class="filters" id="filters">
        <label>format <select id="filter-format">\(options(formats))</select></label>
        <label>suite <select id="filter-suite">\(options(suites))</select></label>
        <label>verdict <select id="filter-verdict">\(options(verdicts))</select></label>
        <span id="filter-count"></span>
        </div>

        """
    }

    /// The heat map's colours for differences 0…40 (8-bit units), made by the same function
    /// that draws the maps.
    static func legend(folder: String, _ files: inout [(name: String, bytes: [UInt8])]) -> String {
        let width = 41
        let zero = ComparableImage(width: width, height: 1, channels: 1, bits: 8, samples: [UInt8](repeating: 0, count: width))
        let ramp = ComparableImage(width: width, height: 1, channels: 1, bits: 8, samples: (0..<width).map { UInt8($0) })
        let name = "legend.png"
        guard let png = png(ImageComparison.heatMap(ramp, zero), width: width, height: 1) else { return "" }
        files.append((name, png))
        return "<p class=\"legend\">Difference maps: <img src=\"\(escape(folder + name))\" alt=\"heat map legend\"> "
            + "<span>largest difference over a pixel's channels (8-bit units; 16-bit samples ÷ 257), amplified ×8: "
            + "black 0 · dark red 1 · red 12 · orange 20 · yellow 32 and above</span></p>\n"
    }

    static func entry(_ report: FileReport, folder: String, files: inout [(name: String, bytes: [UInt8])]) -> String {
        // The suite is the root's name and the path's first folder; a file at the root is its own suite.
        let rest = report.relativePath.split(separator: "/").dropFirst()
        let shown = rest.isEmpty ? report.suite : report.suite + "/" + rest.joined(separator: "/")
        let anchor = "file=" + percentEncode(shown)
        var html = "<div class=\"entry\(report.expected ? "" : " unexpected")\" id=\"\(escape(anchor))\" data-format=\"\(escape(report.format))\" "
        html += "data-suite=\"\(escape(report.suite))\" data-verdict=\"\(report.verdict.rawValue)\" data-expected=\"\(report.expected)\">"
        html += "<h3>\(escape(shown))<a class=\"self\" href=\"#\(escape(anchor))\" title=\"link to this entry\">#</a></h3>"
        html += "<p><b>\(report.verdict.rawValue)</b>\(report.expected ? " (expected" + (report.expectation.map { ": " + escape($0) } ?? "") + ")" : " — <b>not expected</b>")"
        html += " · \(escape(report.format)) · \(escape(report.detail))</p>"
        var figures: [String] = []
        let stem = String(format6(report.index))
        if let ours = report.ours {
            figures.append(figure(ours.displayRGBA8(), ours.width, ours.height, "PureImage", name: stem + "-ours", folder: folder, files: &files))
        }
        if let reference = report.reference {
            figures.append(figure(reference.displayRGBA8(), reference.width, reference.height, "reference", name: stem + "-reference", folder: folder, files: &files))
        }
        if let ours = report.ours, let reference = report.reference,
           ours.width == reference.width, ours.height == reference.height, ours.channels == reference.channels {
            figures.append(figure(ImageComparison.heatMap(ours, reference), ours.width, ours.height, "difference ×8", name: stem + "-difference", folder: folder, files: &files))
        }
        if !figures.isEmpty { html += "<div class=\"images\">" + figures.joined() + "</div>" }
        return html + "</div>\n"
    }

    /// A thumbnail within `thumbnailBox` (small images drawn larger, pixelated; large ones
    /// reduced), its real size, and a link to the full-size PNG.
    static func figure(_ rgba: [UInt8], _ width: Int, _ height: Int, _ caption: String, name: String, folder: String,
                       files: inout [(name: String, bytes: [UInt8])]) -> String {
        guard width > 0, height > 0, let full = png(rgba, width: width, height: height) else {
            return "<figure><figcaption>\(escape(caption)): (no image)</figcaption></figure>"
        }
        files.append((name + ".png", full))
        let box = Double(thumbnailBox)
        let scale = min(box / Double(width), box / Double(height), max(1, 128 / Double(max(width, height))).rounded(.down))
        let shownWidth = max(1, Int((Double(width) * scale).rounded()))
        let shownHeight = max(1, Int((Double(height) * scale).rounded()))
        var source = name + ".png"
        if width > 2 * thumbnailBox || height > 2 * thumbnailBox,
           let small = reduced(rgba, width: width, height: height, to: (shownWidth, shownHeight)),
           let thumbnail = png(small, width: shownWidth, height: shownHeight) {
            // A large image gets its own small file, so the page loads thumbnails, not photos.
            source = name + "-thumbnail.png"
            files.append((source, thumbnail))
        }
        return "<figure><a href=\"\(escape(folder + name)).png\"><img loading=\"lazy\" width=\"\(shownWidth)\" height=\"\(shownHeight)\" "
            + "alt=\"\(escape(caption))\" src=\"\(escape(folder + source))\"></a>"
            + "<figcaption>\(escape(caption)) \(width)×\(height)</figcaption></figure>"
    }

    /// Nearest-neighbour reduction (a thumbnail to find the picture by, not to judge pixels by).
    static func reduced(_ rgba: [UInt8], width: Int, height: Int, to size: (Int, Int)) -> [UInt8]? {
        guard rgba.count == width * height * 4 else { return nil }
        var out = [UInt8](repeating: 0, count: size.0 * size.1 * 4)
        for y in 0..<size.1 {
            let sourceY = y * height / size.1
            for x in 0..<size.0 {
                let from = (sourceY * width + x * width / size.0) * 4
                let to = (y * size.0 + x) * 4
                for channel in 0..<4 { out[to + channel] = rgba[from + channel] }
            }
        }
        return out
    }

    static func png(_ rgba: [UInt8], width: Int, height: Int) -> [UInt8]? {
        guard let bitmap = try? Bitmap(width: width, height: height, format: .rgba8, bytes: rgba) else { return nil }
        return try? ImageWriter.encode(bitmap, as: .png)
    }

    static func format6(_ value: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// Filters and deep links: `#file=SUITE/PATH` shows one entry, `#verdict=V&format=F&suite=S`
    /// sets the filters (the summary table's counts link that way).
    static let script = """
    <script>
    (function () {
      const entries = Array.from(document.querySelectorAll('.entry'));
      const select = { format: document.getElementById('filter-format'), suite: document.getElementById('filter-suite'),
                       verdict: document.getElementById('filter-verdict') };
      function apply() {
        let shown = 0;
        for (const entry of entries) {
          const d = entry.dataset;
          const verdict = select.verdict.value;
          const ok = (!select.format.value || d.format === select.format.value) &&
                     (!select.suite.value || d.suite === select.suite.value) &&
                     (!verdict || (verdict === 'unexpected' ? d.expected === 'false' : d.verdict === verdict));
          entry.hidden = !ok;
          if (ok) shown++;
        }
        const filtering = select.format.value || select.suite.value || select.verdict.value;
        for (const section of document.querySelectorAll('section')) {
          const members = Array.from(section.querySelectorAll('.entry'));
          // While filtering, a section shows only when it has entries to show.
          section.hidden = filtering ? members.every(e => e.hidden) : false;
        }
        document.getElementById('filter-count').textContent = shown + ' of ' + entries.length + ' entries shown';
      }
      function fromHash() {
        let hash = location.hash.slice(1);
        try { hash = decodeURIComponent(hash); } catch (e) { /* a hand-typed stray %: use it as it is */ }
        for (const old of document.querySelectorAll('.entry.target')) old.classList.remove('target');
        if (hash.startsWith('file=')) {
          for (const key in select) select[key].value = '';
          apply();
          const target = document.getElementById(location.hash.slice(1)) || document.getElementById(hash);
          if (target) { target.classList.add('target'); target.scrollIntoView(); }
          return;
        }
        const params = new URLSearchParams(location.hash.slice(1));
        if (params.has('verdict') || params.has('format') || params.has('suite')) {
          for (const key in select) select[key].value = params.get(key) || '';
          apply();
          const first = entries.find(e => !e.hidden);
          if (first) first.closest('section').scrollIntoView();
        }
      }
      for (const key in select) select[key].addEventListener('change', apply);
      window.addEventListener('hashchange', fromHash);
      apply();
      fromHash();
    })();
    </script>

    """

    static func percentEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }

    /// Text for HTML content and attribute values. Scalar by scalar: as Characters, a quote
    /// followed by a combining mark would be one grapheme that is not `"`, and pass unescaped.
    static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&#39;".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
