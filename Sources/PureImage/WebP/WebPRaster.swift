/// Where a WebP image decoder puts its finished rows: straight RGBA8 (R, G, B, A in memory),
/// top to bottom, in order.
///
/// Normally the rows land in `pixels`, the whole image. In streaming mode (the downscaler) each
/// batch of rows is written into a band buffer and handed to `sink` as a `Bitmap` instead, so
/// the full-size image never exists.
final class WebPRaster {
    let width: Int
    let height: Int
    /// The image so far (rows `0 ..< rowsDone`; the rest zero, i.e. transparent). Empty in
    /// streaming mode.
    private(set) var pixels: [UInt8]
    /// Rows written so far.
    private(set) var rowsDone = 0
    private let sink: ((Bitmap) -> Void)?
    private var band: [UInt8] = []

    /// The caller has checked `width × height × 4` against the limits.
    init(width: Int, height: Int, sink: ((Bitmap) -> Void)? = nil) {
        self.width = width
        self.height = height
        self.sink = sink
        // Not zeroed here: rows are written in order, and `bitmap()` clears the rows not written
        // yet before handing the pixels out.
        // (Streaming keeps no raster. An empty array is made as such: the uninitialised-capacity
        // initialiser with capacity 0 stores its count into the standard library's shared empty
        // array, a write of 0 over 0 that ThreadSanitizer reports as a race between decodes.)
        let count = sink == nil ? width * height * 4 : 0
        pixels = count == 0 ? [] : [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    /// Gives `body` the memory of rows `rowsDone ..< rowsDone + count` (`width × 4` bytes each)
    /// to fill, then counts them as done.
    func appendRows(_ count: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        let count = min(count, height - rowsDone)
        guard count > 0 else { return }
        let rowBytes = width * 4
        if let sink {
            if band.count != count * rowBytes { band = [UInt8](repeating: 0, count: count * rowBytes) }
            band.withUnsafeMutableBufferPointer { body($0) }
            sink(Bitmap(uncheckedWidth: width, height: count, format: .rgba8, bytesPerRow: rowBytes, bytes: band))
        } else {
            let start = rowsDone * rowBytes
            pixels.withUnsafeMutableBufferPointer { all in
                body(UnsafeMutableBufferPointer(rebasing: all[start ..< start + count * rowBytes]))
            }
        }
        rowsDone += count
    }

    /// The image as a bitmap (rows not decoded are transparent).
    func bitmap() -> Bitmap {
        if clearedFrom > rowsDone {
            let start = rowsDone * width * 4
            let end = clearedFrom * width * 4
            pixels.replaceSubrange(start ..< end, with: repeatElement(0, count: end - start))
            clearedFrom = rowsDone
        }
        return Bitmap(uncheckedWidth: width, height: height, format: .rgba8, bytesPerRow: width * 4, bytes: pixels)
    }

    /// The image in `target`, a 4-byte 8-bit format (`DecodeOptions.directOutput`): converted in
    /// place, so no second full-size image is made; the raster gives its pixels up and holds
    /// none afterwards. Rows not decoded are transparent black, converted. Nil for other targets
    /// and in streaming mode.
    func takeConverted(to target: PixelFormat) -> Bitmap? {
        guard sink == nil, target != .rgba8, target.bitsPerPixel == 32, target.bitsPerComponent == 8,
              let converter = try? PixelConverter(from: .rgba8, significantBits: 8, to: target, pixels: width * height) else { return nil }
        var bytes = bitmap().bytes
        pixels = []   // `bytes` is now the storage's only reference: converted in place
        let width = self.width, height = self.height
        bytes.withUnsafeMutableBytes { image in
            guard let base = image.baseAddress else { return }
            // The same rows read and written: every route from RGBA8 to a 4-byte format reads a
            // pixel whole before writing it at the same offset (the 8-bit kernels a word at a
            // time, the general route pixel by pixel), so converting in place is exact.
            converter.convert(width: width, rows: height, from: PixelRows(base: UnsafeRawPointer(base), bytesPerRow: width * 4),
                              into: MutablePixelRows(base: base, bytesPerRow: width * 4))
        }
        return Bitmap(uncheckedWidth: width, height: height, format: target, bytesPerRow: width * 4, bytes: bytes)
    }

    /// Rows `clearedFrom ..< height` hold zeros (or decoded rows); rows `rowsDone ..<
    /// clearedFrom` may hold anything until `bitmap()` clears them.
    private lazy var clearedFrom = height
}
