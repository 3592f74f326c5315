/// Where a pixel's alpha lives and what it means — the cases of Core Graphics' `CGImageAlphaInfo`.
///
/// "First" and "last" name the alpha position in the *logical* (big-endian, `ByteOrder.default`)
/// component order; `ByteOrder` then decides the order in memory. For 8-bit RGB:
///
/// | AlphaInfo            | logical order | premultiplied | `containsAlpha` |
/// |----------------------|---------------|---------------|-----------------|
/// | `none`               | R G B         | –             | false           |
/// | `premultipliedLast`  | R G B A       | yes           | true            |
/// | `premultipliedFirst` | A R G B       | yes           | true            |
/// | `last`               | R G B A       | no            | true            |
/// | `first`              | A R G B       | no            | true            |
/// | `noneSkipLast`       | R G B x       | –             | false           |
/// | `noneSkipFirst`      | x R G B       | –             | false           |
/// | `alphaOnly`          | A             | –             | true            |
///
/// `x` is an unused (skip) component. PureImage writes it as the maximum value (0xFF / 0xFFFF)
/// so that a consumer that mistakes it for alpha still sees an opaque pixel; readers ignore it.
/// The memory order of every combination with `ByteOrder` is tabulated in `Docs/Bitmap.md`.
public enum AlphaInfo: String, Hashable, Sendable, CaseIterable {
    /// `kCGImageAlphaNone`: colour components only, no alpha.
    case none
    /// `kCGImageAlphaPremultipliedLast`: alpha last (R G B A), colour premultiplied by alpha.
    case premultipliedLast
    /// `kCGImageAlphaPremultipliedFirst`: alpha first (A R G B), colour premultiplied by alpha.
    case premultipliedFirst
    /// `kCGImageAlphaLast`: alpha last (R G B A), colour not premultiplied.
    case last
    /// `kCGImageAlphaFirst`: alpha first (A R G B), colour not premultiplied.
    case first
    /// `kCGImageAlphaNoneSkipLast`: an unused component last (R G B x); opaque.
    case noneSkipLast
    /// `kCGImageAlphaNoneSkipFirst`: an unused component first (x R G B); opaque.
    case noneSkipFirst
    /// `kCGImageAlphaOnly`: alpha alone, no colour components.
    case alphaOnly

    /// Core Graphics' rule: every case but `none`, `noneSkipFirst` and `noneSkipLast` has alpha.
    public var containsAlpha: Bool {
        switch self {
        case .none, .noneSkipFirst, .noneSkipLast: return false
        default: return true
        }
    }

    /// True when colour components are stored multiplied by alpha.
    public var isPremultiplied: Bool {
        self == .premultipliedFirst || self == .premultipliedLast
    }

    /// True when the pixel has an extra component (alpha or skip) besides its colour.
    var hasExtraComponent: Bool { self != .none && self != .alphaOnly }

    /// True when the extra component comes first in logical order.
    var extraComponentIsFirst: Bool {
        self == .first || self == .premultipliedFirst || self == .noneSkipFirst
    }
}
