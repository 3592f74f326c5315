/// A PNG's colour-space and ancillary facts as its chunks state them (PNG 3rd ed. §11.3) —
/// reported, never applied to the pixels, as libpng reports them without transformations.
/// ImageIO's `{PNG}` dictionary holds the same (`kCGImagePropertyPNGGamma`, `…Chromaticities`,
/// `…sRGBIntent`, `…XPixelsPerMeter`, `…ModificationTime`, …).
public struct PNGProperties: Sendable, Hashable {
    /// gAMA (§11.3.3.2): the image gamma, e.g. 0.45455.
    public var gamma: Double?
    /// cHRM (§11.3.3.1): white point and primaries.
    public var chromaticities: Chromaticities?
    /// sRGB (§11.3.3.5): the rendering intent, 0 perceptual, 1 relative colorimetric,
    /// 2 saturation, 3 absolute colorimetric.
    public var sRGBIntent: Int?
    /// iCCP (§11.3.3.3): the profile's name (the profile is `ImageProperties.iccProfile`).
    public var iccProfileName: String?
    /// sBIT (§11.3.3.4): significant bits per channel as stored (1 to 4 values).
    public var significantBits: [Int]?
    /// bKGD (§11.3.5.1): the background colour — a palette index, a gray level or RGB, in the
    /// image's sample depth.
    public var background: Background?
    /// pHYs (§11.3.5.3): pixels per unit on each axis.
    public var pixelsPerUnit: PixelDensity?
    /// tIME (§11.3.6.1): the last modification, UTC.
    public var modificationTime: ModificationTime?

    public init() {}

    public struct Chromaticities: Sendable, Hashable {
        public var whiteX: Double, whiteY: Double
        public var redX: Double, redY: Double
        public var greenX: Double, greenY: Double
        public var blueX: Double, blueY: Double
    }

    public enum Background: Sendable, Hashable {
        case paletteIndex(Int)
        case gray(Int)
        case rgb(Int, Int, Int)
    }

    public struct ModificationTime: Sendable, Hashable {
        public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    }

    public struct PixelDensity: Sendable, Hashable {
        public var x: Int, y: Int
        /// False: the unit is unknown, and the values give the pixel aspect ratio only.
        public var perMetre: Bool
    }
}

/// A JPEG's JFIF APP0 segment (JFIF 1.02): version and pixel density (ImageIO's `{JFIF}`:
/// `kCGImagePropertyJFIFVersion`, `…XDensity`, `…YDensity`, `…DensityUnit`).
public struct JFIFProperties: Sendable, Hashable {
    public var majorVersion: Int
    public var minorVersion: Int
    /// 0: no unit (the densities give the aspect ratio), 1: dots per inch, 2: dots per cm.
    public var densityUnit: Int
    public var xDensity: Int
    public var yDensity: Int
}
