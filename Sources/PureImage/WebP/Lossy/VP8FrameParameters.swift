/// RFC 6386 §9.3 — segment-based adjustments.
struct VP8Segmentation {
    var enabled = false
    var updateMap = false
    /// §19.2 (§9.3 swaps the two): `segment_feature_mode` 1 = absolute values, 0 = deltas from
    /// the frame's values.
    var absoluteValues = true
    var quantizer = [0, 0, 0, 0]
    var filterLevel = [0, 0, 0, 0]
    /// `mb_segment_tree_probs` (255 when not updated).
    var treeProbabilities = [255, 255, 255]
}

/// RFC 6386 §9.4 — loop filter type and levels.
struct VP8LoopFilterHeader {
    var simple = false
    var level = 0
    var sharpness = 0
    var useDeltas = false
    /// `ref_frame` deltas (key frames use entry 0, intra) and `mb_mode` deltas (entry 0, B_PRED).
    var referenceDeltas = [0, 0, 0, 0]
    var modeDeltas = [0, 0, 0, 0]
}

/// RFC 6386 §14.1 — the six dequantization factors of one segment.
struct VP8Dequantizer {
    var y1: (dc: Int, ac: Int)
    var y2: (dc: Int, ac: Int)
    var uv: (dc: Int, ac: Int)
}

/// RFC 6386 §15.2–§15.4 — the loop filter parameters of one (segment, B_PRED or not) pair.
struct VP8FilterStrength {
    /// 2 × level + interior limit (the sub-block edge limit; macroblock edges add 4); 0 = off.
    var limit = 0
    var interiorLimit = 0
    var hevThreshold = 0
    /// Filter the inner (sub-block) edges even when the macroblock has no coefficients.
    var filtersInnerEdges = false
}

/// Everything the frame header (the start of the first partition) says, RFC 6386 §9.2–§9.11,
/// §19.2, in the order libwebp reads it (`VP8GetHeaders`).
struct VP8FrameParameters {
    var segmentation = VP8Segmentation()
    var filter = VP8LoopFilterHeader()
    /// Token partitions as payload byte ranges (§9.5).
    var partitions: [Range<Int>] = []
    var dequantizers: [VP8Dequantizer] = []
    /// `coeff_probs[4][8][3][11]` after the frame's updates (§13.4).
    var tokenProbabilities = VP8ProbabilityTables.defaultTokenProbabilities
    /// `prob_skip_false` when `mb_no_coeff_skip` is 1 (§9.11).
    var skipProbability: Int?
    /// 0 none (level 0), 1 simple, 2 normal.
    var filterType = 0
    /// Indexed `segment × 2 + (B_PRED ? 1 : 0)`.
    var filterStrengths = [VP8FilterStrength](repeating: VP8FilterStrength(), count: 8)

    /// Reads the frame header from partition 0 (`decoder`, over `data`, which is `bytes`), and
    /// the partition sizes that follow partition 0 in the payload. `tokenStart` is where the
    /// partition-size table starts, `chunkSize` the VP8 chunk's payload size. Nil when the
    /// partition-size table has not arrived yet (the caller waits and reads again).
    static func read(_ decoder: inout VP8BoolDecoder, data: UnsafeBufferPointer<UInt8>, bytes: [UInt8],
                     tokenStart: Int, chunkSize: Int) throws(WebPCodecFailure) -> VP8FrameParameters? {
        var p = VP8FrameParameters()
        // §9.2: color_space and clamping_type (libwebp ignores both and always clamps).
        _ = decoder.readBool(128, data)
        _ = decoder.readBool(128, data)

        // §9.3 segmentation.
        p.segmentation.enabled = decoder.readBool(128, data)
        if p.segmentation.enabled {
            p.segmentation.updateMap = decoder.readBool(128, data)
            if decoder.readBool(128, data) {   // update_segment_feature_data
                p.segmentation.absoluteValues = decoder.readBool(128, data)
                for s in 0..<4 { p.segmentation.quantizer[s] = decoder.readOptionalSigned(7, data) }
                for s in 0..<4 { p.segmentation.filterLevel[s] = decoder.readOptionalSigned(6, data) }
            }
            if p.segmentation.updateMap {
                for i in 0..<3 { p.segmentation.treeProbabilities[i] = decoder.readBool(128, data) ? decoder.readLiteral(8, data) : 255 }
            }
        }
        if decoder.isPastEnd { throw WebPCodecFailure(reason: .truncated(inside: "the VP8 segment header"), payloadOffset: decoder.end) }

        // §9.4 loop filter.
        p.filter.simple = decoder.readBool(128, data)
        p.filter.level = decoder.readLiteral(6, data)
        p.filter.sharpness = decoder.readLiteral(3, data)
        p.filter.useDeltas = decoder.readBool(128, data)
        if p.filter.useDeltas && decoder.readBool(128, data) {   // mode_ref_lf_delta_update
            for i in 0..<4 where decoder.readBool(128, data) { p.filter.referenceDeltas[i] = decoder.readSignedLiteral(6, data) }
            for i in 0..<4 where decoder.readBool(128, data) { p.filter.modeDeltas[i] = decoder.readSignedLiteral(6, data) }
        }
        // libwebp: no filtering at all when the frame's level is 0, whatever the segments say.
        p.filterType = p.filter.level == 0 ? 0 : p.filter.simple ? 1 : 2
        if decoder.isPastEnd { throw WebPCodecFailure(reason: .truncated(inside: "the VP8 loop filter header"), payloadOffset: decoder.end) }

        // §9.5 token partitions: 2^L(2) of them; all but the last have 3-byte sizes.
        let count = 1 << decoder.readLiteral(2, data)
        let tableSize = 3 * (count - 1)
        guard chunkSize - tokenStart >= tableSize else { throw WebPCodecFailure(reason: .vp8Partitions, payloadOffset: tokenStart) }
        guard bytes.count >= tokenStart + tableSize else { return nil }
        var start = tokenStart + tableSize
        var left = chunkSize - start
        for i in 0..<(count - 1) {
            // A size past the chunk is cut to what is left, as libwebp does.
            let at = tokenStart + 3 * i
            let size = min(WebPChunks.le24(bytes, at), left)
            p.partitions.append(start ..< start + size)
            start += size
            left -= size
        }
        // libwebp ("cannot parse partitions"): the last partition must not be empty.
        guard start < chunkSize else { throw WebPCodecFailure(reason: .vp8Partitions, payloadOffset: tokenStart) }
        p.partitions.append(start ..< chunkSize)

        // §9.6 dequantization indices.
        let base = decoder.readLiteral(7, data)
        let y1DC = decoder.readOptionalSigned(4, data)
        let y2DC = decoder.readOptionalSigned(4, data)
        let y2AC = decoder.readOptionalSigned(4, data)
        let uvDC = decoder.readOptionalSigned(4, data)
        let uvAC = decoder.readOptionalSigned(4, data)
        for s in 0..<4 {
            var q = base
            if p.segmentation.enabled {
                q = p.segmentation.quantizer[s] + (p.segmentation.absoluteValues ? 0 : base)
            }
            p.dequantizers.append(dequantizer(q, y1DC: y1DC, y2DC: y2DC, y2AC: y2AC, uvDC: uvDC, uvAC: uvAC))
        }

        // §9.7–§9.8 do not apply to key frames; §19.2 refresh_entropy_probs (ignored).
        _ = decoder.readBool(128, data)

        // §13.4 token probability updates.
        let update = VP8ProbabilityTables.tokenUpdateProbabilities
        for i in 0..<p.tokenProbabilities.count where decoder.readBool(Int(update[i]), data) {
            p.tokenProbabilities[i] = UInt8(decoder.readLiteral(8, data))
        }
        // §9.11 mb_no_coeff_skip, prob_skip_false.
        if decoder.readBool(128, data) { p.skipProbability = decoder.readLiteral(8, data) }
        p.filterStrengths = filterStrengths(p)
        return p
    }

    /// §14.1 (and the reference decoder's dixie.c): table lookups with the index clamped to
    /// 0…127; Y2 DC doubled, Y2 AC × 155 / 100 but at least 8, UV DC at most 132.
    private static func dequantizer(_ q: Int, y1DC: Int, y2DC: Int, y2AC: Int, uvDC: Int, uvAC: Int) -> VP8Dequantizer {
        func clamp(_ v: Int, _ high: Int = 127) -> Int { v < 0 ? 0 : v > high ? high : v }
        let dc = VP8ProbabilityTables.dcQuantizer, ac = VP8ProbabilityTables.acQuantizer
        let y2ACValue = max(8, ac[clamp(q + y2AC)] * 155 / 100)
        return VP8Dequantizer(y1: (dc[clamp(q + y1DC)], ac[clamp(q)]),
                              y2: (dc[clamp(q + y2DC)] * 2, y2ACValue),
                              // dc_qlookup[117] = 132: libwebp clamps the index to 117 for chroma DC.
                              uv: (dc[clamp(q + uvDC, 117)], ac[clamp(q + uvAC)]))
    }

    /// §15.4 / §9.3 / §9.4 — filter level per segment and mode, interior limit (sharpness) and
    /// high-edge-variance threshold (key frame values).
    private static func filterStrengths(_ p: VP8FrameParameters) -> [VP8FilterStrength] {
        var strengths = [VP8FilterStrength](repeating: VP8FilterStrength(), count: 8)
        guard p.filterType > 0 else { return strengths }
        for segment in 0..<4 {
            var base = p.filter.level
            if p.segmentation.enabled {
                base = p.segmentation.filterLevel[segment] + (p.segmentation.absoluteValues ? 0 : p.filter.level)
            }
            for bPred in 0...1 {
                var level = base
                if p.filter.useDeltas {
                    level += p.filter.referenceDeltas[0]            // intra frame
                    if bPred == 1 { level += p.filter.modeDeltas[0] }  // B_PRED
                }
                level = min(63, max(0, level))
                var strength = VP8FilterStrength()
                strength.filtersInnerEdges = bPred == 1
                if level > 0 {
                    var interior = level
                    if p.filter.sharpness > 0 {
                        interior >>= p.filter.sharpness > 4 ? 2 : 1
                        interior = min(interior, 9 - p.filter.sharpness)
                    }
                    interior = max(interior, 1)
                    strength.interiorLimit = interior
                    strength.limit = 2 * level + interior
                    strength.hevThreshold = level >= 40 ? 2 : level >= 15 ? 1 : 0
                }
                strengths[segment * 2 + bPred] = strength
            }
        }
        return strengths
    }
}
