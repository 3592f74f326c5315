/// Where an entropy-coded segment's reader stands in the bytes, as far as markers are
/// concerned: both entropy decoders (Huffman's `EntropyBitReader`, the arithmetic
/// `ArithmeticDecoder`) keep these four fields, so the restart logic below serves both.
protocol MarkerCursor {
    /// Next byte to read: an index into the bytes the scan is given (the stream offset less
    /// the decoder's `scanOrigin`).
    var position: Int { get set }
    /// The marker code that ended the data, −1 while none was met.
    var marker: Int { get set }
    /// Offset of the 0xFF that started `marker` (the end of the input for a synthetic EOI).
    var markerOffset: Int { get set }
    /// True when `marker` is the EOI implied by the end of a closed input.
    var endOfInput: Bool { get set }
}

extension EntropyBitReader: MarkerCursor {}

extension MarkerCursor {
    /// The same place in bytes that now start `delta` bytes later (the input's consumed
    /// bytes were dropped: `EntropyScan.rebase(by:)`).
    mutating func rebase(by delta: Int) {
        position -= delta
        if marker >= 0 { markerOffset -= delta }
    }
}

/// T.81 §F.2.1.3.1 / §B.2.4.4 restart intervals, read the way libjpeg-turbo reads them
/// (jdmarker.c `read_restart_marker`, `next_marker`, `jpeg_resync_to_restart`). The entropy
/// decoder calls `read` when an interval's MCUs are done, after dropping its buffered data.
enum RestartMarkers {
    /// Finds the restart marker `RST(expected)` at the cursor, or resynchronises. False means
    /// "suspend" (the bytes so far ran out before a decision; the input is still open).
    static func read<Cursor: MarkerCursor>(expected: Int, _ cursor: inout Cursor, _ bytes: UnsafeBufferPointer<UInt8>, end: Int,
                                           closed: Bool, warnings: inout [(Int, String)]) -> Bool {
        if cursor.marker < 0 {
            guard next(&cursor, bytes, end: end, closed: closed, warnings: &warnings) else { return false }
        }
        if cursor.marker == Int(JPEGMarker.rst0) + expected {
            cursor.marker = -1
            return true
        }
        return resync(desired: expected, &cursor, bytes, end: end, closed: closed, warnings: &warnings)
    }

    /// jdmarker.c `next_marker` from the cursor's position into `cursor.marker`; a closed input
    /// that ends first gives the EOI libjpeg's memory source inserts.
    static func next<Cursor: MarkerCursor>(_ cursor: inout Cursor, _ bytes: UnsafeBufferPointer<UInt8>, end: Int, closed: Bool,
                                           warnings: inout [(Int, String)]) -> Bool {
        switch MarkerScanner.next(in: bytes, from: cursor.position, end: end) {
        case .marker(let code, let offset, let next, let discarded):
            if discarded > 0 {
                record((offset, "Corrupt JPEG data: \(discarded) extraneous bytes before marker 0x\(hex2(code).lowercased())"), in: &warnings)
            }
            cursor.marker = Int(code)
            cursor.markerOffset = offset
            cursor.position = next
            return true
        case .endOfBytes:
            guard closed else { return false }
            cursor.marker = Int(JPEGMarker.eoi)
            cursor.markerOffset = end
            cursor.endOfInput = true
            cursor.position = end
            return true
        }
    }

    /// jdmarker.c `jpeg_resync_to_restart`: (1) a restart marker too far from the expected one
    /// is discarded and decoding resumes; (2) garbage or an earlier restart: scan ahead to the
    /// next marker and decide again; (3) one of the next two restarts, or any other marker:
    /// leave it, so the interval decodes as empty (zeros).
    static func resync<Cursor: MarkerCursor>(desired: Int, _ cursor: inout Cursor, _ bytes: UnsafeBufferPointer<UInt8>, end: Int,
                                             closed: Bool, warnings: inout [(Int, String)]) -> Bool {
        record((cursor.markerOffset,
                "Corrupt JPEG data: found marker 0x\(hex2(UInt8(truncatingIfNeeded: cursor.marker)).lowercased()) instead of RST\(desired)"), in: &warnings)
        while true {
            let marker = cursor.marker
            let rst = Int(JPEGMarker.rst0)
            let action: Int
            if marker < 0xC0 {
                action = 2
            } else if marker < rst || marker > rst + 7 {
                action = 3
            } else if marker == rst + ((desired + 1) & 7) || marker == rst + ((desired + 2) & 7) {
                action = 3
            } else if marker == rst + ((desired - 1) & 7) || marker == rst + ((desired - 2) & 7) {
                action = 2
            } else {
                action = 1
            }
            switch action {
            case 1:
                cursor.marker = -1
                return true
            case 2:
                guard next(&cursor, bytes, end: end, closed: closed, warnings: &warnings) else { return false }
            default:
                return true
            }
        }
    }

    /// A scan's warnings between two hand-overs to the decoder are kept to this many: with DRI 1,
    /// a damaged or cut-off large file would otherwise collect one per restart interval.
    static let warningsPerHandOver = 100

    static func record(_ warning: (Int, String), in warnings: inout [(Int, String)]) {
        if warnings.count < warningsPerHandOver { warnings.append(warning) }
    }
}
