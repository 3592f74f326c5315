/// What the JPEG decoder records for `pureimage inspect` (`StructureLog`): every marker with
/// its offset and length (T.81 Annex B), the fields of SOF, DHT, DQT, SOS, DRI, DAC, DNL and
/// the recognised APPn segments, and a one-line summary of each entropy-coded segment as the
/// scan that read it ended (bytes, restart markers).
enum JPEGInspector {
    /// The entropy-coded data `from ..< to` (a scan's data, up to the marker that ended it):
    /// its size and the restart markers in it.
    static func entropySummary(_ bytes: [UInt8], from start: Int, to end: Int) -> String {
        let end = min(end, bytes.count)   // MarkerScanner's bound
        var restarts = 0
        var cursor = max(0, start)
        while cursor < end {
            let found = bytes.withUnsafeBufferPointer { MarkerScanner.next(in: $0, from: cursor, end: end) }
            guard case .marker(let code, _, let after, _) = found else { break }
            if JPEGMarker.isRST(code) { restarts += 1 }
            cursor = after
        }
        return "\(max(0, end - start)) bytes, \(restarts) restart markers"
    }

    /// The fields of `segment`, after its length; `frame` is the frame header read so far
    /// (a scan header names its components through it).
    static func describe(_ segment: JPEGSegment, frame: FrameHeader?) -> String {
        let code = segment.marker
        switch code {
        case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
            guard let header = try? FrameHeader(parsing: segment) else { return "  (invalid frame header)" }
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
            // (A segment cut off by the end of the input is padded with up to 64 KB of filler.)
            let shown = entries.prefix(16).joined(separator: "; ")
            return "  arithmetic conditioning: " + shown + (entries.count > 16 ? "; … (\(entries.count) entries)" : "")
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
