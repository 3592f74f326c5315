/// What one IFD says about its image, validated once (§8 baseline fields, §14–§16, §21):
/// every value below is in range when a `TIFFImageLayout` exists, and later stages rely on it.
struct TIFFImageLayout {
    enum Photometric: Int {
        case whiteIsZero = 0, blackIsZero = 1, rgb = 2, palette = 3, transparencyMask = 4
        case separated = 5, ycbcr = 6, cieLab = 8, iccLab = 9, ituLab = 10
        case logL = 32844, logLuv = 32845
        /// Any other value (kept in `photometricCode`): decodable samples, no rendering.
        case unknown = -1
    }
    /// ExtraSamples (§8) meaning of the first extra sample.
    enum Alpha { case none, associated, unassociated }

    /// 1 ... 2^32 − 1 (§8 ImageWidth, ImageLength; 0 is refused).
    let width: Int
    let height: Int
    /// 1, 2, 4, 8 or 16 (all samples the same size).
    var bitsPerSample: Int
    /// §19 SampleFormat: 1 unsigned, 2 signed, 3 IEEE float, 4 undefined (read as unsigned),
    /// 5 and 6 complex (decoded, never rendered).
    var sampleFormat: Int
    /// 1 ... 65535.
    let samplesPerPixel: Int
    let compression: Int
    let photometric: Photometric
    /// The PhotometricInterpretation value as stored (or inferred when absent).
    let photometricCode: Int
    /// §8 FillOrder 2: the bits of each byte are stored least significant first.
    let reversedBits: Bool
    /// PlanarConfiguration 2 with more than one sample (libtiff's isContig rule).
    let isPlanar: Bool
    /// The PlanarConfiguration value itself (1 or 2), which some libtiff rules test.
    let planarConfigurationTag: Int
    /// 1 (none), 2 (horizontal differencing, §14) or 3 (floating point, Technical Note 3) —
    /// 1 for codecs libtiff applies no predictor to (none, PackBits, CCITT, JPEG).
    let predictor: Int
    let extraSamples: [Int]
    let alpha: Alpha
    let orientation: Int
    /// 16-bit ColorMap values, 3 × 2^bitsPerSample (palette images only).
    let colorMap: [Int]
    let inkSet: Int
    let ycbcrSubsampling: (Int, Int)
    let referenceBlackWhite: [Double]
    let ycbcrCoefficients: [Double]
    let jpegTables: [UInt8]?
    /// WhitePoint (x, y) as libtiff reads it (floats), for CIELab.
    let whitePoint: [Double]?
    /// Compression 34676 / 34677: the LogLuv decoder and the data format it produces.
    var sgiLog: SGILogDecoder?
    /// PixarLog (32908, 32909): the decoder set up for this page's data format.
    var pixarLog: PixarLogDecoder?
    /// Codecs that produce sample values rather than file bytes (no byte order to normalise:
    /// libtiff swaps nothing after them).
    var codecProducesValues: Bool { sgiLog != nil || pixarLog != nil }
    /// Compression 2, 3, 4: which CCITT coding (T4Options bit 0 chooses 2-D for Group 3).
    let ccittScheme: CCITTFaxDecoder.Scheme?
    /// Compression 6: the old-style JPEG header (tables, frame, where the entropy data starts).
    let oldJPEG: TIFFOldJPEG?

    /// Strips or tiles: the size of one chunk (strips are image-wide).
    let chunkWidth: Int
    var chunkHeight: Int
    let isTiled: Bool
    let chunksAcross: Int
    var chunksDown: Int
    var offsets: [Int]
    var byteCounts: [Int]
    /// The byte counts were worked out from the size of the file (libtiff estimates missing or
    /// implausible StripByteCounts from it), so bytes still to come could change them: an
    /// incremental decode waits for the end of the input before it uses them.
    var byteCountsDependOnFileSize = false

    /// Samples stored per pixel in one plane: all of them (chunky) or one (planar).
    var samplesPerPlane: Int { isPlanar ? 1 : samplesPerPixel }
    var planeCount: Int { isPlanar ? samplesPerPixel : 1 }
    var chunksPerPlane: Int { chunksAcross * chunksDown }
    /// Bytes in one row of a chunk (§8 "each row … begins on a byte boundary").
    var chunkRowBytes: Int { (chunkWidth * bitsPerSample * samplesPerPlane + 7) / 8 }
    /// Bytes in one row of the image in one plane.
    var planeRowBytes: Int { (width * bitsPerSample * samplesPerPlane + 7) / 8 }
    var colorChannels: Int { samplesPerPixel - extraSamples.count }
    /// §21: YCbCr stored as data units of h × v luma samples followed by Cb and Cr.
    var isSubsampledYCbCr: Bool { photometric == .ycbcr && compression != 7 && ycbcrSubsampling != (1, 1) }
    /// Bytes of a subsampled YCbCr chunk of `rows` rows: whole data units (rows and columns
    /// rounded up to the subsampling), as libtiff's TIFFVStripSize computes it.
    func subsampledChunkBytes(rows: Int) -> Int {
        let (h, v) = ycbcrSubsampling
        return (rows + v - 1) / v * ((chunkWidth + h - 1) / h) * (h * v + 2)
    }

    /// ImageWidth and ImageLength: positive and within 32 bits (TIFF 6.0 §8; also BigTIFF, whose
    /// libtiff keeps them in 32-bit fields).
    static func isValidDimension(_ value: Int) -> Bool {
        value > 0 && value <= Int(UInt32.max)
    }

    /// Builds the layout from `directory`; `reader` covers the whole input (closed) or what has
    /// arrived. `limits` bound the image and every array read.
    init(directory: TIFFDirectory, reader: RandomAccessReader, limits: DecodeLimits) throws(DecodeError) {
        let at = directory.offset
        func fail(_ kind: DecodeError.Kind, _ reason: TIFFError) -> DecodeError {
            DecodeError(kind, format: .tiff, offset: at, reason)
        }
        // libtiff reads the sides as 32-bit values from any integer type but IFD8 ("Incompatible
        // type"), and refuses a value beyond 32 bits ("Incorrect value").
        for (tag, name) in [(TIFFTag.imageWidth, "ImageWidth"), (TIFFTag.imageLength, "ImageLength")]
        where directory.entry(tag)?.type == .ifd8 {
            throw fail(.malformed, .invalidField(tag: tag, "\(name) has type IFD8"))
        }
        guard let width = try directory.integer(TIFFTag.imageWidth, reader: reader) else { throw fail(.malformed, .missingField("ImageWidth")) }
        guard let height = try directory.integer(TIFFTag.imageLength, reader: reader) else { throw fail(.malformed, .missingField("ImageLength")) }
        // §8: SHORT or LONG.
        guard Self.isValidDimension(width) else { throw fail(.malformed, .invalidValue(field: "ImageWidth", value: width)) }
        guard Self.isValidDimension(height) else { throw fail(.malformed, .invalidValue(field: "ImageLength", value: height)) }
        _ = try SizeMath.checkImage(width: width, height: height, bytesPerPixel: 4, limits: limits, format: .tiff, offset: at)
        self.width = width
        self.height = height

        let description = try Self.sampleDescription(directory: directory, reader: reader, at: at)
        let (samples, bps, sampleFormat) = description
        samplesPerPixel = samples
        bitsPerSample = bps
        self.sampleFormat = sampleFormat

        (compression, ccittScheme) = try Self.codec(directory: directory, reader: reader, samples: samples,
                                                    bitsPerSample: bps, sampleFormat: sampleFormat, at: at)
        (extraSamples, alpha, photometric, photometricCode) =
            try Self.colourInterpretation(directory: directory, reader: reader, samples: samples, ccittScheme: ccittScheme, at: at)

        let fill = try directory.integer(TIFFTag.fillOrder, reader: reader, default: 1) ?? 1
        reversedBits = fill == 2
        let planar = try directory.integer(TIFFTag.planarConfiguration, reader: reader, default: 1) ?? 1
        guard planar == 1 || planar == 2 else { throw fail(.malformed, .invalidValue(field: "PlanarConfiguration", value: planar)) }
        isPlanar = planar == 2 && samples > 1
        planarConfigurationTag = planar
        // libtiff attaches the predictor to LZW and Deflate (and LZMA, Zstd, …) only; with any
        // other codec the tag is ignored.
        let predictorTag = try directory.integer(TIFFTag.predictor, reader: reader, default: 1) ?? 1
        predictor = [5, 8, 32946, 32908, 32909].contains(compression) ? predictorTag : 1
        switch predictor {
        case 1: break
        // libtiff tif_predict.c PredictorSetup refuses other depths, so every strip fails.
        case 2 where [8, 16, 32, 64].contains(bps): break
        case 3 where sampleFormat == 3 && [16, 24, 32, 64].contains(bps): break
        default: throw fail(.malformed, .unsupportedPredictor(value: predictor, bitsPerSample: bps))
        }
        let orientation = try directory.integer(TIFFTag.orientation, reader: reader, default: 1) ?? 1
        self.orientation = (1...8).contains(orientation) ? orientation : 1
        inkSet = try directory.integer(TIFFTag.inkSet, reader: reader, default: 1) ?? 1

        if photometric == .palette {
            // A ColorMap has 3 × 2^bits entries; 8-bit palettes render, 16-bit ones decode.
            guard bps <= 16 else { throw fail(.unsupported, .unsupportedLayout("palette with \(bps)-bit samples")) }
            let expected = 3 << bps
            guard let map = try directory.integers(TIFFTag.colorMap, reader: reader, maxCount: 3 << 16) else {
                throw fail(.malformed, .missingField("ColorMap"))
            }
            guard map.count >= expected else { throw fail(.malformed, .invalidColorMap(count: map.count, expected: expected)) }
            colorMap = map
        } else {
            colorMap = []
        }

        (oldJPEG, ycbcrSubsampling) = try Self.subsampling(directory: directory, reader: reader, compression: compression, photometric: photometric,
                                                           samples: samples, bitsPerSample: bps, planar: planar, at: at)
        let sgiLogCoding = try Self.sgiLogCoding(compression: compression, photometric: photometric, photometricCode: photometricCode, at: at)
        // libtiff keeps these as floats (RATIONAL divided in single precision).
        referenceBlackWhite = try directory.floats(TIFFTag.referenceBlackWhite, reader: reader)?.map(Double.init) ?? []
        ycbcrCoefficients = try directory.floats(TIFFTag.ycbcrCoefficients, reader: reader)?.map(Double.init) ?? []
        whitePoint = try directory.floats(TIFFTag.whitePoint, reader: reader)?.map(Double.init)
        if let sgiLogCoding {
            sgiLog = try Self.sgiLogDecoder(sgiLogCoding, samples: samples, bitsPerSample: bps, sampleFormat: sampleFormat, planar: planar, at: at)
        } else {
            sgiLog = nil
        }
        jpegTables = try directory.bytes(TIFFTag.jpegTables, reader: reader, limit: limits.maxMetadataBytes)
        try Self.checkJPEGAndYCbCr(compression: compression, photometric: photometric, samples: samples, bitsPerSample: bps, planar: planar,
                                   predictor: predictor, subsampling: ycbcrSubsampling, at: at)

        // §15 tiles, else §8 strips.
        let grid = try Self.chunkGrid(directory: directory, reader: reader, width: width, height: height,
                                      samples: samples, bitsPerSample: bps, limits: limits, at: at)
        let planes = planar == 2 && samples > 1 ? samples : 1
        isTiled = grid.isTiled
        chunkWidth = grid.width
        chunkHeight = grid.height
        chunksAcross = grid.across
        chunksDown = grid.down
        pixarLog = try Self.pixarLogDecoder(directory: directory, compression: compression, isTiled: grid.isTiled, predictor: predictor,
                                            bitsPerSample: bps, samples: samples, planar: planar, width: width, at: at)
        (offsets, byteCounts, byteCountsDependOnFileSize) =
            try Self.chunkLocations(directory: directory, reader: reader, grid: grid, planes: planes, compression: compression,
                                    planarConfiguration: planar, samples: samples, bitsPerSample: bps,
                                    photometric: photometric, ycbcrSubsampling: ycbcrSubsampling,
                                    width: width, height: height, at: at)
    }

    /// The layout pages are rendered from: SGILog data decoded to 8-bit gray / RGB, as libtiff's
    /// RGBA interface asks for it (SGILOGDATAFMT_8BIT, which also makes BitsPerSample 8).
    func forRendering() -> TIFFImageLayout {
        guard let sgiLog, sgiLog.format != .eightBit else { return self }
        var layout = self
        layout.sgiLog = SGILogDecoder(coding: sgiLog.coding, format: .eightBit)
        layout.bitsPerSample = 8
        layout.sampleFormat = 1
        return layout
    }
}
