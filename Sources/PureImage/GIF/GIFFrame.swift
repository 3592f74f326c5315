/// One image of a GIF (GIF89a §20–§22) as the decoder keeps it: its descriptor, colour
/// table, graphic control, and its compressed data with the sub-block framing removed.
///
/// Frames keep only their LZW code stream (never decoded pixels), so memory stays below the
/// input size plus one canvas; pixels are decoded when a frame is drawn (`GIFFrameKernel`).
struct GIFFrame: Sendable {
    var descriptor: GIFImageDescriptor
    var localTable: GIFColorTable?
    /// The first Graphic Control Extension since the previous image (giflib's
    /// `DGifSavedExtensionToGCB`), nil when there was none (or its sub-block was not 4 bytes).
    var control: GIFGraphicControl?
    /// 0...11 (validated when read).
    var minimumCodeSize: Int
    /// The frame's code stream: a range of `GIFDecoder.codeStreams`.
    var codes: Range<Int>
    /// Offset of the LZW minimum code size byte.
    var dataOffset: Int
    /// False while the data sub-blocks are still arriving, and for the frame a truncated file
    /// ends in.
    var isComplete: Bool

    var pixelCount: Int { descriptor.width * descriptor.height }
}

/// Public facts about one frame, for tests, `pureimage info` and conformance.
struct GIFFrameInfo: Hashable, Sendable {
    var left: Int
    var top: Int
    var width: Int
    var height: Int
    var interlaced: Bool
    /// Disposal 0...7 as stored (0 without a GCE).
    var disposalValue: Int
    var transparentIndex: Int?
    /// Hundredths of a second as stored (0 without a GCE).
    var delayCentiseconds: Int
    /// Entries in the active colour table (local, else global; 0 when neither exists).
    var paletteCount: Int
    var isComplete: Bool
}

/// The active colour table of a frame as 256 packed R, G, B, A words (little-endian memory
/// order R, G, B, A), padded with opaque black, plus the transparent index.
struct GIFRenderTable {
    var words: [UInt32]
    /// 0...255, or -1 (no transparency; an index byte never equals it).
    var transparent: Int

    init(table: GIFColorTable?, transparentIndex: Int?) {
        let rgba = table?.paddedRGBA() ?? GIFColorTable(rgb: []).paddedRGBA()
        var words = [UInt32](repeating: 0, count: 256)
        for entry in 0..<256 {
            // Memory order R, G, B, A whatever the host: build the word from bytes in that order.
            let r = UInt32(rgba[entry * 4]), g = UInt32(rgba[entry * 4 + 1])
            let b = UInt32(rgba[entry * 4 + 2]), a = UInt32(rgba[entry * 4 + 3])
            words[entry] = (r | g << 8 | b << 16 | a << 24).littleEndian
        }
        self.words = words
        transparent = transparentIndex ?? -1
    }

    /// The same table with every entry in another 4-byte format (`GIFCanvasFormat`).
    func converted(_ canvas: GIFCanvasFormat) -> GIFRenderTable {
        var table = self
        table.words = canvas.convert(words)
        return table
    }
}

/// The 4-byte format a still GIF is composed in when a decode asks for one
/// (`DecodeOptions.directOutput`): the display format, premultiplied RGBA, … GIF pixels are
/// opaque or fully transparent and composition only ever copies whole pixels — a colour-table
/// entry, the cleared canvas (transparent black), or a saved region — so composing converted
/// entries on a canvas cleared to converted transparent black gives exactly the straight-RGBA
/// canvas converted afterwards, without that second image and pass.
struct GIFCanvasFormat {
    let format: PixelFormat
    private let converter: PixelConverter
    /// Transparent black in `format`: what the canvas starts as and a background disposal restores.
    let clear: UInt32

    /// Nil unless `target` is a 4-byte, 8-bit format other than straight RGBA8.
    init?(_ target: PixelFormat) {
        guard target != .rgba8, target.bitsPerPixel == 32, target.bitsPerComponent == 8,
              let converter = try? PixelConverter(from: .rgba8, significantBits: 8, to: target, pixels: 256) else { return nil }
        format = target
        self.converter = converter
        clear = Self.convert([0], by: converter)[0]
    }

    /// Straight-RGBA8 words (memory order R, G, B, A) to words of `format` (memory order).
    func convert(_ words: [UInt32]) -> [UInt32] { Self.convert(words, by: converter) }

    private static func convert(_ words: [UInt32], by converter: PixelConverter) -> [UInt32] {
        var out = [UInt32](repeating: 0, count: words.count)
        words.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { target in
                guard let s = source.baseAddress, let t = target.baseAddress else { return }
                // One row of `words.count` pixels, four bytes each, on both sides.
                converter.convert(width: words.count, rows: 1, from: PixelRows(base: s, bytesPerRow: words.count * 4),
                                  into: MutablePixelRows(base: t, bytesPerRow: words.count * 4))
            }
        }
        return out
    }
}

/// Decodes a frame's indices and draws them. The pixel loops use unsafe buffers; each states
/// the bound that keeps it in range.
enum GIFFrameKernel {
    /// The stored row `stored` of a frame `height` rows tall shows on this display row
    /// (GIF89a Appendix E; identity when not interlaced).
    static func displayRow(_ stored: Int, height: Int, interlaced: Bool) -> Int {
        guard interlaced else { return stored }
        var row = stored
        for pass in GIFInterlace.passes {
            let rows = pass.start < height ? (height - pass.start + pass.step - 1) / pass.step : 0
            if row < rows { return pass.start + row * pass.step }
            row -= rows
        }
        return -1
    }

    /// Decodes `frame`'s code stream into `indices` (resized to width × height). Returns how
    /// many pixels (in stored order) were decoded and the LZW problem that stopped it early.
    /// Data after the last pixel (a missing end code, excess codes or bytes) is ignored, as
    /// giflib's `DGifGetLine` and browsers do.
    static func decodeIndices(_ frame: GIFFrame, number: Int, codes: UnsafeRawBufferPointer,
                              into indices: inout [UInt8]) -> (decoded: Int, problem: GIFError?) {
        let total = frame.pixelCount
        if indices.count < total { indices = [UInt8](repeating: 0, count: total) }
        guard total > 0 else { return (0, nil) }
        var lzw = LZWDecoder(variant: .gif, minimumCodeSize: frame.minimumCodeSize)
        let stop = indices.withUnsafeMutableBufferPointer { buffer in
            // `rebasing` the first `total` bytes: the decoder never writes past them.
            lzw.decode(codes, into: UnsafeMutableBufferPointer(rebasing: buffer[0..<total]))
        }
        let decoded = lzw.written
        switch stop {
        case .outputFull: return (decoded, nil)
        case .endCode: return (decoded, .earlyEndCode(frame: number, pixelsMissing: total - decoded))
        case .needMoreInput, .paused: return (decoded, frame.isComplete ? .dataEndedEarly(frame: number, pixelsMissing: total - decoded) : nil)
        case .invalidCode(let code): return (decoded, .invalidCode(code: code, frame: number))
        }
    }

    /// Draws the first `decoded` stored-order pixels of `frame` onto a straight-RGBA8 canvas,
    /// clipped to it; transparent-index pixels leave the canvas as it was. `canvas` may hold
    /// only the canvas rows `bandTop ..< bandTop + bandRows` (streaming); by default all of them.
    /// `indices[i]` is stored pixel `i + indexBase` (a streaming decode holds a window of the
    /// frame: `GIFFirstFrameStream`); a row whose pixels are not all in `indices` is not drawn.
    static func draw(_ frame: GIFFrame, indices: [UInt8], indexBase: Int = 0, decoded: Int, table: GIFRenderTable,
                     canvas: inout [UInt8], canvasWidth: Int, canvasHeight: Int, bandTop: Int = 0, bandRows: Int? = nil) {
        let d = frame.descriptor
        guard d.width > 0, d.height > 0, decoded > 0 else { return }
        let x0 = min(d.left, canvasWidth), x1 = min(d.left + d.width, canvasWidth)
        guard x1 > x0 else { return }
        let transparent = table.transparent
        let bandEnd = min(canvasHeight, bandTop + (bandRows ?? canvasHeight))
        // Stored rows that can show in the band: every one when interlaced (rows are spread over
        // the frame), else the rows `bandTop - top ..< bandEnd - top`.
        var storedRows = 0 ..< (decoded + d.width - 1) / d.width
        if !d.interlaced { storedRows = storedRows.clamped(to: max(0, bandTop - d.top) ..< max(0, bandEnd - d.top)) }
        guard !storedRows.isEmpty else { return }
        table.words.withUnsafeBufferPointer { words in
            indices.withUnsafeBufferPointer { source in
                canvas.withUnsafeMutableBytes { raw in
                    // Four bytes per pixel, written as one word: the canvas's bytes viewed as
                    // UInt32 for this loop only (array storage is word-aligned).
                    raw.withMemoryRebound(to: UInt32.self) { destination in
                        for stored in storedRows {
                            let y = d.top + displayRow(stored, height: d.height, interlaced: d.interlaced)
                            guard y >= bandTop, y < bandEnd else { continue }
                            // Pixels of this stored row that were decoded: all but possibly the last row.
                            let rowStart = stored * d.width
                            let available = min(d.width, decoded - rowStart)
                            let end = min(x1, d.left + available)
                            guard end > x0, rowStart - indexBase >= 0, rowStart - indexBase + available <= source.count else { continue }
                            // source index rowStart − indexBase + (x − left) < rowStart − indexBase +
                            // available ≤ indices.count (checked above), and ≥ 0;
                            // destination (y − bandTop) × W + x < W × (bandEnd − bandTop), the rows
                            // `canvas` holds (x < x1 ≤ W, bandTop ≤ y < bandEnd).
                            var s = rowStart - indexBase + (x0 - d.left)
                            var p = (y - bandTop) * canvasWidth + x0
                            let pEnd = (y - bandTop) * canvasWidth + end
                            while p < pEnd {
                                let index = Int(source[s])
                                if index != transparent { destination[p] = words[index] }
                                s += 1
                                p += 1
                            }
                        }
                    }
                }
            }
        }
    }

    /// The frame alone (its own width × height, not clipped or composed) as straight RGBA8:
    /// transparent-index pixels and pixels never decoded are 0, 0, 0, 0.
    static func rawRGBA(_ frame: GIFFrame, indices: [UInt8], decoded: Int, table: GIFRenderTable) -> [UInt8] {
        let d = frame.descriptor
        var pixels = PixelMemory.zeroed(count: d.width * d.height * 4)
        guard d.width > 0, d.height > 0 else { return pixels }
        let storedRows = (decoded + d.width - 1) / d.width
        for stored in 0..<storedRows {
            let y = displayRow(stored, height: d.height, interlaced: d.interlaced)
            let rowStart = stored * d.width
            let available = min(d.width, decoded - rowStart)
            for x in 0..<available {
                let index = Int(indices[rowStart + x])
                if index == table.transparent { continue }
                let word = UInt32(littleEndian: table.words[index])
                let p = (y * d.width + x) * 4
                pixels[p] = UInt8(truncatingIfNeeded: word)
                pixels[p + 1] = UInt8(truncatingIfNeeded: word >> 8)
                pixels[p + 2] = UInt8(truncatingIfNeeded: word >> 16)
                pixels[p + 3] = UInt8(truncatingIfNeeded: word >> 24)
            }
        }
        return pixels
    }
}

/// Frame composition with browser / ImageIO semantics on a straight-RGBA8 canvas:
/// - the canvas starts fully transparent (the background colour index is not used, as in
///   Firefox, Chromium and ImageIO);
/// - a frame's pixels replace the canvas inside its rectangle (clipped to the canvas), except
///   transparent-index pixels, which leave it as it was;
/// - before the next frame is drawn, the frame's disposal applies: unspecified / keep leave the
///   canvas; background clears the frame's (clipped) rectangle to transparent; previous
///   restores the rectangle to what it was before the frame was drawn.
/// `canvas` after `draw(k)` is the image shown for frame k (its own disposal still pending).
struct GIFCompositor {
    let width: Int
    let height: Int
    private(set) var canvas: [UInt8]
    private var pending: (disposal: GIFGraphicControl.Disposal, x0: Int, y0: Int, x1: Int, y1: Int)?
    private var saved: [UInt8] = []
    /// The canvas's format when it is not straight RGBA8 (a still GIF decoded to another
    /// 4-byte format: `GIFCanvasFormat`).
    let canvasFormat: GIFCanvasFormat?

    init(width: Int, height: Int, format canvasFormat: GIFCanvasFormat? = nil) {
        self.width = width
        self.height = height
        self.canvasFormat = canvasFormat
        canvas = PixelMemory.zeroed(count: width * height * 4)
        if let clear = canvasFormat?.clear, clear != 0 { Self.fill(&canvas, from: 0, pixels: width * height, with: clear) }
    }

    /// Pixels `from ..< from + pixels` of `canvas` set to the word `value` (memory order).
    private static func fill(_ canvas: inout [UInt8], from: Int, pixels: Int, with value: UInt32) {
        canvas.withUnsafeMutableBytes { raw in
            // Pixels inside the canvas (callers pass rectangles clipped to it).
            guard let base = raw.baseAddress, (from + pixels) * 4 <= raw.count else { return }
            for p in from ..< from + pixels { base.storeBytes(of: value, toByteOffset: p * 4, as: UInt32.self) }
        }
    }

    /// The format `canvas` holds.
    var format: PixelFormat { canvasFormat?.format ?? .rgba8 }

    mutating func draw(_ frame: GIFFrame, indices: [UInt8], decoded: Int, table: GIFRenderTable) {
        let table = canvasFormat.map { table.converted($0) } ?? table
        applyPendingDisposal()
        let d = frame.descriptor
        let x0 = min(d.left, width), x1 = min(d.left + d.width, width)
        let y0 = min(d.top, height), y1 = min(d.top + d.height, height)
        let disposal = frame.control?.disposal ?? .unspecified
        if disposal == .previous {
            saved.removeAll(keepingCapacity: true)
            if x1 > x0 {
                for y in y0..<y1 { saved.append(contentsOf: canvas[(y * width + x0) * 4 ..< (y * width + x1) * 4]) }
            }
        }
        GIFFrameKernel.draw(frame, indices: indices, decoded: decoded, table: table,
                            canvas: &canvas, canvasWidth: width, canvasHeight: height)
        pending = (disposal, x0, y0, x1, y1)
    }

    private mutating func applyPendingDisposal() {
        guard let (disposal, x0, y0, x1, y1) = pending, x1 > x0, y1 > y0 else { pending = nil; return }
        pending = nil
        let rowBytes = (x1 - x0) * 4
        switch disposal {
        case .unspecified, .keep:
            return
        case .background:
            let clear = canvasFormat?.clear ?? 0
            for y in y0..<y1 {
                if clear != 0 {
                    Self.fill(&canvas, from: y * width + x0, pixels: x1 - x0, with: clear)
                    continue
                }
                let start = (y * width + x0) * 4
                canvas.replaceSubrange(start ..< start + rowBytes, with: repeatElement(0, count: rowBytes))
            }
        case .previous:
            guard saved.count == rowBytes * (y1 - y0) else { return }
            for y in y0..<y1 {
                let start = (y * width + x0) * 4
                let from = (y - y0) * rowBytes
                canvas.replaceSubrange(start ..< start + rowBytes, with: saved[from ..< from + rowBytes])
            }
        }
    }
}
