/// JPEGDecoder, the scans (T.81 B.2.3, Annex F, G, H): starting each kind of scan — sequential
/// Huffman, progressive, arithmetic, lossless — with its tables and latched quantisation.
extension JPEGDecoder {
    /// B.2.3 SOS, then libjpeg's `initial_setup` (first scan), `per_scan_setup`,
    /// `latch_quant_tables` and `start_pass_huff_decoder`.
    func startScan(_ segment: JPEGSegment) throws(DecodeError) {
        guard let frame else { throw segment.malformed(.scanBeforeFrame) }
        let header = try ScanHeader(parsing: segment, frame: frame)
        if renderer == nil {
            try setUpFrame(frame, firstScan: header, at: segment.markerOffset)
        } else if !multiScan {
            throw segment.malformed(.unexpectedScan)
        }
        guard let geometry, let renderer else { return }
        if lossless {
            try startLosslessScan(header, segment: segment, geometry: geometry, renderer: renderer)
            return
        }
        guard let store else { return }
        if progressive {
            try startProgressiveScan(header, segment: segment, geometry: geometry, renderer: renderer, store: store)
            return
        }
        if header.ss != 0 || header.se != 63 || header.ah != 0 || header.al != 0 {
            // libjpeg: JWRN_NOT_SEQUENTIAL, then decodes the scan as sequential anyway.
            warn(at: segment.bodyOffset, "Invalid SOS parameters for sequential JPEG")
        }
        let interleaved = header.components.count > 1
        if arithmetic {
            for component in header.components {
                try latchQuantization(component: component.frameIndex, frame: frame, renderer: renderer, at: segment.bodyOffset)
            }
            try startArithmeticScan(header, segment: segment, geometry: geometry, store: store, kind: .sequential,
                                    zeroBlocks: !store.isWholeImage)
            return
        }
        var slots: [BaselineScan.Slot] = []
        var tables: [HuffmanTable] = []
        for (scanIndex, component) in header.components.enumerated() {
            let c = component.frameIndex
            try latchQuantization(component: c, frame: frame, renderer: renderer, at: segment.bodyOffset)
            let dc = try huffmanTable(component.dcTable, isDC: true, at: segment.bodyOffset)
            let ac = try huffmanTable(component.acTable, isDC: false, at: segment.bodyOffset)
            tables += [dc, ac]
            let g = geometry.components[c]
            let (h, v) = interleaved ? (g.h, g.v) : (1, 1)
            for dy in 0..<v {
                for dx in 0..<h {
                    slots.append(BaselineScan.Slot(component: c, scanIndex: scanIndex, dx: dx, dy: dy, stepX: h, stepY: v,
                                                   dc: dc.pointers, ac: ac.pointers, plane: store.planes[c],
                                                   acNeeded: g.scaledBlockSize > 1))
                }
            }
        }
        guard slots.count <= 10 else { throw segment.malformed(.tooManyBlocksInMCU(slots.count)) }
        let mcusPerRow: Int, mcuRows: Int
        if interleaved {
            (mcusPerRow, mcuRows) = (geometry.mcusPerRow, geometry.mcuRows)
        } else {
            let g = geometry.components[header.components[0].frameIndex]
            (mcusPerRow, mcuRows) = (g.widthInBlocks, g.heightInBlocks)
        }
        scanCount += 1
        scan = BaselineScan(slots: slots, tables: tables, store: store, interleaved: interleaved, mcusPerRow: mcusPerRow, mcuRows: mcuRows,
                            restartInterval: restartInterval, zeroBlocks: !store.isWholeImage,
                            start: segment.bodyOffset + segment.body.count)
        state = .scan
    }

    /// A progressive scan (T.81 G.1.2), set up as jdinput.c `start_input_pass` and jdphuff.c
    /// `start_pass_phuff_decoder` do: MCU size, quantization latch, the G.1.1.1 parameter
    /// checks (`ProgressiveState.startScan`), then only the Huffman tables the scan kind uses
    /// (DC first: DC tables; AC scans: AC tables; DC refinement: none). No Annex K defaults.
    func startProgressiveScan(_ header: ScanHeader, segment: JPEGSegment, geometry: FrameGeometry,
                                      renderer: AnyJPEGRenderer, store: CoefficientStore) throws(DecodeError) {
        guard let frame else { return }
        let interleaved = header.components.count > 1
        var blockCount = 0
        for component in header.components {
            let g = geometry.components[component.frameIndex]
            blockCount += interleaved ? g.h * g.v : 1
        }
        guard blockCount <= 10 else { throw segment.malformed(.tooManyBlocksInMCU(blockCount)) }
        for component in header.components {
            try latchQuantization(component: component.frameIndex, frame: frame, renderer: renderer, at: segment.bodyOffset)
        }
        scanCount += 1
        progressiveScans.append((header.components.map(\.frameIndex), header.ss, header.se, header.ah, header.al))
        let problems: [(Int, Int)]
        do {
            problems = try progression.startScan(header, scanNumber: scanCount)
        } catch {
            throw DecodeError(.malformed, format: .jpeg, offset: segment.bodyOffset, error)
        }
        for (component, coefficient) in problems {
            // jdphuff.c JWRN_BOGUS_PROGRESSION: decoded anyway.
            warn(at: segment.bodyOffset, "Inconsistent progression sequence for component \(component) coefficient \(coefficient)")
        }
        let kind = ScanKind(ss: header.ss, se: header.se, ah: header.ah, al: header.al)
        if arithmetic {
            try startArithmeticScan(header, segment: segment, geometry: geometry, store: store, kind: kind, zeroBlocks: false)
            return
        }
        // Stands in for the tables a scan kind does not read (DC refinement reads none).
        let placeholder = try placeholderTable(at: segment.bodyOffset)
        var slots: [BaselineScan.Slot] = []
        var tables: [HuffmanTable] = [placeholder]
        for (scanIndex, component) in header.components.enumerated() {
            let c = component.frameIndex
            var dc = placeholder, ac = placeholder
            switch kind {
            case .dcFirst: dc = try huffmanTable(component.dcTable, isDC: true, at: segment.bodyOffset)
            case .acFirst, .acRefine: ac = try huffmanTable(component.acTable, isDC: false, at: segment.bodyOffset)
            case .dcRefine, .sequential: break
            }
            tables += [dc, ac]
            let g = geometry.components[c]
            let (h, v) = interleaved ? (g.h, g.v) : (1, 1)
            for dy in 0..<v {
                for dx in 0..<h {
                    slots.append(BaselineScan.Slot(component: c, scanIndex: scanIndex, dx: dx, dy: dy, stepX: h, stepY: v,
                                                   dc: dc.pointers, ac: ac.pointers, plane: store.planes[c],
                                                   acNeeded: g.scaledBlockSize > 1))
                }
            }
        }
        let mcusPerRow: Int, mcuRows: Int, divisor: Int
        if interleaved {
            (mcusPerRow, mcuRows, divisor) = (geometry.mcusPerRow, geometry.mcuRows, 1)
        } else {
            let g = geometry.components[header.components[0].frameIndex]
            (mcusPerRow, mcuRows, divisor) = (g.widthInBlocks, g.heightInBlocks, g.v)
        }
        let start = segment.bodyOffset + segment.body.count, restartInterval = restartInterval, lastGood = lastGoodIMCURow
        func make(_ slots: [BaselineScan.Slot]) -> BaselineScan {
            BaselineScan(slots: slots, tables: tables, store: store, interleaved: interleaved, mcusPerRow: mcusPerRow, mcuRows: mcuRows,
                         restartInterval: restartInterval, zeroBlocks: false, start: start,
                         kind: kind, iMCURowDivisor: divisor, lastGoodIMCURow: lastGood)
        }
        if let bands = store.bands {
            scan = try startBandedScan(slots, store: store, bands: bands, interleaved: interleaved, make: make)
        } else {
            scan = make(slots)
        }
        state = .scan
    }

    /// An arithmetic-coded scan of any kind (jdarith.c `start_pass`), its MCU laid out as for
    /// Huffman scans (T.81 A.2): every block of each component's H × V when interleaved, else
    /// one block per MCU over the component's blocks.
    func startArithmeticScan(_ header: ScanHeader, segment: JPEGSegment, geometry: FrameGeometry, store: CoefficientStore,
                                     kind: ScanKind, zeroBlocks: Bool) throws(DecodeError) {
        let interleaved = header.components.count > 1
        var slots: [ArithmeticScan.Slot] = []
        for (scanIndex, component) in header.components.enumerated() {
            let c = component.frameIndex
            let g = geometry.components[c]
            let (h, v) = interleaved ? (g.h, g.v) : (1, 1)
            for dy in 0..<v {
                for dx in 0..<h {
                    slots.append(ArithmeticScan.Slot(component: c, scanIndex: scanIndex, dx: dx, dy: dy, stepX: h, stepY: v,
                                                     dcTable: component.dcTable, acTable: component.acTable, plane: store.planes[c]))
                }
            }
        }
        guard slots.count <= 10 else { throw segment.malformed(.tooManyBlocksInMCU(slots.count)) }
        let mcusPerRow: Int, mcuRows: Int, divisor: Int
        if interleaved {
            (mcusPerRow, mcuRows, divisor) = (geometry.mcusPerRow, geometry.mcuRows, 1)
        } else {
            let g = geometry.components[header.components[0].frameIndex]
            (mcusPerRow, mcuRows, divisor) = (g.widthInBlocks, g.heightInBlocks, progressive ? g.v : 1)
        }
        if !progressive { scanCount += 1 }
        scan = ArithmeticScan(slots: slots, store: store, interleaved: interleaved, mcusPerRow: mcusPerRow, mcuRows: mcuRows,
                              restartInterval: restartInterval, zeroBlocks: zeroBlocks, start: segment.bodyOffset + segment.body.count,
                              kind: kind, conditioning: conditioning, iMCURowDivisor: divisor, lastGoodIMCURow: lastGoodIMCURow)
        state = .scan
    }

    /// A lossless scan (T.81 H.1.1, H.2.1; jdlossls.c `start_pass_lossless`, jddiffct.c,
    /// jdlhuff.c): Ss is the predictor 1…7, Se and Ah are 0, Al (the point transform) is below
    /// P; the restart interval is a whole number of MCU rows; Huffman scans take every
    /// difference from the DC table Td (no standard tables are installed).
    func startLosslessScan(_ header: ScanHeader, segment: JPEGSegment, geometry: FrameGeometry,
                                   renderer: AnyJPEGRenderer) throws(DecodeError) {
        guard let frame else { return }
        guard (1...7).contains(header.ss), header.se == 0, header.ah == 0, header.al < frame.precision else {
            throw segment.malformed(.badLosslessParameters(ss: header.ss, se: header.se, ah: header.ah, al: header.al))
        }
        let interleaved = header.components.count > 1
        var units = 0
        var components: [LosslessScan.Component] = []
        var tables: [Int: HuffmanTable] = [:]
        for component in header.components {
            let g = geometry.components[component.frameIndex]
            units += interleaved ? g.h * g.v : 1
            components.append(LosslessScan.Component(frameIndex: component.frameIndex, h: interleaved ? g.h : 1, v: interleaved ? g.v : 1,
                                                     width: g.widthInBlocks, height: g.heightInBlocks,
                                                     gridWidth: interleaved ? geometry.mcusPerRow * g.h : g.widthInBlocks,
                                                     linesPerIMCURow: g.v, table: component.dcTable))
            if !arithmetic && tables[component.dcTable] == nil {
                guard component.dcTable < 4, let spec = dcSpecs[component.dcTable] else {
                    throw segment.malformed(.missingHuffmanTable(component.dcTable, isDC: true))
                }
                do {
                    tables[component.dcTable] = try HuffmanTable(spec, lossless: true)
                } catch {
                    throw DecodeError(.malformed, format: .jpeg, offset: segment.bodyOffset, error)
                }
            }
        }
        guard units <= 10 else { throw segment.malformed(.tooManyBlocksInMCU(units)) }
        let mcusPerRow: Int, mcuRows: Int
        if interleaved {
            (mcusPerRow, mcuRows) = (geometry.mcusPerRow, geometry.mcuRows)
        } else {
            let g = geometry.components[header.components[0].frameIndex]
            (mcusPerRow, mcuRows) = (g.widthInBlocks, g.heightInBlocks)
        }
        guard restartInterval % max(1, mcusPerRow) == 0 else {
            throw segment.malformed(.badLosslessRestartInterval(restartInterval, mcusPerRow: mcusPerRow))
        }
        scanCount += 1
        scan = LosslessScan(components: components, interleaved: interleaved, arithmeticCoded: arithmetic,
                            mcusPerRow: mcusPerRow, mcuRows: mcuRows,
                            mcuRowsPerIMCURow: interleaved ? 1 : geometry.components[header.components[0].frameIndex].v,
                            restartInterval: restartInterval, predictor: header.ss, pointTransform: header.al, precision: frame.precision,
                            huffmanTables: tables, conditioning: conditioning, renderer: renderer,
                            start: segment.bodyOffset + segment.body.count)
        state = .scan
    }

    /// jdinput.c `latch_quant_tables`: a component's quantization table is copied when its
    /// first scan starts; later DQT segments do not change it.
    func latchQuantization(component c: Int, frame: FrameHeader, renderer: AnyJPEGRenderer, at offset: Int) throws(DecodeError) {
        guard !latched[c] else { return }
        let tq = frame.components[c].tq
        guard tq < 4, let table = quantTables[tq] else {
            throw DecodeError(.malformed, format: .jpeg, offset: offset, JPEGError.missingQuantizationTable(tq))
        }
        renderer.setQuantization(component: c, table)
        latchedQuant[c] = table
        latched[c] = true
    }

    /// A table that is never read, for the slots of `BaselineScan.Slot` a progressive scan's
    /// kind leaves unused; built once per decode.
    func placeholderTable(at offset: Int) throws(DecodeError) -> HuffmanTable {
        if let placeholder { return placeholder }
        do {
            let table = try HuffmanTable(HuffmanTables.standardDC0)
            placeholder = table
            return table
        } catch {
            throw DecodeError(.malformed, format: .jpeg, offset: offset, error)
        }
    }

    func huffmanTable(_ index: Int, isDC: Bool, at offset: Int) throws(DecodeError) -> HuffmanTable {
        guard index < 4, let spec = isDC ? dcSpecs[index] : acSpecs[index] else {
            throw DecodeError(.malformed, format: .jpeg, offset: offset, JPEGError.missingHuffmanTable(index, isDC: isDC))
        }
        let slot = (isDC ? 0 : 4) + index
        if let built = derivedTables[slot] { return built }
        do {
            let table = try HuffmanTable(spec)
            derivedTables[slot] = table
            return table
        } catch {
            throw DecodeError(.malformed, format: .jpeg, offset: offset, error)
        }
    }
}
