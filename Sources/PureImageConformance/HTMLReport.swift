import PureImage

/// A self-contained HTML page: the summary table, then for every file that is not identical
/// our image, the reference image and a difference heat map side by side, with the first
/// differing pixel and the maximum difference. Images are embedded as PNG data URIs.
public enum HTMLReport {
    public static func render(_ run: ConformanceRun, title: String = "PureImage conformance") -> String {
        var html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <style>
        body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
        table { border-collapse: collapse; margin-bottom: 2em; }
        th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
        th:nth-child(-n+2), td:nth-child(-n+2) { text-align: left; }
        tr.total { font-weight: bold; background: #f3f3f3; }
        td.bad { background: #fdd; }
        .file { border-top: 1px solid #ddd; padding: 1em 0; }
        .file.unexpected h3 { color: #b00; }
        .images { display: flex; gap: 1em; align-items: flex-start; }
        .images figure { margin: 0; }
        .images img { image-rendering: pixelated; border: 1px solid #999; max-width: 360px; min-width: 64px; background: repeating-conic-gradient(#ddd 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
        figcaption { font-size: 12px; color: #555; }
        code { background: #f5f5f5; padding: 0 3px; }
        </style></head><body>
        <h1>\(escape(title))</h1>
        <p>\(run.reports.count) images compared, \(run.unexpected.count) outside the expectations; \(run.otherFiles) other files skipped.</p>
        <table><tr><th>format</th><th>suite</th><th>files</th>
        """
        for column in ConformanceRun.columns { html += "<th>\(column.title)</th>" }
        html += "<th>unexpected</th></tr>\n"
        for (index, row) in (run.rows + [run.totals]).enumerated() {
            let isTotal = index == run.rows.count
            html += "<tr\(isTotal ? " class=\"total\"" : "")><td>\(escape(row.format))</td><td>\(escape(row.suite))</td><td>\(row.files)</td>"
            for column in ConformanceRun.columns {
                let count = column.verdicts.reduce(0) { $0 + (row.counts[$1] ?? 0) }
                html += "<td>\(count)</td>"
            }
            html += "<td\(row.unexpected > 0 ? " class=\"bad\"" : "")>\(row.unexpected)</td></tr>\n"
        }
        html += "</table>\n<h2>Files that are not identical</h2>\n"
        let notIdentical = run.reports.filter { $0.verdict != .identical }
            .sorted { ($0.expected ? 1 : 0, $0.relativePath) < ($1.expected ? 1 : 0, $1.relativePath) }
        for report in notIdentical {
            html += "<div class=\"file\(report.expected ? "" : " unexpected")\"><h3>\(escape(report.suite))/\(escape(report.relativePath.split(separator: "/").dropFirst().joined(separator: "/")))</h3>"
            html += "<p><b>\(report.verdict.rawValue)</b>\(report.expected ? " (expected" + (report.expectation.map { ": " + escape($0) } ?? "") + ")" : " — <b>not expected</b>") · \(escape(report.format)) · \(escape(report.detail))</p>"
            if let ours = report.ours, let reference = report.reference {
                html += "<div class=\"images\">"
                html += figure(ours.displayRGBA8(), ours.width, ours.height, "PureImage")
                html += figure(reference.displayRGBA8(), reference.width, reference.height, "reference")
                if ours.width == reference.width && ours.height == reference.height && ours.channels == reference.channels {
                    html += figure(ImageComparison.heatMap(ours, reference), ours.width, ours.height, "difference ×8")
                }
                html += "</div>"
            }
            html += "</div>\n"
        }
        html += "</body></html>\n"
        return html
    }

    static func figure(_ rgba: [UInt8], _ width: Int, _ height: Int, _ caption: String) -> String {
        guard width > 0, height > 0,
              let bitmap = try? Bitmap(width: width, height: height, format: .rgba8, bytes: rgba),
              let png = try? ImageWriter.encode(bitmap, as: .png) else {
            return "<figure><figcaption>\(escape(caption)): (no image)</figcaption></figure>"
        }
        let scale = max(1, 128 / max(width, height))
        return "<figure><img width=\"\(min(360, width * scale))\" alt=\"\(escape(caption))\" src=\"data:image/png;base64,\(base64(png))\"><figcaption>\(escape(caption)) \(width)×\(height)</figcaption></figure>"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }

    /// RFC 4648 base64.
    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 2 < bytes.count {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out += [alphabet[Int(n >> 18)], alphabet[Int((n >> 12) & 63)], alphabet[Int((n >> 6) & 63)], alphabet[Int(n & 63)]]
            index += 3
        }
        let rest = bytes.count - index
        if rest == 1 {
            let n = UInt32(bytes[index]) << 16
            out += [alphabet[Int(n >> 18)], alphabet[Int((n >> 12) & 63)], UInt8(ascii: "="), UInt8(ascii: "=")]
        } else if rest == 2 {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out += [alphabet[Int(n >> 18)], alphabet[Int((n >> 12) & 63)], alphabet[Int((n >> 6) & 63)], UInt8(ascii: "=")]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
