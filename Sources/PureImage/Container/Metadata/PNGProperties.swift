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

    /// Properties with nothing stated: every field nil.
    public init() {}

    /// cHRM's CIE 1931 x, y chromaticities (the stored values ÷ 100000).
    public struct Chromaticities: Sendable, Hashable {
        /// The white point.
        public var whiteX: Double, whiteY: Double
        /// The red primary.
        public var redX: Double, redY: Double
        /// The green primary.
        public var greenX: Double, greenY: Double
        /// The blue primary.
        public var blueX: Double, blueY: Double
    }

    /// A bKGD colour, in the form the image's colour type gives it.
    public enum Background: Sendable, Hashable {
        /// Indexed-colour images: an index into the palette.
        case paletteIndex(Int)
        /// Grayscale images: a gray level in the image's sample depth.
        case gray(Int)
        /// Truecolour images: red, green and blue in the image's sample depth.
        case rgb(Int, Int, Int)
    }

    /// A tIME timestamp, UTC, with each field as the chunk stores it (not validated).
    public struct ModificationTime: Sendable, Hashable {
        /// Full year (e.g. 2024), month 1–12, day 1–31, hour 0–23, minute 0–59, second 0–60.
        public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    }

    /// A pHYs density: pixels per unit on each axis.
    public struct PixelDensity: Sendable, Hashable {
        /// Pixels per unit horizontally (x) and vertically (y); per metre when `perMetre`.
        public var x: Int, y: Int
        /// False: the unit is unknown, and the values give the pixel aspect ratio only.
        public var perMetre: Bool
    }
}

/// A JPEG's JFIF APP0 segment (JFIF 1.02): version and pixel density (ImageIO's `{JFIF}`:
/// `kCGImagePropertyJFIFVersion`, `…XDensity`, `…YDensity`, `…DensityUnit`).
public struct JFIFProperties: Sendable, Hashable {
    /// The JFIF major version, normally 1 (any other gets a warning, as in libjpeg).
    public var majorVersion: Int
    /// The JFIF minor version (e.g. 2 for 1.02).
    public var minorVersion: Int
    /// 0: no unit (the densities give the aspect ratio), 1: dots per inch, 2: dots per cm.
    public var densityUnit: Int
    /// Horizontal density in `densityUnit` (with unit 0, the aspect ratio's horizontal term).
    public var xDensity: Int
    /// Vertical density in `densityUnit` (with unit 0, the aspect ratio's vertical term).
    public var yDensity: Int
}
