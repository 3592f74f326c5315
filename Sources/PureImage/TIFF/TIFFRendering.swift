/// §8 PhotometricInterpretation: turns assembled sample planes into a native `Bitmap`.
///
/// | photometric       | native bitmap                                              |
/// |-------------------|------------------------------------------------------------|
/// | WhiteIsZero (0)   | gray, inverted (v' = 2^bits − 1 − v), 1/2/4/8/16-bit        |
/// | BlackIsZero (1)   | gray, 1/2/4/8/16-bit (+ alpha at 8/16 bits)                 |
/// | RGB (2)           | RGB 8/16-bit (+ alpha)                                      |
/// | Palette (3)       | indexed, 1/2/4/8-bit, palette from the 16-bit ColorMap      |
/// | Separated (5)     | CMYK 8/16-bit (ink values, 0 = no ink)                      |
/// | YCbCr (6)         | RGB 8-bit, converted as libtiff's TIFFYCbCrtoRGB does       |
///
/// Alpha (§8 ExtraSamples): 1 associated → `premultipliedLast`, 2 unassociated → `last`;
/// 0 (unspecified) with more than 3 samples counts as associated, as libtiff's
/// `TIFFRGBAImageBegin` does. Further extra samples are dropped. 16-bit samples are
/// big-endian (`ByteOrder.default`).
enum TIFFRendering {
    /// Whether `layout` can become a `Bitmap` (its samples always decode): the depths, sample
    /// formats and photometric interpretations below, the same set libtiff's RGBA interface
    /// renders plus floating point. Throws a typed `unsupported` error otherwise.
    static func checkRenderable(_ layout: TIFFImageLayout) throws(DecodeError) {
        func refuse(_ reason: TIFFError) -> DecodeError { DecodeError(.unsupported, format: .tiff, offset: nil, reason) }
        let bps = layout.bitsPerSample
        switch layout.sampleFormat {
        case 3:
            // IEEE floats (16, 24, 32, 64 bits) render as float gray or RGB (+ alpha).
            guard [16, 24, 32, 64].contains(bps) else { throw refuse(.unsupportedBitsPerSample(bps)) }
            guard layout.photometric == .blackIsZero || (layout.photometric == .rgb && layout.colorChannels >= 3) else {
                throw refuse(.unsupportedLayout("floating-point samples with photometric \(layout.photometricCode)"))
            }
            return
        case 5, 6:
            throw refuse(.unsupportedSampleFormat(layout.sampleFormat))
        default:
            guard [1, 2, 4, 8, 16].contains(bps) else { throw refuse(.unsupportedBitsPerSample(bps)) }
        }
        switch layout.photometric {
        case .cieLab, .iccLab:
            // Rendered as libtiff's RGBA interface renders CIELab: 3 contiguous 8/16-bit samples.
            guard layout.samplesPerPixel == 3, layout.colorChannels == 3, bps == 8 || bps == 16, !layout.isPlanar else {
                throw refuse(.unsupportedLayout("CIELab with \(layout.samplesPerPixel) × \(bps)-bit samples\(layout.isPlanar ? " in separate planes" : "")"))
            }
            guard TIFFCIELab(whitePoint: layout.whitePoint) != nil else { throw refuse(.unsupportedLayout("CIELab with WhitePoint y = 0")) }
        case .logL, .logLuv:
            // Decoded by the SGILog codec straight to 8-bit gray / RGB (TIFFImageLayout.forRendering).
            guard layout.sgiLog?.format == .eightBit else { throw refuse(.unsupportedPhotometric(layout.photometricCode)) }
        case .transparencyMask, .ituLab, .unknown:
            throw refuse(.unsupportedPhotometric(layout.photometricCode))
        case .rgb where layout.colorChannels < 3:
            throw refuse(.unsupportedLayout("RGB with \(layout.colorChannels) colour channels"))
        case .separated where layout.samplesPerPixel < 4:
            throw refuse(.unsupportedLayout("CMYK with \(layout.samplesPerPixel) samples per pixel"))
        case .separated where layout.inkSet != 1:
            throw refuse(.unsupportedLayout("InkSet \(layout.inkSet) (not CMYK)"))
        case .palette where bps > 8:
            throw refuse(.unsupportedLayout("palette with \(bps)-bit samples"))
        case .ycbcr where layout.compression == 7 && layout.isPlanar && layout.ycbcrSubsampling != (1, 1):
            // Each chroma plane is its own smaller JPEG; libtiff's RGBA interface refuses these too.
            throw refuse(.unsupportedLayout("JPEG YCbCr in separate planes with subsampling"))
        default:
            break
        }
    }

    /// §8 ExtraSamples as the bitmap's alpha: associated → premultiplied, unassociated → straight.
    static func alphaInfo(_ alpha: TIFFImageLayout.Alpha) -> AlphaInfo {
        switch alpha {
        case .none: return .none
        case .associated: return .premultipliedLast
        case .unassociated: return .last
        }
    }

    /// The format `render` gives a chunky page whose samples it hands back exactly as they are
    /// (`TIFFSampleGatherer.gather` returns the plane itself: every sample of the pixel, in order,
    /// none transformed) — 8-bit gray, gray + alpha, RGB, RGBA and CMYK, and the same at 16 bits
    /// when the samples are already big-endian (`bigEndianSamples`); nil for every other layout.
    /// Must agree with `render`'s cases below, which `TIFFStoredRowsTests` checks.
    static func formatOfUnchangedSamples(_ layout: TIFFImageLayout, bigEndianSamples: Bool) -> PixelFormat? {
        let bps = layout.bitsPerSample, spp = layout.samplesPerPixel
        guard bps == 8 || (bps == 16 && bigEndianSamples), layout.sampleFormat == 1, !layout.isPlanar else { return nil }
        let alpha = alphaInfo(layout.alpha)
        switch layout.photometric {
        case .blackIsZero where layout.colorChannels == 1:
            // renderGray gathers the gray sample, and the alpha sample when there is one.
            guard spp == (alpha == .none ? 1 : 2) else { return nil }
            return PixelFormat(colorModel: .gray, bitsPerComponent: bps, alphaInfo: alpha)
        case .rgb:
            // RGB gathers 3 samples, or 4 when the fourth is alpha.
            let hasAlpha = alpha != .none && spp > 3
            guard spp == (hasAlpha ? 4 : 3) else { return nil }
            return PixelFormat(colorModel: .rgb, bitsPerComponent: bps, alphaInfo: hasAlpha ? alpha : .none)
        case .separated:
            guard spp == 4 else { return nil }
            return PixelFormat(colorModel: .cmyk, bitsPerComponent: bps, alphaInfo: .none)
        default:
            return nil
        }
    }

    /// Renders `rows` rows (default: the whole page) from planes holding those rows.
    static func render(layout: TIFFImageLayout, planes: [[UInt8]], planeRowBytes: Int, rows: Int? = nil,
                       limits: DecodeLimits = .default) throws(DecodeError) -> Bitmap {
        let width = layout.width, height = rows ?? layout.height
        if layout.sampleFormat == 3 {
            return try renderFloat(layout: layout, planes: planes, planeRowBytes: planeRowBytes, rows: height, limits: limits)
        }
        let bps = layout.bitsPerSample
        let spp = layout.samplesPerPixel
        let samples = TIFFSampleGatherer(layout: layout, planes: planes, planeRowBytes: planeRowBytes,
                                         width: width, height: height, limits: limits)

        let alphaInfo = alphaInfo(layout.alpha)
        let colorChannels = layout.colorChannels
        let maxValue = UInt16((1 << bps) - 1)

        switch layout.photometric {
        case .whiteIsZero, .blackIsZero:
            return try renderGray(samples, invert: layout.photometric == .whiteIsZero, bitsPerSample: bps,
                                  alpha: colorChannels == 1 ? alphaInfo : .none, maxValue: maxValue)

        case .palette:
            let palette = try palette(layout.colorMap, bitsPerSample: bps)
            var bytes = bps == 8 ? try samples.gather([0]) : samples.packedFirstSample()
            if bps < 8 { samples.clearRowPadding(&bytes, bitsPerPixel: bps) }
            return try samples.bitmap(PixelFormat(colorModel: .indexed(palette), bitsPerComponent: bps, alphaInfo: .none), bytes)

        case .rgb:
            guard bps >= 8 else {
                throw DecodeError(.unsupported, format: .tiff, offset: nil, TIFFError.unsupportedLayout("RGB with \(bps)-bit samples"))
            }
            let hasAlpha = alphaInfo != .none && spp > 3
            let bytes = try samples.gather(hasAlpha ? [0, 1, 2, 3] : [0, 1, 2])
            return try samples.bitmap(PixelFormat(colorModel: .rgb, bitsPerComponent: bps, alphaInfo: hasAlpha ? alphaInfo : .none), bytes)

        case .separated:
            guard bps >= 8 else {
                throw DecodeError(.unsupported, format: .tiff, offset: nil, TIFFError.unsupportedLayout("CMYK with \(bps)-bit samples"))
            }
            // Extra samples after K are dropped, as libtiff's RGBA interface does.
            return try samples.bitmap(PixelFormat(colorModel: .cmyk, bitsPerComponent: bps, alphaInfo: .none), try samples.gather([0, 1, 2, 3]))

        case .ycbcr where layout.compression == 7 && !layout.isPlanar:
            // The JPEG decoder already produced RGB (libtiff's JPEGCOLORMODE_RGB).
            return try samples.bitmap(.rgb8, try samples.gather([0, 1, 2]))

        case .ycbcr:
            let converter = TIFFYCbCrConverter(coefficients: layout.ycbcrCoefficients, referenceBlackWhite: layout.referenceBlackWhite)
            return try samples.bitmap(.rgb8, converter.rgb(fromYCbCr: try samples.gather([0, 1, 2])))

        case .logL:
            return try samples.bitmap(.gray8, try samples.gather([0]))

        case .logLuv:
            return try samples.bitmap(.rgb8, try samples.gather([0, 1, 2]))

        case .cieLab, .iccLab:
            guard let lab = TIFFCIELab(whitePoint: layout.whitePoint) else {
                throw DecodeError(.unsupported, format: .tiff, offset: nil, TIFFError.unsupportedPhotometric(layout.photometricCode))
            }
            let rgb = labToRGB(try samples.gather([0, 1, 2]), lab: lab, bitsPerSample: bps, isICCLab: layout.photometric == .iccLab)
            return try samples.bitmap(.rgb8, rgb)

        case .transparencyMask, .ituLab, .unknown:
            throw DecodeError(.unsupported, format: .tiff, offset: nil, TIFFError.unsupportedPhotometric(layout.photometricCode))
        }
    }

    /// §4 bilevel and gray: samples below 8 bits stay packed (inverted bitwise for WhiteIsZero),
    /// deeper ones are gathered with the alpha sample when there is one.
    private static func renderGray(_ samples: TIFFSampleGatherer, invert: Bool, bitsPerSample bps: Int, alpha: AlphaInfo,
                                   maxValue: UInt16) throws(DecodeError) -> Bitmap {
        if bps < 8 {
            var bytes = samples.packedFirstSample()
            if invert { for i in bytes.indices { bytes[i] = ~bytes[i] } }
            samples.clearRowPadding(&bytes, bitsPerPixel: bps)
            return try samples.bitmap(PixelFormat(colorModel: .gray, bitsPerComponent: bps, alphaInfo: .none), bytes)
        }
        let sources = alpha != .none ? [0, 1] : [0]
        let bytes = invert ? try samples.gather(sources) { channel, v in channel == 0 ? maxValue - v : v } : try samples.gather(sources)
        return try samples.bitmap(PixelFormat(colorModel: .gray, bitsPerComponent: bps, alphaInfo: alpha), bytes)
    }

    /// §5 ColorMap: 2^bits red values, then green, then blue, as an opaque palette.
    private static func palette(_ map: [Int], bitsPerSample bps: Int) throws(DecodeError) -> Palette {
        let count = 1 << bps
        // libtiff tif_getimage.c checkcmap: when no entry is ≥ 256 the map is taken to be
        // 8-bit already ("Assuming 8-bit colormap"); otherwise each value is shifted right 8.
        let eightBit = !map.prefix(3 * count).contains { $0 >= 256 }
        var rgba: [UInt8] = []
        rgba.reserveCapacity(count * 4)
        for i in 0..<count {
            for channel in 0..<3 {
                let value = map[channel * count + i]
                rgba.append(UInt8(truncatingIfNeeded: eightBit ? value : value >> 8))
            }
            rgba.append(255)
        }
        guard let palette = Palette(rgba: rgba) else {
            throw DecodeError(.malformed, format: .tiff, offset: nil, TIFFError.invalidColorMap(count: map.count, expected: 3 * count))
        }
        return palette
    }

    /// TIFF 6.0 §23 CIE L*a*b* samples (and libtiff's ICCLab variant), 8 or 16 bits each, to
    /// RGB 8-bit through `lab`. 16-bit samples are big-endian here; ICCLab stores a* and b*
    /// offset by half the range instead of signed.
    private static func labToRGB(_ samples: [UInt8], lab: TIFFCIELab, bitsPerSample bps: Int, isICCLab icc: Bool) -> [UInt8] {
        let bytesPerPixel = bps == 16 ? 6 : 3
        var rgb = [UInt8](repeating: 0, count: samples.count / bytesPerPixel * 3)
        var i = 0, o = 0
        while o < rgb.count {
            let l: UInt32, a: Int32, b: Int32
            if bps == 16 {
                let l16 = UInt16(samples[i]) << 8 | UInt16(samples[i + 1])
                let a16 = UInt16(samples[i + 2]) << 8 | UInt16(samples[i + 3])
                let b16 = UInt16(samples[i + 4]) << 8 | UInt16(samples[i + 5])
                l = UInt32(l16)
                a = icc ? Int32(a16) - 32768 : Int32(Int16(bitPattern: a16))
                b = icc ? Int32(b16) - 32768 : Int32(Int16(bitPattern: b16))
            } else {
                l = UInt32(samples[i]) * 257
                a = (icc ? Int32(samples[i + 1]) - 128 : Int32(Int8(bitPattern: samples[i + 1]))) * 256
                b = (icc ? Int32(samples[i + 2]) - 128 : Int32(Int8(bitPattern: samples[i + 2]))) * 256
            }
            (rgb[o], rgb[o + 1], rgb[o + 2]) = lab.rgb(l: l, a: a, b: b)
            i += bytesPerPixel
            o += 3
        }
        return rgb
    }
}

/// §21 YCbCr → RGB with §20 ReferenceBlackWhite, in the fixed-point arithmetic of libtiff's
/// `TIFFYCbCrToRGBInit` / `TIFFYCbCrtoRGB` (tif_color.c): 16.16 coefficients, per-code tables
/// built with single-precision floats, results clamped to 0…255.
struct TIFFYCbCrConverter {
    private var yTable = [Int](repeating: 0, count: 256)
    private var crR = [Int](repeating: 0, count: 256)
    private var cbB = [Int](repeating: 0, count: 256)
    private var crG = [Int](repeating: 0, count: 256)
    private var cbG = [Int](repeating: 0, count: 256)

    init(coefficients: [Double], referenceBlackWhite: [Double]) {
        let luma: [Float] = coefficients.count >= 3 ? coefficients.prefix(3).map { Float($0) } : [0.299, 0.587, 0.114]
        let reference: [Float] = referenceBlackWhite.count >= 6 ? referenceBlackWhite.prefix(6).map { Float($0) } : [0, 255, 128, 255, 128, 255]
        // Coefficients come from the file: NaN and infinities are clamped before any Int().
        func clamp(_ f: Float, _ low: Float, _ high: Float) -> Float { f.isNaN || f < low ? low : (f > high ? high : f) }
        func fix(_ x: Float) -> Int { Int(clamp(x, -4, 4) * 65536 + 0.5) }
        func code2V(_ c: Int, _ black: Float, _ white: Float, _ range: Float) -> Float {
            (Float(c) - black) * range / (white - black != 0 ? white - black : 1)
        }
        let f1 = 2 - 2 * luma[0]
        let d1 = fix(clamp(f1, 0, 2))
        let f2 = luma[0] * f1 / luma[1]
        let d2 = -fix(clamp(f2, 0, 2))
        let f3 = 2 - 2 * luma[2]
        let d3 = fix(clamp(f3, 0, 2))
        let f4 = luma[2] * f3 / luma[1]
        let d4 = -fix(clamp(f4, 0, 2))
        for i in 0..<256 {
            let x = i - 128
            let cr = Int(clamp(code2V(x, reference[4] - 128, reference[5] - 128, 127), -128 * 32, 128 * 32))
            let cb = Int(clamp(code2V(x, reference[2] - 128, reference[3] - 128, 127), -128 * 32, 128 * 32))
            crR[i] = (d1 * cr + 32768) >> 16
            cbB[i] = (d3 * cb + 32768) >> 16
            crG[i] = d2 * cr
            cbG[i] = d4 * cb + 32768
            yTable[i] = Int(clamp(code2V(x + 128, reference[0], reference[1], 255), -128 * 32, 128 * 32))
        }
    }

    /// Interleaved Y, Cb, Cr samples (8 bits each) as RGB samples, pixel by pixel.
    func rgb(fromYCbCr ycc: [UInt8]) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: ycc.count)
        var i = 0
        while i + 2 < ycc.count {
            let (r, g, b) = self.rgb(y: Int(ycc[i]), cb: Int(ycc[i + 1]), cr: Int(ycc[i + 2]))
            rgb[i] = r; rgb[i + 1] = g; rgb[i + 2] = b
            i += 3
        }
        return rgb
    }

    func rgb(y: Int, cb: Int, cr: Int) -> (UInt8, UInt8, UInt8) {
        func clamp8(_ v: Int) -> UInt8 { UInt8(v < 0 ? 0 : (v > 255 ? 255 : v)) }
        let luma = yTable[y]
        return (clamp8(luma + crR[cr]), clamp8(luma + ((cbG[cb] + crG[cr]) >> 16)), clamp8(luma + cbB[cb]))
    }
}
