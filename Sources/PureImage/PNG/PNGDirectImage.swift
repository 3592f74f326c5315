/// A PNG's main image decoded straight into the format the caller asked for
/// (`DecodeOptions.directOutput`, which `ImageSource.decode(at:)` sets for frame 0): each
/// scanline is converted the moment it is unfiltered, from the inflate block into the one image
/// the decode delivers. No image in the stored format exists and no conversion pass follows; for
/// an RGB8 file decoded to RGBA that saves a stored image (9 MB at 2000×1500, its page faults)
/// and a pass over it.
///
/// Only where the unfiltered scanline is a row of the native format (`PNGPixelExpansion
/// .storedRowFormat`): not for gray or RGB with a tRNS colour key (its alpha is made in a pass of
/// its own), not for Adam7 (a row is final only after pass 7), not for APNG (frames are
/// composed from the native default image). `PNGDecoder.beginDirectImage` decides.
final class PNGDirectImage {
    let width: Int
    let height: Int
    let format: PixelFormat
    private let native: PixelFormat
    private let converter: PixelConverter
    /// Target rows, tight. Uninitialised on purpose: every row is written before the image is
    /// handed out — by `append`, or by `finish` for rows the file never delivered.
    private var bytes: [UInt8]
    private let rowBytes: Int
    private(set) var rowsWritten = 0
    private let budget: MemoryBudget
    private var reservedBytes: Int

    /// Throws what a conversion of the native image to `target` would (`outputConversion`), or
    /// `limitExceeded` when the image does not fit the decode's memory.
    init(width: Int, height: Int, native: PixelFormat, target: PixelFormat, budget: MemoryBudget, offset: Int) throws(DecodeError) {
        do {
            converter = try PixelConverter(from: native, significantBits: native.bitsPerComponent, to: target, pixels: width * height)
        } catch {
            throw DecodeError(.unsupported, format: .png, offset: nil, ContainerError.outputConversion(error.description))
        }
        guard let rowBytes = target.minimumBytesPerRow(width: width) else {
            throw DecodeError(.limitExceeded, format: .png, offset: offset,
                              LimitReason.tooManyPixels(width: width, height: height, limit: budget.limits.maxPixels))
        }
        let total = try SizeMath.allocationSize(rowBytes, height, limits: budget.limits, format: .png, offset: offset)
        try budget.reserve(total, format: .png, offset: offset)
        self.width = width
        self.height = height
        self.format = target
        self.native = native
        self.rowBytes = rowBytes
        self.budget = budget
        reservedBytes = total
        bytes = [UInt8](unsafeUninitializedCapacity: total) { _, initialized in initialized = total }
    }

    deinit {
        budget.release(reservedBytes)
    }

    /// The next row, unfiltered, in the native format (at least its row bytes). Rows past the
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
