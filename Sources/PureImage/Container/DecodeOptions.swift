/// Options that change what a decoder accepts or produces. Each leniency is named, with the
/// reference library whose behaviour it reproduces, so conformance runs can state exactly what
/// they compare.
public struct DecodeOptions: Hashable, Sendable {
    /// Allocation and size bounds; see `DecodeLimits`.
    public var limits: DecodeLimits

    /// Stop after the first frame of an animation (GIF, APNG): "first frame only" decoding,
    /// like SDWebImage's `SDImageCoderDecodeFirstFrameOnly`. Default false.
    public var firstFrameOnly: Bool

    /// PNG: a CRC mismatch in an *ancillary* chunk is a warning and the chunk is ignored, as
    /// libpng does by default (`PNG_CRC_DEFAULT`: "warn and discard" for ancillary chunks);
    /// critical chunks always fail. Default true. When false, any CRC mismatch fails.
    public var pngIgnoreAncillaryCRCErrors: Bool

    /// PNG: decode APNG animations (acTL, fcTL, fdAT). When false those chunks are skipped as
    /// unknown ancillary chunks and the file decodes as its still default image — exactly what
    /// libpng without the APNG patch shows (the conformance runner compares that). Default true.
    public var decodeAPNGAnimation: Bool

    /// JPEG: DCT-domain reduction, 1 (full size), 2, 4 or 8 — libjpeg-turbo's
    /// `scale_num = 1, scale_denom = N`. Other formats ignore it.
    public var jpegScaleDenominator: Int

    /// Internal: describe, do not decode (`ImageSource.properties()`, CGImageSource's
    /// header-only properties). The decoder walks its container to the end — every frame and
    /// its timing, every metadata chunk — and decompresses nothing but metadata: JPEG stops at
    /// the first scan, PNG skips IDAT/fdAT payloads (their CRCs unchecked), GIF skips LZW
    /// sub-blocks, TIFF walks the IFD chain and describes page 0, WebP reads the bitstream
    /// headers only. No frame becomes available.
    var propertiesOnly = false

    /// Internal: an 8-bit colour or gray JPEG writes this 4-byte RGB format itself
    /// (`FourByteRGB`) instead of its samples, so that `ImageSource.decode(at:)` to canonical
    /// RGBA or the display format makes one full-size image, not a native one and then its
    /// conversion. Other JPEGs (CMYK, 12-bit, lossless above 8 bits) and formats ignore it.
    var jpegDirectFormat: PixelFormat?

    /// Internal: the decoder writes its image in the format this output resolves to
    /// (`ImageDecodingOptions.Output.target`) as its rows are finished, instead of keeping a
    /// native image and converting it when it is delivered, so that `ImageSource.decode(at:)`
    /// makes one full-size image. PNG converts each unfiltered scanline (`DirectImage`;
    /// interlaced, colour-keyed and animated PNGs ignore it), TIFF each rendered band into the
    /// page (`TIFFPageDecoder`; float pages ignore it), a still GIF composes its canvas in a
    /// 4-byte target (`GIFCanvasFormat`), a still WebP converts its raster in place
    /// (`WebPRaster.takeConverted`), a JPEG each rendered row (`DirectImage`) unless
    /// `jpegDirectFormat` lets its renderer write the output itself.
    var directOutput: ImageDecodingOptions.Output?

    /// Internal: a Huffman progressive JPEG whose coefficients would take more than twice
    /// `bandBytes` is decoded in bands of that many bytes of coefficients, at least
    /// `minimumRows` MCU rows (`CoefficientBands`): the downscaler's bounded memory. Nil: the
    /// whole image's coefficients are held, as libjpeg-turbo holds them.
    var jpegCoefficientBands: JPEGBandRequest? = nil

    /// Not public API (SPI `Reference`, for the fuzz harness and tests): progressive JPEGs
    /// decoded in bands of `rows` MCU rows whatever their size, so that small inputs run the
    /// banded decode the downscaler uses for large ones.
    @_spi(Reference) public mutating func decodeJPEGCoefficientsInBands(ofRows rows: Int) {
        jpegCoefficientBands = JPEGBandRequest(bandBytes: 0, minimumRows: max(1, rows))
    }

    /// Internal: the window and band a streamed GIF frame is decoded in (`GIFFirstFrameStream`);
    /// nil for the defaults (a megabyte of indices, bands of 65 536 pixels).
    var gifStreamSizes: GIFStreamSizes? = nil

    /// Not public API (SPI `Reference`, for the fuzz harness and tests): a GIF streamed in rows
    /// (`decodeRows`, the downscaler) is decoded in the smallest window and bands it allows,
    /// so that small inputs slide their LZW window as large ones do.
    @_spi(Reference) public mutating func streamGIFInTheSmallestWindow() {
        gifStreamSizes = GIFStreamSizes(windowBytes: 1, bandPixels: 1)
    }

    /// Internal: TIFF, decode this page alone (`ImageSource.decode(at:)`, as
    /// `CGImageSourceCreateImageAtIndex` reads one directory). The IFD chain is still walked to
    /// its end, so `frameCount` is exact; no other page is decoded, and the decode's properties,
    /// warnings and truncation are that page's. Nil: every page in order (the incremental source).
    var onlyPage: Int? = nil

    /// How a JPEG's components become colours. JPEG-in-TIFF tells libjpeg, whatever the
    /// stream's markers say: YCbCr → RGB for YCbCr pages, else the components as stored. Not
    /// public API: the conformance runner (SPI `Reference`) asks for the stored components of
    /// lossless YCbCr files, which libjpeg-turbo only hands out that way.
    @_spi(Reference) public enum JPEGColorHandling: Hashable, Sendable {
        /// From the stream (JFIF, Adobe marker, component ids), as libjpeg-turbo guesses.
        case automatic
        /// libjpeg's JCS_UNKNOWN output: every component as decoded, no inversion.
        case asStored
        /// Three components taken as YCbCr (libjpeg's jpeg_color_space = JCS_YCbCr).
        case yccToRGB
    }
    @_spi(Reference) public var jpegColorHandling = JPEGColorHandling.automatic

    /// Options with each leniency at its default (see the properties).
    public init(limits: DecodeLimits = .default, firstFrameOnly: Bool = false,
                pngIgnoreAncillaryCRCErrors: Bool = true, decodeAPNGAnimation: Bool = true, jpegScaleDenominator: Int = 1) {
        self.limits = limits
        self.firstFrameOnly = firstFrameOnly
        self.pngIgnoreAncillaryCRCErrors = pngIgnoreAncillaryCRCErrors
        self.decodeAPNGAnimation = decodeAPNGAnimation
        self.jpegScaleDenominator = jpegScaleDenominator
    }
}
