/// RFC 6386 — a VP8 key frame, decoded one macroblock row at a time into a window of the Y, U
/// and V planes (`VP8PlaneWindow`), which the codec converts to RGBA as rows become final.
///
/// ```
///   per macroblock row:  modes (first partition, §11) ─► residuals (token partition
///   row mod count, §13) ─► rebuild (§12, §14) ─► loop filter (§15)
/// ```
/// The whole first partition is present before the first row (the codec waits for it). A row's
/// residuals may run out of bytes while the input is still open: the row's decoding state
/// (the two bool decoders and the contexts) is saved before it and restored, and the row is
/// decoded again when more bytes are there. Nothing reaches the planes until a row's data is
/// complete.
///
/// A partition read past its end (libwebp: "Premature end-of-partition0 / end-of-file
/// encountered", `VP8_STATUS_NOT_ENOUGH_DATA`) ends the frame at the row before.
final class VP8Decoder {
    enum RowResult: Equatable {
        case decoded
        case needMoreInput
        /// The data ended (a partition read past its end, or the input closed inside it).
        case endedEarly
    }

    let frame: VP8FrameHeader
    let parameters: VP8FrameParameters
    let mbWidth: Int
    let mbHeight: Int
    /// The last macroblock row rebuilt and filtered, and the rows above it still needed.
    private(set) var planes: VP8PlaneWindow
    /// Macroblock rows rebuilt and filtered.
    private(set) var rowsDone = 0

    private var parser: VP8MacroblockRowParser
    private var topY: [UInt8]
    private var topU: [UInt8]
    private var topV: [UInt8]
    private var reconstruction = VP8ReconstructionKernels()
    /// The last row that ran out of bytes: its partition's position at the row start and the
    /// bytes there were. Retried once the bytes since then have doubled (or the partition or
    /// the input is complete), so data arriving in tiny pieces costs O(n log n), not O(n²).
    private var stall: (row: Int, start: Int, available: Int)?

    /// `modesDecoder` is partition 0's bool decoder positioned after the frame header.
    init(frame: VP8FrameHeader, parameters: VP8FrameParameters, modesDecoder: VP8BoolDecoder) {
        self.frame = frame
        self.parameters = parameters
        mbWidth = (frame.width + 15) >> 4
        mbHeight = (frame.height + 15) >> 4
        planes = VP8PlaneWindow(mbWidth: mbWidth)
        parser = VP8MacroblockRowParser(parameters: parameters, mbWidth: mbWidth, modesDecoder: modesDecoder)
        topY = [UInt8](repeating: 0, count: mbWidth * 16)
        topU = [UInt8](repeating: 0, count: mbWidth * 8)
        topV = topU
    }

    /// Decodes the next macroblock row from `data` (the chunk payload received so far).
    func decodeRow(_ data: [UInt8], isComplete: Bool) -> RowResult {
        guard rowsDone < mbHeight else { return .decoded }
        let partition = rowsDone & (parameters.partitions.count - 1)
        if !isComplete, let stall, stall.row == rowsDone, data.count < parameters.partitions[partition].upperBound,
           data.count - stall.start < 2 * (stall.available - stall.start) + 64 {
            return .needMoreInput
        }
        let saved = isComplete ? nil : parser.state
        let outcome = data.withUnsafeBufferPointer { parser.parse($0, partition: partition) }
        switch outcome {
        case .parsed: break
        case .pastEnd: return .endedEarly
        case .starved:
            guard let saved else { return .endedEarly }
            parser.state = saved
            stall = (rowsDone, parser.tokenPosition(partition), data.count)
            return .needMoreInput
        }
        if rowsDone > 0 { planes.advance() }
        reconstruction.reconstructRow(rowsDone, mbWidth: mbWidth, modes: parser.modes, residuals: &parser.residuals,
                                      topY: &topY, topU: &topU, topV: &topV, into: &planes)
        VP8LoopFilter.filterRow(rowsDone, filterType: parameters.filterType, filters: parser.filters, mbWidth: mbWidth,
                                planes: &planes)
        rowsDone += 1
        return .decoded
    }

    /// Luma rows (of the cropped image) that no later filtering will change, after `rowsDone`
    /// macroblock rows: the next row's top-edge filter reaches 3 rows up (normal filter) or 1
    /// (simple).
    var finishedLumaRows: Int {
        if rowsDone >= mbHeight { return frame.height }
        let reach = parameters.filterType == 2 ? 3 : parameters.filterType == 1 ? 1 : 0
        return min(frame.height, max(0, rowsDone * 16 - reach))
    }

    /// The same for chroma rows (the simple filter leaves chroma alone).
    var finishedChromaRows: Int {
        let height = (frame.height + 1) >> 1
        if rowsDone >= mbHeight { return height }
        let reach = parameters.filterType == 2 ? 3 : 0
        return min(height, max(0, rowsDone * 8 - reach))
    }
}
