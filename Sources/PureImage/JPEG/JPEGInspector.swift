/// `pureimage inspect` for JPEG: every marker with its offset and length (T.81 Annex B), the
/// fields of SOF, DHT, DQT, SOS, DRI and the recognised APPn segments, and a one-line summary of
/// each entropy-coded segment (bytes, restart markers). Reads structure only, never pixels;
/// stops with a note at the first thing it cannot follow.
enum JPEGInspector {
    static func walk(_ bytes: [UInt8]) -> [InspectionEntry] {
        var entries: [InspectionEntry] = []
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == JPEGMarker.soi else {
            return [InspectionEntry(offset: 0, name: "note", detail: "no SOI marker at the start")]
        }
        entries.append(InspectionEntry(offset: 0, name: "SOI", detail: ""))
        var frame: FrameHeader?
        var position = 2
        while true {
            let result = bytes.withUnsafeBufferPointer { MarkerScanner.next(in: $0, from: position, end: $0.count) }
            guard case .marker(let code, let offset, let next, let discarded) = result else {
                entries.append(InspectionEntry(offset: bytes.count, name: "end", detail: "no EOI marker (input ends)"))
                return entries
            }
            if discarded > 0 {
                entries.append(InspectionEntry(offset: position, name: "extraneous", detail: "\(discarded) bytes before marker"))
            }
            let name = JPEGMarker.name(code)
            if JPEGMarker.isStandalone(code) {
                entries.append(InspectionEntry(offset: offset, name: name, detail: ""))
                if code == JPEGMarker.eoi {
                    if next < bytes.count {
                        entries.append(InspectionEntry(offset: next, name: "trailing", detail: "\(bytes.count - next) bytes after EOI"))
                    }
                    return entries
                }
                position = next
                continue
            }
            guard next + 2 <= bytes.count else {
                entries.append(InspectionEntry(offset: offset, name: name, detail: "length field missing (truncated)"))
                return entries
            }
            let length = Int(bytes[next]) << 8 | Int(bytes[next + 1])
            let bodyCount = max(0, length - 2)
            guard next + 2 + bodyCount <= bytes.count else {
                entries.append(InspectionEntry(offset: offset, name: name, detail: "length \(length): runs past the end of the file (\(bytes.count) bytes)"))
                return entries
            }
            let segment = JPEGSegment(marker: code, markerOffset: offset, declaredLength: length,
                                      body: bytes[(next + 2) ..< (next + 2 + bodyCount)])
            entries.append(InspectionEntry(offset: offset, name: name, detail: "length \(length)" + describe(segment, frame: &frame)))
            position = next + 2 + bodyCount
            if code == JPEGMarker.sos {
                // The entropy-coded segment: up to the first marker other than RSTn.
                var restarts = 0
                var cursor = position
                while true {
                    let found = bytes.withUnsafeBufferPointer { MarkerScanner.next(in: $0, from: cursor, end: $0.count) }
                    guard case .marker(let code, let markerOffset, let after, _) = found else {
                        entries.append(InspectionEntry(offset: position, name: "entropy data", detail: "\(bytes.count - position) bytes, \(restarts) restart markers, input ends", level: 1))
                        return entries
                    }
                    if JPEGMarker.isRST(code) {
                        restarts += 1
                        cursor = after
                        continue
                    }
                    entries.append(InspectionEntry(offset: position, name: "entropy data", detail: "\(markerOffset - position) bytes, \(restarts) restart markers", level: 1))
                    position = markerOffset
                    break
                }
            }
        }
    }

    private static func describe(_ segment: JPEGSegment, frame: inout FrameHeader?) -> String {
        let code = segment.marker
        switch code {
        case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
            guard let header = try? FrameHeader(parsing: segment) else { return "  (invalid frame header)" }
            frame = header
            let components = header.components.map { "id \($0.id) \($0.h)x\($0.v) q\($0.tq)" }.joined(separator: ", ")
            let height = header.height == 0 ? "0 (defined by DNL)" : String(header.height)
            return "  \(JPEGMarker.processName(code)); precision \(header.precision) width \(header.width) height \(height) "
                + "components \(header.components.count): \(components)"
        case JPEGMarker.dht:
            guard let tables = try? HuffmanTables.parse(segment) else { return "  (invalid DHT)" }
            return "  " + tables.map { "\($0.isDC ? "DC" : "AC")\($0.index): \($0.symbols.count) codes, lengths [\($0.counts.map(String.init).joined(separator: " "))]" }.joined(separator: "; ")
        case JPEGMarker.dqt:
            guard let tables = try? QuantizationTables.parse(segment) else { return "  (invalid DQT)" }
            return "  " + tables.map { "table \($0.index) \($0.sixteenBit ? 16 : 8)-bit, first values \($0.values.prefix(4).map(String.init).joined(separator: " "))…" }.joined(separator: "; ")
        case JPEGMarker.dac:
            // B.2.4.3: (Tc Tb, Cs) pairs — DC tables get L (low nibble) and U, AC tables Kx.
            var entries: [String] = []
            var at = 0
            while at + 1 < segment.body.count {
                let index = segment.byte(at), value = segment.byte(at + 1)
                entries.append(index >= 16 ? "AC\(index - 16) Kx \(value)" : "DC\(index) L \(value & 15) U \(value >> 4)")
                at += 2
            }
            return "  arithmetic conditioning: " + entries.joined(separator: "; ")
        case JPEGMarker.dnl:
            guard segment.body.count >= 2 else { return "  (invalid DNL)" }
            return "  number of lines \(segment.uint16(0))"
        case JPEGMarker.dri:
            guard let interval = try? RestartInterval.parse(segment) else { return "  (invalid DRI)" }
            return "  restart interval \(interval) MCUs"
        case JPEGMarker.sos:
            guard let frame, let scan = try? ScanHeader(parsing: segment, frame: frame) else { return "  (invalid or frameless SOS)" }
            if frame.marker == JPEGMarker.sof3 || frame.marker == JPEGMarker.sof11 {
                // H.1.1: a lossless scan's Ss selects the predictor, Al is the point transform;
                // Td selects the Huffman table or arithmetic conditioning of every difference.
                let components = scan.components.map { "id \(frame.components[$0.frameIndex].id) table \($0.dcTable)" }.joined(separator: ", ")
                return "  components \(scan.components.count): \(components); predictor \(scan.ss), point transform \(scan.al)"
            }
            let components = scan.components.map { "id \(frame.components[$0.frameIndex].id) dc\($0.dcTable) ac\($0.acTable)" }.joined(separator: ", ")
            return "  components \(scan.components.count): \(components); Ss \(scan.ss) Se \(scan.se) Ah \(scan.ah) Al \(scan.al)"
        case JPEGMarker.app0...JPEGMarker.app15, JPEGMarker.com:
            var metadata = JPEGMetadata()
            _ = metadata.absorb(segment)
            if let jfif = metadata.jfif {
                return "  JFIF \(jfif.majorVersion).\(jfif.minorVersion < 10 ? "0" : "")\(jfif.minorVersion) density \(jfif.xDensity)x\(jfif.yDensity) unit \(jfif.densityUnit)"
            }
            if let exif = metadata.exif {
                return "  EXIF \(exif.count) bytes, orientation \(metadata.orientation.map { String($0.rawValue) } ?? "none")"
            }
            if let chunk = metadata.iccChunks.first {
                return "  ICC profile chunk \(chunk.sequence) of \(chunk.count), \(chunk.data.count) bytes"
            }
            if let transform = metadata.adobeTransform { return "  Adobe transform \(transform)" }
            if let comment = metadata.comments.first { return "  comment \"\(comment.prefix(60))\"" }
            let printable = segment.body.prefix(while: { $0 >= 0x20 && $0 < 0x7F }).prefix(20)
            return printable.isEmpty ? "" : "  \"\(String(decoding: printable, as: UTF8.self))\""
        default:
            return ""
        }
    }
}
