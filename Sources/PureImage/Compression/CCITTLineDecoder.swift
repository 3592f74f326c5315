/// The row expanders of `CCITTFaxDecoder`: T.4 §4.1 one-dimensional rows (a white run, a black
/// run, … each a sequence of make-up codes and one terminating code) and T.4 §4.2 / T.6
/// two-dimensional rows (each change coded by its position relative to the reference row).
///
/// Names follow T.4 §4.2.1.3.1: `a0` is the position reached on the coding row, `b1` the next
/// change on the reference row to the right of a0 with the opposite colour of a0's — kept as a
/// running sum over the reference runs, `pb` pointing at the next one. Arithmetic is 32-bit and
/// wraps, as in libtiff, so that damaged data goes exactly where libtiff's goes.
extension CCITTFaxDecoder {
    /// How a row expansion ended.
    enum RowEnd {
        /// The row is complete, or ended early on a bad code and was cleaned up: paint it.
        case complete
        /// The data ended inside the row (cleaned up): paint it, then stop the strip.
        case endOfData
        /// A run array is full: stop the strip without painting the row.
        case overflow
    }

    /// How reading one run (make-up codes, then a terminating code) ended.
    private enum RunEnd { case done, endOfData, endOfLine, badCode, overflow }

    /// T.4 §4.1.1 — a one-dimensional row: alternating white and black runs until a0 reaches the
    /// width; an EOL (11 zeros) ends the row early (libtiff's EXPAND1D).
    mutating func expandOneDimensional(_ reader: inout CCITTBitReader) -> RowEnd {
        while true {
            switch readRun(black: false, &reader) {
            case .done: break
            case .endOfData: return endOfDataInRow()
            case .endOfLine: eolSeen = true; return finishRow()
            case .badCode: report(.badCode(line: line, x: Int(a0))); return finishRow()
            case .overflow: return .overflow
            }
            if a0 >= width { return finishRow() }
            switch readRun(black: true, &reader) {
            case .done: break
            case .endOfData: return endOfDataInRow()
            case .endOfLine: eolSeen = true; return finishRow()
            case .badCode: report(.badCode(line: line, x: Int(a0))); return finishRow()
            case .overflow: return .overflow
            }
            if a0 >= width { return finishRow() }
            // A white and a black run of length 0 change nothing: drop the pair.
            if runs[pa - 1] == 0 && runs[pa - 2] == 0 { pa -= 2 }
        }
    }

    /// T.4 §4.2 / T.6 §2.2 — a two-dimensional row (libtiff's EXPAND2D).
    mutating func expandTwoDimensional(_ reader: inout CCITTBitReader) -> RowEnd {
        while a0 < width {
            if pa >= current + capacity {
                report(.runOverflow(line: line))
                return .overflow
            }
            guard reader.need(7) else { return endOfDataInRow() }
            let code = CCITTCodes.modeTable[reader.peek(7)]
            reader.skip(code.length)
            switch code.kind {
            case .pass:
                // §4.2.1.3.2 (a) pass mode: a0 moves under b2, the colour stays.
                guard advanceB1() else { return .overflow }
                if pb + 1 >= reference + capacity { report(.runOverflow(line: line)); return .overflow }
                b1 = b1 &+ Int32(bitPattern: referenceRun(pb))
                pb += 1
                runLength = runLength &+ (b1 &- a0)
                a0 = b1
                b1 = b1 &+ Int32(bitPattern: referenceRun(pb))
                pb += 1
            case .horizontal:
                // §4.2.1.3.2 (c) horizontal mode: two runs coded as in 1-D, the first of a0's colour.
                let blackFirst = (pa - current) & 1 == 1
                if let end = horizontalRun(black: blackFirst, &reader) { return end }
                if let end = horizontalRun(black: !blackFirst, &reader) { return end }
                guard advanceB1() else { return .overflow }
            case .vertical0, .verticalRight:
                // §4.2.1.3.2 (b) vertical mode: a1 = b1 (+ 1, 2, 3 to the right).
                guard advanceB1(), storeRun(UInt32(bitPattern: b1 &- a0 &+ code.parameter)) else { return .overflow }
                if pb >= reference + capacity { report(.runOverflow(line: line)); return .overflow }
                b1 = b1 &+ Int32(bitPattern: referenceRun(pb))
                pb += 1
            case .verticalLeft:
                // a1 = b1 − 1, 2, 3: impossible when that is left of a0.
                guard advanceB1() else { return .overflow }
                if b1 < a0 &+ code.parameter {
                    report(.badCode(line: line, x: Int(a0)))
                    return finishRow()
                }
                guard storeRun(UInt32(bitPattern: b1 &- a0 &- code.parameter)) else { return .overflow }
                pb -= 1
                b1 = b1 &- Int32(bitPattern: referenceRun(pb))
            case .extension:
                runs[pa] = UInt32(bitPattern: width &- a0)
                pa += 1
                report(.uncompressedMode(line: line, x: Int(a0)))
                return finishRow()
            case .endOfLine:
                // Seven zeros: an EOL, whose next 4 bits must be zeros too (its 1 is left for
                // the next row's synchronisation).
                runs[pa] = UInt32(bitPattern: width &- a0)
                pa += 1
                guard reader.need(4) else { return endOfDataInRow() }
                if reader.peek(4) != 0 { report(.badCode(line: line, x: Int(a0))) }
                reader.skip(4)
                eolSeen = true
                return finishRow()
            case .invalid, .terminating, .makeUp:
                report(.badCode(line: line, x: Int(a0)))
                return finishRow()
            }
        }
        if runLength != 0 {
            // A pass ended the row: libtiff expects a final V0 when the sum falls short (it
            // adds the pending run twice here, so in practice it never does).
            if runLength &+ a0 < width {
                guard reader.need(1) else { return endOfDataInRow() }
                if reader.peek(1) == 0 {
                    report(.badCode(line: line, x: Int(a0)))
                    return finishRow()
                }
                reader.skip(1)
            }
            guard storeRun(0) else { return .overflow }
        }
        return finishRow()
    }

    /// One run of a horizontal-mode pair: nil when it was read, else how the row ends (an EOL
    /// is a bad code here).
    private mutating func horizontalRun(black: Bool, _ reader: inout CCITTBitReader) -> RowEnd? {
        switch readRun(black: black, &reader) {
        case .done: return nil
        case .endOfData: return endOfDataInRow()
        case .endOfLine, .badCode:
            report(.badCode(line: line, x: Int(a0)))
            return finishRow()
        case .overflow: return .overflow
        }
    }

    /// One run of the given colour: make-up codes (adding up) and a terminating code.
    private mutating func readRun(black: Bool, _ reader: inout CCITTBitReader) -> RunEnd {
        let bits = black ? 13 : 12
        while true {
            guard reader.need(bits) else { return .endOfData }
            let code = black ? CCITTCodes.blackTable[reader.peek(13)] : CCITTCodes.whiteTable[reader.peek(12)]
            reader.skip(code.length)
            switch code.kind {
            case .terminating:
                return storeRun(UInt32(bitPattern: code.parameter)) ? .done : .overflow
            case .makeUp:
                a0 = a0 &+ code.parameter
                runLength = runLength &+ code.parameter
            case .endOfLine:
                return .endOfLine
            default:
                return .badCode
            }
        }
    }

    /// T.4 §4.2.1.3.1 — moves b1 to the first change right of a0 (two reference runs at a time,
    /// so the colour is kept), unless the row has no run yet (libtiff's CHECK_b1).
    private mutating func advanceB1() -> Bool {
        guard pa != current else { return true }
        while b1 <= a0 && b1 < width {
            if pb + 1 >= reference + capacity {
                report(.runOverflow(line: line))
                return false
            }
            b1 = b1 &+ Int32(bitPattern: referenceRun(pb) &+ referenceRun(pb + 1))
            pb += 2
        }
        return true
    }

    /// Ends the current run at `length` more pixels and stores it (libtiff's SETVALUE). False
    /// when the run array is full.
    mutating func storeRun(_ length: UInt32) -> Bool {
        if pa >= current + capacity {
            report(.runOverflow(line: line))
            return false
        }
        runs[pa] = UInt32(bitPattern: runLength) &+ length
        pa += 1
        a0 = a0 &+ Int32(bitPattern: length)
        runLength = 0
        return true
    }

    /// The data ended inside the row: report it and clean the row up.
    private mutating func endOfDataInRow() -> RowEnd {
        report(.prematureEnd(line: line, x: Int(a0)))
        return cleanUpRow() ? .endOfData : .overflow
    }

    private mutating func finishRow() -> RowEnd {
        cleanUpRow() ? .complete : .overflow
    }

    /// Makes the runs add up to the width (libtiff's CLEANUP_RUNS): a pending run is closed; a
    /// short row gets a white run to its end, a long one loses runs from its end until it fits.
    /// False when the run array is full.
    mutating func cleanUpRow() -> Bool {
        if runLength != 0 {
            guard storeRun(0) else { return false }
        }
        guard a0 != width else { return true }
        report(.badLength(line: line, got: Int(UInt32(bitPattern: a0)), expected: Int(width)))
        while a0 > width && pa > current {
            pa -= 1
            a0 = a0 &- Int32(bitPattern: runs[pa])
        }
        if a0 < width {
            if a0 < 0 { a0 = 0 }
            // The filler run is white: after an odd number of runs, add an empty black one first.
            if (pa - current) & 1 == 1 {
                guard storeRun(0) else { return false }
            }
            return storeRun(UInt32(bitPattern: width &- a0))
        } else if a0 > width {
            return storeRun(UInt32(bitPattern: width)) && storeRun(0)
        }
        return true
    }
}
