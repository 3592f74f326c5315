/// EXIF orientation (TIFF tag 274, also carried by JPEG APP1 and PNG eXIf): how the stored
/// pixels must be transformed to appear upright. Values and names as `UIImage.Orientation`
/// maps them (SDWebImage's `SDImageCoderHelper`):
///
/// | EXIF | case            | to display the stored pixels        | output size |
/// |------|-----------------|-------------------------------------|-------------|
/// | 1    | `up`            | as stored                           | w × h       |
/// | 2    | `upMirrored`    | flip left–right                     | w × h       |
/// | 3    | `down`          | rotate 180°                         | w × h       |
/// | 4    | `downMirrored`  | flip top–bottom                     | w × h       |
/// | 5    | `leftMirrored`  | transpose (flip across the main diagonal) | h × w |
/// | 6    | `right`         | rotate 90° clockwise                | h × w       |
/// | 7    | `rightMirrored` | transverse (flip across the anti-diagonal) | h × w |
/// | 8    | `left`          | rotate 90° counter-clockwise        | h × w       |
///
/// Decoding never applies it (a `UIImage(cgImage:scale:orientation:)` keeps pixels unrotated);
/// `Bitmap.oriented(_:)` does, on request.
public enum Orientation: Int, Hashable, Sendable, CaseIterable {
    /// EXIF 1: stored upright; displayed as stored.
    case up = 1
    /// EXIF 2: flip left–right to display.
    case upMirrored = 2
    /// EXIF 3: rotate 180° to display.
    case down = 3
    /// EXIF 4: flip top–bottom to display.
    case downMirrored = 4
    /// EXIF 5: transpose (flip across the main diagonal) to display; width and height swap.
    case leftMirrored = 5
    /// EXIF 6: rotate 90° clockwise to display; width and height swap.
    case right = 6
    /// EXIF 7: transverse (flip across the anti-diagonal) to display; width and height swap.
    case rightMirrored = 7
    /// EXIF 8: rotate 90° counter-clockwise to display; width and height swap.
    case left = 8

    /// The EXIF value; values outside 1...8 (0 appears in the wild) read as `up`, as ImageIO does.
    public init(exifValue: Int) {
        self = Orientation(rawValue: exifValue) ?? .up
    }

    /// True for 5–8, whose display size swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// For output pixel (x, y) of a `width × height` *output*, the stored pixel it comes from,
    /// where the stored image is `storedWidth × storedHeight`.
    @inline(__always)
    func sourceCoordinate(x: Int, y: Int, storedWidth w: Int, storedHeight h: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (w - 1 - x, y)
        case .down: return (w - 1 - x, h - 1 - y)
        case .downMirrored: return (x, h - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, h - 1 - x)
        case .rightMirrored: return (w - 1 - y, h - 1 - x)
        case .left: return (w - 1 - y, x)
        }
    }
}

extension Bitmap {
    /// The pixels transformed so they appear upright under `orientation` (see the table on
    /// `Orientation`). For 5–8 the result is `height × width`. Rows of the result are tight.
    public func oriented(_ orientation: Orientation) -> Bitmap {
        if orientation == .up { return self }
        let outWidth = orientation.swapsDimensions ? height : width
        let outHeight = orientation.swapsDimensions ? width : height
        let bitsPerPixel = format.bitsPerPixel
        let outRowBytes = (outWidth * bitsPerPixel + 7) / 8
        var out = [UInt8](repeating: 0, count: outRowBytes * outHeight)
        let storedWidth = width, storedHeight = height, inRowBytes = bytesPerRow
        bytes.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                if bitsPerPixel >= 8 {
                    let pixelBytes = bitsPerPixel / 8
                    for y in 0..<outHeight {
                        for x in 0..<outWidth {
                            // sourceCoordinate maps into 0..<storedWidth × 0..<storedHeight.
                            let (sx, sy) = orientation.sourceCoordinate(x: x, y: y, storedWidth: storedWidth, storedHeight: storedHeight)
                            let from = sy * inRowBytes + sx * pixelBytes
                            let to = y * outRowBytes + x * pixelBytes
                            for byte in 0..<pixelBytes { dst[to + byte] = src[from + byte] }
                        }
                    }
                } else {
                    let bits = bitsPerPixel
                    for y in 0..<outHeight {
                        for x in 0..<outWidth {
                            let (sx, sy) = orientation.sourceCoordinate(x: x, y: y, storedWidth: storedWidth, storedHeight: storedHeight)
                            let value = GeneralConversion.packedSample(src, row: sy * inRowBytes, x: sx, bits: bits)
                            GeneralConversion.storePackedSample(value, dst, row: y * outRowBytes, x: x, bits: bits)
                        }
                    }
                }
            }
        }
        return Bitmap(uncheckedWidth: outWidth, height: outHeight, format: format, bytesPerRow: outRowBytes, bytes: out).keepingSignificantBits(of: self)
    }

    /// The pixels inside `rect`, like `CGImageCreateWithImageInRect`: the rectangle is
    /// intersected with the bitmap's bounds; nil when the intersection is empty.
    public func cropped(toX x: Int, y: Int, width requestedWidth: Int, height requestedHeight: Int) -> Bitmap? {
        guard requestedWidth > 0, requestedHeight > 0 else { return nil }
        // Saturating ends: x + width can only overflow upwards here (width > 0).
        let (xEnd, xOverflow) = x.addingReportingOverflow(requestedWidth)
        let (yEnd, yOverflow) = y.addingReportingOverflow(requestedHeight)
        let left = Swift.max(0, x), top = Swift.max(0, y)
        let right = Swift.min(width, xOverflow ? Int.max : xEnd)
        let bottom = Swift.min(height, yOverflow ? Int.max : yEnd)
        guard right > left, bottom > top else { return nil }
        let outWidth = right - left, outHeight = bottom - top
        let bits = format.bitsPerPixel
        let outRowBytes = (outWidth * bits + 7) / 8
        var out = [UInt8](repeating: 0, count: outRowBytes * outHeight)
        bytes.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for row in 0..<outHeight {
                    let sourceRow = (top + row) * bytesPerRow
                    if bits >= 8 {
                        let pixelBytes = bits / 8
                        let from = sourceRow + left * pixelBytes
                        for i in 0..<outRowBytes { dst[row * outRowBytes + i] = src[from + i] }
                    } else {
                        for column in 0..<outWidth {
                            let value = GeneralConversion.packedSample(src, row: sourceRow, x: left + column, bits: bits)
                            GeneralConversion.storePackedSample(value, dst, row: row * outRowBytes, x: column, bits: bits)
                        }
                    }
                }
            }
        }
        return Bitmap(uncheckedWidth: outWidth, height: outHeight, format: format, bytesPerRow: outRowBytes, bytes: out).keepingSignificantBits(of: self)
    }
}
