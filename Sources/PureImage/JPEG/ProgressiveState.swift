/// What the scans of a progressive frame have delivered so far: libjpeg's `coef_bits`. For each
/// component and each of the 64 coefficients (zig-zag index), the Al of the last scan that
/// covered it, or −1 when none has (T.81 G.1.1.1: a refinement scan lowers Al by one, so 0
/// means "known to full precision"). The second half keeps the values from before each
/// component's latest scan (`prev_coef_bits` of libjpeg-turbo 2.1), which block smoothing uses
/// for rows the latest scan did not reach.
///
/// ```
///  bits: [ component 0: k = 0…63 | component 1 | … | previous, component 0 | previous, 1 | … ]
/// ```
struct ProgressiveState {
    private(set) var bits: [Int]
    let components: Int

    init(components: Int) {
        self.components = components
        bits = [Int](repeating: -1, count: 2 * components * 64)
    }

    /// Al of coefficient `k` (zig-zag) of component `c`; −1 if no scan has covered it.
    func al(component c: Int, coefficient k: Int) -> Int { bits[c * 64 + k] }

    /// T.81 G.1.1.1 scan rules, checked as jdphuff.c `start_pass_phuff_decoder` does: what it
    /// refuses is thrown (`JPEGError.badProgression`); an inconsistent sequence (an AC scan
    /// before the component's DC, or Ah not equal to the Al of the band's previous scan) is a
    /// warning, returned as (component, coefficient) pairs, and the scan is decoded anyway.
    /// `scanNumber` counts from 1 (libjpeg's `input_scan_number`).
    mutating func startScan(_ header: ScanHeader, scanNumber: Int) throws(JPEGError) -> [(Int, Int)] {
        let ss = header.ss, se = header.se, ah = header.ah, al = header.al
        var bad = false
        if ss == 0 {
            // "If Ss = 0, then Se shall be 0" (G.1.1.1.1).
            if se != 0 { bad = true }
        } else {
            // "Ss ≤ Se ≤ 63"; AC scans "shall contain only one component" (G.1.1.1.1).
            if ss > se || se > 63 { bad = true }
            if header.components.count != 1 { bad = true }
        }
        // Successive approximation: "Al shall be Ah − 1" in a refinement scan (G.1.1.1.2).
        if ah != 0 && al != ah - 1 { bad = true }
        // libjpeg's own limit (T.81 allows up to 13 for 8-bit data).
        if al > 13 { bad = true }
        if bad { throw .badProgression(ss: ss, se: se, ah: ah, al: al) }
        var problems: [(Int, Int)] = []
        for component in header.components {
            let c = component.frameIndex
            let current = c * 64, previous = (components + c) * 64
            if ss != 0 && bits[current] < 0 { problems.append((c, 0)) }
            for k in min(ss, 1)...max(se, 9) {
                bits[previous + k] = scanNumber > 1 ? bits[current + k] : 0
            }
            for k in ss...se {
                let expected = max(bits[current + k], 0)
                if ah != expected { problems.append((c, k)) }
                bits[current + k] = al
            }
        }
        return problems
    }

    /// jdcoefct.c `smoothing_ok` (libjpeg-turbo 2.1): block smoothing applies when every
    /// component has a latched quantization table whose DC and first nine AC multipliers are
    /// non-zero, every component's DC is at least partly known, and some component's
    /// coefficients 1…9 are not yet exact. Returns one `BlockSmoothing` per component, or nil.
    func smoothing(geometry: FrameGeometry, store: CoefficientStore, quantization: [[UInt16]?],
                   scanCount: Int, lastGoodIMCURow: Int) -> [BlockSmoothing]? {
        var useful = false
        var result: [BlockSmoothing] = []
        for c in 0..<components {
            guard c < quantization.count, let table = quantization[c], table.count == 64 else { return nil }
            let q = BlockSmoothing.positions.map { Int(table[$0]) }
            guard !q.contains(0), bits[c * 64] >= 0 else { return nil }
            var latch = [Int](repeating: 0, count: 10), previous = [Int](repeating: -1, count: 10)
            latch[0] = bits[c * 64]
            for k in 1..<10 {
                latch[k] = bits[c * 64 + k]
                if scanCount > 1 { previous[k] = bits[(components + c) * 64 + k] }
                if latch[k] != 0 { useful = true }
            }
            let g = geometry.components[c]
            result.append(BlockSmoothing(plane: store.planes[c], bits: latch, previousBits: previous, q: q, v: g.v,
                                         widthInBlocks: g.widthInBlocks, heightInBlocks: g.heightInBlocks,
                                         paddedHeightInBlocks: g.paddedHeightInBlocks,
                                         iMCURows: geometry.mcuRows, lastGoodIMCURow: lastGoodIMCURow))
        }
        return useful ? result : nil
    }
}
