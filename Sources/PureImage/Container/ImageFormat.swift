/// The container formats PureImage recognises. JPEG, PNG (and APNG), GIF, TIFF and WebP are
/// decoded; HEIC and HEIF are recognised and refused with a typed "not supported" error.
public enum ImageFormat: String, Hashable, Sendable, CaseIterable {
    /// JPEG (JFIF, EXIF): baseline, progressive and lossless.
    case jpeg
    /// PNG, including APNG animations.
    case png
    /// GIF 87a and 89a, still or animated.
    case gif
    /// TIFF, classic or BigTIFF; every IFD is a page.
    case tiff
    /// WebP: lossy, lossless, with alpha, or animated.
    case webp
    /// HEIC (HEVC-coded HEIF): recognised, not decoded.
    case heic
    /// Other HEIF (brands `mif1`, `msf1`): recognised, not decoded.
    case heif

    /// True for the formats this library decodes.
    public var isDecodable: Bool {
        switch self {
        case .jpeg, .png, .gif, .tiff, .webp: return true
        case .heic, .heif: return false
        }
    }
}
