/// One arithmetic-coded scan (SOF9 sequential, SOF10 progressive): the MCU walk of T.81 §A.2
/// with restart intervals, each block's coefficients decoded decision by decision
/// (`ArithmeticDecoder`) against the statistics bins of F.1.4.4 (sequential) and G.1.3
/// (progressive), as libjpeg-turbo's jdarith.c decodes them — its recovery included: a
/// magnitude or run that overflows is a warning ("bad arithmetic code"), and the rest of the
/// restart interval is left zero.
///
/// Suspension: with the input still open, the decoder state, the statistics and the MCU's
/// blocks are saved before each MCU and put back when the bytes ran out inside it (the
/// decoder reads zeros from then on, so the attempt finishes harmlessly and is discarded).
/// A closed input never starves, so a one-shot decode saves nothing.
struct ArithmeticScan: EntropyScan {
    /// One block of an MCU: which component, where inside the MCU, which statistics.
    struct Slot {
        let component: Int
        let scanIndex: Int
        let dx: Int
        let dy: Int
        let stepX: Int
        let stepY: Int
        /// Td, Ta: the statistics areas (and DAC conditioning) of the DC and AC coefficients.
        let dcTable: Int
        let acTable: Int
        let plane: CoefficientStore.Plane
    }

    struct State {
        var decoder: ArithmeticDecoder
        /// PRED of F.2.4.1 per scan component, kept modulo 2^16 as jdarith.c keeps it.
        var predictors = BaselineScan.Predictors()
        /// The DC conditioning category per scan component (F.1.4.4.1.2): 0, 4, 8, 12 or 16,
        /// the offset of the statistics bins the next DC difference uses.
        var contexts = [Int](repeating: 0, count: 4)
        var restartsToGo: Int
        var nextRestart = 0
        var mcu = 0
    }

    let slots: [Slot]
    let store: CoefficientStore
    let interleaved: Bool
    let mcusPerRow: Int
    let mcuRows: Int
    let restartInterval: Int
    let zeroBlocks: Bool
    let kind: ScanKind
    let conditioning: ArithmeticConditioning
    let iMCURowDivisor: Int
    var state: State
    private let statistics = ArithmeticStatistics()
    var warnings: [(Int, String)] = []
    private(set) var lastGoodIMCURow: Int
    private(set) var ranOutOfInput = false
    let dcOverflow = false

    init(slots: [Slot], store: CoefficientStore, interleaved: Bool, mcusPerRow: Int, mcuRows: Int, restartInterval: Int,
         zeroBlocks: Bool, start: Int, kind: ScanKind, conditioning: ArithmeticConditioning, iMCURowDivisor: Int = 1, lastGoodIMCURow: Int = 0) {
        self.slots = slots
        self.store = store
        self.interleaved = interleaved
        self.mcusPerRow = mcusPerRow
        self.mcuRows = mcuRows
        self.restartInterval = restartInterval
        self.zeroBlocks = zeroBlocks
        self.kind = kind
        self.conditioning = conditioning
        self.iMCURowDivisor = iMCURowDivisor
        self.lastGoodIMCURow = lastGoodIMCURow
        state = State(decoder: ArithmeticDecoder(position: start), restartsToGo: restartInterval)
        // jdarith.c `start_pass`: the statistics this scan uses start cleared.
        resetStatistics()
        let usesDC: Bool, usesAC: Bool
        switch kind {
        case .sequential: (usesDC, usesAC) = (true, true)
        case .dcFirst: (usesDC, usesAC) = (true, false)
        case .dcRefine: (usesDC, usesAC) = (false, false)
        case .acFirst, .acRefine: (usesDC, usesAC) = (false, true)
        }
        statistics.track(dcTables: usesDC ? slots.map(\.dcTable) : [], acTables: usesAC ? slots.map(\.acTable) : [])
    }

    var totalMCUs: Int { mcusPerRow * mcuRows }
    var position: Int { state.decoder.position }
    mutating func rebase(by delta: Int) { state.decoder.rebase(by: delta) }
    var endMarker: (code: Int, offset: Int, endOfInput: Bool) { (state.decoder.marker, state.decoder.markerOffset, state.decoder.endOfInput) }
    var firstComponent: Int { slots.first?.component ?? 0 }

    mutating func markFillerPhase(oddBytesUsed: Bool) {
        state.decoder.fillerStartsWithD9 = oddBytesUsed
    }

    /// Decodes MCUs until an MCU row completes, the scan ends, or the bytes run out.
    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>, end: Int, closed: Bool) -> ScanProgress {
        guard let base = bytes.baseAddress else { return closed ? .finished : .needMoreInput }
        while state.mcu < totalMCUs {
            let mx = state.mcu % mcusPerRow, my = state.mcu / mcusPerRow
            let saved = closed ? nil : state
            let warningCount = warnings.count
            if !closed {
                statistics.save()
                for slot in slots { statistics.save(block: block(of: slot, mx: mx, my: my)) }
            }
            let complete = decodeMCU(base, bytes, end: end, closed: closed, mx: mx, my: my) && !state.decoder.starved
            if !complete, let saved {
                state = saved
                statistics.restore()
                warnings.removeSubrange(warningCount...)
                return .needMoreInput
            }
            if state.decoder.endOfInput { ranOutOfInput = true }
            state.mcu += 1
            if state.mcu % mcusPerRow == 0 { return .rowDone(state.mcu / mcusPerRow - 1) }
        }
        return .finished
    }

    /// Bound: mx < mcusPerRow and dx < stepX keep x below the padded width in blocks (for a
    /// non-interleaved scan mcusPerRow = widthInBlocks, step 1); rows wrap in the store.
    private func block(of slot: Slot, mx: Int, my: Int) -> UnsafeMutablePointer<Int16> {
        slot.plane.block(x: mx * slot.stepX + slot.dx, y: my * slot.stepY + slot.dy)
    }

    /// jdarith.c `decode_mcu` and its four progressive variants: restart processing, then
    /// the blocks — unless an earlier error set `ct` to −1 (DC refinement decodes anyway, as
    /// jdarith.c's does). False: suspend (the restart marker is not in yet).
    private mutating func decodeMCU(_ base: UnsafePointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>, end: Int, closed: Bool,
                                    mx: Int, my: Int) -> Bool {
        if restartInterval > 0 {
            if state.restartsToGo == 0 {
                guard processRestart(bytes, end: end, closed: closed) else { return false }
            }
            state.restartsToGo -= 1
        }
        // Arithmetic decoding never reports insufficient data (jdcoefct.c).
        lastGoodIMCURow = my / iMCURowDivisor
        if zeroBlocks {
            for slot in slots { block(of: slot, mx: mx, my: my).update(repeating: 0, count: 64) }
        }
        if case .dcRefine(let al) = kind {
            for slot in slots {
                if decode(statistics.fixed, base, end: end, closed: closed) != 0 {
                    block(of: slot, mx: mx, my: my)[0] |= Int16(truncatingIfNeeded: 1 << al)
                }
            }
            return true
        }
        guard state.decoder.ct != -1 else { return true }
        for slot in slots {
            let block = block(of: slot, mx: mx, my: my)
            let completed: Bool
            switch kind {
            case .sequential:
                completed = decodeDC(slot, block, al: 0, base, end: end, closed: closed)
                    && decodeACFirst(slot, block, ss: 1, se: 63, al: 0, base, end: end, closed: closed)
            case .dcFirst(let al):
                completed = decodeDC(slot, block, al: al, base, end: end, closed: closed)
            case .acFirst(let ss, let se, let al):
                completed = decodeACFirst(slot, block, ss: ss, se: se, al: al, base, end: end, closed: closed)
            case .acRefine(let ss, let se, let al):
                completed = decodeACRefine(slot, block, ss: ss, se: se, al: al, base, end: end, closed: closed)
            case .dcRefine:
                completed = true
            }
            // A bad code ends the MCU; the rest of the restart interval stays zero.
            guard completed else { return true }
        }
        return true
    }

    @inline(__always)
    private mutating func decode(_ bin: UnsafeMutablePointer<UInt8>, _ base: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Int {
        state.decoder.decode(bin, base, end: end, closed: closed)
    }

    /// jdarith.c's JWRN_ARITH_BAD_CODE: the rest of this restart interval decodes as zeros.
    private mutating func badCode() -> Bool {
        RestartMarkers.record((state.decoder.position, "Corrupt JPEG data: bad arithmetic code"), in: &warnings)
        state.decoder.ct = -1
        return false
    }

    /// F.2.4.1 / G.1.3.1 (Figures F.19, F.21–F.24): the DC difference against the bins of the
    /// component's conditioning category, then PRED (mod 2^16) into the block, shifted left by
    /// Al in a progressive first scan. False after a bad code.
    private mutating func decodeDC(_ slot: Slot, _ block: UnsafeMutablePointer<Int16>, al: Int,
                                   _ base: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Bool {
        let ci = slot.scanIndex
        let bins = statistics.dc(slot.dcTable)
        var st = bins + state.contexts[ci]
        if decode(st, base, end: end, closed: closed) == 0 {
            state.contexts[ci] = 0
        } else {
            let sign = decode(st + 1, base, end: end, closed: closed)
            st += 2 + sign
            var m = decode(st, base, end: end, closed: closed)
            if m != 0 {
                // Figure F.23: the magnitude category, X1 = bin 20 onwards.
                st = bins + 20
                while decode(st, base, end: end, closed: closed) != 0 {
                    m <<= 1
                    if m == 0x8000 { return badCode() }
                    st += 1
                }
            }
            // F.1.4.4.1.2: the category of this difference conditions the next one.
            let t = slot.dcTable
            if m < (1 << conditioning.dcL[t]) >> 1 {
                state.contexts[ci] = 0
            } else if m > (1 << conditioning.dcU[t]) >> 1 {
                state.contexts[ci] = 12 + sign * 4
            } else {
                state.contexts[ci] = 4 + sign * 4
            }
            // Figure F.24: the magnitude's bits below its top one.
            var v = m
            st += 14
            while m > 1 {
                m >>= 1
                if decode(st, base, end: end, closed: closed) != 0 { v |= m }
            }
            v += 1
            if sign != 0 { v = -v }
            state.predictors[ci] = Int32((Int(state.predictors[ci]) + v) & 0xFFFF)
        }
        block[0] = Int16(truncatingIfNeeded: Int(state.predictors[ci]) << al)
        return true
    }

    /// F.2.4.2 / G.1.3.2 (Figure F.20): the band Ss…Se — an end-of-band decision, zero-run
    /// decisions, then sign (fixed ½ bin), magnitude category and bits as for DC, against the
    /// bins of position k (the magnitude statistics split at K). False after a bad code.
    private mutating func decodeACFirst(_ slot: Slot, _ block: UnsafeMutablePointer<Int16>, ss: Int, se: Int, al: Int,
                                        _ base: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Bool {
        let bins = statistics.ac(slot.acTable)
        let natural = JPEGZigZag.naturalPointer
        var k = ss
        while k <= se {
            var st = bins + 3 * (k - 1)
            if decode(st, base, end: end, closed: closed) != 0 { break }   // end of band
            while decode(st + 1, base, end: end, closed: closed) == 0 {
                st += 3
                k += 1
                if k > se { return badCode() }
            }
            let sign = decode(statistics.fixed, base, end: end, closed: closed)
            st += 2
            var m = decode(st, base, end: end, closed: closed)
            if m != 0 && decode(st, base, end: end, closed: closed) != 0 {
                m <<= 1
                st = bins + (k <= conditioning.acK[slot.acTable] ? 189 : 217)
                while decode(st, base, end: end, closed: closed) != 0 {
                    m <<= 1
                    if m == 0x8000 { return badCode() }
                    st += 1
                }
            }
            var v = m
            st += 14
            while m > 1 {
                m >>= 1
                if decode(st, base, end: end, closed: closed) != 0 { v |= m }
            }
            v += 1
            if sign != 0 { v = -v }
            // Bound: ss ≤ k ≤ se ≤ 63.
            block[Int(natural[k])] = Int16(truncatingIfNeeded: v << al)
            k += 1
        }
        return true
    }

    /// G.1.3.3: refinement of the band Ss…Se. Past EOBx (the last coefficient already
    /// non-zero) each position starts with an end-of-band decision; a non-zero coefficient
    /// takes one correction decision; a zero one a "becomes ±2^Al" decision (sign from the
    /// fixed bin). False after a bad code.
    private mutating func decodeACRefine(_ slot: Slot, _ block: UnsafeMutablePointer<Int16>, ss: Int, se: Int, al: Int,
                                         _ base: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Bool {
        let bins = statistics.ac(slot.acTable)
        let natural = JPEGZigZag.naturalPointer
        let p1 = Int16(truncatingIfNeeded: 1 << al), m1 = Int16(truncatingIfNeeded: -1 << al)
        var eobx = se
        while eobx > 0 && block[Int(natural[eobx])] == 0 { eobx -= 1 }
        var k = ss
        while k <= se {
            var st = bins + 3 * (k - 1)
            if k > eobx && decode(st, base, end: end, closed: closed) != 0 { break }
            while true {
                // Bound: ss ≤ k ≤ se ≤ 63.
                let position = Int(natural[k])
                let coefficient = block[position]
                if coefficient != 0 {
                    if decode(st + 2, base, end: end, closed: closed) != 0 {
                        block[position] = coefficient &+ (coefficient < 0 ? m1 : p1)
                    }
                    break
                }
                if decode(st + 1, base, end: end, closed: closed) != 0 {
                    block[position] = decode(statistics.fixed, base, end: end, closed: closed) != 0 ? m1 : p1
                    break
                }
                st += 3
                k += 1
                if k > se { return badCode() }
            }
            k += 1
        }
        return true
    }

    /// jdarith.c `process_restart`: read the marker (`RestartMarkers`), clear the statistics
    /// this scan uses and the DC predictions, and start a new segment. False = suspend.
    private mutating func processRestart(_ bytes: UnsafeBufferPointer<UInt8>, end: Int, closed: Bool) -> Bool {
        guard RestartMarkers.read(expected: state.nextRestart, &state.decoder, bytes, end: end, closed: closed, warnings: &warnings) else {
            return false
        }
        state.nextRestart = (state.nextRestart + 1) & 7
        resetStatistics()
        state.decoder.restart()
        state.restartsToGo = restartInterval
        return true
    }

    /// The statistics areas and predictions a scan of this kind uses, cleared (T.81 F.1.4.4,
    /// G.1.3: at the start of each scan and after each restart marker).
    private mutating func resetStatistics() {
        for slot in slots where slot.dx == 0 && slot.dy == 0 {
            switch kind {
            case .sequential, .dcFirst:
                statistics.clearDC(slot.dcTable)
                state.predictors[slot.scanIndex] = 0
                state.contexts[slot.scanIndex] = 0
            default:
                break
            }
            switch kind {
            case .sequential, .acFirst, .acRefine:
                statistics.clearAC(slot.acTable)
            default:
                break
            }
        }
    }
}

/// The statistics bins of one arithmetic scan: for each of the 16 DC tables 64 bins (T.81
/// F.1.4.4.1.3 needs 49; jdarith.c rounds up) or, in a lossless scan, 158 (H.1.2.3, Figure
/// H.2: 25 two-dimensional contexts of 4 bins, then two magnitude sets of 29); 256 for each of
/// the 16 AC tables (F.1.4.4.2 needs 245); and the fixed-½ bin, in
/// one allocation with room for a saved copy and the blocks of one MCU (suspension).
///
/// Saving before every MCU of a stream fed in pieces copies only the areas of the tables the
/// scan uses (`track`) and at most 10 blocks, into storage allocated once.
final class ArithmeticStatistics {
    private static let acBins = 256
    /// At most 10 blocks per MCU (B.2.3).
    private static let maxBlocks = 10
    private let dcBins: Int
    private let binCount: Int
    private let bins: UnsafeMutablePointer<UInt8>
    private let savedBins: UnsafeMutablePointer<UInt8>
    /// 64 coefficients for each saved block, and where each came from.
    private let savedBlocks: UnsafeMutablePointer<Int16>
    private let savedBlockPointers: UnsafeMutablePointer<UnsafeMutablePointer<Int16>?>
    private var savedBlockCount = 0
    /// (first bin, bins) of each area `save` copies.
    private var trackedAreas: [(start: Int, count: Int)] = []

    init(lossless: Bool = false) {
        dcBins = lossless ? 158 : 64
        binCount = 16 * dcBins + 16 * Self.acBins + 1
        bins = .allocate(capacity: binCount)
        bins.initialize(repeating: 0, count: binCount)
        bins[binCount - 1] = QMStates.fixedBin
        savedBins = .allocate(capacity: binCount)
        savedBins.initialize(repeating: 0, count: binCount)
        savedBlocks = .allocate(capacity: Self.maxBlocks * 64)
        savedBlocks.initialize(repeating: 0, count: Self.maxBlocks * 64)
        savedBlockPointers = .allocate(capacity: Self.maxBlocks)
        savedBlockPointers.initialize(repeating: nil, count: Self.maxBlocks)
    }

    deinit {
        bins.deallocate()
        savedBins.deallocate()
        savedBlocks.deallocate()
        savedBlockPointers.deallocate()
    }

    /// Bound: table indices are 4-bit fields of the scan header (0…15).
    func dc(_ table: Int) -> UnsafeMutablePointer<UInt8> { bins + (table & 15) * dcBins }
    func ac(_ table: Int) -> UnsafeMutablePointer<UInt8> { bins + 16 * dcBins + (table & 15) * Self.acBins }
    var fixed: UnsafeMutablePointer<UInt8> { bins + binCount - 1 }

    func clearDC(_ table: Int) { dc(table).update(repeating: 0, count: dcBins) }
    func clearAC(_ table: Int) { ac(table).update(repeating: 0, count: Self.acBins) }

    /// The tables whose bins the scan adapts (the fixed bin never changes: its state, 113,
    /// leads to itself).
    func track(dcTables: [Int], acTables: [Int]) {
        trackedAreas = Set(dcTables.map { $0 & 15 }).sorted().map { ($0 * dcBins, dcBins) }
            + Set(acTables.map { $0 & 15 }).sorted().map { (16 * dcBins + $0 * Self.acBins, Self.acBins) }
    }

    /// Saves the tracked bins before an attempt that may starve; the MCU's blocks follow
    /// with `save(block:)`.
    func save() {
        for area in trackedAreas { (savedBins + area.start).update(from: bins + area.start, count: area.count) }
        savedBlockCount = 0
    }

    func save(block: UnsafeMutablePointer<Int16>) {
        guard savedBlockCount < Self.maxBlocks else { return }
        (savedBlocks + savedBlockCount * 64).update(from: block, count: 64)
        savedBlockPointers[savedBlockCount] = block
        savedBlockCount += 1
    }

    /// Puts back what `save` saved.
    func restore() {
        for area in trackedAreas { (bins + area.start).update(from: savedBins + area.start, count: area.count) }
        for index in 0..<savedBlockCount {
            savedBlockPointers[index]?.update(from: savedBlocks + index * 64, count: 64)
        }
    }
}
