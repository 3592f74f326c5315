/// JPEGDecoder, a progressive image in bands (`CoefficientBands`): the first pass keeps each
/// scan and its decoder state where each later band starts; at EOI the bands are decoded again
/// from those states and rendered one after the other.

/// A Huffman progressive scan kept for the later bands.
struct ReplayScan {
    /// The scan as started, without masks (its `state` is replaced by a kept one).
    let scan: BaselineScan
    /// Scan rows (MCU rows of the scan) per render row: 1 for an interleaved scan, the
    /// component's block rows per render row for a scan of one component.
    let scanRowsPerRenderRow: Int
    /// Band → the scan's state when its first held row begins (its upper margin).
    var starts: [Int: BaselineScan.State] = [:]
    /// Band → the scan's state when its own first row begins: where a band starts when no
    /// block smoothing reads the margins (a file whose scans completed every coefficient).
    var ownStarts: [Int: BaselineScan.State] = [:]
}

extension JPEGDecoder {
    /// What a kept scan is charged in the budget: its slot table, its share of the Huffman
    /// tables it keeps alive (a DHT before every scan gives each its own), and each kept state.
    static let replayScanBytes = 32 << 10
    static let replayStateBytes = MemoryLayout<BaselineScan.State>.stride + 64

    /// A banded store's first pass: the scan `slots` make, started with every block outside
    /// the first band's held rows masked, and kept (unmasked) for the later bands.
    func startBandedScan(_ slots: [BaselineScan.Slot], store: CoefficientStore, bands: CoefficientBands, interleaved: Bool,
                         make: ([BaselineScan.Slot]) -> BaselineScan) throws(DecodeError) -> BaselineScan {
        let held = bands.held(0).upperBound
        let masked = slots.map { slot in
            var slot = slot
            if slot.component < store.masks.count && slot.component < bands.blockRowsPerRenderRow.count {
                slot.masks = store.masks[slot.component]
                slot.maskedFrom = held * bands.blockRowsPerRenderRow[slot.component]
            }
            return slot
        }
        let first = make(masked)
        try budget.reserve(Self.replayScanBytes, format: .jpeg, offset: nil)
        replayBytes += Self.replayScanBytes
        let component = slots.first?.component ?? 0
        let perRenderRow = interleaved ? 1 : (component < bands.blockRowsPerRenderRow.count ? bands.blockRowsPerRenderRow[component] : 1)
        replayScans.append(ReplayScan(scan: make(slots), scanRowsPerRenderRow: perRenderRow))
        try keepBandStarts(first.state, completedRows: 0)
        return first
    }

    /// After `completedRows` rows of the current scan: its state, for every band whose held
    /// rows or own rows start there.
    func keepBandStarts(_ state: BaselineScan.State, completedRows: Int) throws(DecodeError) {
        guard let bands = store?.bands, let last = replayScans.indices.last else { return }
        let perRenderRow = replayScans[last].scanRowsPerRenderRow
        guard completedRows % perRenderRow == 0 else { return }
        let row = completedRows / perRenderRow
        // rendered(k).lowerBound = k · bandRows.
        // Each kept state is charged to the decode's budget (a file of many scans keeps many).
        func reserveState() throws(DecodeError) {
            try budget.reserve(Self.replayStateBytes, format: .jpeg, offset: nil)
            replayBytes += Self.replayStateBytes
        }
        if row > 0, row % bands.bandRows == 0, row / bands.bandRows < bands.count {
            try reserveState()
            replayScans[last].ownStarts[row / bands.bandRows] = state
        }
        // held(k).lowerBound = max(0, k · bandRows − margin): row 0 starts every band whose
        // margin reaches the top, any other row at most one band.
        let candidates: ClosedRange<Int>
        if row == 0 {
            candidates = 1...max(1, CoefficientBands.margin / bands.bandRows)
        } else {
            guard (row + CoefficientBands.margin) % bands.bandRows == 0 else { return }
            let k = (row + CoefficientBands.margin) / bands.bandRows
            candidates = k...k
        }
        for k in candidates where k >= 1 && k < bands.count && bands.held(k).lowerBound == row {
            try reserveState()
            replayScans[last].starts[k] = state
        }
    }

    /// At EOI: band 0 from the first pass, then each later band decoded again from the kept
    /// states and rendered; the masks go after band 0, the kept scans at the end. Only block
    /// smoothing reads the margins: without it a band decodes its own rows only (for a
    /// 12000 × 8000 file in bands of 29 MCU rows, 4 rows in 33 fewer).
    func renderBands(_ bands: CoefficientBands, store: CoefficientStore, renderer: AnyJPEGRenderer, geometry: FrameGeometry) {
        // Smoothing is decided by the whole decode's coefficient bits (as for a whole image).
        let smoothing = progression.smoothing(geometry: geometry, store: store, quantization: latchedQuant,
                                              scanCount: scanCount, lastGoodIMCURow: lastGoodIMCURow)
        Self.render(store, geometry: geometry, smoothing: smoothing, rows: bands.rendered(0), into: renderer)
        store.releaseMasks()
        let input = replayInput ?? ([], 0)
        input.bytes.withUnsafeBufferPointer { bytes in
            for k in 1..<bands.count {
                store.clearRings()
                let rows = smoothing == nil ? bands.rendered(k) : bands.held(k)
                for replay in replayScans {
                    guard let start = smoothing == nil ? replay.ownStarts[k] : replay.starts[k] else { continue }
                    var scan = replay.scan
                    scan.state = start
                    let stop = min(rows.upperBound * replay.scanRowsPerRenderRow, scan.mcuRows)
                    // The input is closed: each call ends a row or the scan.
                    while scan.state.mcuY < stop {
                        guard case .rowDone = scan.run(bytes, end: min(input.end, bytes.count), closed: true) else { break }
                    }
                }
                Self.render(store, geometry: geometry, smoothing: smoothing, rows: bands.rendered(k), into: renderer)
            }
        }
        renderedBands = bands.count
        replayScans = []
        replayInput = nil
        budget.release(replayBytes)
        replayBytes = 0
    }
}
