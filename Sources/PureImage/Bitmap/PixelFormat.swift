/// Everything needed to interpret a pixel's bits: the role of Core Graphics' colour space +
/// bits per component + bits per pixel + `CGBitmapInfo`.
///
/// Valid combinations (`validate()`):
/// - `bitsPerComponent` is 1, 2, 4, 8 or 16; below 8 only for a single component per pixel
///   (gray, indexed or alpha-only), packed most significant bits first, `ByteOrder.default`;
/// - indexed pixels have `AlphaInfo.none` and at most 8 bits (the palette carries transparency);
/// - the pixel size is a whole number of the byte order's groups (see `ByteOrder`);
/// - floating-point components (`componentType == .float`) are IEEE 754 binary32 or binary64
///   (32 or 64 bits), of a gray, RGB or CMYK pixel; nominal range 0…1 (see Docs/Bitmap.md).
public struct PixelFormat: Hashable, Sendable {
    /// How a component's bits are read.
    public enum ComponentType: String, Hashable, Sendable {
        /// An unsigned integer, 0 … 2^bits − 1 (every format but the float ones).
        case unsignedInteger
        /// An IEEE 754 number, 0 = none, 1 = full (HDR and scientific TIFFs can go beyond).
        case float
    }

    /// The colour space of the colour components.
    public var colorModel: ColorModel
    /// 1, 2, 4, 8 or 16 for unsigned integers; 32 or 64 for floats.
    public var bitsPerComponent: Int
    /// Whether there is alpha (or a skip component), where it sits, and if colour is premultiplied.
    public var alphaInfo: AlphaInfo
    /// How the logical component order is laid out in memory.
    public var byteOrder: ByteOrder
    /// Unsigned integer or floating-point components.
    public var componentType: ComponentType

    /// Creates a format; check it with `validate()` or `isValid`.
    public init(colorModel: ColorModel, bitsPerComponent: Int, alphaInfo: AlphaInfo, byteOrder: ByteOrder = .default,
                componentType: ComponentType = .unsignedInteger) {
        self.colorModel = colorModel
        self.bitsPerComponent = bitsPerComponent
        self.alphaInfo = alphaInfo
        self.byteOrder = byteOrder
        self.componentType = componentType
    }

    /// Components stored per pixel, counting alpha and skip components.
    public var componentsPerPixel: Int {
        if alphaInfo == .alphaOnly { return 1 }
        return colorModel.colorComponentCount + (alphaInfo.hasExtraComponent ? 1 : 0)
    }

    /// Bits per pixel: `componentsPerPixel × bitsPerComponent`.
    public var bitsPerPixel: Int { componentsPerPixel * bitsPerComponent }

    /// Bytes per pixel for formats of 8 bits per pixel or more; 0 for packed sub-byte formats.
    public var bytesPerPixel: Int { bitsPerPixel >= 8 ? bitsPerPixel / 8 : 0 }

    /// Core Graphics' "contains alpha": false only for `none`, `noneSkipFirst`, `noneSkipLast`.
    /// Indexed formats report false here; their transparency is in `Palette`.
    public var containsAlpha: Bool { alphaInfo.containsAlpha }

    /// The smallest row that holds `width` pixels, in bytes (packed formats round up to a byte).
    /// Nil when the product overflows.
    public func minimumBytesPerRow(width: Int) -> Int? {
        let (bits, overflow) = width.multipliedReportingOverflow(by: bitsPerPixel)
        guard !overflow, width >= 0 else { return nil }
        return (bits + 7) / 8
    }

    /// The row size chosen when a caller passes `bytesPerRow: 0`: the minimum, rounded up to a
    /// multiple of 8 pixels' worth of bytes (`bitsPerPixel` bytes), as SDWebImage's
    /// `SDByteAlign(bytesPerPixel × width, bytesPerPixel × 8)` does. So RGBA8 rows are a multiple
    /// of 32 bytes, RGB8 of 24, 1-bit gray of 1.
    public func alignedBytesPerRow(width: Int) -> Int? {
        guard let minimum = minimumBytesPerRow(width: width) else { return nil }
        let alignment = Swift.max(1, bitsPerPixel)
        let (padded, overflow) = minimum.addingReportingOverflow(alignment - 1)
        guard !overflow else { return nil }
        return padded / alignment * alignment
    }

    /// Checks the rules listed on the type. Returns nil when valid, else what is wrong.
    public func validate() -> String? {
        if componentType == .float {
            guard bitsPerComponent == 32 || bitsPerComponent == 64 else { return "float components have 32 or 64 bits, not \(bitsPerComponent)" }
            if case .indexed = colorModel { return "indexed pixels cannot be float" }
            if alphaInfo == .alphaOnly { return "float alpha-only pixels are not supported" }
            let bytes = bitsPerPixel / 8
            return bytes % byteOrder.groupBytes == 0 ? nil : "a \(bytes)-byte pixel is not a whole number of \(byteOrder.rawValue) groups"
        }
        guard [1, 2, 4, 8, 16].contains(bitsPerComponent) else {
            return "bits per component must be 1, 2, 4, 8 or 16, not \(bitsPerComponent)"
        }
        if case .indexed = colorModel {
            if alphaInfo != .none { return "indexed pixels carry alpha in their palette; alpha info must be none" }
            if bitsPerComponent > 8 { return "indexed pixels have at most 8 bits" }
        }
        if bitsPerComponent < 8 {
            if componentsPerPixel != 1 { return "below 8 bits per component only one component per pixel is supported" }
            if byteOrder != .default { return "packed sub-byte pixels use the default byte order" }
            return nil
        }
        let bytes = bitsPerPixel / 8
        if bytes % byteOrder.groupBytes != 0 {
            return "a \(bytes)-byte pixel is not a whole number of \(byteOrder.rawValue) groups"
        }
        return nil
    }

    /// True when `validate()` finds nothing wrong.
    public var isValid: Bool { validate() == nil }

    /// A one-line description such as `rgb 8-bit premultipliedFirst order32Little`.
    public var summary: String {
        "\(colorModel.name) \(bitsPerComponent)-bit\(componentType == .float ? " float" : "") \(alphaInfo.rawValue) \(byteOrder.rawValue)"
    }
}

// MARK: - Named formats

extension PixelFormat {
    /// Straight RGBA, 8 bits, R G B A in memory: the canonical output for sources of ≤ 8 bits.
    public static let rgba8 = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .last)
    /// Straight RGBA, 16 bits per component in host byte order: the canonical output for deeper sources.
    public static let rgba16 = PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .last, byteOrder: .order16Host)
    /// Premultiplied RGBA, 8 bits, R G B A in memory.
    public static let rgba8Premultiplied = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .premultipliedLast)
    /// 8-bit RGB, no alpha, R G B in memory.
    public static let rgb8 = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .none)
    /// 8-bit gray.
    public static let gray8 = PixelFormat(colorModel: .gray, bitsPerComponent: 8, alphaInfo: .none)

    /// SDWebImage's "decoded for display" format (`SDImageCoderHelper`): 8-bit device RGB,
    /// `order32Host`, `premultipliedFirst` when the image has alpha, else `noneSkipFirst`.
    /// On little-endian machines that is B G R A (or B G R x) in memory.
    public static func display(hasAlpha: Bool) -> PixelFormat {
        PixelFormat(colorModel: .rgb, bitsPerComponent: 8,
                    alphaInfo: hasAlpha ? .premultipliedFirst : .noneSkipFirst,
                    byteOrder: .order32Host)
    }
}

// MARK: - Memory layout

/// Where each logical component of a pixel lives in memory, for formats of 8 or 16 bits per
/// component. Computed once per conversion, never per pixel.
struct ComponentLayout: Equatable {
    /// Byte offset within the pixel of each colour component's most significant byte
    /// (for 8-bit components, of the component itself), in `ColorModel` order.
    var colorHigh: [Int]
    /// Same for the least significant byte (equal to `colorHigh` for 8-bit components).
    var colorLow: [Int]
    /// Offsets of the alpha (or skip) component, nil when the pixel has none.
    var extraHigh: Int?
    var extraLow: Int?

    /// Builds the layout by the rule documented on `ByteOrder`: lay the components out in
    /// logical order, big-endian, then reverse each swap group.
    init(_ format: PixelFormat) {
        precondition(format.bitsPerComponent == 8 || format.bitsPerComponent == 16, "layout needs 8 or 16 bits")
        let componentBytes = format.bitsPerComponent / 8
        let group = format.byteOrder.swapGroupSize
        func memoryOffset(_ logical: Int) -> Int {
            group == 1 ? logical : (logical / group) * group + (group - 1 - logical % group)
        }
        let colorCount = format.alphaInfo == .alphaOnly ? 0 : format.colorModel.colorComponentCount
        let extraFirst = format.alphaInfo.extraComponentIsFirst
        let hasExtra = format.alphaInfo.hasExtraComponent || format.alphaInfo == .alphaOnly
        var high: [Int] = []
        var low: [Int] = []
        let colorStart = (hasExtra && extraFirst) ? 1 : 0
        for component in 0..<colorCount {
            let logical = (colorStart + component) * componentBytes
            high.append(memoryOffset(logical))
            low.append(memoryOffset(logical + componentBytes - 1))
        }
        colorHigh = high
        colorLow = low
        if hasExtra {
            let slot = extraFirst ? 0 : colorCount
            extraHigh = memoryOffset(slot * componentBytes)
            extraLow = memoryOffset(slot * componentBytes + componentBytes - 1)
        } else {
            extraHigh = nil
            extraLow = nil
        }
    }
}
