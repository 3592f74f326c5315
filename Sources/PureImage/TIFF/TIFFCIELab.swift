#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// §23 CIELab (PhotometricInterpretation 8) to sRGB display values, as libtiff's RGBA interface
/// converts it (tif_color.c TIFFCIELabToRGBInit / TIFFCIELab16ToXYZ / TIFFXYZToRGB, with
/// tif_getimage.c's display_sRGB): single-precision arithmetic throughout, as libtiff's.
///
/// 1. L*a*b* → XYZ relative to the reference white from WhitePoint (default D50, Adobe's
///    technical note): Y = Y0 × ((L + 16) / 116)³ (or L × Y0 / 903.292 below L = 8.856), and
///    X, Z from a* / 500 and b* / 200 likewise.
/// 2. XYZ → linear RGB by the sRGB matrix, clipped to 1…100 (the display's black and white light).
/// 3. A 1501-entry table per channel: 255 × (i / 1500)^(1/2.4), indexed by the truncated position
///    of the light between black and white, then rounded.
///
/// 8-bit files hold L as 0…255 and a*, b* as signed bytes; libtiff scales them to the 16-bit
/// encoding (L × 257, a × 256, b × 256) first. ICCLab (9) stores a*, b* offset by 128 (32768) —
/// libtiff does not render it; PureImage reads it as the same values and converts them alike.
struct TIFFCIELab {
    /// Constants as a C compiler reads `903.292F`: decimal straight to float (strtof).
    private static func f(_ text: String) -> Float { Float(text) ?? 0 }
    private static let matrix: [Float] = "3.2410 -1.5374 -0.4986 -0.9692 1.8760 0.0416 0.0556 -0.2040 1.0570"
        .split(separator: " ").map { f(String($0)) }
    private static let kappa = f("903.292"), epsilon = f("8.856"), slope = f("7.787")
    private static let sixteenOver116 = f("16.0") / f("116.0")
    private static let cubeThreshold = f("0.2069"), offset = f("0.13793")
    private static let tableRange = 1500
    private static let blackLight: Float = 1, whiteLight: Float = 100

    private let x0: Float, y0: Float, z0: Float
    private let step: Float
    private let table: [Float]

    /// `whitePoint` (x, y) of the WhitePoint tag, or nil for D50. Nil when y is 0 (libtiff:
    /// "Invalid value for WhitePoint tag").
    init?(whitePoint: [Double]?) {
        var white: [Float]
        if let whitePoint, whitePoint.count >= 2 {
            white = [Float(whitePoint[0]), Float(whitePoint[1])]
        } else {
            let x = Self.f("96.4250"), y = Self.f("100.0"), z = Self.f("82.4680")
            white = [x / (x + y + z), y / (x + y + z)]
        }
        guard white[1] != 0 else { return nil }
        y0 = 100
        x0 = white[0] / white[1] * y0
        z0 = (1 - white[0] - white[1]) / white[1] * y0
        step = (Self.whiteLight - Self.blackLight) / Float(Self.tableRange)
        let gamma = 1.0 / Double(Self.f("2.4"))
        table = (0...Self.tableRange).map { i in 255 * Float(pow(Double(i) / Double(Self.tableRange), gamma)) }
    }

    /// TIFFCIELab16ToXYZ then TIFFXYZToRGB: L 0…65535, a*, b* × 256.
    func rgb(l: UInt32, a: Int32, b: Int32) -> (UInt8, UInt8, UInt8) {
        let lightness = Float(l) * 100 / 65535
        var y: Float, cby: Float
        if lightness < Self.epsilon {
            y = lightness * y0 / Self.kappa
            cby = Self.slope * (y / y0) + Self.sixteenOver116
        } else {
            cby = (lightness + 16) / 116
            y = y0 * cby * cby * cby
        }
        func component(_ t: Float, _ white: Float) -> Float {
            t < Self.cubeThreshold ? white * (t - Self.offset) / Self.slope : white * t * t * t
        }
        let x = component(Float(a) / 256 / 500 + cby, x0)
        let z = component(cby - Float(b) / 256 / 200, z0)
        let m = Self.matrix
        func channel(_ row: Int) -> UInt8 {
            var light = m[3 * row] * x + m[3 * row + 1] * y + m[3 * row + 2] * z
            light = max(light, Self.blackLight)
            light = min(light, Self.whiteLight)
            let index = min(Self.tableRange, Int((light - Self.blackLight) / step))
            let value = Double(table[index])
            let rounded = UInt32(value > 0 ? value + 0.5 : value - 0.5)
            return UInt8(min(rounded, 255))
        }
        return (channel(0), channel(1), channel(2))
    }
}
