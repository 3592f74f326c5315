/// RFC 6386 §11 — a key frame macroblock's prediction record, read from the first partition.
///
/// Mode numbers are the RFC's: 16×16 and chroma modes `DC_PRED` 0, `V_PRED` 1, `H_PRED` 2,
/// `TM_PRED` 3; subblock modes `B_DC_PRED` 0, `B_TM_PRED` 1, `B_VE_PRED` 2, `B_HE_PRED` 3,
/// `B_LD_PRED` 4, `B_RD_PRED` 5, `B_VR_PRED` 6, `B_VL_PRED` 7, `B_HD_PRED` 8, `B_HU_PRED` 9.
struct VP8MacroblockModes {
    static let dc = 0, vertical = 1, horizontal = 2, trueMotion = 3
    static let bDC: UInt8 = 0, bTM: UInt8 = 1, bVE: UInt8 = 2, bHE: UInt8 = 3, bLD: UInt8 = 4
    static let bRD: UInt8 = 5, bVR: UInt8 = 6, bVL: UInt8 = 7, bHD: UInt8 = 8, bHU: UInt8 = 9

    var segment = 0
    /// `mb_skip_coeff` (§11.1): no residual data follows.
    var skipsCoefficients = false
    /// `B_PRED`: each 4×4 luma subblock has its own mode.
    var hasSubblockModes = false
    var lumaMode = 0
    var subblockModes = [UInt8](repeating: 0, count: 16)
    var chromaMode = 0

    /// §11.3 item 4: the subblock mode a 16×16 mode stands for in the contexts of later
    /// subblocks (DC → B_DC, V → B_VE, H → B_HE, TM → B_TM).
    static let contextMode: [UInt8] = [bDC, bVE, bHE, bTM]

    /// Reads one macroblock's record into `m` (reused, so no allocation per macroblock).
    /// `above[aboveStart ..< aboveStart + 4]` holds the subblock modes of the subblocks above
    /// this macroblock, `left` those to its left; both are updated.
    static func read(_ d: inout VP8BoolDecoder, _ data: UnsafeBufferPointer<UInt8>, parameters: VP8FrameParameters,
                     into m: inout VP8MacroblockModes, above: inout [UInt8], aboveStart: Int, left: inout [UInt8]) {
        m.segment = 0
        m.skipsCoefficients = false
        m.lumaMode = dc
        let segmentation = parameters.segmentation
        // §10: segment_id through mb_segment_tree when the map is updated (else 0 on key frames,
        // as libwebp does).
        if segmentation.updateMap {
            let p = segmentation.treeProbabilities
            m.segment = !d.readBool(p[0], data) ? (d.readBool(p[1], data) ? 1 : 0) : (d.readBool(p[2], data) ? 3 : 2)
        }
        if let skip = parameters.skipProbability { m.skipsCoefficients = d.readBool(skip, data) }

        // §11.2 kf_ymode_tree with kf_ymode_prob {145, 156, 163, 128}.
        m.hasSubblockModes = !d.readBool(145, data)
        if !m.hasSubblockModes {
            if d.readBool(156, data) {
                m.lumaMode = d.readBool(128, data) ? trueMotion : horizontal
            } else {
                m.lumaMode = d.readBool(163, data) ? vertical : dc
            }
            let context = contextMode[m.lumaMode]
            for i in 0..<4 {
                above[aboveStart + i] = context
                left[i] = context
            }
        } else {
            // §11.3: each subblock's mode with kf_bmode_prob[above][left].
            for y in 0..<4 {
                var leftMode = left[y]
                for x in 0..<4 {
                    let probabilities = VP8ProbabilityTables.subblockModeProbabilities(
                        above: Int(above[aboveStart + x]), left: Int(leftMode))
                    let mode = readSubblockMode(&d, data, probabilities)
                    m.subblockModes[y * 4 + x] = mode
                    above[aboveStart + x] = mode
                    leftMode = mode
                }
                left[y] = leftMode
            }
        }
        // §11.4 uv_mode_tree with kf_uv_mode_prob {142, 114, 183}.
        if !d.readBool(142, data) {
            m.chromaMode = dc
        } else if !d.readBool(114, data) {
            m.chromaMode = vertical
        } else {
            m.chromaMode = d.readBool(183, data) ? trueMotion : horizontal
        }
    }

    /// §11.2 bmode_tree:
    /// ```
    ///   0 DC | 10 TM | 110 VE | 11100 HE | 111010 RD | 111011 VR
    ///   111110 LD | 1111110 VL | 11111110 HD | 11111111 HU
    /// ```
    /// (probability index = tree node / 2).
    private static func readSubblockMode(_ d: inout VP8BoolDecoder, _ data: UnsafeBufferPointer<UInt8>,
                                         _ p: ArraySlice<UInt8>) -> UInt8 {
        let b = p.startIndex
        if !d.readBool(Int(p[b]), data) { return bDC }
        if !d.readBool(Int(p[b + 1]), data) { return bTM }
        if !d.readBool(Int(p[b + 2]), data) { return bVE }
        if !d.readBool(Int(p[b + 3]), data) {
            if !d.readBool(Int(p[b + 4]), data) { return bHE }
            return d.readBool(Int(p[b + 5]), data) ? bVR : bRD
        }
        if !d.readBool(Int(p[b + 6]), data) { return bLD }
        if !d.readBool(Int(p[b + 7]), data) { return bVL }
        return d.readBool(Int(p[b + 8]), data) ? bHU : bHD
    }
}
