/// RFC 9649 §3 — a lossless image stream, decoded as its bytes arrive.
///
/// ```
///   stream header (transforms, colour cache, prefix codes; §3.4–§3.7) ─► pixels (§3.7.2.3)
///        all-or-nothing: re-read from its           row bands: residuals decoded, then the
///        start when more bytes arrive               inverse transforms, then `emit`
/// ```
/// The header is parsed in one go; if the bytes run out it is parsed again, from its start,
/// once more bytes are there (it is small next to the pixels). The pixels are decoded in bands
/// of rows; while the input is still open, the cursor (bit position, pixel position, colour
/// cache) is saved before each band and restored when the bytes run out inside it, so decoding
/// resumes exactly at a band start. Residuals of all rows are kept: a backward reference may
/// copy from any earlier pixel (libwebp keeps them too).
///
/// Used for the VP8L chunk (after its 5-byte header) and for ALPH's lossless alpha (no header;
/// the alpha is the green channel).
final class VP8LDecoder {
    enum Progress: Equatable {
        case needMoreInput
        case finished
        /// The stream ended (input closed) before the last pixel: rows `0 ..< rowsDone` are out.
        case truncated
    }

    let width: Int
    let height: Int
    private let startByte: Int
    private let limits: DecodeLimits
    private(set) var header: VP8LStreamHeader?
    private var cursor: VP8LPixelCursor?
    private var residuals: [UInt32] = []
    private var predictorAbove: [UInt32] = []
    /// Reused for every band of rows (its storage is handed back after `emit`).
    private var bandBuffer: [UInt32] = []
    /// Rows passed to `emit` so far.
    private(set) var rowsDone = 0
    /// Where the work that last ran out of bytes started, and how many bytes there were then.
    /// It is retried only once the bytes since `start` have doubled (or the input is complete),
    /// so input arriving in tiny pieces costs O(n log n) work, not O(n²).
    private var stall: (start: Int, available: Int)?
    /// Rows decoded per band (the unit of resumption while input is open).
    private let bandRows = 16

    init(width: Int, height: Int, startByte: Int, limits: DecodeLimits) {
        self.width = width
        self.height = height
        self.startByte = startByte
        self.limits = limits
    }

    /// Decodes as far as `data[..<available]` allows. `emit(rows, firstRow, count)` receives
    /// finished ARGB rows (`width` pixels each) in order.
    func advance(data: [UInt8], available: Int, isComplete: Bool,
                 emit: (_ rows: [UInt32], _ firstRow: Int, _ count: Int) -> Void) throws(VP8LStop) -> Progress {
        if rowsDone == height { return .finished }
        if !isComplete, let stall, available - stall.start < 2 * (stall.available - stall.start) + 64 {
            return .needMoreInput
        }
        if header == nil {
            var reader = VP8LBitReader(data, start: startByte, end: available)
            let parsed: VP8LStreamHeader
            do throws(VP8LStop) {
                parsed = try VP8LImage.readStreamHeader(&reader, width: width, height: height, limits: limits)
            } catch {
                if case .exhausted = error {
                    if isComplete { return .truncated }
                    stall = (startByte, available)
                    return .needMoreInput
                }
                throw error
            }
            guard (try? SizeMath.checkImage(width: parsed.codedWidth, height: height, bytesPerPixel: 4,
                                            limits: limits, format: .webp, offset: nil)) != nil else {
                throw .invalid(.canvasTooLarge(width: parsed.codedWidth, height: height), bitPosition: reader.bitPosition)
            }
            header = parsed
            cursor = VP8LPixelCursor(reader: reader, cacheBits: parsed.colorCacheBits)
            // Not zeroed: every pixel is written before it is read (a back-reference reads only
            // earlier pixels, and only whole decoded rows are emitted).
            residuals = [UInt32](unsafeUninitializedCapacity: parsed.codedWidth * height) { _, count in
                count = parsed.codedWidth * height
            }
        }
        guard let header, var cursor else { return .finished }
        let codedWidth = header.codedWidth
        let total = codedWidth * height
        while cursor.position < total {
            let row = cursor.position / codedWidth
            let target = min(total, (row + bandRows) * codedWidth)
            let saved = isComplete ? nil : cursor
            let result = VP8LPixelKernels.decode(&cursor, bytes: data, end: available, groups: header.groups,
                                                 width: codedWidth, height: height, pixels: &residuals, target: target)
            switch result {
            case .reachedTarget:
                emitRows(upTo: cursor.position / codedWidth, emit)
            case .exhausted:
                if let saved {
                    self.cursor = saved
                    stall = (saved.next, available)
                    return .needMoreInput
                }
                emitRows(upTo: cursor.position / codedWidth, emit)
                self.cursor = cursor
                return .truncated
            case .badReference(let position, let distance, let length):
                self.cursor = cursor
                throw .invalid(.backwardReference(position: position, distance: distance, length: length), bitPosition: cursor.next * 8)
            }
        }
        self.cursor = cursor
        emitRows(upTo: height, emit)
        // Residuals are no longer needed once every row is out.
        residuals = []
        return .finished
    }

    /// Applies the inverse transforms (RFC 9649 §3.5, in the reverse of their order in the
    /// stream) to rows `rowsDone ..< end` and hands them to `emit`.
    private func emitRows(upTo end: Int, _ emit: (_ rows: [UInt32], _ firstRow: Int, _ count: Int) -> Void) {
        guard let header, end > rowsDone else { return }
        let first = rowsDone
        let count = end - first
        var band = bandBuffer
        bandBuffer = []
        band.removeAll(keepingCapacity: true)
        band.append(contentsOf: residuals[first * header.codedWidth ..< end * header.codedWidth])
        var bandWidth = header.codedWidth
        for transform in header.transforms.reversed() {
            switch transform.kind {
            case .predictor(let bits, let modes):
                if predictorAbove.count != bandWidth + 1 { predictorAbove = [UInt32](repeating: 0, count: bandWidth + 1) }
                VP8LTransformKernels.inversePredictor(&band, width: bandWidth, rows: count, firstRow: first,
                                                      bits: bits, modes: modes, above: &predictorAbove)
            case .crossColor(let bits, let multipliers):
                VP8LTransformKernels.inverseCrossColor(&band, width: bandWidth, rows: count, firstRow: first,
                                                       bits: bits, multipliers: multipliers)
            case .subtractGreen:
                VP8LTransformKernels.addGreen(&band, count: bandWidth * count)
            case .colorIndexing(let bits, let palette):
                band = VP8LTransformKernels.inverseColorIndexing(band, codedWidth: bandWidth, width: transform.width,
                                                                 rows: count, bits: bits, palette: palette)
                bandWidth = transform.width
            }
        }
        rowsDone = end
        emit(band, first, count)
        bandBuffer = band
    }
}
