/// Frame 0 of a GIF decoded while its image data arrives, for the streaming decode
/// (`GIFDecoder.rowSink`: `decodeRows`, the downscaler): each data sub-block goes to the LZW
/// decoder as it is read (the code stream is never stored), and the canvas rows are handed out
/// in bands as soon as the frame's rows under them are decoded.
///
/// A non-interlaced frame is decoded into a window of its indices (one byte a pixel) that
/// slides down the frame (`LZWDecoder.slide`): it holds the rows not handed out yet and the
/// dictionary strings that still point before them — about a megabyte for a frame of any
/// height. An interlaced frame's rows arrive out of order (GIF89a Appendix E), so its indices
/// are held whole and drawn at the end, as the one-shot decode draws them.
///
/// The bands are canvas rows in bands of about 256 KB of RGBA, the first `decoded` stored pixels
/// drawn over the transparent canvas (a frame of no pixels leaves the canvas transparent).
struct GIFFirstFrameStream {
    let frame: GIFFrame
    let canvasWidth: Int
    let canvasHeight: Int
    let table: GIFRenderTable
    let bandRows: Int
    private var lzw: LZWDecoder
    /// The indices held: the pinned dictionary strings (`..< liveStart`), then the frame's
    /// stored pixels from `liveStartPixel` on.
    private var window: [UInt8]
    private var liveStart = 0
    private var liveStartPixel = 0
    /// Canvas rows handed out so far.
    private(set) var deliveredRows = 0
    /// Why the LZW decode ended (nil while it waits for more codes).
    private(set) var stop: LZWDecoder.Stop?

    /// Room after the pause position: the longest string a code can give (under 4 096 bytes)
    /// and the kernel's 8-byte store, so that no string is cut at the window's end.
    static let margin = LZWDecoder.tableSize + 8
    /// The window of a non-interlaced frame, at least: a megabyte.
    static let windowBytes = 1 << 20

    /// Reserves the indices it holds in `budget` (the whole frame's when interlaced or small).
    /// `windowBytes` and `bandPixels` (canvas pixels a band, about 256 KB of RGBA) are smaller in
    /// tests, so that small files slide their window too.
    init(frame: GIFFrame, canvasWidth: Int, canvasHeight: Int, table: GIFRenderTable, budget: MemoryBudget,
         windowBytes: Int = Self.windowBytes, bandPixels: Int = 1 << 16) throws(DecodeError) {
        self.frame = frame
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.table = table
        bandRows = max(1, min(canvasHeight, bandPixels / max(1, canvasWidth)))
        lzw = LZWDecoder(variant: .gif, minimumCodeSize: frame.minimumCodeSize)
        let total = frame.pixelCount
        let streamed = max(windowBytes, Self.room(frame.descriptor, bandRows: bandRows))
        let size = frame.descriptor.interlaced || total <= streamed ? total : streamed
        try budget.reserve(size, format: .gif, offset: nil)
        window = [UInt8](repeating: 0, count: size)
    }

    /// The room a slide leaves after the kept bytes: the frame rows of a band and a partial row
    /// (never more than the frame), and the margin twice, so that decoding goes on after every
    /// slide. (Width × height is within the pixel limit, checked at the descriptor, and a band is
    /// at most 65 536 rows: no product overflows.)
    private static func room(_ d: GIFImageDescriptor, bandRows: Int) -> Int {
        min(d.width * d.height, (min(bandRows, d.height) + 1) * d.width) + 2 * margin
    }

    /// Stored pixels decoded so far.
    var decoded: Int { liveStartPixel + lzw.written - liveStart }

    /// Decodes `codes` (the next bytes of the frame's code stream), handing out every band whose
    /// rows are then complete. Bytes after the decode ended are ignored, as the one-shot decode
    /// ignores data after the last pixel.
    mutating func feed(_ codes: ArraySlice<UInt8>, budget: MemoryBudget, _ sink: (Bitmap) -> Void) throws(DecodeError) {
        guard stop == nil, frame.pixelCount > 0 else { return }
        var taken = 0
        while stop == nil {
            // Buffer index one past the frame's last pixel; the decode pauses a margin before the
            // window's end when the frame goes on past it.
            let frameEnd = frame.pixelCount - liveStartPixel + liveStart
            let capacity = min(window.count, frameEnd)
            let pauseAt = frameEnd <= window.count ? capacity : window.count - Self.margin
            let result = codes.withUnsafeBytes { bytes in
                window.withUnsafeMutableBufferPointer { out in
                    lzw.decode(UnsafeRawBufferPointer(rebasing: bytes[min(taken, bytes.count)...]),
                               into: UnsafeMutableBufferPointer(rebasing: out[0 ..< capacity]), pausingAt: pauseAt)
                }
            }
            taken += result.consumed
            switch result.stop {
            case .needMoreInput:
                deliverCompleteBands(sink)
                return
            case .paused:
                deliverCompleteBands(sink)
                try slide(budget: budget)
            case .outputFull, .endCode, .invalidCode:
                stop = result.stop
            }
        }
    }

    /// The frame's data has ended (its terminator, the end of a truncated file, or the end of the
    /// stream): every band still owed is handed out, with the pixels never decoded transparent.
    /// Returns the LZW problem the one-shot decode reports (`GIFFrameKernel.decodeIndices`).
    mutating func finish(isComplete: Bool, number: Int, _ sink: (Bitmap) -> Void) -> GIFError? {
        deliverBands(upTo: canvasHeight, sink)
        let total = frame.pixelCount
        guard total > 0 else { return nil }
        switch stop {
        case nil, .needMoreInput?, .paused?: return isComplete ? .dataEndedEarly(frame: number, pixelsMissing: total - decoded) : nil
        case .outputFull?: return nil
        case .endCode?: return .earlyEndCode(frame: number, pixelsMissing: total - decoded)
        case .invalidCode(let code)?: return .invalidCode(code: code, frame: number)
        }
    }

    /// Hands out the bands whose frame rows are all decoded (none for an interlaced frame before
    /// the end: any of its rows may still change).
    private mutating func deliverCompleteBands(_ sink: (Bitmap) -> Void) {
        guard !frame.descriptor.interlaced else { return }
        let d = frame.descriptor
        var end = deliveredRows
        while end < canvasHeight {
            let bandEnd = min(canvasHeight, end + bandRows)
            // Stored rows 0 ..< needed lie under this band and the ones before it.
            let needed = min(bandEnd, d.top + d.height) - d.top
            if needed > 0 && needed * d.width > decoded { break }
            end = bandEnd
        }
        deliverBands(upTo: end, sink)
    }

    private mutating func deliverBands(upTo end: Int, _ sink: (Bitmap) -> Void) {
        while deliveredRows < end {
            let rows = min(bandRows, canvasHeight - deliveredRows)
            var band = [UInt8](repeating: 0, count: canvasWidth * rows * 4)
            GIFFrameKernel.draw(frame, indices: window, indexBase: liveStartPixel - liveStart, decoded: decoded, table: table,
                                canvas: &band, canvasWidth: canvasWidth, canvasHeight: canvasHeight,
                                bandTop: deliveredRows, bandRows: rows)
            sink(Bitmap(uncheckedWidth: canvasWidth, height: rows, format: .rgba8, bytesPerRow: canvasWidth * 4, bytes: band))
            deliveredRows += rows
        }
    }

    /// Drops the rows handed out (the dictionary's strings among them are kept); the window grows,
    /// within the budget, when what stays leaves too little room.
    private mutating func slide(budget: MemoryBudget) throws(DecodeError) {
        let d = frame.descriptor
        // The first stored pixel a band still needs (none once every canvas row is out: the
        // rest of a frame that reaches below the canvas is decoded and dropped).
        let firstOwed = deliveredRows >= canvasHeight ? decoded : min(max(0, deliveredRows - d.top), d.height) * d.width
        let cut = liveStart + max(0, min(firstOwed, decoded) - liveStartPixel)
        // At least as much room as is kept: a table kept full of long strings pins up to ~16 MB
        // (4 093 strings of up to 4 095 bytes), and a slide copies what it keeps, so sliding
        // only every `room` bytes would copy that again and again; with room ≥ kept the copying
        // is at most the output once more.
        let plan = lzw.planSlide(droppingBefore: cut)
        let room = max(Self.room(d, bandRows: bandRows), plan.keptBytes)
        let grown = max(window.count, plan.keptBytes + room)
        if grown > window.count { try budget.reserve(grown - window.count, format: .gif, offset: nil) }
        let (made, pinned) = lzw.slide(&window, as: plan, room: room)
        liveStartPixel += made - liveStart
        liveStart = pinned
    }
}

/// The window and band a streamed GIF frame is decoded in (`DecodeOptions.gifStreamSizes`).
struct GIFStreamSizes: Hashable, Sendable {
    /// Indices held for a non-interlaced frame, at least (more when a band of its rows needs it).
    var windowBytes = GIFFirstFrameStream.windowBytes
    /// Canvas pixels a band holds (at least one row): about 256 KB of RGBA.
    var bandPixels = 1 << 16
}
