import CommandLineSupport
import PureImage

/// `pureimage info FILE [--json]`
enum InfoCommand {
    static let help = """
    usage: pureimage info FILE [--json] [--frames]

    Prints the format, size, frame count, orientation, colour model, bit depth, alpha,
    progressive/interlaced flags, loop count and metadata of FILE, read from its headers
    alone (no image data is decompressed: `decode` says whether the pixels decode).
    --frames every animation frame: delay, rectangle on the canvas, disposal, blending, alpha
    --json   one JSON object with the keys format, width, height, frameCount, orientation,
             colorModel, bitsPerComponent, hasAlpha, progressive, interlaced, loopCount,
             frames [{delay, duration, x, y, width, height, disposal, blend, hasAlpha}],
             pages (TIFF: each page's size, colour and extras), truncated, decodable,
             notDecodableBecause, warnings, and format-specific extras (JPEG: process,
             sampling factors, an estimate of the IJG quality; TIFF: compression,
             photometric, samples, planar configuration, strips or tiles).
    A file whose headers read but whose pixels will not decode (a JPEG-LS or hierarchical
    JPEG, a TIFF compression without a decoder here, an image beyond the decode limits) is
    still described, with "decodable: no" and the reason; decodable means only that the
    headers raise no objection.
    Exit status 0: described (decodable or not); 1: no readable header (the error on stderr);
    3: the container ends before its headers say it does (truncated).
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, valued: [], allowedFlags: ["--json", "--frames", "--help", "-h"])
        if parsed.has("--help") || parsed.has("-h") { print(help); return ExitStatus.success }
        guard parsed.positional.count == 1, let path = parsed.positional.first else {
            throw UsageError(message: "info takes exactly one FILE")
        }
        // The headers alone (ImageSource.describe): no image data is decompressed, so a
        // truncation here is the container's (a decode may recover part of the image).
        var description: SourceDescription
        do {
            description = try ImageSource.describe(contentsOfFile: path)
        } catch let error where error.kind == .limitExceeded {
            // An image beyond the decode limits still has headers to show: walk them again
            // without the pixel and memory limits (a header walk allocates nothing image-sized;
            // the metadata and frame-count limits stay), and say why it will not decode.
            var unbounded = DecodeOptions()
            unbounded.limits.maxPixels = .max
            unbounded.limits.maxMemoryBytes = .max
            guard let described = try? ImageSource.describe(contentsOfFile: path, options: unbounded) else {
                return CLI.report(path, error)
            }
            description = described
            description.refusal = error
        } catch {
            return CLI.report(path, error)
        }
        let (properties, truncation) = (description.properties, description.truncation)
        if parsed.has("--json") {
            print(json(properties, pages: description.pages, truncation: truncation, refusal: description.refusal,
                       warnings: description.warnings))
        } else {
            print(text(properties, pages: description.pages, truncation: truncation, refusal: description.refusal,
                       warnings: description.warnings, listFrames: parsed.has("--frames")))
        }
        if let truncation {
            printError("pureimage: \(path): warning: \(truncation)")
            return ExitStatus.truncated
        }
        return ExitStatus.success
    }

    /// An exposure time as photographers write it: "1/250 s" below a second, "2.5 s" above.
    static func exposureTime(_ seconds: Double) -> String {
        guard seconds > 0, seconds < 1, (1 / seconds).isFinite else { return "\(seconds) s" }
        return "1/\(wholeNumber(1 / seconds)) s"
    }

    /// A number rounded to a whole one when it is within Int's range, else as it is.
    static func wholeNumber(_ value: Double) -> String {
        let rounded = value.rounded()
        guard let whole = Int(exactly: rounded) else { return "\(value)" }
        return String(whole)
    }

    static func json(_ p: ImageProperties, pages: [ImageProperties?], truncation: DecodeError?, refusal: DecodeError?,
                     warnings: [DecodeWarning]) -> String {
        var object = JSONObject()
        object["format"] = .string(p.format.rawValue)
        object["width"] = .int(p.width)
        object["height"] = .int(p.height)
        object["frameCount"] = .int(p.frameCount)
        object["orientation"] = .int(p.orientation.rawValue)
        object["colorModel"] = .string(p.colorModel.name)
        object["bitsPerComponent"] = .int(p.bitsPerComponent)
        object["hasAlpha"] = .bool(p.hasAlpha)
        object["progressive"] = .bool(p.isProgressive)
        object["interlaced"] = .bool(p.isInterlaced)
        object["loopCount"] = p.loopCount.map { .int($0) } ?? .null
        object["frames"] = .array(p.frames.map { timing in
            var frame = JSONObject()
            frame["delay"] = .double(timing.delay)
            frame["duration"] = .double(timing.duration)
            frame["x"] = .int(timing.x)
            frame["y"] = .int(timing.y)
            frame["width"] = .int(timing.width)
            frame["height"] = .int(timing.height)
            frame["disposal"] = .string(timing.disposal.rawValue)
            frame["blend"] = .string(timing.blend.rawValue)
            frame["hasAlpha"] = .bool(timing.hasAlpha)
            return .object(frame)
        })
        object["exifBytes"] = p.exif.map { .int($0.count) } ?? .null
        object["exif"] = p.exifMetadata.map { exifJSON($0) } ?? .null
        object["iccProfileBytes"] = p.iccProfile.map { .int($0.count) } ?? .null
        object["iccProfileDescription"] = p.iccProfileDescription.map { .string($0) } ?? .null
        object["jfif"] = p.jfif.map { jfif in
            var item = JSONObject()
            item["version"] = .string("\(jfif.majorVersion).\(jfif.minorVersion < 10 ? "0" : "")\(jfif.minorVersion)")
            item["densityUnit"] = .int(jfif.densityUnit)
            item["xDensity"] = .int(jfif.xDensity)
            item["yDensity"] = .int(jfif.yDensity)
            return .object(item)
        } ?? .null
        if p.format == .png { object["png"] = pngJSON(p.png) }
        object["text"] = .array(p.text.map { entry in
            var item = JSONObject()
            item["keyword"] = .string(entry.keyword)
            item["text"] = .string(entry.text)
            return .object(item)
        })
        var extra = JSONObject()
        for (key, value) in p.extra { extra[key] = .string(value) }
        object["extra"] = .object(extra)
        if !pages.isEmpty {
            // TIFF: every page as its own IFD describes it (tiffinfo lists every directory).
            object["pages"] = .array(pages.map { page in
                guard let page else { return .null }
                var item = JSONObject()
                item["width"] = .int(page.width)
                item["height"] = .int(page.height)
                item["colorModel"] = .string(page.colorModel.name)
                item["bitsPerComponent"] = .int(page.bitsPerComponent)
                item["hasAlpha"] = .bool(page.hasAlpha)
                item["orientation"] = .int(page.orientation.rawValue)
                var extra = JSONObject()
                for (key, value) in page.extra { extra[key] = .string(value) }
                item["extra"] = .object(extra)
                return .object(item)
            })
        }
        object["truncated"] = .bool(truncation != nil)
        object["decodable"] = .bool(refusal == nil)
        object["notDecodableBecause"] = refusal.map { .string($0.description) } ?? .null
        object["warnings"] = .array(warnings.map { .string($0.description) })
        return JSONValue.object(object).serialized()
    }

    static func fields(_ pairs: [(String, JSONValue)]) -> JSONObject {
        var object = JSONObject()
        for (key, value) in pairs { object[key] = value }
        return object
    }

    /// tIME as "YYYY-MM-DD hh:mm:ss" (with `separator` between date and time).
    static func timestamp(_ t: PNGProperties.ModificationTime, separator: String) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(t.year, 4))-\(pad(t.month, 2))-\(pad(t.day, 2))\(separator)\(pad(t.hour, 2)):\(pad(t.minute, 2)):\(pad(t.second, 2))"
    }

    /// The PNG chunks' facts that are present.
    static func pngJSON(_ png: PNGProperties) -> JSONValue {
        var object = JSONObject()
        if let gamma = png.gamma { object["gamma"] = .double(gamma) }
        if let c = png.chromaticities {
            object["chromaticities"] = .array([c.whiteX, c.whiteY, c.redX, c.redY, c.greenX, c.greenY, c.blueX, c.blueY].map { .double($0) })
        }
        if let intent = png.sRGBIntent { object["sRGBIntent"] = .int(intent) }
        if let name = png.iccProfileName { object["iccProfileName"] = .string(name) }
        if let bits = png.significantBits { object["significantBits"] = .array(bits.map { .int($0) }) }
        switch png.background {
        case .paletteIndex(let index): object["background"] = .object(fields([("index", .int(index))]))
        case .gray(let gray): object["background"] = .object(fields([("gray", .int(gray))]))
        case .rgb(let r, let g, let b): object["background"] = .object(fields([("rgb", .array([.int(r), .int(g), .int(b)]))]))
        case nil: break
        }
        if let density = png.pixelsPerUnit {
            object["pixelsPerUnit"] = .object(fields([("x", .int(density.x)), ("y", .int(density.y)), ("perMetre", .bool(density.perMetre))]))
        }
        if let t = png.modificationTime { object["modificationTime"] = .string(timestamp(t, separator: "T") + "Z") }
        return .object(object)
    }

    /// EXIF as ImageIO's dictionaries: {"TIFF": {"Make": …}, "Exif": {…}, "GPS": {…}} (a tag
    /// ImageIO does not name as "Tag<number>"), and every entry again under its tag number
    /// ("tags": {"Exif": {"33434": …}}), which is how Conformance/exif_vs_exiftool.py matches them.
    static func exifJSON(_ exif: EXIFMetadata) -> JSONValue {
        var object = JSONObject()
        var byTag = JSONObject()
        for directory in EXIFDirectory.allCases {
            let entries = exif.entries.filter { $0.directory == directory }
            guard !entries.isEmpty else { continue }
            var named = JSONObject()
            var numbered = JSONObject()
            for entry in entries {
                named[entry.name ?? "Tag\(entry.tag)"] = exifValueJSON(entry.value)
                numbered[String(entry.tag)] = exifValueJSON(entry.value)
            }
            object[directory.rawValue] = .object(named)
            byTag[directory.rawValue] = .object(numbered)
        }
        object["tags"] = .object(byTag)
        if let range = exif.thumbnailRange {
            var thumbnail = JSONObject()
            thumbnail["offset"] = .int(range.lowerBound)
            thumbnail["length"] = .int(range.count)
            object["thumbnailJPEG"] = .object(thumbnail)
        }
        return .object(object)
    }

    /// One value: a number or string when single, an array when several; undefined bytes as an
    /// array of numbers (at most 1024, else their count as "N bytes": a MakerNote).
    static func exifValueJSON(_ value: EXIFValue) -> JSONValue {
        func number(_ x: Double) -> JSONValue { x.isFinite ? .double(x) : .null }
        switch value {
        case .text(let text): return .string(text)
        case .integers(let values): return values.count == 1 ? .int(values[0]) : .array(values.map { .int($0) })
        case .rationals(let values), .reals(let values): return values.count == 1 ? number(values[0]) : .array(values.map(number))
        case .bytes(let bytes): return bytes.count <= 1024 ? .array(bytes.map { .int(Int($0)) }) : .string("\(bytes.count) bytes")
        }
    }

    static func text(_ p: ImageProperties, pages: [ImageProperties?], truncation: DecodeError?, refusal: DecodeError?,
                     warnings: [DecodeWarning], listFrames: Bool) -> String {
        var lines = [
            "format:        \(p.format.rawValue)",
            "size:          \(p.width) x \(p.height)",
            "frames:        \(p.frameCount)",
            "orientation:   \(p.orientation.rawValue) (\(p.orientation))",
            "colour model:  \(p.colorModel.name)",
            "bit depth:     \(p.bitsPerComponent)",
            "alpha:         \(p.hasAlpha ? "yes" : "no")",
            "progressive:   \(p.isProgressive ? "yes" : "no")",
            "interlaced:    \(p.isInterlaced ? "yes" : "no")",
        ]
        if let loops = p.loopCount { lines.append("loop count:    \(loops == 0 ? "0 (forever)" : String(loops))") }
        if listFrames {
            for (index, frame) in p.frames.enumerated() {
                lines.append("frame \(index):".padding(15) + "delay \(frame.delay) s (plays \(frame.duration) s), "
                             + "\(frame.width)x\(frame.height) at \(frame.x),\(frame.y), dispose \(frame.disposal.rawValue), "
                             + "blend \(frame.blend.rawValue)\(frame.hasAlpha ? ", alpha" : "")")
            }
        } else if let shortest = p.frames.map(\.duration).min(), let longest = p.frames.map(\.duration).max() {
            let total = p.frames.reduce(0) { $0 + $1.duration }
            lines.append("timing:".padding(15) + "\(shortest == longest ? "\(shortest) s per frame" : "\(shortest)-\(longest) s per frame"), "
                         + "\((total * 1000).rounded() / 1000) s in all (--frames lists every frame)")
        }
        if let exif = p.exif { lines.append("exif:          \(exif.count) bytes") }
        if let exif = p.exifMetadata {
            let essentials = [(EXIFDirectory.tiff, "Make"), (.tiff, "Model"), (.exif, "DateTimeOriginal"), (.exif, "LensModel")]
                .compactMap { exif.text($0.0, $0.1) }
            // The numbers come from the file: any value (0, negative, NaN, huge) must print, never trap.
            let exposure = [exif.number(.exif, "ExposureTime").map(exposureTime),
                            exif.number(.exif, "FNumber").map { "f/\($0)" },
                            exif.number(.exif, "ISOSpeedRatings").map { "ISO \(wholeNumber($0))" },
                            exif.number(.exif, "FocalLength").map { "\($0) mm" }]
                .compactMap { $0 }
            if !essentials.isEmpty || !exposure.isEmpty { lines.append("camera:        " + (essentials + exposure).joined(separator: ", ")) }
            if let position = exif.coordinate { lines.append("gps:           \(position.latitude), \(position.longitude)") }
            lines.append("exif tags:     \(exif.entries.count) (--json lists them)")
        }
        if let icc = p.iccProfile {
            lines.append("icc profile:   \(icc.count) bytes" + (p.iccProfileDescription.map { " (\($0))" } ?? ""))
        }
        if let jfif = p.jfif {
            let unit = [0: "(aspect ratio)", 1: "dpi", 2: "dots per cm"][jfif.densityUnit] ?? "unit \(jfif.densityUnit)"
            lines.append("jfif:          \(jfif.majorVersion).\(jfif.minorVersion < 10 ? "0" : "")\(jfif.minorVersion), \(jfif.xDensity)x\(jfif.yDensity) \(unit)")
        }
        if let gamma = p.png.gamma { lines.append("gamma:         \(gamma)") }
        if let intent = p.png.sRGBIntent {
            let intents = ["perceptual", "relative colorimetric", "saturation", "absolute colorimetric"]
            lines.append("srgb:          intent \(intent) (\(intents.indices.contains(intent) ? intents[intent] : "not defined by the PNG specification"))")
        }
        if let density = p.png.pixelsPerUnit {
            lines.append("pixel density: \(density.x)x\(density.y)" + (density.perMetre ? " per metre (\(Int((Double(density.x) * 0.0254).rounded())) dpi)" : " (aspect ratio)"))
        }
        if let t = p.png.modificationTime { lines.append("modified:      " + timestamp(t, separator: " ") + " UTC") }
        for entry in p.text { lines.append("text:          \(entry.keyword): \(entry.text.prefix(200))") }
        for (key, value) in p.extra { lines.append("\(key):".padding(15) + value) }
        if pages.count > 1 {
            for (index, page) in pages.enumerated() {
                guard let page else { lines.append("page \(index):".padding(15) + "(its IFD gives no size)"); continue }
                let facts = ["\(page.width)x\(page.height)", "\(page.colorModel.name) \(page.bitsPerComponent)-bit\(page.hasAlpha ? " + alpha" : "")"]
                    + page.extra.map { "\($0.key) \($0.value)" }
                lines.append("page \(index):".padding(15) + facts.joined(separator: ", "))
            }
        }
        if let truncation { lines.append("truncated:     \(truncation)") }
        if let refusal { lines.append("decodable:     no: \(refusal)") }
        for warning in warnings where warning.description != truncation?.description {
            lines.append("warning:       \(warning)")
        }
        return lines.joined(separator: "\n")
    }
}
