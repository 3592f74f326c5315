/// A 4-byte RGB pixel format the JPEG renderer writes itself (`DecodeOptions.jpegDirectFormat`):
/// the colour converter stores R, G, B and an opaque fourth byte (255) straight into the
/// output, so that an 8-bit colour or gray JPEG decoded to canonical RGBA or to the display format
/// (BGRA with the alpha byte skipped) takes no second pass over a second full-size image.
/// The bytes are those `Bitmap.converted(to:)` gives from the RGB rows: a JPEG has no alpha,
/// so straight, premultiplied and skipped alpha are all 255 and leave the colour unchanged.
struct FourByteRGB: Hashable {
    /// Where R, G, B and the fourth byte go within the pixel: the four orders a 32-bit RGB
    /// format can take in memory (alpha or skip first or last, colour forward or reversed).
    enum Order: Hashable { case rgbx, bgrx, xrgb, xbgr }

    /// The transforms whose rows the renderer can write as 4-byte RGB: YCbCr and stored RGB
    /// (converted or interleaved), and gray (replicated, as gray → RGB conversion does).
    static func writes(_ transform: JPEGColorTransform) -> Bool {
        transform == .yccToRGB || transform == .rgb || transform == .gray
    }

    let order: Order
    /// The pixel format the rows are in (what `Bitmap.format` says of them).
    let format: PixelFormat

    /// The 4-byte form of `target`, or nil when the renderer does not write it (then the
    /// native rows are converted as usual): 8-bit RGB, 32 bits per pixel, one alpha or skip
    /// byte, any byte order.
    init?(target: PixelFormat) {
        guard target.colorModel == .rgb, target.bitsPerComponent == 8, target.bitsPerPixel == 32, target.validate() == nil,
              target.alphaInfo != .none, target.alphaInfo != .alphaOnly else { return nil }
        let layout = ComponentLayout(target)
        guard let fill = layout.extraHigh else { return nil }
        switch (layout.colorHigh, fill) {
        case ([0, 1, 2], 3): order = .rgbx
        case ([2, 1, 0], 3): order = .bgrx
        case ([1, 2, 3], 0): order = .xrgb
        case ([3, 2, 1], 0): order = .xbgr
        default: return nil
        }
        format = target
    }
}

/// The byte offsets of one `FourByteRGB.Order`, as constants of a type so that the colour
/// kernels are specialised per order (`ColorConversionKernels.yccToFourBytes`).
protocol FourByteRGBOrder {
    static var red: Int { get }
    static var green: Int { get }
    static var blue: Int { get }
    static var fill: Int { get }
}

enum RGBXOrder: FourByteRGBOrder {
    static var red: Int { 0 }
    static var green: Int { 1 }
    static var blue: Int { 2 }
    static var fill: Int { 3 }
}

enum BGRXOrder: FourByteRGBOrder {
    static var red: Int { 2 }
    static var green: Int { 1 }
    static var blue: Int { 0 }
    static var fill: Int { 3 }
}

enum XRGBOrder: FourByteRGBOrder {
    static var red: Int { 1 }
    static var green: Int { 2 }
    static var blue: Int { 3 }
    static var fill: Int { 0 }
}

enum XBGROrder: FourByteRGBOrder {
    static var red: Int { 3 }
    static var green: Int { 2 }
    static var blue: Int { 1 }
    static var fill: Int { 0 }
}
