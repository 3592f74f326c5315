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

    /// Builds the layout from `directory`; `reader` covers the whole input (closed) or what has
    /// arrived. `limits` bound the image and every array read.
    init(directory: TIFFDirectory, reader: ByteReader, limits: DecodeLimits) throws(DecodeError) {
        let at = directory.offset
        func fail(_ kind: DecodeError.Kind, _ reason: TIFFError) -> DecodeError {
            DecodeError(kind, format: .tiff, offset: at, reason)
        }
        guard let width = try directory.integer(TIFFTag.imageWidth, reader: reader) else { throw fail(.malformed, .missingField("ImageWidth")) }
        guard let height = try directory.integer(TIFFTag.imageLength, reader: reader) else { throw fail(.malformed, .missingField("ImageLength")) }
        guard width > 0 else { throw fail(.malformed, .invalidValue(field: "ImageWidth", value: width)) }
        guard height > 0 else { throw fail(.malformed, .invalidValue(field: "ImageLength", value: height)) }
        _ = try SizeMath.checkImage(width: width, height: height, bytesPerPixel: 4, limits: limits, format: .tiff, offset: at)
        self.width = width
        self.height = height

        // libtiff's TIFFReadDirectory: an old-style JPEG YCbCr page without SamplesPerPixel has 3.
        let compressionTag = try directory.integer(TIFFTag.compression, reader: reader)
        let photometricTag = try directory.integer(TIFFTag.photometric, reader: reader)
        let isOldJPEGYCbCr = compressionTag == 6 && photometricTag == 6
        let samples = try directory.integer(TIFFTag.samplesPerPixel, reader: reader, default: isOldJPEGYCbCr ? 3 : 1) ?? 1
        guard (1...65535).contains(samples) else { throw fail(.malformed, .invalidValue(field: "SamplesPerPixel", value: samples)) }
        samplesPerPixel = samples
        let bits = try directory.integers(TIFFTag.bitsPerSample, reader: reader, maxCount: 65535) ?? [1]
        let bps = bits.first ?? 1
        // libtiff uses the first value for every sample; so do we. Any depth up to 64 bits is
        // decoded (the samples); which depths render is TIFFRendering's business.
        guard (1...64).contains(bps) else { throw fail(.malformed, .invalidValue(field: "BitsPerSample", value: bps)) }
        bitsPerSample = bps
        var sampleFormat = try directory.integer(TIFFTag.sampleFormat, reader: reader, default: 1) ?? 1
        // SGI's older DataType tag (32996: 0 void, 1 signed, 2 unsigned, 3 float) sets the same
        // field in libtiff, after SampleFormat (tags are read in order), so it wins.
        if let dataType = try directory.integer(TIFFTag.dataType, reader: reader) {
            let mapped = [0: 4, 1: 2, 2: 1, 3: 3]
            guard let format = mapped[dataType] else { throw fail(.malformed, .invalidValue(field: "DataType", value: dataType)) }
            sampleFormat = format
        }
        // §19: 1 unsigned, 2 signed (rendered as unsigned, as libtiff's RGBA interface does),
        // 3 IEEE float, 4 undefined (treated as unsigned); libtiff refuses other values.
        guard (1...6).contains(sampleFormat) else { throw fail(.malformed, .invalidValue(field: "SampleFormat", value: sampleFormat)) }
        self.sampleFormat = sampleFormat

        (compression, ccittScheme) = try Self.codec(directory: directory, reader: reader, samples: samples,
                                                    bitsPerSample: bps, sampleFormat: sampleFormat, at: at)

        let extras = try directory.integers(TIFFTag.extraSamples, reader: reader, maxCount: 65535) ?? []
        guard extras.count < samples || extras.isEmpty else {
            throw fail(.malformed, .invalidField(tag: TIFFTag.extraSamples, "\(extras.count) extra samples for \(samples) samples per pixel"))
        }
        extraSamples = extras
        // libtiff tif_getimage.c: 1 = associated, 2 = unassociated; 0 (unspecified) counts as
        // associated alpha when there are more than 3 samples.
        let photometricValue = try directory.integer(TIFFTag.photometric, reader: reader)
        switch extras.first {
        case 1: alpha = .associated
        case 2: alpha = .unassociated
        case 0 where samples > 3: alpha = .associated
        default:
            // libtiff (DEFAULT_EXTRASAMPLE_AS_ALPHA, on by default): RGB with 4 samples and no
            // ExtraSamples tag has its 4th sample taken as associated alpha.
            alpha = extras.isEmpty && samples == 4 && photometricValue == 2 ? .associated : .none
        }

        let colorChannels = samples - extras.count
        if let value = photometricValue {
            photometric = Photometric(rawValue: value) ?? .unknown
            photometricCode = value
        } else {
            // libtiff's TIFFRGBAImageBegin: 1 colour channel → BlackIsZero (WhiteIsZero for
            // CCITT data, as fax is), 3 → RGB.
            switch colorChannels {
            case 1: photometric = ccittScheme == nil ? .blackIsZero : .whiteIsZero
            case 3: photometric = .rgb
            default: throw fail(.malformed, .missingField("PhotometricInterpretation"))
            }
            photometricCode = photometric.rawValue
        }
        if photometric == .ycbcr && samples < 3 {
            throw fail(.unsupported, .unsupportedLayout("YCbCr with \(samples) samples per pixel"))
        }

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

        let subsamplingTag = try directory.integers(TIFFTag.ycbcrSubsampling, reader: reader, maxCount: 16)
        if compression == 6 {
            guard photometric == .ycbcr, samples == 3, bps == 8, planar == 1 else {
                throw fail(.unsupported, .unsupportedLayout("old-style JPEG other than contiguous 8-bit YCbCr"))
            }
            let tiled = directory.entry(TIFFTag.tileOffsets) != nil
            let first = try directory.integers(tiled ? TIFFTag.tileOffsets : TIFFTag.stripOffsets, reader: reader, maxCount: 1 << 31, readingAtMost: 1)?.first
            let firstCount = try directory.integers(tiled ? TIFFTag.tileByteCounts : TIFFTag.stripByteCounts, reader: reader,
                                                    maxCount: 1 << 31, readingAtMost: 1)?.first
            let header = try TIFFOldJPEG(directory: directory, reader: reader, tagSubsampling: subsamplingTag,
                                         firstStrip: first.map { ($0, firstCount ?? 0) }, samples: samples, at: at)
            oldJPEG = header
            ycbcrSubsampling = header.subsampling
        } else {
            oldJPEG = nil
            let subsampling = subsamplingTag ?? [2, 2]
            ycbcrSubsampling = (subsampling.first ?? 2, subsampling.count > 1 ? subsampling[1] : 2)
        }
        var sgiLogCoding: SGILogDecoder.Coding?
        if compression == 34676 || compression == 34677 {
            switch photometric {
            case .logL: sgiLogCoding = .logL16
            case .logLuv: sgiLogCoding = compression == 34677 ? .logLuv24 : .logLuv32
            default:
                // LogLuvSetupDecode: "Inappropriate photometric interpretation for SGILog compression".
                throw fail(.malformed, .unsupportedLayout("SGILog compression with photometric \(photometricCode)"))
            }
        }
        // libtiff keeps these as floats (RATIONAL divided in single precision).
        referenceBlackWhite = try directory.floats(TIFFTag.referenceBlackWhite, reader: reader)?.map(Double.init) ?? []
        ycbcrCoefficients = try directory.floats(TIFFTag.ycbcrCoefficients, reader: reader)?.map(Double.init) ?? []
        whitePoint = try directory.floats(TIFFTag.whitePoint, reader: reader)?.map(Double.init)
        if let coding = sgiLogCoding {
            // tif_luv.c LogLuvSetupDecode: LogL needs 1 sample, LogLuv contiguous samples, and
            // the file's own sample description must name a data format it can produce.
            guard coding != .logL16 || samples == 1 else { throw fail(.malformed, .unsupportedLayout("LogL with \(samples) samples per pixel")) }
            guard coding == .logL16 || planar == 1 else { throw fail(.malformed, .unsupportedLayout("SGILog with separate planes")) }
            guard let format = SGILogDecoder.guessFormat(coding: coding, bitsPerSample: bps, sampleFormat: sampleFormat, samplesPerPixel: samples) else {
                throw fail(.malformed, .unsupportedLayout("SGILog data of \(samples) × \(bps)-bit samples, sample format \(sampleFormat)"))
            }
            sgiLog = SGILogDecoder(coding: coding, format: format)
        } else {
            sgiLog = nil
        }
        jpegTables = try directory.bytes(TIFFTag.jpegTables, reader: reader, limit: limits.maxMetadataBytes)
        if compression == 7 {
            // Technical Note 2 JPEG: each strip or tile is a JPEG stream (abbreviated, its tables
            // in JPEGTables) of 8-bit samples: all of a pixel's samples (1, 3 or 4 components,
            // what PureImage's JPEG decoder takes), or one plane's.
            guard bps == 8, planar == 2 || [1, 3, 4].contains(samples) else {
                throw fail(.unsupported, .unsupportedLayout("JPEG compression with \(samples) samples of \(bps) bits, planar \(planar)"))
            }
        } else if photometric == .ycbcr {
            guard bps == 8 && samples == 3 else { throw fail(.unsupported, .unsupportedLayout("YCbCr with \(bps)-bit samples and \(samples) samples per pixel")) }
            // §21 YCbCrSubSampling: 1, 2 or 4 each way. Subsampled data is read as data units
            // (contiguous only, as libtiff's RGBA interface requires).
            let (h, v) = ycbcrSubsampling
            let isSubsampled = ycbcrSubsampling != (1, 1)
            guard [1, 2, 4].contains(h), [1, 2, 4].contains(v), !isSubsampled || (planar == 1 && predictor == 1) else {
                throw fail(.unsupported, .unsupportedLayout("YCbCr subsampling \(h)×\(v)\(planar == 2 ? " with separate planes" : "")"))
            }
        }

        // §15 tiles, else §8 strips.
        let grid = try Self.chunkGrid(directory: directory, reader: reader, width: width, height: height,
                                      samples: samples, bitsPerSample: bps, limits: limits, at: at)
        let planes = planar == 2 && samples > 1 ? samples : 1
        isTiled = grid.isTiled
        chunkWidth = grid.width
        chunkHeight = grid.height
        chunksAcross = grid.across
        chunksDown = grid.down
        if compression == 32766 && isTiled {
            // tif_next.c cuts a tile into rows of the *image's* scanline size (and fails a tile
            // that is not a multiple of it): not decoded.
            throw fail(.unsupported, .unsupportedLayout("NeXT compression in tiles"))
        }
        if compression == 32908 || compression == 32909 {
            // libtiff's PixarLog reads a tile's rows as if they were image-wide, so it garbles
            // tiles; and it attaches the predictor to values already in the host's byte order,
            // which the predictor then swaps again in a big-endian file. Neither is decoded.
            guard !isTiled, predictor == 1 else {
                throw fail(.unsupported, .unsupportedLayout("PixarLog \(isTiled ? "in tiles" : "with predictor \(predictor)")"))
            }
            pixarLog = PixarLogDecoder(format: bps == 32 ? .float32 : (bps == 16 ? .sixteenBit : .eightBit),
                                       stride: planar == 1 ? samples : 1, width: width,
                                       tokensBigEndian: directory.endianness == .bigEndian)
        } else {
            pixarLog = nil
        }
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
