/// The format the vertical pass writes its pixels in: the resampler's own (premultiplied
/// R G B A), the display format's with and without alpha (B G R A, B G R X), or straight RGBA8
/// (the canonical output), so a downscale to any of them needs no conversion pass of its own.
enum ResampledLayout {
    case rgbaPremultiplied, bgraPremultiplied, bgrx, rgbaStraight

    /// The layout that is exactly `format`, if any.
    init?(_ format: PixelFormat) {
        switch format {
        case .rgba8Premultiplied: self = .rgbaPremultiplied
        case .display(hasAlpha: true): self = .bgraPremultiplied
        case .display(hasAlpha: false): self = .bgrx
        case .rgba8: self = .rgbaStraight
        default: return nil
        }
    }

    var format: PixelFormat {
        switch self {
        case .rgbaPremultiplied: .rgba8Premultiplied
        case .bgraPremultiplied: .display(hasAlpha: true)
        case .bgrx: .display(hasAlpha: false)
        case .rgbaStraight: .rgba8
        }
    }
}
