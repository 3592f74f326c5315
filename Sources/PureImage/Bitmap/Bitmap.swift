/// A rectangle of pixels in memory, with Core Graphics' `CGImage` vocabulary.
///
/// ```
///   bytes: ┌──────────── bytesPerRow ─────────────┐
///   row 0  │ pixel 0 │ pixel 1 │ … │ pixel w-1 │pad│
///   row 1  │ …                                     │
///          └───────────────────────────────────────┘  × height
/// ```
/// Invariants (checked by `init`, relied on everywhere else):
/// - `width ≥ 0`, `height ≥ 0`, `format.isValid`;
/// - `bytesPerRow ≥ format.minimumBytesPerRow(width:)`;
/// - `bytes.count == bytesPerRow × height`.
/// Padding bytes at the end of a row are unspecified by the format (PureImage writes zeros).
public struct Bitmap: Hashable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels (rows).
    public let height: Int
    /// Bytes from the start of one row to the next, padding included.
    public let bytesPerRow: Int
    /// How each pixel's bytes are laid out.
    public let format: PixelFormat
    /// Row-major pixel bytes in `format`'s memory order.
    public internal(set) var bytes: [UInt8]
    /// Set when the samples use fewer bits than their components hold (nil: all of them).
    private var significantBits: Int?

    /// Wraps existing bytes. `bytesPerRow == 0` means "tight": the format's minimum row size.
    public init(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int = 0, bytes: [UInt8]) throws(BitmapError) {
        let rowBytes = try Bitmap.checkedGeometry(width: width, height: height, format: format, bytesPerRow: bytesPerRow, align: false)
        guard bytes.count == rowBytes.total else {
            throw .sizeMismatch(expected: rowBytes.total, actual: bytes.count)
        }
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = rowBytes.perRow
        self.bytes = bytes
    }

    /// A bitmap filled with zero bytes. `bytesPerRow == 0` lets the library choose
    /// (`PixelFormat.alignedBytesPerRow(width:)`: rows padded to a multiple of 8 pixels' bytes).
    public init(zeroedWidth width: Int, height: Int, format: PixelFormat, bytesPerRow: Int = 0) throws(BitmapError) {
        let rowBytes = try Bitmap.checkedGeometry(width: width, height: height, format: format, bytesPerRow: bytesPerRow, align: true)
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = rowBytes.perRow
        self.bytes = PixelMemory.zeroed(count: rowBytes.total)
    }

    /// Internal: a tightly packed bitmap whose geometry the caller has already validated
    /// against `DecodeLimits` (decoders use this after `SizeMath` checks).
    init(uncheckedWidth width: Int, height: Int, format: PixelFormat, bytesPerRow: Int, bytes: [UInt8]) {
        assert(bytes.count == bytesPerRow * height && format.isValid)
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = bytesPerRow
        self.bytes = bytes
    }

    static func checkedGeometry(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int, align: Bool) throws(BitmapError) -> (perRow: Int, total: Int) {
        if let problem = format.validate() { throw .invalidFormat(problem) }
        guard width >= 0, height >= 0 else { throw .invalidSize(width: width, height: height) }
        guard let minimum = format.minimumBytesPerRow(width: width),
              let aligned = format.alignedBytesPerRow(width: width) else {
            throw .invalidSize(width: width, height: height)
        }
        let perRow = bytesPerRow == 0 ? (align ? aligned : minimum) : bytesPerRow
        guard perRow >= minimum else { throw .bytesPerRowTooSmall(given: bytesPerRow, minimum: minimum) }
        let (total, overflow) = perRow.multipliedReportingOverflow(by: height)
        guard !overflow else { throw .invalidSize(width: width, height: height) }
        return (perRow, total)
    }

    /// Bytes of one row, padding excluded.
    public var rowLength: Int { (width * format.bitsPerPixel + 7) / 8 }

    /// How many low bits of each component the samples use: `format.bitsPerComponent` except
    /// for decoders that deliver samples of another precision in wider components — 12-bit
    /// JPEG samples (0…4095) in 16-bit components, lossless JPEG samples of 2–16 bits, as
    /// libjpeg-turbo hands them out. Conversions to any other format first scale such samples
    /// to the full range of their components (Docs/Bitmap.md, "Significant bits"); a bitmap
    /// kept in its own format keeps them as they are.
    public var significantBitsPerComponent: Int { significantBits ?? format.bitsPerComponent }

    /// The same pixels, declared to use the low `bits` bits of each component.
    func withSignificantBits(_ bits: Int) -> Bitmap {
        var copy = self
        copy.significantBits = bits < format.bitsPerComponent ? bits : nil
        return copy
    }

    /// A bitmap derived from this one in the same format (a band, an orientation, a crop)
    /// keeps its significant bits.
    func keepingSignificantBits(of source: Bitmap) -> Bitmap {
        source.significantBits == nil || format != source.format ? self : withSignificantBits(source.significantBitsPerComponent)
    }

    /// Core Graphics' "contains alpha" for this bitmap's format.
    public var containsAlpha: Bool { format.containsAlpha }

    /// The bytes of row `y` without padding.
    public func row(_ y: Int) -> ArraySlice<UInt8> {
        precondition(y >= 0 && y < height, "row \(y) out of 0..<\(height)")
        return bytes[y * bytesPerRow ..< y * bytesPerRow + rowLength]
    }

    /// The rows top to bottom in bands of `rowsPerBand` rows (the last one shorter), each a copy
    /// with this bitmap's layout: `body(firstRow, band)`. Streaming code hands images on this way
    /// so no stage holds more than a band beside the source.
    func forEachBand<E: Error>(rowsPerBand: Int, _ body: (Int, Bitmap) throws(E) -> Void) throws(E) {
        let step = Swift.max(1, rowsPerBand)
        var top = 0
        while top < height {
            let rows = Swift.min(step, height - top)
            try body(top, Bitmap(uncheckedWidth: width, height: rows, format: format, bytesPerRow: bytesPerRow,
                                 bytes: Array(bytes[top * bytesPerRow ..< (top + rows) * bytesPerRow])).keepingSignificantBits(of: self))
            top += rows
        }
    }

    /// A copy whose rows are exactly `rowLength` bytes (no padding); `self` when already tight.
    public func tightlyPacked() -> Bitmap {
        // (An empty result is made as such: see WebPRaster.init on capacity 0.)
        if bytesPerRow == rowLength || height == 0 || rowLength == 0 {
            return bytesPerRow == rowLength ? self
                : Bitmap(uncheckedWidth: width, height: height, format: format, bytesPerRow: rowLength, bytes: []).keepingSignificantBits(of: self)
        }
        let length = rowLength, stride = bytesPerRow
        let packed = [UInt8](unsafeUninitializedCapacity: length * height) { buffer, count in
            bytes.withUnsafeBufferPointer { source in
                // Row y's `length` bytes start at y × stride, within `bytes` (height × stride).
                for y in 0..<height {
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[y * length ..< (y + 1) * length])
                        .initialize(from: source[y * stride ..< y * stride + length])
                }
            }
            count = length * height
        }
        return Bitmap(uncheckedWidth: width, height: height, format: format, bytesPerRow: rowLength, bytes: packed).keepingSignificantBits(of: self)
    }

    /// Debug-only check of the invariants listed on the type.
    func assertInvariants() {
        assert(format.isValid)
        assert(width >= 0 && height >= 0)
        assert(bytesPerRow >= rowLength)
        assert(bytes.count == bytesPerRow * height)
    }
}

/// Misuse of the `Bitmap` API (these come from the caller, never from a file).
public enum BitmapError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The pixel format is not valid; the string says why.
    case invalidFormat(String)
    /// A negative side, or a size whose byte count overflows `Int`.
    case invalidSize(width: Int, height: Int)
    /// The `bytesPerRow` given is below the format's minimum for the width.
    case bytesPerRowTooSmall(given: Int, minimum: Int)
    /// The byte array's length is not `bytesPerRow × height`.
    case sizeMismatch(expected: Int, actual: Int)
    /// The conversion asked for is not implemented; the string says which.
    case unsupportedConversion(String)

    public var description: String {
        switch self {
        case .invalidFormat(let problem): return "invalid pixel format: \(problem)"
        case .invalidSize(let width, let height): return "invalid bitmap size \(width)×\(height)"
        case .bytesPerRowTooSmall(let given, let minimum): return "bytesPerRow \(given) is below the minimum \(minimum)"
        case .sizeMismatch(let expected, let actual): return "expected \(expected) bytes of pixels, got \(actual)"
        case .unsupportedConversion(let what): return "unsupported conversion: \(what)"
        }
    }
}
