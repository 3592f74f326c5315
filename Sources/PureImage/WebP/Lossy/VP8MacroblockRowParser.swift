/// RFC 6386 §19.3 — one macroblock row's data: the modes of every macroblock from the first
/// partition (§11), then their residuals from the row's token partition (§13), and what the
/// loop filter needs to know of each.
///
/// What a row's parse carries over to the next row is `state`, so `VP8Decoder` can save it before
/// a row whose bytes may not all be there and put it back when they are not (the row's outputs
/// are simply parsed again). It is a struct for speed too: the decoder reaches it with one
/// access per row, not one per macroblock.
struct VP8MacroblockRowParser {
    /// The decoders' positions and the contexts that run from row to row.
    struct State {
        var modesDecoder: VP8BoolDecoder
        var tokenDecoders: [VP8BoolDecoder]
        var subblockModesAbove: [UInt8]
        var context: VP8NonZeroContext
    }

    enum Outcome: Equatable {
        case parsed
        /// A token partition's bytes have not all arrived.
        case starved
        /// A partition was read past its end.
        case pastEnd
    }

    let parameters: VP8FrameParameters
    let mbWidth: Int
    var state: State
    /// The row's macroblocks, valid after `parse` returned `.parsed`.
    private(set) var modes: [VP8MacroblockModes]
    var residuals: [VP8Residual]
    private(set) var filters: [VP8LoopFilter.MacroblockFilter]

    init(parameters: VP8FrameParameters, mbWidth: Int, modesDecoder: VP8BoolDecoder) {
        self.parameters = parameters
        self.mbWidth = mbWidth
        state = State(modesDecoder: modesDecoder,
                      tokenDecoders: parameters.partitions.map { VP8BoolDecoder(start: $0.lowerBound, end: $0.upperBound) },
                      subblockModesAbove: [UInt8](repeating: VP8MacroblockModes.bDC, count: mbWidth * 4),
                      context: VP8NonZeroContext(macroblockColumns: mbWidth))
        modes = [VP8MacroblockModes](repeating: VP8MacroblockModes(), count: mbWidth)
        residuals = [VP8Residual](repeating: VP8Residual(), count: mbWidth)
        filters = [VP8LoopFilter.MacroblockFilter](repeating: .init(strength: VP8FilterStrength(), filtersInnerEdges: false), count: mbWidth)
    }

    /// Parses the next macroblock row, whose residuals are in token partition `partition`,
    /// from `data` (the chunk payload received so far).
    mutating func parse(_ data: UnsafeBufferPointer<UInt8>, partition: Int) -> Outcome {
        // §11.3: the left subblock-mode context starts as B_DC_PRED on every row.
        var left: [UInt8] = [0, 0, 0, 0]
        for x in 0..<mbWidth {
            VP8MacroblockModes.read(&state.modesDecoder, data, parameters: parameters, into: &modes[x],
                                    above: &state.subblockModesAbove, aboveStart: x * 4, left: &left)
        }
        if state.modesDecoder.isPastEnd || state.modesDecoder.isStarved { return .pastEnd }
        state.context.startRow()
        var tokens = state.tokenDecoders[partition]
        defer { state.tokenDecoders[partition] = tokens }
        for x in 0..<mbWidth {
            let m = modes[x]
            let hasY2 = !m.hasSubblockModes
            if m.skipsCoefficients {
                VP8ResidualKernels.skip(hasY2: hasY2, column: x, context: &state.context, into: &residuals[x])
            } else {
                VP8ResidualKernels.read(&tokens, data, probabilities: parameters.tokenProbabilities,
                                        dequantizer: parameters.dequantizers[m.segment], hasY2: hasY2,
                                        column: x, context: &state.context, into: &residuals[x])
            }
            if tokens.isStarved { return .starved }
            if tokens.isPastEnd { return .pastEnd }
            let strength = parameters.filterStrengths[m.segment * 2 + (m.hasSubblockModes ? 1 : 0)]
            filters[x] = .init(strength: strength, filtersInnerEdges: m.hasSubblockModes || !residuals[x].isEmpty)
        }
        return .parsed
    }

    /// The position in token partition `partition` where its next row starts.
    func tokenPosition(_ partition: Int) -> Int { state.tokenDecoders[partition].next }
}
