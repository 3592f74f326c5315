/// The colour space a pixel's colour components live in (the role of `CGColorSpaceModel`).
///
/// Component order within a pixel, before alpha placement and byte order are applied:
///
/// | model      | components                 |
/// |------------|----------------------------|
/// | `gray`     | Y                          |
/// | `rgb`      | R, G, B                    |
/// | `cmyk`     | C, M, Y, K (ink amounts: 0 = no ink, max = full ink) |
/// | `indexed`  | one palette index          |
public enum ColorModel: Hashable, Sendable {
    /// Grayscale: one component, Y.
    case gray
    /// Red, green, blue: three components, R G B.
    case rgb
    /// Cyan, magenta, yellow, black ink amounts: four components (0 = no ink).
    case cmyk
    /// One index per pixel into `Palette`. Indexed pixels carry no alpha channel of their own;
    /// transparency lives in the palette entries (PNG tRNS, GIF transparent index).
    case indexed(Palette)

    /// Number of colour components in a pixel (alpha not counted).
    public var colorComponentCount: Int {
        switch self {
        case .gray, .indexed: return 1
        case .rgb: return 3
        case .cmyk: return 4
        }
    }

    /// A short lowercase name, as printed by `pureimage info`.
    public var name: String {
        switch self {
        case .gray: return "gray"
        case .rgb: return "rgb"
        case .cmyk: return "cmyk"
        case .indexed: return "indexed"
        }
    }
}

/// A colour table of 1...256 entries, each stored as 8-bit straight (non-premultiplied) R, G, B, A.
public struct Palette: Hashable, Sendable {
    /// `4 × count` bytes: R, G, B, A of entry 0, then entry 1, ...
    public let rgba: [UInt8]

    /// Number of entries (1...256).
    public var count: Int { rgba.count / 4 }

    /// Creates a palette from R, G, B, A quadruples. Returns nil unless the entry count is 1...256.
    public init?(rgba: [UInt8]) {
        guard rgba.count % 4 == 0, (1...256).contains(rgba.count / 4) else { return nil }
        self.rgba = rgba
    }

    /// Creates an opaque palette from R, G, B triples (alpha 255).
    public init?(rgb: [UInt8]) {
        guard rgb.count % 3 == 0 else { return nil }
        var quads = [UInt8]()
        quads.reserveCapacity(rgb.count / 3 * 4)
        var index = 0
        while index + 2 < rgb.count {
            quads.append(contentsOf: [rgb[index], rgb[index + 1], rgb[index + 2], 255])
            index += 3
        }
        self.init(rgba: quads)
    }
}
