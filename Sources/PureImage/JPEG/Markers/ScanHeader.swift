/// T.81 §B.2.3 — Scan header syntax (SOS).
///
/// ```
///  Ls(16) Ns(8) { Cs_j(8) Td_j(4) Ta_j(4) } × Ns  Ss(8) Se(8) Ah(4) Al(4)
/// ```
struct ScanHeader: Equatable {
    struct Component: Equatable {
        /// Index into `FrameHeader.components`.
        let frameIndex: Int
        /// Td_j, Ta_j: 0…15 as stored; tables beyond 3 fail when the scan starts.
        let dcTable: Int
        let acTable: Int
    }

    let components: [Component]
    let ss: Int
    let se: Int
    let ah: Int
    let al: Int

    /// Parses and checks as libjpeg-turbo's `get_sos`: Ls = 6 + 2 × Ns with 1 ≤ Ns ≤ 4, and
    /// each Cs_j matched to the first frame component with that id not already in the scan
    /// (only the first four frame components can match). B.2.3: "Cs_j shall be … different
    /// from the other selectors".
    init(parsing segment: JPEGSegment, frame: FrameHeader) throws(DecodeError) {
        guard segment.body.count >= 1 else {
            throw segment.malformed(.badSegmentLength(marker: segment.marker, length: segment.declaredLength))
        }
        let count = segment.byte(0)
        guard segment.declaredLength == count * 2 + 6, count >= 1, count <= 4, segment.body.count >= 4 + count * 2 else {
            throw segment.malformed(.badSegmentLength(marker: segment.marker, length: segment.declaredLength))
        }
        var taken = [Bool](repeating: false, count: 4)
        var components: [Component] = []
        for index in 0..<count {
            let id = UInt8(segment.byte(1 + index * 2))
            let tables = segment.byte(2 + index * 2)
            var found: Int?
            for candidate in 0..<min(frame.components.count, 4) where frame.components[candidate].id == id && !taken[candidate] {
                found = candidate
                break
            }
            guard let frameIndex = found else {
                throw segment.malformed(.badScanComponent(id: id), at: 1 + index * 2)
            }
            // libjpeg-turbo marks slot `index` (not `frameIndex`) as taken; matching it keeps
            // duplicate-id files decoding the same way.
            taken[index] = true
            if components.contains(where: { $0.frameIndex == frameIndex }) {
                throw segment.malformed(.badScanComponent(id: id), at: 1 + index * 2)
            }
            components.append(Component(frameIndex: frameIndex, dcTable: tables >> 4, acTable: tables & 15))
        }
        self.components = components
        let at = 1 + count * 2
        ss = segment.byte(at)
        se = segment.byte(at + 1)
        ah = segment.byte(at + 2) >> 4
        al = segment.byte(at + 2) & 15
    }
}
