/// One lossless scan (T.81 Annex H; SOF3 Huffman, SOF11 arithmetic): every sample is a
/// prediction from its reconstructed neighbours plus a coded difference, as libjpeg-turbo 3
/// decodes it (jdlhuff.c, jddiffct.c, jdlossls.c) for Huffman scans, and as T.81 H.1.2.3 /
/// H.2 define it for arithmetic ones (which libjpeg-turbo does not decode).
///
/// ```
///   Rc Rb        predictor Ss (Table H.1): 1 Ra  2 Rb  3 Rc  4 Ra+Rb−Rc  5 Ra+((Rb−Rc)>>1)
///   Ra  x                                  6 Rb+((Ra−Rc)>>1)  7 (Ra+Rb)>>1
///   x = (difference + prediction) mod 2^16; the sample is x << Pt (point transform Al)
/// ```
/// The first line of the scan and of each restart interval predicts its first sample from
/// 2^(P−Pt−1) and the others from Ra; every other line predicts its first sample from Rb
/// (H.1.2.1). Data units are single samples: an interleaved MCU holds H × V of each component
/// (A.2.3), a non-interleaved one a single sample.
///
/// Decoding goes an MCU row at a time into a buffer of differences; once the MCU rows of an
/// iMCU row (one MCU row when interleaved, V of them otherwise) are in, its lines are
/// reconstructed and stored in the renderer's sample planes. libjpeg-turbo resets prediction at
/// that point too, which makes one of its choices visible: a restart (or the zero fill after
/// missing data) inside an iMCU row of a non-interleaved scan with V > 1 starts the
/// first-line rule at that iMCU row's first line, not at the line after the marker. This
/// decoder does the same (T.81 would start it at the marker).
///
/// Suspension: the state is saved before each MCU row and put back when the bytes ran out
/// inside it; reconstruction happens only for complete iMCU rows.
struct LosslessScan: EntropyScan {
    /// A component of the scan.
    struct Component {
        let frameIndex: Int
        /// The data units of one MCU (H × V when interleaved, 1 × 1 otherwise).
        let h: Int
        let v: Int
        /// Samples per line and lines (`w_c`, `h_c`): what is reconstructed and output.
        let width: Int
        let height: Int
        /// Samples per line in the MCU grid (≥ width: edge MCUs hold padding), and lines of
        /// differences per iMCU row.
        let gridWidth: Int
        let linesPerIMCURow: Int
        /// Td: the Huffman table, or the arithmetic statistics and conditioning.
        let table: Int
    }

    struct State {
        var reader: EntropyBitReader
        var arithmetic: ArithmeticDecoder
        /// MCU rows decoded so far (of `mcuRows`).
        var mcuRow = 0
        var restartRowsToGo: Int
        var nextRestart = 0
        /// jdlhuff.c `insufficient_data`: set when the data ran out; the following MCU rows
        /// decode as zero differences with prediction restarted, until a restart.
        var insufficient = false
        var warnedInsufficient = false
        var badCodes = 0
        /// Prediction restarts (first-line rule) at the next reconstructed iMCU row.
        var restartPrediction = true
        /// Arithmetic contexts: lines of each component decoded since the scan start or the
        /// last restart (the line above a first line counts as zero differences).
        var linesSinceRestart = [Int](repeating: 0, count: 4)
    }

    let components: [Component]
    let interleaved: Bool
    let arithmeticCoded: Bool
    let mcusPerRow: Int
    let mcuRows: Int
    /// MCU rows per iMCU row: 1 when interleaved, the component's V otherwise.
    let mcuRowsPerIMCURow: Int
    let restartRows: Int
    let predictor: Int
    let pointTransform: Int
    let precision: Int
    let tables: [HuffmanTable.Pointers?]
    /// Keeps the tables behind `tables` alive.
    let huffmanTables: [HuffmanTable]
    let conditioning: ArithmeticConditioning
    let renderer: AnyJPEGRenderer
    var state: State
    private let buffers: LosslessBuffers
    private let statistics: ArithmeticStatistics?
    var warnings: [(Int, String)] = []
    private(set) var ranOutOfInput = false
    let dcOverflow = false
    let lastGoodIMCURow = 0

    /// `tables[Td]`: the Huffman tables by selector (nil for arithmetic scans).
    init(components: [Component], interleaved: Bool, arithmeticCoded: Bool, mcusPerRow: Int, mcuRows: Int, mcuRowsPerIMCURow: Int,
         restartInterval: Int, predictor: Int, pointTransform: Int, precision: Int, huffmanTables: [Int: HuffmanTable],
         conditioning: ArithmeticConditioning, renderer: AnyJPEGRenderer, start: Int) {
        self.components = components
        self.interleaved = interleaved
        self.arithmeticCoded = arithmeticCoded
        self.mcusPerRow = mcusPerRow
        self.mcuRows = mcuRows
        self.mcuRowsPerIMCURow = mcuRowsPerIMCURow
        restartRows = restartInterval / max(1, mcusPerRow)
        self.predictor = predictor
        self.pointTransform = pointTransform
        self.precision = precision
        self.huffmanTables = Array(huffmanTables.values)
        tables = (0..<16).map { huffmanTables[$0]?.pointers }
        self.conditioning = conditioning
        self.renderer = renderer
        buffers = LosslessBuffers(components)
        statistics = arithmeticCoded ? ArithmeticStatistics(lossless: true) : nil
        state = State(reader: EntropyBitReader(position: start), arithmetic: ArithmeticDecoder(position: start), restartRowsToGo: restartRows)
        for component in components { statistics?.clearDC(component.table) }
        statistics?.track(dcTables: components.map(\.table), acTables: [])
    }

    var position: Int { arithmeticCoded ? state.arithmetic.position : state.reader.position }
    mutating func rebase(by delta: Int) {
        state.reader.rebase(by: delta)
        state.arithmetic.rebase(by: delta)
    }
    var endMarker: (code: Int, offset: Int, endOfInput: Bool) {
        arithmeticCoded ? (state.arithmetic.marker, state.arithmetic.markerOffset, state.arithmetic.endOfInput)
            : (state.reader.marker, state.reader.markerOffset, state.reader.endOfInput)
    }
    var firstComponent: Int { components.first?.frameIndex ?? 0 }

    mutating func markFillerPhase(oddBytesUsed: Bool) {
        state.reader.fillerStartsWithD9 = oddBytesUsed
        state.arithmetic.fillerStartsWithD9 = oddBytesUsed
    }

    /// Decodes MCU rows until an iMCU row is reconstructed (`.rowDone(iMCU row)`), the scan
    /// ends, or the bytes run out.
    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>, end: Int, closed: Bool) -> ScanProgress {
        guard let base = bytes.baseAddress else { return closed ? .finished : .needMoreInput }
        while state.mcuRow < mcuRows {
            let saved = state
            let warningCount = warnings.count
            if !closed { statistics?.save() }
            let complete = decodeMCURow(base, bytes, end: end, closed: closed) && !state.arithmetic.starved
            if !complete {
                state = saved
                statistics?.restore()
                warnings.removeSubrange(warningCount...)
                return .needMoreInput
            }
            finishMCURow()
            if state.reader.endOfInput || state.arithmetic.endOfInput { ranOutOfInput = true }
            state.mcuRow += 1
            let rowInIMCURow = interleaved ? 0 : (state.mcuRow - 1) % mcuRowsPerIMCURow
            if rowInIMCURow == mcuRowsPerIMCURow - 1 || state.mcuRow == mcuRows {
                let iMCURow = (state.mcuRow - 1) / mcuRowsPerIMCURow
                reconstruct(iMCURow: iMCURow, lines: rowInIMCURow + 1)
                return .rowDone(iMCURow)
            }
        }
        return .finished
    }

    // MARK: - Entropy decoding

    /// jddiffct.c `decompress_data` for one MCU row: the restart marker when an interval ends,
    /// then every MCU's differences into the buffer (zeros while data is insufficient).
    private mutating func decodeMCURow(_ base: UnsafePointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>, end: Int, closed: Bool) -> Bool {
        if restartRows > 0 {
            if state.restartRowsToGo == 0 {
                guard processRestart(bytes, end: end, closed: closed) else { return false }
            }
            state.restartRowsToGo -= 1
        }
        let rowInIMCURow = interleaved ? 0 : state.mcuRow % mcuRowsPerIMCURow
        if state.insufficient && !arithmeticCoded {
            // jdlhuff.c: no data left in this segment — zero differences, prediction restarted.
            for (ci, component) in components.enumerated() {
                for line in 0..<(interleaved ? component.v : 1) {
                    buffers.differences(ci, line: interleaved ? line : rowInIMCURow).update(repeating: 0, count: component.gridWidth)
                }
            }
            state.restartPrediction = true
            return true
        }
        if arithmeticCoded {
            for mx in 0..<mcusPerRow {
                for (ci, component) in components.enumerated() {
                    for yy in 0..<component.v {
                        let line = interleaved ? yy : rowInIMCURow
                        let row = buffers.differences(ci, line: line)
                        for xx in 0..<component.h {
                            let x = mx * component.h + xx
                            row[x] = Int32(decodeArithmetic(ci, component, line: line, x: x, base, end: end, closed: closed))
                        }
                    }
                }
            }
            return true
        }
        // Huffman: the MCU's data units in order (A.2.3), each a difference from its
        // component's table; the lines and tables are looked up once per MCU row.
        var units: [(row: UnsafeMutablePointer<Int32>, table: HuffmanTable.Pointers, h: Int)] = []
        for (ci, component) in components.enumerated() {
            // startLosslessScan installed a table for every component of a Huffman scan (a
            // missing one is refused there), so this never ends the MCU early.
            guard let table = tables[component.table] else { return true }
            for yy in 0..<component.v {
                units.append((buffers.differences(ci, line: interleaved ? yy : rowInIMCURow), table, component.h))
            }
        }
        // The bit state in locals for the row (as `BaselineScan.decodeBlock`), written back
        // before the careful paths and at the end. On a suspension the caller restores the
        // state saved before the row, so what is left in the reader then does not matter.
        var bits = BaselineScan.HotBits(state.reader)
        if units.count == 1 {
            // One component, one sample per MCU: the whole line in one loop.
            let (row, table, _) = units[0]
            for x in 0..<mcusPerRow {
                guard let difference = decodeHuffman(&bits, table, base, end: end, closed: closed) else { return false }
                row[x] = Int32(truncatingIfNeeded: difference)
            }
            bits.store(into: &state.reader)
            return true
        }
        for mx in 0..<mcusPerRow {
            for unit in units {
                // Bound: mx · h + xx < mcusPerRow · h = gridWidth.
                for xx in 0..<unit.h {
                    guard let difference = decodeHuffman(&bits, unit.table, base, end: end, closed: closed) else { return false }
                    unit.row[mx * unit.h + xx] = Int32(truncatingIfNeeded: difference)
                }
            }
        }
        bits.store(into: &state.reader)
        return true
    }

    /// After a complete MCU row: the arithmetic contexts move on a line; a Huffman row that
    /// needed bits past a marker or the end (jdhuff.c `jpeg_fill_bit_buffer`) makes the data
    /// insufficient from the next row on.
    private mutating func finishMCURow() {
        if arithmeticCoded {
            let rowInIMCURow = interleaved ? 0 : state.mcuRow % mcuRowsPerIMCURow
            for (ci, component) in components.enumerated() {
                let lines = interleaved ? component.v : 1
                buffers.keepLastDifferences(ci, line: interleaved ? lines - 1 : rowInIMCURow)
                state.linesSinceRestart[ci] += lines
            }
        } else if state.reader.realBits < 0 && !state.insufficient {
            state.insufficient = true
            if !state.warnedInsufficient {
                state.warnedInsufficient = true
                RestartMarkers.record((state.reader.markerOffset, "Corrupt JPEG data: premature end of data segment"), in: &warnings)
            }
        }
    }

    /// H.1.2.2: SSSS from the DC table, then SSSS extra bits (none for 16: the difference
    /// 32768). Nil: suspend.
    ///
    /// The common case runs on `bits`: a code of ≤ 9 bits (the lookahead table) and its extra
    /// bits, from at least 17 + 16 buffered bits. (Filling earlier than libjpeg does changes no
    /// decoded bit: a fill stops at a marker, and missing data is counted in `realBits` as
    /// consumed.) It was a call per sample with the reader's fields in memory: half of a 16-bit
    /// lossless decode's time.
    @inline(__always)
    private mutating func decodeHuffman(_ bits: inout BaselineScan.HotBits, _ table: HuffmanTable.Pointers,
                                        _ base: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Int? {
        guard bits.refill(&state.reader, base, end: end, closed: closed, minimum: 33) else { return nil }
        if bits.bitCount >= 33 {
            let entry = table.lookup[bits.peek(HuffmanTable.lookaheadBits)]
            if entry != 0 {
                let ssss = Int(entry & 0xFF)
                bits.consume(Int(entry >> 8))
                switch ssss {
                case 0: return 0
                case 16: return 32768
                default:
                    // 1 ≤ SSSS ≤ 15 bits, in hand (≥ 33 − 9). F.2.2.1 EXTEND without a branch
                    // (the sign of a difference is a coin toss for the branch predictor): a
                    // value whose top bit is clear gets 1 − 2^SSSS added, by a mask of all ones
                    // made from that bit (top bit 1: 1 − 1 = 0, no mask).
                    let value = bits.peek(ssss)
                    bits.consume(ssss)
                    let clearTop = (value &>> (ssss &- 1)) &- 1
                    return value &+ (clearTop & (1 &- (1 &<< ssss)))
                }
            }
        }
        let (after, difference) = decodeHuffmanCarefully(bits, table, base, end: end, closed: closed)
        bits = after
        return difference
    }

    /// The rest of `decodeHuffman` on the reader itself — a code longer than the lookahead, or
    /// fewer than 33 bits left before a marker or the end — out of line so that the common case
    /// stays small enough to inline; the bits go in and out by value (see `HotBits.fillCarefully`).
    @inline(never)
    private mutating func decodeHuffmanCarefully(_ bits: BaselineScan.HotBits, _ table: HuffmanTable.Pointers,
                                                 _ base: UnsafePointer<UInt8>, end: Int, closed: Bool) -> (BaselineScan.HotBits, Int?) {
        bits.store(into: &state.reader)
        var ssss = state.reader.decodeSymbol(table, base, end: end, closed: closed)
        if ssss == -1 { return (BaselineScan.HotBits(state.reader), nil) }
        if ssss == EntropyBitReader.noCode {
            state.badCodes += 1
            if state.badCodes == 1 { RestartMarkers.record((state.reader.position, "Corrupt JPEG data: bad Huffman code"), in: &warnings) }
            ssss = 0
        }
        let difference: Int?
        switch ssss {
        case 0: difference = 0
        case 16: difference = 32768
        default: difference = state.reader.receiveExtend(ssss, base, end: end, closed: closed)
        }
        return (BaselineScan.HotBits(state.reader), difference)
    }

    /// H.1.2.3 / H.2 (Figure H.2, Table H.3): the difference decoded against the bins of its
    /// two-dimensional context — the categories of the differences to the left (Da) and above
    /// (Db), zero at the start of a line and on the first line of the scan or of a restart
    /// interval — with the magnitude coded as for DC coefficients (Figures F.21–F.24).
    private mutating func decodeArithmetic(_ ci: Int, _ component: Component, line: Int, x: Int,
                                           _ base: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Int {
        guard let statistics, state.arithmetic.ct != -1 else { return 0 }
        let firstLine = state.linesSinceRestart[ci] == 0 && (interleaved ? line == 0 : true)
        let left = x > 0 ? Int(buffers.differences(ci, line: line)[x - 1]) : 0
        let above: Int
        if firstLine {
            above = 0
        } else if line > 0 {
            above = Int(buffers.differences(ci, line: line - 1)[x])
        } else {
            above = Int(buffers.lastDifferences(ci)[x])
        }
        let t = component.table
        let ca = category(left, table: t), cb = category(above, table: t)
        let bins = statistics.dc(t)
        var st = bins + 4 * (5 * ca + cb)
        func decode(_ bin: UnsafeMutablePointer<UInt8>) -> Int { state.arithmetic.decode(bin, base, end: end, closed: closed) }
        guard decode(st) != 0 else { return 0 }
        let sign = decode(st + 1)
        st += 2 + sign
        var m = decode(st)
        if m != 0 {
            st = bins + (cb >= 3 ? 129 : 100)
            while decode(st) != 0 {
                m <<= 1
                if m == 0x8000 {
                    RestartMarkers.record((state.arithmetic.position, "Corrupt JPEG data: bad arithmetic code"), in: &warnings)
                    state.arithmetic.ct = -1
                    return 0
                }
                st += 1
            }
        }
        var v = m
        st += 14
        while m > 1 {
            m >>= 1
            if decode(st) != 0 { v |= m }
        }
        v += 1
        return sign != 0 ? -v : v
    }

    /// F.1.4.4.1.2's classification with the DAC bounds L and U of table `t`: 0 zero
    /// (|d| ≤ 2^L / 2), 1 small positive, 2 small negative, 3 large positive (|d| > 2^U),
    /// 4 large negative.
    private func category(_ d: Int, table t: Int) -> Int {
        let magnitude = abs(d)
        if magnitude <= (1 << conditioning.dcL[t]) >> 1 { return 0 }
        if magnitude > 1 << conditioning.dcU[t] { return d > 0 ? 3 : 4 }
        return d > 0 ? 1 : 2
    }

    /// jddiffct.c `process_restart`: drop the partial byte, read the marker
    /// (`RestartMarkers`), restart prediction (and, arithmetic, the statistics and the
    /// decoder). False = suspend.
    private mutating func processRestart(_ bytes: UnsafeBufferPointer<UInt8>, end: Int, closed: Bool) -> Bool {
        if arithmeticCoded {
            guard RestartMarkers.read(expected: state.nextRestart, &state.arithmetic, bytes, end: end, closed: closed, warnings: &warnings) else {
                return false
            }
            for component in components { statistics?.clearDC(component.table) }
            state.arithmetic.restart()
            state.linesSinceRestart = [Int](repeating: 0, count: 4)
        } else {
            state.reader.discardBits()
            guard RestartMarkers.read(expected: state.nextRestart, &state.reader, bytes, end: end, closed: closed, warnings: &warnings) else {
                return false
            }
            if state.reader.marker < 0 { state.insufficient = false }
        }
        state.nextRestart = (state.nextRestart + 1) & 7
        state.restartRowsToGo = restartRows
        state.restartPrediction = true
        return true
    }

    // MARK: - Reconstruction

    /// jdlossls.c: the lines of iMCU row `iMCURow` (`lines` MCU rows of it decoded) from their
    /// differences, into the renderer's planes.
    private mutating func reconstruct(iMCURow: Int, lines decodedLines: Int) {
        for (ci, component) in components.enumerated() {
            let lines = interleaved ? component.v : decodedLines
            for line in 0..<lines {
                let y = iMCURow * component.linesPerIMCURow + line
                guard y < component.height else { break }
                buffers.reconstructLine(ci, line: line, width: component.width, predictor: predictor,
                                        firstLine: line == 0 && state.restartPrediction, initial: 1 << (precision - pointTransform - 1))
                renderer.storeLosslessRow(component: component.frameIndex, row: y, values: buffers.reconstructed(ci),
                                          count: component.width, pointTransform: pointTransform)
            }
        }
        state.restartPrediction = false
    }
}

/// The lossless scan's working rows, per component: the differences of one iMCU row (in the
/// MCU grid's width), the last line of differences of the previous MCU row (arithmetic
/// contexts), and the previous and current reconstructed lines (values 0…65535 before the point
/// transform). Bounds: every line holds `gridWidth ≥ width` values.
final class LosslessBuffers {
    private let differenceLines: [UnsafeMutablePointer<Int32>]
    private let lastDifferenceLines: [UnsafeMutablePointer<Int32>]
    private let gridWidths: [Int]
    /// The previous and the current reconstructed line of each component (swapped per line).
    private var previous: [UnsafeMutablePointer<Int32>]
    private var current: [UnsafeMutablePointer<Int32>]

    init(_ components: [LosslessScan.Component]) {
        func zeroed(_ count: Int) -> UnsafeMutablePointer<Int32> {
            let line = UnsafeMutablePointer<Int32>.allocate(capacity: count)
            line.initialize(repeating: 0, count: count)
            return line
        }
        let widths = components.map { max(1, $0.gridWidth) }
        gridWidths = widths
        differenceLines = zip(components, widths).map { zeroed($1 * max(1, $0.linesPerIMCURow)) }
        lastDifferenceLines = widths.map(zeroed)
        previous = widths.map(zeroed)
        current = widths.map(zeroed)
    }

    deinit {
        for line in differenceLines + lastDifferenceLines + previous + current { line.deallocate() }
    }

    /// Line `line` (0 ≤ line < linesPerIMCURow) of component `ci`'s differences.
    func differences(_ ci: Int, line: Int) -> UnsafeMutablePointer<Int32> { differenceLines[ci] + line * gridWidths[ci] }
    func lastDifferences(_ ci: Int) -> UnsafePointer<Int32> { UnsafePointer(lastDifferenceLines[ci]) }
    func keepLastDifferences(_ ci: Int, line: Int) {
        lastDifferenceLines[ci].update(from: differences(ci, line: line), count: gridWidths[ci])
    }

    /// The line `reconstructLine` made last.
    func reconstructed(_ ci: Int) -> UnsafePointer<Int32> { UnsafePointer(previous[ci]) }

    /// H.1.2.1: one line from its differences; the result becomes the previous line.
    func reconstructLine(_ ci: Int, line: Int, width: Int, predictor: Int, firstLine: Bool, initial: Int) {
        let d = differences(ci, line: line), r = current[ci], above = previous[ci]
        guard width > 0 else { return }
        // Samples are 16-bit (masked), differences |d| ≤ 32768 and predictions of them fit Int
        // many times over: wrapping arithmetic cannot wrap.
        @inline(__always) func sum(_ difference: Int32, _ prediction: Int) -> Int32 { Int32((Int(difference) &+ prediction) & 0xFFFF) }
        // One loop per predictor (Table H.1), each specialised with its formula inlined. Ra, the
        // sample to the left, is carried in a register: read back from the line (which the
        // compiler must assume the other lines may alias) it put a store-to-load forwarding
        // delay on the loop's chain from one sample to the next.
        @inline(__always) func fill(_ predict: (_ ra: Int, _ rb: Int, _ rc: Int) -> Int) {
            var ra = Int(r[0])
            for x in 1..<width {
                let value = sum(d[x], predict(ra, Int(above[x]), Int(above[x - 1])))
                r[x] = value
                ra = Int(value)
            }
        }
        if firstLine {
            r[0] = sum(d[0], initial)
            var ra = Int(r[0])
            for x in 1..<width {
                let value = sum(d[x], ra)
                r[x] = value
                ra = Int(value)
            }
        } else {
            r[0] = sum(d[0], Int(above[0]))
            switch predictor {
            case 1: fill { ra, _, _ in ra }
            case 2: fill { _, rb, _ in rb }
            case 3: fill { _, _, rc in rc }
            case 4: fill { ra, rb, rc in ra &+ rb &- rc }
            case 5: fill { ra, rb, rc in ra &+ ((rb &- rc) >> 1) }
            case 6: fill { ra, rb, rc in rb &+ ((ra &- rc) >> 1) }
            default: fill { ra, rb, _ in (ra &+ rb) >> 1 }
            }
        }
        swap(&previous[ci], &current[ci])
    }
}
