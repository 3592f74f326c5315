/// JPEGDecoder, a scan under way: running its entropy decoder over the bytes held, and what it
/// means for the input — where the scan's positions stand when a driver drops consumed input
/// (`ImageSource.decodeRows(contentsOfFile:)`), and when it may.
///
/// A scan reads `input.bytes`, the bytes held, so its positions are stream offsets less
/// `scanOrigin` (the input's `origin` when it last ran). Whatever it reports — warnings, the
/// marker that ended it, a DC overflow — is translated back to stream offsets here, so errors
/// quote file offsets however much input was dropped.
extension JPEGDecoder {
    /// A scan just started at SOS (`startScan`): its positions, given as stream offsets, become
    /// positions in the held bytes.
    func adoptNewScan(origin: Int) {
        scan?.rebase(by: origin)
        scanOrigin = origin
    }

    /// Within a scan, nothing before the reader is read again: an MCU that waits for more bytes
    /// restarts from the reader's position, which is the input's `readIndex`, and a finished
    /// scan's data lives on in the coefficients. Except: a banded progressive or multi-scan
    /// decode (the downscaler's, `CoefficientBands`) reads every scan again for its later bands
    /// (`replayScans`); an inspection summarises each scan from its start; a first scan whose
    /// height comes from its DNL was searched from its start. Outside a scan the decoder holds
    /// what it has: the segments between scans are few bytes.
    var mayDiscardConsumedInput: Bool {
        guard case .scan = state, scan != nil else { return false }
        return store?.bands == nil && replayScans.isEmpty && structureLog == nil && dnlSearch == nil
    }

    /// Where the marker the scan's data stopped at begins (its 0xFF, a position in the scan's
    /// bytes), while one is pending; nil otherwise. The input is consumed only up to there,
    /// wherever the reader is: it can be past that marker — a restart resynchronisation looks
    /// ahead for the next one (jdmarker.c `jpeg_resync_to_restart`) and may leave the first
    /// pending — and what follows the scan is read from the marker on. A driver that drops
    /// consumed input (`mayDiscardConsumedInput`) must keep it: found by the fuzzer, a
    /// progressive JPEG with restart intervals decoded from a file in pieces lost the header and
    /// data of the scan after one that resynchronised.
    static func pendingMarker(of scan: any EntropyScan) -> Int? {
        let marker = scan.endMarker
        return marker.code >= 0 && !marker.endOfInput ? marker.offset : nil
    }

    /// The `.scan` state: decodes MCUs until an MCU row completes (rendered at once for a
    /// single-scan frame), the scan ends (the state moves to the marker that ended it), or the
    /// bytes run out (`.needMoreInput`: the scan waits, nothing of its unfinished MCU kept).
    func runScan(_ input: inout InputBuffer) throws(DecodeError) -> DecodeProgress? {
        guard var current = scan else {
            state = .findMarker
            return nil
        }
        scan = nil
        if input.origin != scanOrigin {
            current.rebase(by: input.origin - scanOrigin)
            scanOrigin = input.origin
        }
        let end = input.writeIndex - scanOrigin, closed = input.isClosed
        let progress = input.bytes.withUnsafeBufferPointer { current.run($0, end: end, closed: closed) }
        for (offset, message) in current.warnings { warn(at: offset + scanOrigin, message) }
        current.warnings.removeAll()
        lastGoodIMCURow = current.lastGoodIMCURow
        if current.dcOverflow {
            throw DecodeError(.malformed, format: .jpeg, offset: current.position + scanOrigin, JPEGError.dcCoefficientOverflow)
        }
        // The input is consumed as far as the scan has read — not as far as the decoder's
        // `readIndex` may have gone before it: the marker search after a scan that
        // resynchronised starts past the SOS segment the next scan then reads from.
        var consumed = current.position + scanOrigin
        if let marker = Self.pendingMarker(of: current) { consumed = min(consumed, marker + scanOrigin) }
        input.readIndex = min(consumed, input.writeIndex)
        switch progress {
        case .needMoreInput:
            scan = current
            return .needMoreInput
        case .rowDone(let row):
            scan = current
            if !replayScans.isEmpty, let baseline = current as? BaselineScan {
                try keepBandStarts(baseline.state, completedRows: row + 1)
            }
            if !multiScan {
                if lossless { renderer?.emitRows() } else { renderMCURow(row, scan: current) }
            }
        case .finished:
            if progressive {
                completedScan = (scanCount, progression, current.lastGoodIMCURow)
            }
            // The bytes the kept scans read again at EOI (a banded decode's later bands; such
            // a decode never drops input, so the kept positions stay valid).
            if !replayScans.isEmpty { replayInput = (input.bytes, end) }
            if current.ranOutOfInput && truncation == nil {
                truncation = DecodeError(.truncated, format: .jpeg, offset: input.writeIndex, JPEGError.truncated(inside: "entropy-coded data"))
            }
            var marker = current.endMarker
            marker.offset += scanOrigin
            input.readIndex = min(current.position + scanOrigin, input.writeIndex)
            // (An inspection keeps its input whole: `mayDiscardConsumedInput`.)
            structureLog?.amend(scanDataStart, name: "entropy data",
                                JPEGInspector.entropySummary(input.bytes, from: scanDataStart, to: marker.code >= 0 ? marker.offset : input.writeIndex))
            if marker.code >= 0 {
                if marker.endOfInput { warn(at: input.writeIndex, "Premature end of JPEG file") }
                state = .marker(UInt8(marker.code), offset: marker.offset, synthetic: marker.endOfInput)
            } else {
                state = .findMarker
            }
        }
        return nil
    }
}
