/// PNG §11.2.2 Table 11.1: colour types and the bit depths each allows.
enum PNGColorType: UInt8 {
    case grayscale = 0
    case truecolor = 2
    case indexed = 3
    case grayscaleAlpha = 4
    case truecolorAlpha = 6

    var allowedBitDepths: [UInt8] {
        switch self {
        case .grayscale: return [1, 2, 4, 8, 16]
        case .indexed: return [1, 2, 4, 8]
        case .truecolor, .grayscaleAlpha, .truecolorAlpha: return [8, 16]
        }
    }

    /// Samples per pixel as stored in a scanline.
    var samplesPerPixel: Int {
        switch self {
        case .grayscale, .indexed: return 1
        case .grayscaleAlpha: return 2
        case .truecolor: return 3
        case .truecolorAlpha: return 4
        }
    }

    var hasAlphaChannel: Bool { self == .grayscaleAlpha || self == .truecolorAlpha }
}

/// The validated contents of IHDR.
struct PNGHeader: Equatable {
    /// 1...2^31 − 1.
    let width: Int
    /// 1...2^31 − 1.
    let height: Int
    /// One of `colorType.allowedBitDepths`.
    let bitDepth: Int
    let colorType: PNGColorType
    let interlaced: Bool

    /// Bits per pixel in a scanline (1...64).
    var bitsPerPixel: Int { bitDepth * colorType.samplesPerPixel }

    /// §9.2: the filter's "bpp": bytes per complete pixel, rounded up to 1.
    var filterBytesPerPixel: Int { max(1, bitsPerPixel / 8) }

    /// PNG §11.2.2 IHDR Image header. `offset` is where the chunk data starts (for errors).
    init(parsing data: ArraySlice<UInt8>, offset: Int) throws(DecodeError) {
        func fail(_ reason: PNGError, at fieldOffset: Int) -> DecodeError {
            DecodeError(.malformed, format: .png, offset: offset + fieldOffset, reason)
        }
        guard data.count == 13 else { throw fail(.badIHDRLength(UInt32(data.count)), at: -8) }
        let b = Array(data)  // exactly 13 bytes, checked above
        let width = UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
        let height = UInt32(b[4]) << 24 | UInt32(b[5]) << 16 | UInt32(b[6]) << 8 | UInt32(b[7])
        let depth = b[8], type = b[9], compression = b[10], filter = b[11], interlace = b[12]
        // "Zero is an invalid value"; the maximum is 2^31 − 1 (§7.1 PNG four-byte unsigned integers).
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw fail(.invalidDimensions(width: width, height: height), at: 0)
        }
        guard let colorType = PNGColorType(rawValue: type) else { throw fail(.invalidColorType(type), at: 9) }
        guard colorType.allowedBitDepths.contains(depth) else {
            throw fail(.invalidBitDepth(colorType: type, bitDepth: depth), at: 8)
        }
        guard compression == 0 else { throw fail(.invalidCompressionMethod(compression), at: 10) }
        guard filter == 0 else { throw fail(.invalidFilterMethod(filter), at: 11) }
        guard interlace <= 1 else { throw fail(.invalidInterlaceMethod(interlace), at: 12) }
        self.width = Int(width)
        self.height = Int(height)
        self.bitDepth = Int(depth)
        self.colorType = colorType
        self.interlaced = interlace == 1
    }

    init(width: Int, height: Int, bitDepth: Int, colorType: PNGColorType, interlaced: Bool) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colorType = colorType
        self.interlaced = interlaced
    }
}
