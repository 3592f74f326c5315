/// The byte order of a pixel in memory — Core Graphics' `CGBitmapInfo` byte-order field.
///
/// The rule, for pixels of 8 or more bits: write the pixel's components in logical order
/// (see `AlphaInfo`) with every 16-bit component big-endian. That is `default` (and `order16Big`,
/// `order32Big`). For `order16Little`, reverse each 2-byte group of that sequence; for
/// `order32Little`, each 4-byte group. So 8-bit `premultipliedFirst` (logical A R G B) with
/// `order32Little` is B G R A in memory — the iOS display format — and 16-bit RGBA with
/// `order16Little` stores each component little-endian.
///
/// A byte order whose group is larger than 1 byte needs a pixel size that is a whole number of
/// groups (`PixelFormat.validate()` checks it): 8-bit RGB without alpha (3 bytes) has no
/// `order16Little` or `order32Little` form.
public enum ByteOrder: String, Hashable, Sendable, CaseIterable {
    /// `kCGBitmapByteOrderDefault`: components in logical order, 16-bit components big-endian.
    case `default`
    /// `kCGBitmapByteOrder16Little`: each 2-byte group of the logical order reversed (16-bit little-endian).
    case order16Little
    /// `kCGBitmapByteOrder16Big`: 16-bit big-endian; the same bytes as `default`.
    case order16Big
    /// `kCGBitmapByteOrder32Little`: each 4-byte group reversed (8-bit A R G B stored as B G R A).
    case order32Little
    /// `kCGBitmapByteOrder32Big`: 32-bit big-endian; the same bytes as `default`.
    case order32Big

    /// `kCGBitmapByteOrder32Host`: little-endian on every platform Swift runs on today.
    public static var order32Host: ByteOrder {
        #if _endian(little)
        return .order32Little
        #else
        return .order32Big
        #endif
    }

    /// `kCGBitmapByteOrder16Host`.
    public static var order16Host: ByteOrder {
        #if _endian(little)
        return .order16Little
        #else
        return .order16Big
        #endif
    }

    /// Size in bytes of the group whose bytes are reversed; 1 means nothing is reversed.
    var swapGroupSize: Int {
        switch self {
        case .order16Little: return 2
        case .order32Little: return 4
        case .default, .order16Big, .order32Big: return 1
        }
    }

    /// The group size a pixel must be a multiple of (big orders constrain too, as in Core Graphics).
    var groupBytes: Int {
        switch self {
        case .default: return 1
        case .order16Little, .order16Big: return 2
        case .order32Little, .order32Big: return 4
        }
    }
}
