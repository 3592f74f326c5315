/// A frame decoded into memory the caller owns, in the caller's pixel format and row stride —
/// what drawing into a `CGBitmapContext` gives, or libspng's `spng_decode_image` into a user
/// buffer. Frame 0 is built on `decodeRows`' streaming: each band is converted, as the decoder
/// finishes it, straight into its rows of the buffer, so the decode holds what its format needs
/// (Docs/ImageSource.md, "Rows as they are decoded") and never a second full-size image. A
/// later frame (an animation's, a TIFF page) comes from `decode(at:options:)` — the shared
/// decode the other frames of the source use — and is copied into the buffer row by row.
extension ImageSource {
    /// Where a frame goes in a caller's buffer: its size as decoded (a JPEG's DCT-domain
    /// reduction applied; an animation frame has the canvas size, a TIFF page its own), the
    /// row stride, and the bytes the buffer needs (`bytesPerRow × height`).
    public struct Destination: Sendable, Hashable {
        /// Width of the frame as decoded, in pixels.
        public var width: Int
        /// Height of the frame as decoded, in pixels (rows).
        public var height: Int
        /// Bytes from one row to the next in the buffer (the minimum when 0 was asked for).
        public var bytesPerRow: Int
        /// Bytes the buffer must hold: `bytesPerRow × height`.
        public var byteCount: Int
    }

    /// Why a caller's buffer cannot take the frame (checked before anything is decoded when the
    /// headers give the size, else when the first rows arrive — before any byte is written).
    public enum DestinationError: Error, Hashable, CustomStringConvertible {
        /// The pixel format is not one the library converts to.
        case unsupportedFormat(String)
        /// `bytesPerRow` is below the format's minimum for the width.
        case bytesPerRowTooSmall(given: Int, minimum: Int)
        /// The buffer holds fewer than `bytesPerRow × height` bytes.
        case bufferTooSmall(given: Int, needed: Int)

        public var description: String {
            switch self {
            case .unsupportedFormat(let why): "the destination's pixel format is not supported: \(why)"
            case .bytesPerRowTooSmall(let given, let minimum): "bytesPerRow \(given) is below the \(minimum) bytes a row needs"
            case .bufferTooSmall(let given, let needed): "the buffer holds \(given) bytes, the frame needs \(needed)"
            }
        }
    }

    /// The buffer frame `index` needs in `format` with `bytesPerRow` (0: tight rows), from the
    /// headers (`properties(at:)`). A size over the decode limits throws the `DecodeError` a
    /// decode would (`.limitExceeded`); an index past the last frame, `frameOutOfRange`.
    public func destination(at index: Int = 0, format: PixelFormat, bytesPerRow: Int = 0) throws -> Destination {
        let header = try properties(at: index)
        return try destination(width: deliveredWidth(header), height: deliveredHeight(header), format: format, bytesPerRow: bytesPerRow)
    }

    private func destination(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int) throws -> Destination {
        _ = try SizeMath.checkImage(width: width, height: height, bytesPerPixel: 1, limits: options.limits, format: self.format, offset: nil)
        return try Self.layout(width: width, height: height, format: format, bytesPerRow: bytesPerRow)
    }

    private static func layout(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int) throws(DestinationError) -> Destination {
        if let problem = format.validate() { throw .unsupportedFormat("\(problem)") }
        guard let minimum = format.minimumBytesPerRow(width: width) else { throw .unsupportedFormat("a row of \(width) pixels overflows") }
        let stride = bytesPerRow == 0 ? minimum : bytesPerRow
        guard stride >= minimum else { throw .bytesPerRowTooSmall(given: bytesPerRow, minimum: minimum) }
        guard let count = SizeMath.product(stride, height) else { throw .bufferTooSmall(given: 0, needed: Int.max) }
        return Destination(width: width, height: height, bytesPerRow: stride, byteCount: count)
    }

    /// Decodes frame `index` into `buffer` in `format`, row `y` at byte `y × bytesPerRow` (0:
    /// tight rows): the bytes of `image(at: index, options: .init(output: .format(format)))`
    /// (for frame 0, of a first-frame-only source), row by row. Bytes past each row's minimum
    /// (the padding) are not written. The returned `StreamedFrame` carries the decode's
    /// properties, warnings and truncation (a truncated file's missing rows are written as the
    /// one-shot frame shows them). Throws `DestinationError` when the buffer cannot take the
    /// frame, a `DecodeError` when the decode fails (rows already written stay).
    public func decode(at index: Int = 0, into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int = 0, format: PixelFormat) throws -> StreamedFrame {
        func check(_ destination: Destination) throws(DestinationError) {
            guard buffer.count >= destination.byteCount else { throw .bufferTooSmall(given: buffer.count, needed: destination.byteCount) }
        }
        // Checked up front when the headers read (no decode is spent on a buffer that cannot
        // take the frame); a file whose headers do not read is checked at its first band.
        if let header = try? properties(at: index) {
            try check(destination(width: deliveredWidth(header), height: deliveredHeight(header), format: format, bytesPerRow: bytesPerRow))
        }
        if index != 0 {
            let decoded = try decode(at: index, options: ImageDecodingOptions(output: .format(format)))
            let destination = try Self.layout(width: decoded.bitmap.width, height: decoded.bitmap.height, format: format, bytesPerRow: bytesPerRow)
            try check(destination)
            try Self.write(StreamedBand(firstRow: 0, frameHeight: decoded.bitmap.height, rows: decoded.bitmap), into: buffer, destination)
            return StreamedFrame(properties: decoded.properties, warnings: decoded.warnings, truncation: decoded.truncation, streamed: false)
        }
        var layout: Destination?
        return try streamFirstFrame(output: .format(format)) { band in
            let destination = try layout ?? Self.layout(width: band.width, height: band.frameHeight, format: format, bytesPerRow: bytesPerRow)
            if layout == nil { try check(destination) }
            layout = destination
            try Self.write(band, into: buffer, destination)
        }
    }

    /// `band` converted into its rows of the buffer (`StreamedBand.write(into:)`), for the
    /// streamed frame 0 and a later frame alike. Bounds: the band's rows lie inside the frame
    /// (full width, rows firstRow ..< firstRow + height ≤ the frame's height: checked here, the
    /// decode's own sizes make a disagreement unreachable), bytesPerRow ≥ the format's row
    /// length (`layout`; `write(into:)` checks it again), and bytesPerRow × height ≤
    /// buffer.count (`check`, and here again).
    private static func write(_ band: StreamedBand, into buffer: UnsafeMutableRawBufferPointer, _ destination: Destination) throws(DecodeError) {
        guard band.width == destination.width, band.firstRow >= 0, band.firstRow + band.height <= destination.height,
              destination.byteCount <= buffer.count, let base = buffer.baseAddress else { return }
        try band.write(into: MutablePixelRows(base: base + band.firstRow * destination.bytesPerRow, bytesPerRow: destination.bytesPerRow))
    }
}
