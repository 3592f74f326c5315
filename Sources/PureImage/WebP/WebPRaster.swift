/// Where a WebP image decoder puts its finished rows: straight RGBA8 (R, G, B, A in memory),
/// top to bottom, in order — or, after `convertRows(to:)`, each batch of rows converted in place
/// to a 4-byte format as soon as it is written, while it is still in cache
/// (`DecodeOptions.directOutput`).
///
/// Normally the rows land in `pixels`, the whole image. In streaming mode (the downscaler) each
/// batch of rows is written into a band buffer and handed to `sink` as a `Bitmap` instead, so
/// the full-size image never exists.
final class WebPRaster {
    let width: Int
    let height: Int
    /// The image so far, in `format` (rows `0 ..< rowsDone`; the rest transparent once
    /// `bitmap()` has cleared them). Empty in
    /// streaming mode.
    private(set) var pixels: [UInt8]
    /// Rows written so far.
    private(set) var rowsDone = 0
    private let sink: ((Bitmap) -> Void)?
    private var band: [UInt8] = []
    /// The format of `pixels`: RGBA8 unless `convertRows(to:)` chose another.
    private(set) var format: PixelFormat = .rgba8
    /// Set by `convertRows(to:)`: what each batch of rows is converted with.
    private var converter: PixelConverter?
    /// A transparent black pixel (RGBA 0, 0, 0, 0) in `format`: what rows not decoded hold.
    private var clearPixel: UInt32 = 0

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
        pixels = count == 0 ? [] : PixelMemory.uninitialized(count: count)
    }

    /// Gives `body` the memory of rows `rowsDone ..< rowsDone + count` (`width × 4` bytes each)
    /// to fill, then counts them as done. `body` writes RGBA8, or `format` itself when
    /// `alreadyConverted` (the caller has checked `takesPremultipliedBGRA`).
    func appendRows(_ count: Int, alreadyConverted: Bool = false, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
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
                let rows = UnsafeMutableBufferPointer(rebasing: all[start ..< start + count * rowBytes])
                body(rows)
                if !alreadyConverted, let converter, let base = rows.baseAddress {
                    // In place: see `convertRows(to:)`.
                    converter.convert(width: width, rows: count, from: PixelRows(base: UnsafeRawPointer(base), bytesPerRow: rowBytes),
                                      into: MutablePixelRows(base: UnsafeMutableRawPointer(base), bytesPerRow: rowBytes))
                }
            }
        }
        rowsDone += count
    }

    /// The image as a bitmap (rows not decoded are transparent).
    func bitmap() -> Bitmap {
        if clearedFrom > rowsDone {
            let start = rowsDone * width
            let end = clearedFrom * width
            let clearPixel = clearPixel
            pixels.withUnsafeMutableBytes { all in
                for i in start ..< end { all.storeBytes(of: clearPixel, toByteOffset: 4 * i, as: UInt32.self) }
            }
            clearedFrom = rowsDone
        }
        return Bitmap(uncheckedWidth: width, height: height, format: format, bytesPerRow: width * 4, bytes: pixels)
    }

    /// True when the rows are converted to what premultiplied BGRA rows (`VP8PixelLayout`)
    /// already are: the display format with alpha, or for opaque rows (`hasAlpha` false; an
    /// opaque pixel is B, G, R, 255 either way) the display format without. A decoder that
    /// writes such rows itself passes `alreadyConverted` to `appendRows`.
    func takesPremultipliedBGRA(hasAlpha: Bool) -> Bool {
        converter != nil && (format == .display(hasAlpha: true) || (!hasAlpha && format == .display(hasAlpha: false)))
    }

    /// From now on, converts each batch of rows to `target` (a 4-byte 8-bit format) in place
    /// right after it is written, so that the finished image is already in `target` with no
    /// pass over the whole image at the end. Call before the first row; ignored in streaming
    /// mode (the sink's consumer converts) and for other targets. In place is exact: every
    /// route from RGBA8 to a 4-byte format reads a pixel whole before writing it at the same
    /// offset (the 8-bit kernels a word at a time, the general route pixel by pixel).
    func convertRows(to target: PixelFormat) {
        guard sink == nil, rowsDone == 0, converter == nil, target != .rgba8, target.bitsPerPixel == 32, target.bitsPerComponent == 8,
              let converter = try? PixelConverter(from: .rgba8, significantBits: 8, to: target, pixels: width * height) else { return }
        var pixel: UInt32 = 0
        withUnsafeMutableBytes(of: &pixel) { bytes in
            guard let base = bytes.baseAddress else { return }
            converter.convert(width: 1, rows: 1, from: PixelRows(base: UnsafeRawPointer(base), bytesPerRow: 4),
                              into: MutablePixelRows(base: base, bytesPerRow: 4))
        }
        self.converter = converter
        format = target
        clearPixel = pixel
    }

    /// The image in `target`, a 4-byte 8-bit format (`DecodeOptions.directOutput`): the rows as
    /// they are when `convertRows(to: target)` converted them already, else converted in place
    /// now, so no second full-size image is made; the raster gives its pixels up and holds none
    /// afterwards. Rows not decoded are transparent black, converted. Nil for other targets and
    /// in streaming mode.
    func takeConverted(to target: PixelFormat) -> Bitmap? {
        if sink == nil, target == format, format != .rgba8 {
            let converted = bitmap()
            pixels = []
            return converted
        }
        // Rows already converted to another format are not converted again (not exact from a
        // premultiplied format): nil, and the caller converts the bitmap as it is.
        guard sink == nil, format == .rgba8, target != .rgba8, target.bitsPerPixel == 32, target.bitsPerComponent == 8,
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

    /// Rows `clearedFrom ..< height` hold `clearPixel` (or decoded rows); rows `rowsDone ..<
    /// clearedFrom` may hold anything until `bitmap()` clears them.
    private lazy var clearedFrom = height
}
