/// The container formats PureImage recognises. JPEG, PNG (and APNG), GIF, TIFF and WebP are
/// decoded; HEIC and HEIF are recognised and refused with a typed "not supported" error.
public enum ImageFormat: String, Hashable, Sendable, CaseIterable {
    case jpeg, png, gif, tiff, webp, heic, heif

    /// True for the formats this library decodes.
    public var isDecodable: Bool {
        switch self {
        case .jpeg, .png, .gif, .tiff, .webp: return true
        case .heic, .heif: return false
        }
    }
}
