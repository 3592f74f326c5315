/// An image decoded straight into the format the caller asked for (`DecodeOptions.directOutput`,
/// which `ImageSource.decode(at:)` sets for frame 0): each row is converted the moment the
/// decoder finishes it, into the one image the decode delivers. No image in the decoder's own
/// format exists and no conversion pass follows; for an RGB8 PNG decoded to RGBA that saves a
/// stored image (9 MB at 2000×1500, its page faults) and a pass over it.
///
/// Used where a decoder's finished rows are rows of its native format, in order:
/// - a PNG's unfiltered scanlines (`PNGPixelExpansion.storedRowFormat`) — not gray or RGB with a
///   tRNS colour key (its alpha is made in a pass of its own), not Adam7 (a row is final only
///   after pass 7), not APNG (frames are composed from the native default image);
///   `PNGDecoder.directFormats` decides;
/// - a JPEG's rendered rows when its renderer cannot write the output itself (`FourByteRGB`
///   covers 8-bit gray and RGB to 4-byte formats): 12-bit and 16-bit samples, CMYK, other
///   targets; `JPEGDecoder.directImage(geometry:native:precision:offset:)` decides.
final class DirectImage {
    let width: Int
    let height: Int
    let format: PixelFormat
    private let native: PixelFormat
    private let converter: PixelConverter
    /// Target rows, tight. Uninitialised on purpose when the converter writes every byte of a
    /// row (zeroed otherwise, as a converted bitmap's are): every row is written before the
    /// image is handed out — by `append`, or by `finish` for rows the file never delivered.
    private var bytes: [UInt8]
    private let rowBytes: Int
    private(set) var rowsWritten = 0
    private let budget: MemoryBudget
    private var reservedBytes: Int

    /// `converter` takes the decoder's native rows to the target, by the route and tables a
    /// conversion of the whole native image would take (`PixelConverter(…, pixels: width ×
    /// height)`). Throws `limitExceeded` when the image does not fit the decode's memory.
    init(width: Int, height: Int, converter: PixelConverter, budget: MemoryBudget,
         format imageFormat: ImageFormat, offset: Int) throws(DecodeError) {
        self.converter = converter
        let target = converter.target
        guard let rowBytes = target.minimumBytesPerRow(width: width) else {
            throw DecodeError(.limitExceeded, format: imageFormat, offset: offset,
                              LimitReason.tooManyPixels(width: width, height: height, limit: budget.limits.maxPixels))
        }
        let total = try SizeMath.allocationSize(rowBytes, height, limits: budget.limits, format: imageFormat, offset: offset)
        try budget.reserve(total, format: imageFormat, offset: offset)
        self.width = width
        self.height = height
        self.format = target
        native = converter.source
        self.rowBytes = rowBytes
        self.budget = budget
        reservedBytes = total
        bytes = converter.writesWholeRows ? PixelMemory.uninitialized(count: total) : PixelMemory.zeroed(count: total)
    }

    deinit {
        budget.release(reservedBytes)
    }

    /// The next row in the native format (at least its row bytes). Rows past the
    /// height are ignored (the decoder never sends them).
    func append(_ row: UnsafeRawBufferPointer) {
        guard rowsWritten < height, let source = row.baseAddress,
              row.count * 8 >= width * native.bitsPerPixel else { return }
        let y = rowsWritten
        bytes.withUnsafeMutableBytes { target in
            guard let base = target.baseAddress else { return }
            // Row y < height of `rowBytes` bytes lies inside the image's `rowBytes × height`.
            converter.convert(width: width, rows: 1, from: PixelRows(base: source, bytesPerRow: row.count),
                              into: MutablePixelRows(base: base + y * rowBytes, bytesPerRow: rowBytes))
        }
        rowsWritten += 1
    }

    /// The image. Rows the file did not deliver (a truncated file) are what the stored-format
    /// route shows for them: a scanline of zero samples, converted.
    func finish() -> Bitmap {
        if rowsWritten < height, let zeroRowBytes = native.minimumBytesPerRow(width: width) {
            let first = rowsWritten
            [UInt8](repeating: 0, count: zeroRowBytes).withUnsafeBytes { append($0) }
            let rowBytes = self.rowBytes
            bytes.withUnsafeMutableBytes { image in
                guard let base = image.baseAddress else { return }
                // Rows first + 1 ..< height, each a copy of row `first`: all inside the image.
                for y in (first + 1) ..< height {
                    (base + y * rowBytes).copyMemory(from: base + first * rowBytes, byteCount: rowBytes)
                }
            }
            rowsWritten = height
        }
        return Bitmap(uncheckedWidth: width, height: height, format: format, bytesPerRow: rowBytes, bytes: bytes)
    }
}
