/// TIFFImageLayout, the field groups `init(directory:reader:limits:)` reads one after the
/// other: the sample description (§2 SamplesPerPixel, BitsPerSample, §19 SampleFormat), the
/// colour interpretation (§2 PhotometricInterpretation, §18 ExtraSamples), YCbCr subsampling and
/// old-style JPEG (§21, §22), and the checks and state of the codecs that constrain the layout
/// (SGILog, JPEG, PixarLog). Each throws what libtiff refuses, at the IFD's offset `at`.
extension TIFFImageLayout {
    private static func failure(_ kind: DecodeError.Kind, _ reason: TIFFError, at: Int) -> DecodeError {
        DecodeError(kind, format: .tiff, offset: at, reason)
    }

    /// SamplesPerPixel, BitsPerSample (the first value, for every sample, as libtiff) and the
    /// sample format (SampleFormat, or SGI's DataType after it).
    static func sampleDescription(directory: TIFFDirectory, reader: RandomAccessReader, at: Int) throws(DecodeError)
        -> (samples: Int, bitsPerSample: Int, sampleFormat: Int) {
        // libtiff's TIFFReadDirectory: an old-style JPEG YCbCr page without SamplesPerPixel has 3.
        let compressionTag = try directory.integer(TIFFTag.compression, reader: reader)
        let photometricTag = try directory.integer(TIFFTag.photometric, reader: reader)
        let isOldJPEGYCbCr = compressionTag == 6 && photometricTag == 6
        let samples = try directory.integer(TIFFTag.samplesPerPixel, reader: reader, default: isOldJPEGYCbCr ? 3 : 1) ?? 1
        guard (1...65535).contains(samples) else { throw failure(.malformed, .invalidValue(field: "SamplesPerPixel", value: samples), at: at) }
        let bits = try directory.integers(TIFFTag.bitsPerSample, reader: reader, maxCount: 65535) ?? [1]
        let bps = bits.first ?? 1
        // libtiff uses the first value for every sample; so do we. Any depth up to 64 bits is
        // decoded (the samples); which depths render is TIFFRendering's business.
        guard (1...64).contains(bps) else { throw failure(.malformed, .invalidValue(field: "BitsPerSample", value: bps), at: at) }
        var sampleFormat = try directory.integer(TIFFTag.sampleFormat, reader: reader, default: 1) ?? 1
        // SGI's older DataType tag (32996: 0 void, 1 signed, 2 unsigned, 3 float) sets the same
        // field in libtiff, after SampleFormat (tags are read in order), so it wins.
        if let dataType = try directory.integer(TIFFTag.dataType, reader: reader) {
            let mapped = [0: 4, 1: 2, 2: 1, 3: 3]
            guard let format = mapped[dataType] else { throw failure(.malformed, .invalidValue(field: "DataType", value: dataType), at: at) }
            sampleFormat = format
        }
        // §19: 1 unsigned, 2 signed (rendered as unsigned, as libtiff's RGBA interface does),
        // 3 IEEE float, 4 undefined (treated as unsigned); libtiff refuses other values.
        guard (1...6).contains(sampleFormat) else { throw failure(.malformed, .invalidValue(field: "SampleFormat", value: sampleFormat), at: at) }
        return (samples, bps, sampleFormat)
    }

    /// ExtraSamples, the alpha they make, and the photometric interpretation (with libtiff's
    /// defaults when the tag is absent).
    static func colourInterpretation(directory: TIFFDirectory, reader: RandomAccessReader, samples: Int,
                                     ccittScheme: CCITTFaxDecoder.Scheme?, at: Int) throws(DecodeError)
        -> (extraSamples: [Int], alpha: Alpha, photometric: Photometric, photometricCode: Int) {
        let extras = try directory.integers(TIFFTag.extraSamples, reader: reader, maxCount: 65535) ?? []
        guard extras.count < samples || extras.isEmpty else {
            throw failure(.malformed, .invalidField(tag: TIFFTag.extraSamples, "\(extras.count) extra samples for \(samples) samples per pixel"), at: at)
        }
        // libtiff tif_getimage.c: 1 = associated, 2 = unassociated; 0 (unspecified) counts as
        // associated alpha when there are more than 3 samples.
        let photometricValue = try directory.integer(TIFFTag.photometric, reader: reader)
        let alpha: Alpha
        switch extras.first {
        case 1: alpha = .associated
        case 2: alpha = .unassociated
        case 0 where samples > 3: alpha = .associated
        default:
            // libtiff (DEFAULT_EXTRASAMPLE_AS_ALPHA, on by default): RGB with 4 samples and no
            // ExtraSamples tag has its 4th sample taken as associated alpha.
            alpha = extras.isEmpty && samples == 4 && photometricValue == 2 ? .associated : .none
        }

        let photometric: Photometric
        let photometricCode: Int
        if let value = photometricValue {
            photometric = Photometric(rawValue: value) ?? .unknown
            photometricCode = value
        } else {
            // libtiff's TIFFRGBAImageBegin: 1 colour channel → BlackIsZero (WhiteIsZero for
            // CCITT data, as fax is), 3 → RGB.
            switch samples - extras.count {
            case 1: photometric = ccittScheme == nil ? .blackIsZero : .whiteIsZero
            case 3: photometric = .rgb
            default: throw failure(.malformed, .missingField("PhotometricInterpretation"), at: at)
            }
            photometricCode = photometric.rawValue
        }
        if photometric == .ycbcr && samples < 3 {
            throw failure(.unsupported, .unsupportedLayout("YCbCr with \(samples) samples per pixel"), at: at)
        }
        return (extras, alpha, photometric, photometricCode)
    }

    /// §21 YCbCrSubSampling (default 2 × 2), or an old-style JPEG page's header and the
    /// subsampling it implies.
    static func subsampling(directory: TIFFDirectory, reader: RandomAccessReader, compression: Int, photometric: Photometric,
                            samples: Int, bitsPerSample bps: Int, planar: Int, at: Int) throws(DecodeError)
        -> (oldJPEG: TIFFOldJPEG?, subsampling: (Int, Int)) {
        let subsamplingTag = try directory.integers(TIFFTag.ycbcrSubsampling, reader: reader, maxCount: 16)
        guard compression == 6 else {
            let subsampling = subsamplingTag ?? [2, 2]
            return (nil, (subsampling.first ?? 2, subsampling.count > 1 ? subsampling[1] : 2))
        }
        guard photometric == .ycbcr, samples == 3, bps == 8, planar == 1 else {
            throw failure(.unsupported, .unsupportedLayout("old-style JPEG other than contiguous 8-bit YCbCr"), at: at)
        }
        let tiled = directory.entry(TIFFTag.tileOffsets) != nil
        let first = try directory.integers(tiled ? TIFFTag.tileOffsets : TIFFTag.stripOffsets, reader: reader, maxCount: 1 << 31, readingAtMost: 1)?.first
        let firstCount = try directory.integers(tiled ? TIFFTag.tileByteCounts : TIFFTag.stripByteCounts, reader: reader,
                                                maxCount: 1 << 31, readingAtMost: 1)?.first
        let header = try TIFFOldJPEG(directory: directory, reader: reader, tagSubsampling: subsamplingTag,
                                     firstStrip: first.map { ($0, firstCount ?? 0) }, samples: samples, at: at)
        return (header, header.subsampling)
    }

    /// SGILog (34676, 34677): the coding the photometric interpretation selects.
    static func sgiLogCoding(compression: Int, photometric: Photometric, photometricCode: Int, at: Int) throws(DecodeError) -> SGILogDecoder.Coding? {
        guard compression == 34676 || compression == 34677 else { return nil }
        switch photometric {
        case .logL: return .logL16
        case .logLuv: return compression == 34677 ? .logLuv24 : .logLuv32
        default:
            // LogLuvSetupDecode: "Inappropriate photometric interpretation for SGILog compression".
            throw failure(.malformed, .unsupportedLayout("SGILog compression with photometric \(photometricCode)"), at: at)
        }
    }

    /// tif_luv.c LogLuvSetupDecode: LogL needs 1 sample, LogLuv contiguous samples, and the
    /// file's own sample description must name a data format it can produce.
    static func sgiLogDecoder(_ coding: SGILogDecoder.Coding, samples: Int, bitsPerSample bps: Int, sampleFormat: Int,
                              planar: Int, at: Int) throws(DecodeError) -> SGILogDecoder {
        guard coding != .logL16 || samples == 1 else { throw failure(.malformed, .unsupportedLayout("LogL with \(samples) samples per pixel"), at: at) }
        guard coding == .logL16 || planar == 1 else { throw failure(.malformed, .unsupportedLayout("SGILog with separate planes"), at: at) }
        guard let format = SGILogDecoder.guessFormat(coding: coding, bitsPerSample: bps, sampleFormat: sampleFormat, samplesPerPixel: samples) else {
            throw failure(.malformed, .unsupportedLayout("SGILog data of \(samples) × \(bps)-bit samples, sample format \(sampleFormat)"), at: at)
        }
        return SGILogDecoder(coding: coding, format: format)
    }

    /// The sample layouts JPEG (7) and uncompressed YCbCr pages are decoded in.
    static func checkJPEGAndYCbCr(compression: Int, photometric: Photometric, samples: Int, bitsPerSample bps: Int, planar: Int,
                                  predictor: Int, subsampling: (Int, Int), at: Int) throws(DecodeError) {
        if compression == 7 {
            // Technical Note 2 JPEG: each strip or tile is a JPEG stream (abbreviated, its tables
            // in JPEGTables) of 8-bit samples: all of a pixel's samples (1, 3 or 4 components,
            // what PureImage's JPEG decoder takes), or one plane's.
            guard bps == 8, planar == 2 || [1, 3, 4].contains(samples) else {
                throw failure(.unsupported, .unsupportedLayout("JPEG compression with \(samples) samples of \(bps) bits, planar \(planar)"), at: at)
            }
        } else if photometric == .ycbcr {
            guard bps == 8 && samples == 3 else {
                throw failure(.unsupported, .unsupportedLayout("YCbCr with \(bps)-bit samples and \(samples) samples per pixel"), at: at)
            }
            // §21 YCbCrSubSampling: 1, 2 or 4 each way. Subsampled data is read as data units
            // (contiguous only, as libtiff's RGBA interface requires).
            let (h, v) = subsampling
            let isSubsampled = subsampling != (1, 1)
            guard [1, 2, 4].contains(h), [1, 2, 4].contains(v), !isSubsampled || (planar == 1 && predictor == 1) else {
                throw failure(.unsupported, .unsupportedLayout("YCbCr subsampling \(h)×\(v)\(planar == 2 ? " with separate planes" : "")"), at: at)
            }
        }
    }

    /// NeXT and PixarLog in the chunk grid: the layouts libtiff garbles are refused; a PixarLog
    /// page's decoder state.
    static func pixarLogDecoder(directory: TIFFDirectory, compression: Int, isTiled: Bool, predictor: Int, bitsPerSample bps: Int,
                                samples: Int, planar: Int, width: Int, at: Int) throws(DecodeError) -> PixarLogDecoder? {
        if compression == 32766 && isTiled {
            // tif_next.c cuts a tile into rows of the *image's* scanline size (and fails a tile
            // that is not a multiple of it): not decoded.
            throw failure(.unsupported, .unsupportedLayout("NeXT compression in tiles"), at: at)
        }
        guard compression == 32908 || compression == 32909 else { return nil }
        // libtiff's PixarLog reads a tile's rows as if they were image-wide, so it garbles
        // tiles; and it attaches the predictor to values already in the host's byte order,
        // which the predictor then swaps again in a big-endian file. Neither is decoded.
        guard !isTiled, predictor == 1 else {
            throw failure(.unsupported, .unsupportedLayout("PixarLog \(isTiled ? "in tiles" : "with predictor \(predictor)")"), at: at)
        }
        return PixarLogDecoder(format: bps == 32 ? .float32 : (bps == 16 ? .sixteenBit : .eightBit),
                               stride: planar == 1 ? samples : 1, width: width,
                               tokensBigEndian: directory.endianness == .bigEndian)
    }
}
