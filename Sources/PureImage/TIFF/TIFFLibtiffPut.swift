/// libtiff's choice of RGBA conversion (tif_getimage.c TIFFRGBAImageOK, TIFFRGBAImageBegin,
/// PickContigCase, PickSeparateCase) and its "put" routines, as arithmetic on the decoded
/// strip or tile buffers. A pixel is packed as libtiff packs it, R | G << 8 | B << 16 | A << 24,
/// and written R, G, B, A.
struct TIFFLibtiffPut {
    enum Alpha { case none, associated, unassociated }

    enum Kind {
        /// YCbCr: PureImage's own rendering, which is libtiff's (TIFFLibtiffRGBA's comment).
        case ownRendering
        /// 1/2/4-bit gray or palette: one byte holds 8 / bits pixels (put1bitbwtile, put4bitcmaptile…).
        case packed(bits: Int, table: [UInt32])
        /// 8-bit gray or palette (putgreytile, put8bitcmaptile).
        case bytes(table: [UInt32])
        /// 8-bit gray + alpha, 2 samples (putagreytile): gray from the map, alpha as stored.
        case grayAlpha8(table: [UInt32])
        /// 16-bit gray (put16bitbwtile): the map at the sample's high byte.
        case gray16(table: [UInt32])
        case rgb8(Alpha)
        case rgb16(Alpha)
        case cmyk8
        /// Separate planes: gray (1 colour plane, read as R = G = B) or RGB, 8 or 16 bits.
        case separate8(colorPlanes: Int, Alpha)
        case separate16(colorPlanes: Int, Alpha)
        case separateCMYK8
    }

    let kind: Kind
    let samplesPerPixel: Int

    /// Picks the case for `layout` (SGILog already made 8-bit, `TIFFImageLayout.forRendering`),
    /// or refuses as libtiff's RGBA interface refuses; `declared` is the file's own layout,
    /// whose depth and sample format libtiff checks first.
    init(layout: TIFFImageLayout, declared: TIFFImageLayout) throws(DecodeError) {
        func refuse(_ why: String) -> DecodeError {
            DecodeError(.unsupported, format: .tiff, offset: nil, TIFFError.unsupportedLayout("libtiff's RGBA interface: \(why)"))
        }
        let bps = layout.bitsPerSample, spp = layout.samplesPerPixel
        samplesPerPixel = spp
        // TIFFRGBAImageOK.
        guard [1, 2, 4, 8, 16].contains(declared.bitsPerSample) else {
            throw refuse("Sorry, can not handle images with \(declared.bitsPerSample)-bit samples")
        }
        guard declared.sampleFormat != 3 else { throw refuse("Sorry, can not handle images with IEEE floating-point samples") }
        let alpha: Alpha = layout.alpha == .associated ? .associated : (layout.alpha == .unassociated ? .unassociated : .none)
        switch layout.photometric {
        case .whiteIsZero, .blackIsZero, .palette:
            if !layout.isPlanar && spp != 1 && bps < 8 { throw refuse("Sorry, can not handle contiguous data with Bits/Sample=\(bps)") }
        case .rgb:
            if layout.colorChannels < 3 { throw refuse("Sorry, can not handle RGB image with Color channels=\(layout.colorChannels)") }
        case .separated:
            if layout.inkSet != 1 { throw refuse("Sorry, can not handle separated image with InkSet=\(layout.inkSet)") }
            if spp < 4 { throw refuse("Sorry, can not handle separated image with Samples/pixel=\(spp)") }
        case .ycbcr:
            break
        case .logL:
            if layout.compression != 34676 { throw refuse("Sorry, LogL data must have Compression=34676") }
        case .logLuv:
            if layout.compression != 34676 && layout.compression != 34677 { throw refuse("Sorry, LogLuv data must have Compression=34676 or 34677") }
            if layout.planarConfigurationTag != 1 { throw refuse("Sorry, can not handle LogLuv images with Planarconfiguration=2") }
            if spp != 3 || layout.colorChannels != 3 { throw refuse("Sorry, can not handle image with Samples/pixel=\(spp)") }
        case .cieLab:
            if spp != 3 || layout.colorChannels != 3 || (bps != 8 && bps != 16) {
                throw refuse("Sorry, can not handle image with Samples/pixel=\(spp) and Bits/sample=\(bps)")
            }
        default:
            throw refuse("Sorry, can not handle image with PhotometricInterpretation=\(layout.photometricCode)")
        }
        // PickContigCase / PickSeparateCase.
        let cannot = refuse("Sorry, can not handle image")
        let isGray = layout.photometric == .whiteIsZero || layout.photometric == .blackIsZero
        if layout.photometric == .logL {
            // SGILOGDATAFMT_8BIT: 8-bit gray through an identity map ("little white lie": MinIsBlack).
            kind = .bytes(table: Self.grayTable(bits: 8, whiteIsZero: false))
        } else if layout.photometric == .logLuv {
            kind = .rgb8(.none)
        } else if layout.photometric == .cieLab {
            // initCIELabConversion: contiguous only, and a WhitePoint y of 0 is refused.
            guard !layout.isPlanar, TIFFCIELab(whitePoint: layout.whitePoint) != nil else { throw cannot }
            kind = .ownRendering
        } else if layout.photometric == .ycbcr {
            guard bps == 8, spp == 3 else { throw cannot }
            // Contiguous JPEG data is converted by libjpeg (JPEGCOLORMODE_RGB), not by these fields.
            if layout.compression != 7 || layout.isPlanar { try Self.checkYCbCrFields(layout) }
            let pair = layout.ycbcrSubsampling.0 << 4 | layout.ycbcrSubsampling.1
            let supported: Set<Int> = layout.isPlanar ? [0x11] : [0x44, 0x42, 0x41, 0x22, 0x21, 0x12, 0x11]
            guard (layout.compression == 7 && !layout.isPlanar) || supported.contains(pair) else { throw cannot }
            kind = .ownRendering
        } else if layout.isPlanar {
            switch layout.photometric {
            case .whiteIsZero, .blackIsZero, .rgb:
                let planes = isGray ? 1 : 3
                switch bps {
                case 8: kind = .separate8(colorPlanes: planes, alpha)
                case 16: kind = .separate16(colorPlanes: planes, alpha)
                default: throw cannot
                }
            case .separated where bps == 8 && spp == 4:
                kind = .separateCMYK8
            default:
                throw cannot
            }
        } else {
            switch layout.photometric {
            case .rgb where bps == 8 && spp >= 3:
                kind = .rgb8(spp >= 4 ? alpha : .none)
            case .rgb where bps == 16 && spp >= 3:
                kind = .rgb16(spp >= 4 ? alpha : .none)
            case .separated where bps == 8:
                kind = .cmyk8
            case .palette where bps <= 8:
                let table = Self.paletteTable(layout)
                kind = bps == 8 ? .bytes(table: table) : .packed(bits: bps, table: table)
            case .whiteIsZero, .blackIsZero:
                let table = Self.grayTable(bits: bps, whiteIsZero: layout.photometric == .whiteIsZero)
                switch bps {
                case 16: kind = .gray16(table: table)
                case 8: kind = alpha != .none && spp == 2 ? .grayAlpha8(table: table) : .bytes(table: table)
                default: kind = .packed(bits: bps, table: table)
                }
            default:
                throw cannot
            }
        }
    }

    static func pack(_ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32 = 255) -> UInt32 { r | g << 8 | b << 16 | a << 24 }

    /// setupMap: the range of the samples to 0…255, inverted for WhiteIsZero, truncated; 16-bit
    /// samples are indexed by their high byte (range 255).
    static func grayTable(bits: Int, whiteIsZero: Bool) -> [UInt32] {
        let range = bits == 16 ? 255 : (1 << bits) - 1
        return (0...range).map { x in
            let c = UInt32((whiteIsZero ? range - x : x) * 255 / range)
            return pack(c, c, c)
        }
    }

    /// checkcmap / cvtcmap / makecmap: a ColorMap with no value ≥ 256 is taken as 8-bit ("Assuming
    /// 8-bit colormap"), otherwise every value is shifted right 8; entries keep their low byte.
    static func paletteTable(_ layout: TIFFImageLayout) -> [UInt32] {
        let count = 1 << layout.bitsPerSample
        let map = layout.colorMap
        let sixteenBit = map.prefix(3 * count).contains { $0 >= 256 }
        return (0..<count).map { i in
            func value(_ channel: Int) -> UInt32 {
                let v = map[channel * count + i]
                return UInt32((sixteenBit ? v >> 8 : v) & 0xFF)
            }
            return pack(value(0), value(1), value(2))
        }
    }

    /// initYCbCrConversion: libtiff refuses NaN luma coefficients, a zero green coefficient and
    /// ReferenceBlackWhite values outside ±2^31 (after its float conversion).
    static func checkYCbCrFields(_ layout: TIFFImageLayout) throws(DecodeError) {
        let luma = layout.ycbcrCoefficients.count >= 3 ? layout.ycbcrCoefficients.prefix(3).map { Float($0) } : [0.299, 0.587, 0.114]
        let reference = layout.referenceBlackWhite.count >= 6 ? layout.referenceBlackWhite.prefix(6).map { Float($0) } : [0, 255, 128, 255, 128, 255]
        let lower = Float(-0x7FFF_FFFF + 128), upper = Float(0x7FFF_FFFF)
        guard !luma.contains(where: \.isNaN), luma[1] != 0, reference.allSatisfy({ $0 > lower && $0 < upper }) else {
            throw DecodeError(.unsupported, format: .tiff, offset: nil, TIFFError.unsupportedLayout("libtiff's RGBA interface: invalid YCbCrCoefficients or ReferenceBlackWhite"))
        }
    }
}
