/// One sequential (baseline or extended, Huffman) scan: T.81 §F.2.2 decoding of the MCUs of
/// §A.2 into the `CoefficientStore`, with restart intervals (§F.2.1.3.1, B.2.4.4) and
/// libjpeg-turbo 2.1's recovery rules (jdhuff.c `decode_mcu`, `process_restart`; jdmarker.c
/// `read_restart_marker`, `jpeg_resync_to_restart`).
///
/// Progressive scans (T.81 G.1.2) reuse the MCU walk, restarts and suspension: `kind` selects
/// the block decoder (`ProgressiveScanKind.swift` and the four `Progressive*.swift` files).
///
/// Suspension: every MCU is decoded from a saved `State`; when the bytes run out before the MCU
/// is complete (input not closed), the state is restored and the caller waits for more input,
/// as libjpeg's suspending data sources do. Nothing is half-applied.
struct BaselineScan: EntropyScan {
    /// One block of an MCU (A.2.3): which component, where inside the MCU, which tables.
    struct Slot {
        let component: Int
        let scanIndex: Int
        let dx: Int
        let dy: Int
        let stepX: Int
        let stepY: Int
        let dc: HuffmanTable.Pointers
        let ac: HuffmanTable.Pointers
        /// The component's coefficient plane (see `CoefficientStore.Plane`).
        let plane: CoefficientStore.Plane
        /// jdhuff.c `ac_needed`: false when the component's IDCT reads only the DC term (a
        /// 1×1 output block, at 1/8 scale), so a sequential scan decodes past the AC
        /// coefficients without storing them, and a progressive refinement scan reads its
        /// correction bits without applying them.
        var acNeeded = true
        /// A banded store's first pass (`CoefficientBands`): the component's block masks, and
        /// the first block row kept only as a mask (rows above it are in the ring).
        var masks: CoefficientStore.Masks? = nil
        var maskedFrom = Int.max
    }

    struct State {
        var reader: EntropyBitReader
        var predictors = Predictors()
        var restartsToGo: Int
        var nextRestart = 0
        /// jdhuff.c `insufficient_data`: once set, MCUs are left zero until the next restart.
        var insufficient = false
        var mcu = 0
        /// `mcu`'s column and row, kept alongside it (a division per MCU was a few per cent
        /// of a 4:4:4 decode).
        var mcuX = 0, mcuY = 0
        var warnedInsufficient = false
        var badCodes = 0
        /// G.1.2.2 EOBRUN: blocks still to skip in a progressive AC scan (reset at restarts).
        var eobRun = 0
        /// jdcoefct.c `last_good_iMCU_row`: the last iMCU row an MCU started in while the data
        /// was still sufficient (block smoothing uses it to pick the coefficient-bit latch).
        var lastGoodIMCURow = 0
        /// The MCU row `lastGoodIMCURow` was last set from (−1: none yet): the division is
        /// done once a row, not once an MCU (it was a fifth of a progressive MCU's overhead).
        var lastGoodMCURow = -1
    }

    /// PRED of F.2.2.1, one per scan component. Four scalars rather than a SIMD vector: a
    /// lane store followed by a whole-vector copy stalls store forwarding (measured: 29 % of
    /// the entropy loop).
    struct Predictors {
        var p0: Int32 = 0, p1: Int32 = 0, p2: Int32 = 0, p3: Int32 = 0
        subscript(index: Int) -> Int32 {
            get {
                switch index {
                case 0: return p0
                case 1: return p1
                case 2: return p2
                default: return p3
                }
            }
            set {
                switch index {
                case 0: p0 = newValue
                case 1: p1 = newValue
                case 2: p2 = newValue
                default: p3 = newValue
                }
            }
        }
    }

    let slots: [Slot]
    /// The same slots in one allocation, read through a pointer by the MCU loop (`slots[index]`
    /// copied the 168-byte `Slot` per block: a `memcpy`, then loads that waited on it).
    let slotTable: SlotTable
    /// Keeps the tables behind `Slot.dc` / `Slot.ac` alive.
    let tables: [HuffmanTable]
    /// `JPEGZigZag.naturalPointer`, read once here: the global's lazy initialisation check
    /// was a `swift_once` call per block.
    let natural = JPEGZigZag.naturalPointer
    /// Keeps the planes behind `Slot.plane` alive.
    let store: CoefficientStore
    let interleaved: Bool
    let mcusPerRow: Int
    let mcuRows: Int
    let restartInterval: Int
    let zeroBlocks: Bool
    /// Which of the five scan kinds this is (sequential, or one of T.81 G.1.2's four).
    let kind: ScanKind
    /// For block smoothing: the component's V, to turn block rows into iMCU rows.
    let iMCURowDivisor: Int
    var state: State
    /// Progressive AC refinement: positions made non-zero in the MCU being decoded, undone if
    /// the MCU has to wait for more input (jdphuff.c `newnz_pos`; the other refinement
    /// updates are idempotent, so redoing the MCU repeats them harmlessly).
    var newNonZero: [Int] = []
    var newNonZeroBlock: UnsafeMutablePointer<Int16>?
    /// Whether the MCU being decoded keeps `newNonZero` (only one that may suspend needs it).
    var recordsUndo = false
    /// For `mayReachEnd`: the last index i below `searchedForFillRuns` − 1 with bytes i and
    /// i + 1 both 0xFF (−1: none), and how far the scan's bytes have been searched.
    private var lastFillPair = -1
    private var searchedForFillRuns: Int
    /// A DC value overflowed a C `int` (jdphuff.c: `JERR_BAD_DCT_COEF`, a fatal error).
    var dcOverflow = false
    /// Recovered problems, drained by the decoder: (offset, message).
    var warnings: [(Int, String)] = []
    /// True when zero bits were substituted because the input ended (not a marker).
    private(set) var ranOutOfInput = false

    init(slots: [Slot], tables: [HuffmanTable], store: CoefficientStore, interleaved: Bool, mcusPerRow: Int, mcuRows: Int,
         restartInterval: Int, zeroBlocks: Bool, start: Int, kind: ScanKind = .sequential, iMCURowDivisor: Int = 1, lastGoodIMCURow: Int = 0) {
        self.kind = kind
        self.iMCURowDivisor = iMCURowDivisor
        self.slots = slots
        slotTable = SlotTable(slots)
        self.tables = tables
        self.store = store
        self.interleaved = interleaved
        self.mcusPerRow = mcusPerRow
        self.mcuRows = mcuRows
        self.restartInterval = restartInterval
        self.zeroBlocks = zeroBlocks
        state = State(reader: EntropyBitReader(position: start), restartsToGo: restartInterval)
        searchedForFillRuns = start
        state.lastGoodIMCURow = lastGoodIMCURow
    }

    mutating func rebase(by delta: Int) {
        state.reader.rebase(by: delta)
        // A fill pair behind the reader no longer matters (`mayReachEnd` looks from the byte
        // before the position on); −1 stays "none".
        if lastFillPair >= 0 { lastFillPair -= delta }
        searchedForFillRuns -= delta
    }

    var totalMCUs: Int { mcusPerRow * mcuRows }
    var lastGoodIMCURow: Int { state.lastGoodIMCURow }
    var position: Int { state.reader.position }
    var endMarker: (code: Int, offset: Int, endOfInput: Bool) { (state.reader.marker, state.reader.markerOffset, state.reader.endOfInput) }
    var firstComponent: Int { slots.first?.component ?? 0 }

    /// See `EntropyBitReader.fillerStartsWithD9`.
    mutating func markFillerPhase(oddBytesUsed: Bool) {
        state.reader.fillerStartsWithD9 = oddBytesUsed
    }

    /// Decodes MCUs until an MCU row completes, the scan ends, or the bytes run out.
    /// `end ≤ bytes.count`.
    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>, end: Int, closed: Bool) -> ScanProgress {
        guard let base = bytes.baseAddress else { return closed ? .finished : .needMoreInput }
        if !closed { searchFillRuns(base, end: end) }
        while state.mcu < totalMCUs {
            // Only an MCU that may suspend needs the snapshot to retry from (a copy of the
            // 152-byte state per MCU was ≈ 9 % of an incremental progressive decode).
            let maySuspend = !closed && mayReachEnd(end)
            let saved: State? = maySuspend ? state : nil
            let warningCount = warnings.count
            // The undo list belongs to this attempt only: an MCU that suspends in its restart
            // processing, before reaching a block, must not undo the previous MCU's new
            // coefficients (that MCU is complete and will not be decoded again).
            if !newNonZero.isEmpty { newNonZero.removeAll(keepingCapacity: true) }
            newNonZeroBlock = nil
            recordsUndo = maySuspend
            guard decodeMCU(base, bytes, end: end, closed: closed) else {
                if let block = newNonZeroBlock {
                    for position in newNonZero { block[position] = 0 }
                }
                // `saved` is nil only for an MCU that `mayReachEnd` showed cannot suspend.
                assert(saved != nil, "an MCU suspended that could not reach the end of the bytes")
                if let saved { state = saved }
                warnings.removeSubrange(warningCount...)
                return .needMoreInput
            }
            state.mcu += 1
            state.mcuX += 1
            if state.mcuX == mcusPerRow {
                state.mcuX = 0
                state.mcuY += 1
                return .rowDone(state.mcuY - 1)
            }
        }
        return .finished
    }

    /// The most bytes past its start that one block's decoding can read, when no run of two
    /// or more 0xFF bytes is among them. A block takes at most 2 000 bits: sequential, DC ≤ 16
    /// + 16 and ≤ 63 AC symbols of ≤ 16 + 15 bits (1 985); a first AC scan the same plus an
    /// EOB run's ≤ 14 bits; a refinement ≤ 64 × (16 + 1 + 1) + 14; a DC scan ≤ 32. That is
    /// ≤ 250 data bytes, and the bit buffer reads ≤ 8 data bytes ahead (it fills to > 56 bits).
    /// Each data byte is one input byte, or two (FF 00); a marker stops the reading. So an MCU
    /// of n blocks reads ≤ 2 · (250 · n + 8) + 1 < 640 · n bytes past its start. A run of
    /// 0xFF fill bytes before a 00 is one data byte however long it is (jdhuff.c), which is
    /// why such runs are searched for separately.
    static let boundedBytesPerBlock = 640

    /// Whether the next MCU might need bytes at or past `end` (and so suspend): it starts within
    /// `boundedBytesPerBlock` per block of the end, a fill run lies ahead (from the byte before
    /// the reader's position: the reader never stops between an 0xFF and the byte after it),
    /// or it starts with a restart marker, whose search crosses any amount of garbage.
    @inline(__always)
    private func mayReachEnd(_ end: Int) -> Bool {
        let position = state.reader.position
        return end - position < Self.boundedBytesPerBlock * slotTable.count || lastFillPair >= position - 1
            || (restartInterval > 0 && state.restartsToGo == 0)
    }

    /// Extends the search for two 0xFF bytes in a row to `end` (each byte is looked at once
    /// per scan, eight at a time where none is 0xFF). Bound: reads stay below `end`.
    private mutating func searchFillRuns(_ base: UnsafePointer<UInt8>, end: Int) {
        // Start one byte back, so that a pair split by the previous end is found.
        var i = max(searchedForFillRuns - 1, 0)
        while i + 1 < end {
            if i + 8 <= end {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if (~word &- 0x0101_0101_0101_0101) & word & 0x8080_8080_8080_8080 == 0 {
                    i += 7  // no 0xFF among bytes i…i+7; a pair may still start at i + 7
                    continue
                }
            }
            if base[i] == 0xFF && base[i + 1] == 0xFF { lastFillPair = i }
            i += 1
        }
        searchedForFillRuns = max(searchedForFillRuns, end)
    }

    /// jdhuff.c `decode_mcu`: restart processing, then the blocks unless data ran out.
    private mutating func decodeMCU(_ base: UnsafePointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>, end: Int, closed: Bool) -> Bool {
        if restartInterval > 0 && state.restartsToGo == 0 {
            guard processRestart(bytes, end: end, closed: closed) else { return false }
        }
        let mx = state.mcuX, my = state.mcuY
        if !state.insufficient && my != state.lastGoodMCURow {
            state.lastGoodMCURow = my
            state.lastGoodIMCURow = iMCURowDivisor == 1 ? my : my / iMCURowDivisor
        }
        let slots = slotTable.pointer, slotCount = slotTable.count
        // Bound: mx < mcusPerRow and dx < stepX, so x < paddedWidthInBlocks (for a
        // non-interleaved scan mcusPerRow = widthInBlocks, step 1); rows wrap in the store.
        @inline(__always) func block(_ slot: UnsafePointer<Slot>) -> UnsafeMutablePointer<Int16> {
            slot.pointee.plane.block(x: mx &* slot.pointee.stepX &+ slot.pointee.dx, y: my &* slot.pointee.stepY &+ slot.pointee.dy)
        }
        if zeroBlocks {
            // A block whose AC terms are not stored only needs its DC cleared (for the MCUs
            // left zero after the data ran out); the rest stays as the store began, zero.
            for index in 0..<slotCount {
                if slots[index].acNeeded {
                    block(slots + index).update(repeating: 0, count: 64)
                } else {
                    block(slots + index)[0] = 0
                }
            }
        }
        if !state.insufficient && kind != .sequential {
            for index in 0..<slotCount {
                let slot = slots + index
                let y = my &* slot.pointee.stepY &+ slot.pointee.dy
                if y >= slot.pointee.maskedFrom {
                    guard decodeMaskedBlock(base, end: end, closed: closed, slot: slot,
                                            x: mx &* slot.pointee.stepX &+ slot.pointee.dx, y: y) else { return false }
                    continue
                }
                guard decodeProgressiveBlock(base, end: end, closed: closed, slot: slot, block: block(slot)) else { return false }
            }
            noteInsufficientData()
        } else if !state.insufficient {
            // libjpeg-turbo decodes an MCU with `decode_mcu_fast` when no restart interval is set,
            // no marker is pending and at least 512 bytes per block remain; if that meets a
            // marker it starts the MCU again with the slow path *without clearing the blocks*.
            // The two agree except on `FF FF … 00` runs (see `EntropyBitReader`), where
            // coefficients the fast attempt wrote past that point stay in the blocks. We replay
            // the same two attempts. (An open input waits until the 512-byte question can be
            // answered, so chunked and one-shot decoding agree.)
            let fastEligible = restartInterval == 0 && state.reader.marker < 0
            if fastEligible && end - state.reader.position < 512 * slotCount && !closed { return false }
            var decoded = false
            let attemptsFast = fastEligible && end - state.reader.position >= 512 * slotCount
            if attemptsFast {
                // What the blocks can change (`decodeBlock`, `decodeSymbol`): the reader, the
                // predictors, the bad-code count and the warnings.
                let readerBefore = state.reader, predictorsBefore = state.predictors, badCodesBefore = state.badCodes
                let warningCount = warnings.count
                state.reader.fastPathSemantics = true
                for index in 0..<slotCount {
                    guard decodeSequentialBlock(base, end: end, closed: closed, slot: slots + index, block: block(slots + index),
                                                zeroed: zeroBlocks) else { return false }
                }
                state.reader.fastPathSemantics = false
                if state.reader.fastPathMarker {
                    // The slow path again, over what the fast attempt left in the blocks.
                    state.reader = readerBefore
                    state.predictors = predictorsBefore
                    state.badCodes = badCodesBefore
                    warnings.removeSubrange(warningCount...)
                } else {
                    decoded = true  // no difference from the slow path
                }
            }
            if !decoded {
                // After a fast attempt the blocks hold what it wrote, which the replay keeps.
                let zeroed = zeroBlocks && !attemptsFast
                for index in 0..<slotCount {
                    guard decodeSequentialBlock(base, end: end, closed: closed, slot: slots + index, block: block(slots + index),
                                                zeroed: zeroed) else { return false }
                }
            }
            noteInsufficientData()
        }
        if restartInterval > 0 { state.restartsToGo -= 1 }
        return true
    }

    /// jdhuff.c `jpeg_fill_bit_buffer`: bits were needed past a marker or the end of the data.
    /// (Checked after every MCU: the test inline, the rare rest in `markInsufficientData`.)
    @inline(__always)
    private mutating func noteInsufficientData() {
        if state.reader.realBits < 0 { markInsufficientData() }
    }

    private mutating func markInsufficientData() {
        state.insufficient = true
        if state.reader.endOfInput { ranOutOfInput = true }
        if !state.warnedInsufficient {
            state.warnedInsufficient = true
            RestartMarkers.record((state.reader.markerOffset, "Corrupt JPEG data: premature end of data segment"), in: &warnings)
        }
    }

    /// At least `count ≤ 17` bits in the accumulator; false means "suspend" (see
    /// `EntropyBitReader.ensure`).
    @inline(__always)
    mutating func ensure(_ count: Int, _ base: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Bool {
        state.reader.ensure(count, base, end: end, closed: closed)
    }

    /// F.2.2.3 DECODE; −1 means "suspend". A bit string that is no code decodes as 0 with a
    /// warning (the first time in the scan), as in libjpeg.
    @inline(__always)
    mutating func decodeSymbol(_ table: HuffmanTable.Pointers, _ base: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Int {
        let symbol = state.reader.decodeSymbol(table, base, end: end, closed: closed)
        guard symbol == EntropyBitReader.noCode else { return symbol }
        state.badCodes += 1
        if state.badCodes == 1 { RestartMarkers.record((state.reader.position, "Corrupt JPEG data: bad Huffman code"), in: &warnings) }
        return 0
    }

    /// F.2.2.1 RECEIVE(s) + EXTEND; nil means "suspend". `1 ≤ s ≤ 15`.
    @inline(__always)
    mutating func receiveExtend(_ s: Int, _ base: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Int? {
        state.reader.receiveExtend(s, base, end: end, closed: closed)
    }

    /// One block of a sequential scan, its AC coefficients stored or only decoded past.
    /// `zeroed`: the block holds only zeros (see `HuffmanTable.sequentialAC`).
    @inline(__always)
    private mutating func decodeSequentialBlock(_ base: UnsafePointer<UInt8>, end: Int, closed: Bool, slot: UnsafePointer<Slot>,
                                                block: UnsafeMutablePointer<Int16>, zeroed: Bool) -> Bool {
        let fast = zeroed ? slot.pointee.ac.sequentialAC : slot.pointee.ac.fastAC
        return slot.pointee.acNeeded
            ? decodeBlock(base, end: end, closed: closed, slot: slot, block: block, fast: fast, StoreAC.self)
            : decodeBlock(base, end: end, closed: closed, slot: slot, block: block, fast: fast, DiscardAC.self)
    }

    /// F.2.2.1 (DC difference, predictor per component) and F.2.2.2 (AC, Figure F.13).
    ///
    /// `Sink` says what becomes of the AC coefficients: stored in the block, or only decoded
    /// past when the IDCT reads nothing but the DC term (1/8 scale, jdhuff.c `ac_needed`).
    @inline(__always)
    private mutating func decodeBlock<Sink: ACCoefficientSink>(_ base: UnsafePointer<UInt8>, end: Int, closed: Bool, slot: UnsafePointer<Slot>,
                                                               block: UnsafeMutablePointer<Int16>, fast: UnsafePointer<Int32>,
                                                               _ sink: Sink.Type) -> Bool {
        // The block loop keeps the accumulator and the bit count in a local `HotBits`, so
        // that they live in registers: stores into `block` could alias `self` as far as the
        // compiler knows, which kept the reader's fields in memory, reloaded after every
        // coefficient. They go back to `state.reader` before anything else reads the reader
        // (a refill that is not the plain 8-byte case, and the careful paths for codes longer
        // than the lookahead or values that do not fit the fast tables).
        var bits = HotBits(state.reader)

        // DC (F.2.2.1): `fastDC` when code and value fit the fast bits; else the lookahead
        // table, then RECEIVE + EXTEND when the bits are in hand; otherwise `decodeSymbol` /
        // `receiveExtend`, which do the same with suspension. Every tier consumes the same bits.
        // false from `refill`: a fill cut short by the end of the bytes so far, so suspend (the
        // bits it did load must not be decoded: a one-shot fill would have loaded more, and
        // met a marker or garbage at a different point).
        guard bits.refill(&state.reader, base, end: end, closed: closed) else { return false }
        var diff = 0
        let next = bits.peek(HuffmanTable.fastBits)
        let dcFast = slot.pointee.dc.fastDC[next]
        var t = -1
        if dcFast != 0 {
            // Code and value within the fast bits (≤ 17 in hand after the refill).
            bits.consume(Int(dcFast & 0xFF))
            diff = Int(dcFast >> 16)
            t = 0
        } else {
            let dcEntry = slot.pointee.dc.lookup[next >> (HuffmanTable.fastBits - HuffmanTable.lookaheadBits)]
            if dcEntry != 0 {
                bits.consume(Int(dcEntry >> 8))
                t = Int(dcEntry & 0xFF)
            }
        }
        if t < 0 {
            bits.store(into: &state.reader)
            t = decodeSymbol(slot.pointee.dc, base, end: end, closed: closed)
            guard t >= 0 else { return false }
            bits = HotBits(state.reader)
        }
        if t != 0 {
            if t <= 16 && bits.bitCount >= t {
                let value = bits.peek(t)
                bits.consume(t)
                diff = value < 1 << (t - 1) ? value - (1 << t) + 1 : value
            } else {
                bits.store(into: &state.reader)
                guard let value = receiveExtend(t, base, end: end, closed: closed) else { return false }
                bits = HotBits(state.reader)
                diff = value
            }
        }
        // The predictor wraps like libjpeg's int; the coefficient keeps its low 16 bits (JCOEF).
        let dc = state.predictors[slot.pointee.scanIndex] &+ Int32(truncatingIfNeeded: diff)
        state.predictors[slot.pointee.scanIndex] = dc
        block[0] = Int16(truncatingIfNeeded: dc)

        // AC (F.2.2.2, Figure F.13). Three tiers: code and value within the 10 fast bits (one
        // `fast` look-up: `fastAC`, or `sequentialAC`, which has EOB and ZRL too); a code within
        // the 9-bit lookahead whose value bits are already in the accumulator, and EOB / ZRL
        // (the `lookup` table, still on the locals); anything else (codes of 10–16 bits, bits
        // not yet in hand, suspension) through `decodeSymbol` and `receiveExtend`. The first
        // two tiers consume what the last one would, with no fill in between (they run only
        // when the value's bits are in hand), so fills happen at the same points and chunked
        // decoding is unchanged.
        let natural = self.natural
        var k = 1
        let lookup = slot.pointee.ac.lookup
        while k < 64 {
            guard bits.refill(&state.reader, base, end: end, closed: closed) else { return false }  // as for DC
            let next = bits.peek(HuffmanTable.fastBits)
            let entry = fast[next]
            if entry != 0 {
                bits.consume(Int(entry & 0xFF))
                // Bound: k ≤ 63 + 63 = 126 < 128 entries (an EOB entry's run is 63).
                k &+= Int((entry >> 8) & 0xFF)
                Sink.put(Int16(truncatingIfNeeded: entry >> 16), at: k, block, natural)
                k &+= 1
                continue
            }
            let symbolEntry = lookup[next >> (HuffmanTable.fastBits - HuffmanTable.lookaheadBits)]
            if symbolEntry != 0 {
                let length = Int(symbolEntry >> 8), r = Int(symbolEntry >> 4) & 15, s = Int(symbolEntry) & 15
                if s == 0 {
                    bits.consume(length)
                    if r != 15 {
                        bits.store(into: &state.reader)
                        return true  // EOB
                    }
                    k &+= 16  // ZRL; k ≤ 79 < 80 entries, and the loop ends past 63
                    continue
                }
                // refill left ≥ 17 bits, so `length` (≤ 9) is in hand; `s` may not be.
                if bits.bitCount >= length &+ s {
                    bits.consume(length)
                    let value = bits.peek(s)
                    bits.consume(s)
                    k &+= r  // Bound: k ≤ 78, as above
                    Sink.put(Int16(truncatingIfNeeded: value < 1 << (s &- 1) ? value &- (1 << s) &+ 1 : value), at: k, block, natural)
                    k &+= 1
                    continue
                }
            }
            bits.store(into: &state.reader)
            let rs = decodeSymbol(slot.pointee.ac, base, end: end, closed: closed)
            guard rs >= 0 else { return false }
            let r = rs >> 4, s = rs & 15
            if s != 0 {
                k += r
                guard let value = receiveExtend(s, base, end: end, closed: closed) else { return false }
                // Bound: k ≤ 63 + 15 = 78 < 80 entries; the table maps 64…79 to 63.
                Sink.put(Int16(truncatingIfNeeded: value), at: k, block, natural)
            } else if r != 15 {
                return true  // EOB: state.reader is current
            } else {
                k += 15
            }
            bits = HotBits(state.reader)
            k += 1
        }
        bits.store(into: &state.reader)
        return true
    }

    /// The two fields of `EntropyBitReader` the block loop changes on every symbol, as a
    /// value the compiler keeps in registers (see `decodeBlock`).
    struct HotBits {
        var accumulator: UInt64
        var bitCount: Int

        @inline(__always) init(_ reader: EntropyBitReader) {
            accumulator = reader.accumulator; bitCount = reader.bitCount
        }

        @inline(__always) func store(into reader: inout EntropyBitReader) {
            reader.accumulator = accumulator; reader.bitCount = bitCount
        }

        @inline(__always) func peek(_ count: Int) -> Int { Int(truncatingIfNeeded: accumulator &>> UInt64(64 &- count)) }

        /// As `EntropyBitReader.consume`: `count` ≤ 17 ≤ `bitCount`.
        @inline(__always) mutating func consume(_ count: Int) {
            accumulator &<<= UInt64(truncatingIfNeeded: count)
            bitCount &-= count
        }

        /// `ensure(minimum)` (17 by default; the lossless scan asks for 33): true when that many
        /// bits are in hand or a fill completed, false when `EntropyBitReader.fill` asks to
        /// suspend. The 8-byte case of `fill` (8 bytes in hand, no 0xFF among them, no marker
        /// met) runs here on the locals; anything else goes through `fill` itself. Bound:
        /// position + 8 ≤ end ≤ bytes.count for the load; minimum ≤ 57, which one fill reaches.
        @inline(__always)
        mutating func refill(_ reader: inout EntropyBitReader, _ base: UnsafePointer<UInt8>, end: Int, closed: Bool,
                             minimum: Int = 17) -> Bool {
            if bitCount >= minimum { return true }
            let position = reader.position
            if reader.marker < 0 && position + 8 <= end {
                let word = UInt64(bigEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                if (~word &- 0x0101_0101_0101_0101) & word & 0x8080_8080_8080_8080 == 0 {
                    let count = (56 &- bitCount) / 8 &+ 1
                    accumulator |= (word &>> UInt64(64 &- 8 &* count)) &<< UInt64(64 &- bitCount &- 8 &* count)
                    bitCount &+= 8 &* count
                    reader.position = position &+ count
                    return true
                }
            }
            let (bits, filled) = Self.fillCarefully(self, &reader, base, end: end, closed: closed)
            self = bits
            return filled
        }

        /// RECEIVE(1) (F.2.2.1) on these bits: taken directly when one is in hand (`receive`
        /// would not fill then either), otherwise through the reader. nil means "suspend".
        @inline(__always)
        mutating func bit(_ reader: inout EntropyBitReader, _ base: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Int? {
            if bitCount >= 1 {
                let value = peek(1)
                consume(1)
                return value
            }
            let (bits, value) = Self.bitCarefully(self, &reader, base, end: end, closed: closed)
            self = bits
            return value
        }

        @inline(never)
        static func bitCarefully(_ bits: HotBits, _ reader: inout EntropyBitReader, _ base: UnsafePointer<UInt8>, end: Int,
                                 closed: Bool) -> (HotBits, Int?) {
            bits.store(into: &reader)
            guard reader.ensure(1, base, end: end, closed: closed) else { return (HotBits(reader), nil) }
            let value = reader.peek(1)
            reader.consume(1)
            return (HotBits(reader), value)
        }

        /// The rest of `refill`, out of line so that `refill` stays small enough to be inlined
        /// (with `fill` inside it, the compiler kept `refill` as a call, which forced the hot
        /// fields back into memory). It takes and returns the bits by value, so that their
        /// address never escapes the block loop (as a mutating method it kept them on the
        /// stack, stored after every symbol).
        @inline(never)
        static func fillCarefully(_ bits: HotBits, _ reader: inout EntropyBitReader, _ base: UnsafePointer<UInt8>, end: Int,
                                  closed: Bool) -> (HotBits, Bool) {
            bits.store(into: &reader)
            let filled = reader.fill(base, end: end, closed: closed)
            return (HotBits(reader), filled)
        }
    }

    /// jdhuff.c `process_restart`: drop the partial byte, read the restart marker (or
    /// resynchronise, `RestartMarkers`), reset predictors. False = suspend.
    private mutating func processRestart(_ bytes: UnsafeBufferPointer<UInt8>, end: Int, closed: Bool) -> Bool {
        state.reader.discardBits()
        guard RestartMarkers.read(expected: state.nextRestart, &state.reader, bytes, end: end, closed: closed, warnings: &warnings) else {
            return false
        }
        state.nextRestart = (state.nextRestart + 1) & 7
        state.predictors = Predictors()
        state.eobRun = 0
        state.restartsToGo = restartInterval
        if state.reader.marker < 0 { state.insufficient = false }
        return true
    }
}

/// What `BaselineScan.decodeBlock` does with an AC coefficient `value` at zigzag index `k`
/// (`natural[k]` is its place in the block; k ≤ 126, the table maps 64…127 to 63).
protocol ACCoefficientSink {
    static func put(_ value: Int16, at k: Int, _ block: UnsafeMutablePointer<Int16>, _ natural: UnsafePointer<UInt8>)
}

/// Stores the coefficient in its block (every IDCT but the 1×1 one reads it).
enum StoreAC: ACCoefficientSink {
    @inline(__always)
    static func put(_ value: Int16, at k: Int, _ block: UnsafeMutablePointer<Int16>, _ natural: UnsafePointer<UInt8>) {
        block[Int(natural[k])] = value
    }
}

/// Drops the coefficient: the block's IDCT is 1×1 and reads the DC term only.
enum DiscardAC: ACCoefficientSink {
    @inline(__always)
    static func put(_ value: Int16, at k: Int, _ block: UnsafeMutablePointer<Int16>, _ natural: UnsafePointer<UInt8>) {}
}

/// `BaselineScan.slots` in memory the scan owns (see `BaselineScan.slotTable`).
final class SlotTable {
    let pointer: UnsafeMutablePointer<BaselineScan.Slot>
    let count: Int

    init(_ slots: [BaselineScan.Slot]) {
        count = slots.count
        pointer = .allocate(capacity: max(count, 1))
        pointer.initialize(from: slots, count: count)
    }

    deinit {
        pointer.deinitialize(count: count)
        pointer.deallocate()
    }
}
