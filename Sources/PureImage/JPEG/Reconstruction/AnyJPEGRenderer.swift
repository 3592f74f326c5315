/// A `JPEGRenderer` of either sample size, so that the decoder holds one renderer without
/// knowing which: each call is forwarded to the concrete renderer, whose code the compiler
/// specialises for its sample size (the 8-bit path stays the vectorised one).
enum AnyJPEGRenderer {
    case eightBit(JPEGRenderer<EightBitSamples>)
    case sixteenBit(JPEGRenderer<TwelveBitSamples>)

    /// A renderer for samples of `precision` bits: 8-bit samples up to 8 bits, 16-bit above.
    /// `fourByte`: write 4-byte RGB pixels instead of the transform's samples, where the
    /// renderer can (8-bit RGB; see `JPEGRenderer.fourByte`).
    init(precision: Int, geometry: FrameGeometry, transform: JPEGColorTransform, invertCMYK: Bool, ringMCURows: [Int],
         budget: MemoryBudget, fourByte: FourByteRGB? = nil, rowSink: ((UnsafeBufferPointer<UInt8>) -> Void)? = nil) throws(DecodeError) {
        let maximum = (1 << precision) - 1
        if precision <= 8 {
            self = .eightBit(try JPEGRenderer(geometry: geometry, transform: transform, invertCMYK: invertCMYK, maximum: UInt8(maximum),
                                              ringMCURows: ringMCURows, budget: budget, fourByte: fourByte, rowSink: rowSink))
        } else {
            self = .sixteenBit(try JPEGRenderer(geometry: geometry, transform: transform, invertCMYK: invertCMYK, maximum: UInt16(maximum),
                                                ringMCURows: ringMCURows, budget: budget, rowSink: rowSink))
        }
    }

    /// See `JPEGRenderer.rawRowSink` (samples of 1 or 2 bytes, as the renderer's).
    func setRawRowSink(_ sink: ((Int, Int, UnsafeRawBufferPointer) -> Void)?) {
        switch self {
        case .eightBit(let r): r.rawRowSink = sink
        case .sixteenBit(let r): r.rawRowSink = sink
        }
    }

    /// Bits per sample of the output rows: 8, or 16 (host byte order).
    var bitsPerSample: Int {
        switch self {
        case .eightBit: return 8
        case .sixteenBit: return 16
        }
    }

    var geometry: FrameGeometry {
        switch self {
        case .eightBit(let r): return r.geometry
        case .sixteenBit(let r): return r.geometry
        }
    }

    /// The 4-byte RGB format of the output rows, when the renderer writes one.
    var fourByte: FourByteRGB? {
        switch self {
        case .eightBit(let r): return r.fourByte
        case .sixteenBit: return nil
        }
    }

    var transform: JPEGColorTransform {
        switch self {
        case .eightBit(let r): return r.transform
        case .sixteenBit(let r): return r.transform
        }
    }

    var rowBytes: Int {
        switch self {
        case .eightBit(let r): return r.rowBytes
        case .sixteenBit(let r): return r.rowBytes
        }
    }

    var pixels: [UInt8] {
        switch self {
        case .eightBit(let r): return r.pixels
        case .sixteenBit(let r): return r.pixels
        }
    }

    var isStreaming: Bool {
        switch self {
        case .eightBit(let r): return r.rowSink != nil
        case .sixteenBit(let r): return r.rowSink != nil
        }
    }

    var rowsDone: Int {
        switch self {
        case .eightBit(let r): return r.rowsDone
        case .sixteenBit(let r): return r.rowsDone
        }
    }

    var isComplete: Bool {
        switch self {
        case .eightBit(let r): return r.isComplete
        case .sixteenBit(let r): return r.isComplete
        }
    }

    func setQuantization(component c: Int, _ values: [UInt16]) {
        switch self {
        case .eightBit(let r): r.setQuantization(component: c, values)
        case .sixteenBit(let r): r.setQuantization(component: c, values)
        }
    }

    func reconstruct(component c: Int, from store: CoefficientStore, blockRows: Range<Int>, smoothing: BlockSmoothing? = nil) {
        switch self {
        case .eightBit(let r): r.reconstruct(component: c, from: store, blockRows: blockRows, smoothing: smoothing)
        case .sixteenBit(let r): r.reconstruct(component: c, from: store, blockRows: blockRows, smoothing: smoothing)
        }
    }

    @discardableResult
    func emitRows() -> Int {
        switch self {
        case .eightBit(let r): return r.emitRows()
        case .sixteenBit(let r): return r.emitRows()
        }
    }

    /// Lossless scans: see `JPEGRenderer.storeLosslessRow`.
    func storeLosslessRow(component c: Int, row: Int, values: UnsafePointer<Int32>, count: Int, pointTransform: Int) {
        switch self {
        case .eightBit(let r): r.storeLosslessRow(component: c, row: row, values: values, count: count, pointTransform: pointTransform)
        case .sixteenBit(let r): r.storeLosslessRow(component: c, row: row, values: values, count: count, pointTransform: pointTransform)
        }
    }

    /// Every component's lines ready (a multi-scan lossless image at its end: components no
    /// scan covered stay zero).
    func markAllReady() {
        switch self {
        case .eightBit(let r): r.markAllReady()
        case .sixteenBit(let r): r.markAllReady()
        }
    }
}
