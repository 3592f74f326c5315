/// SDWebImage's `decodedAndScaledDownImage(limitBytes:)` and ImageIO's thumbnails, built so the
/// full-size image never exists in memory: source rows stream out of the decoder into a
/// `StreamingResampler`, whose memory is the destination plus a few dozen filtered rows, all
/// counted in the decoder's `MemoryBudget` together with what the decoder itself holds.
///
/// How rows reach the resampler, per format:
/// - PNG: straight from the decoder (`PNGDecoder.rowSink`) — no full-size buffer for
///   non-interlaced images; Adam7 keeps its stored samples (the state the format needs) until
///   pass 7, then streams them.
/// - JPEG: decoded at the largest DCT-domain reduction (1/2, 1/4, 1/8) that keeps the
///   intermediate at least `dctIntermediateFactor` (4) times the destination on both axes,
///   as premultiplied RGBA8 rows the renderer writes itself, streamed from the
///   renderer (`JPEGDecoder.rowSink`): single-scan files hold one MCU row of coefficients and a
///   few of samples; progressive files keep their coefficient store (the state the format needs).
/// - TIFF: one band at a time — a strip, or a row of tiles, across every plane
///   (`TIFFDecoder.rowSink`); the page bitmap is never allocated.
/// - GIF: the first frame is composed on the blank canvas a band of rows at a time as its rows
///   are decoded (`GIFDecoder.rowSink`, `GIFFirstFrameStream`: a window of its indices, or all
///   of them when it is interlaced).
/// - WebP stills: rows as they are finished (`WebPDecoder.rowSink`): VP8L row bands after the
///   inverse transforms (the residuals of the whole image are kept, as back-references reach
///   anywhere), VP8 rows once the loop filter can no longer change them (the Y, U, V planes are
///   kept, 1.5 bytes per pixel). Animations: frame 0 composed, then streamed in bands.
public enum Downscaler {
    /// How much larger than the destination the DCT-scaled intermediate must stay, per axis.
    /// A DCT-domain reduction is not a low-pass filter like Lanczos (1/8 is a block average,
    /// 1/2 and 1/4 truncate each block's spectrum), so the resampler needs room to smooth it
    /// away. Measured on the photo corpus against Pillow's LANCZOS of the full decode
    /// (Conformance/downscale_quality.py): with a factor of 1 — libjpeg's own rule, the largest
    /// reduction that still covers the destination — the worst output is 31.5 dB; 2 → 41.9 dB;
    /// 4 → 50.8 dB, within half a squared level of resampling from full size.
    static let dctIntermediateFactor = 4

    /// The coefficient bands of a progressive JPEG's downscale: 16 MiB of coefficients (at
    /// least 16 MCU rows, so that each band's re-decoded margin rows stay a small share), when
    /// the whole image's would take more than twice that.
    static let progressiveBands = JPEGBandRequest(bandBytes: 16 << 20, minimumRows: 16)

    /// The JPEG DCT-domain reduction for a destination size: the largest denominator in
    /// {8, 4, 2} whose scaled size (rounded up, as libjpeg does) is still at least
    /// `dctIntermediateFactor` times the destination on both axes.
    public static func jpegScaleDenominator(sourceWidth: Int, sourceHeight: Int, destinationWidth: Int, destinationHeight: Int) -> Int {
        // ceil(side / denominator) and side ÷ factor compared without forming a sum or product
        // that could overflow (the function is public: any Int may arrive).
        func scaled(_ side: Int, _ denominator: Int) -> Int { side / denominator + (side % denominator == 0 ? 0 : 1) }
        func holds(_ scaledSide: Int, _ destinationSide: Int) -> Bool {
            let (needed, overflow) = dctIntermediateFactor.multipliedReportingOverflow(by: destinationSide)
            return !overflow && scaledSide >= needed
        }
        for denominator in [8, 4, 2] where holds(scaled(sourceWidth, denominator), destinationWidth)
                                        && holds(scaled(sourceHeight, denominator), destinationHeight) {
            return denominator
        }
        return 1
    }

    /// Decodes the first frame of `bytes` resampled to `width × height` (premultiplied RGBA8),
    /// kept whole or handed out in bands as `output` says. `input`: the rest of the file when
    /// `bytes` is only its start (`decodeScaledDownRows(contentsOfFile:)`).
    static func resample(_ bytes: [UInt8], format: ImageFormat, options: DecodeOptions,
                         sourceWidth: Int, sourceHeight: Int, width: Int, height: Int,
                         allowJPEGScaling: Bool = true, layout: ResampledLayout = .rgbaPremultiplied,
                         output: StreamingResampler.Output = .whole, reading input: FileRest? = nil,
                         atOffsets tiff: RandomAccessFile? = nil) throws(DecodeError) -> Resampled {
        // The first frame only: an APNG is read as its still default image.
        var frameOptions = options
        frameOptions.firstFrameOnly = true
        frameOptions.decodeAPNGAnimation = false
        if format == .jpeg {
            // Reduce in the DCT domain first, then stream the decoder's output rows (MCU-row bands
            // for single-scan files; progressive files keep their coefficients, then stream).
            let denominator = allowJPEGScaling
                ? jpegScaleDenominator(sourceWidth: sourceWidth, sourceHeight: sourceHeight, destinationWidth: width, destinationHeight: height)
                : 1
            frameOptions.jpegScaleDenominator = denominator
            // 8-bit YCbCr, RGB and gray files: the renderer writes premultiplied RGBA8 rows
            // itself (opaque, so premultiplied is straight), the resampler's own input.
            frameOptions.jpegDirectFormat = .rgba8Premultiplied
            // A large progressive file is decoded in bands of coefficients (`CoefficientBands`)
            // instead of holding them all (288 MB for 12000 × 8000 4:2:0).
            frameOptions.jpegCoefficientBands = options.jpegCoefficientBands ?? progressiveBands
            // libjpeg's scaled size: ceil(size / denominator); the picture's extent: size / denominator.
            let geometry = ResamplerGeometry(sourceWidth: (sourceWidth + denominator - 1) / denominator,
                                             sourceHeight: (sourceHeight + denominator - 1) / denominator,
                                             width: width, height: height,
                                             extent: (Double(sourceWidth) / Double(denominator), Double(sourceHeight) / Double(denominator)))
            return try stream(bytes, format: .jpeg, decoder: try DecodeSession.makeDecoder(for: .jpeg, options: frameOptions),
                              geometry: geometry, layout: layout, output: output, reading: input)
        }
        let geometry = ResamplerGeometry(sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height, extent: nil)
        let decoder = try DecodeSession.makeDecoder(for: format, options: frameOptions)
        (decoder as? TIFFDecoder)?.file = tiff
        return try stream(tiff == nil ? bytes : [], format: format, decoder: decoder,
                          geometry: geometry, layout: layout, output: output, reading: input)
    }

    /// What a resampling decode leaves: the resampler (whose `takeBitmap()` is the destination
    /// when it was kept whole) and what the decoder reported.
    struct Resampled {
        let resampler: StreamingResampler
        let truncation: DecodeError?
        let warnings: [DecodeWarning]
    }

    /// What the resampler will be asked for, known from the header.
    struct ResamplerGeometry {
        var sourceWidth: Int, sourceHeight: Int, width: Int, height: Int
        var extent: (width: Double, height: Double)?
    }

    /// Runs a decoder in streaming mode over the whole input (`bytes`, then the rest of the file
    /// in pieces when there is one): its `rowSink` converts each band of native rows (one row or
    /// more) to premultiplied RGBA8 and feeds the resampler row by row.
    ///
    /// The resampler is made when the first band arrives, in the decoder's memory budget: a
    /// file that fails or ends before its first row — whatever size its header claims — costs
    /// no resampling memory, and its error (or truncation) is what the call throws.
    static func stream(_ bytes: [UInt8], format: ImageFormat, decoder: any FormatDecoder, geometry: ResamplerGeometry,
                       layout: ResampledLayout, output: StreamingResampler.Output, reading input: FileRest? = nil) throws(DecodeError) -> Resampled {
        var failure: DecodeError?
        var resampler: StreamingResampler?
        // The decoder keeps the sink: the sink must not keep the decoder (a cycle would leak both).
        let budget = decoder.budget
        // One conversion to premultiplied RGBA8 per stream, chosen for the first band's format,
        // and one slice of converted rows, reused for every band.
        var converter: PixelConverter?
        var slice = [UInt8]()
        decoder.rowSink = { band in
            guard failure == nil else { return }
            do throws(DecodeError) {
                if resampler == nil {
                    // Opaque: every pixel's alpha is 255 (a JPEG; rows with no alpha component and
                    // no palette, whose conversion writes alpha 255): the resampler then filters
                    // three values a pixel instead of four.
                    var indexed = false
                    if case .indexed = band.format.colorModel { indexed = true }
                    let opaque = format == .jpeg || !indexed && !band.format.alphaInfo.containsAlpha
                    resampler = try StreamingResampler(sourceWidth: geometry.sourceWidth, sourceHeight: geometry.sourceHeight,
                                                       destinationWidth: geometry.width, destinationHeight: geometry.height,
                                                       sourceExtent: geometry.extent, budget: budget, layout: layout,
                                                       opaque: opaque, output: output)
                }
                guard let resampler else { return }
                let rowBytes = band.width * 4
                // Rows already premultiplied RGBA8 (a JPEG's renderer writes them so) go in as they are.
                if band.format == .rgba8Premultiplied && band.bytesPerRow == rowBytes && band.significantBitsPerComponent == 8 {
                    band.bytes.withUnsafeBufferPointer { resampler.consume(rows: $0, count: band.height) }
                    return
                }
                // A band may be a whole image (a TIFF strip of every row): it is converted in
                // slices of about 64 KiB of output, so the conversion never holds more than a slice.
                let sliceRows = max(1, (1 << 16) / max(1, rowBytes))
                guard band.format.componentType != .float, band.significantBitsPerComponent == band.format.bitsPerComponent else {
                    // Float samples and samples of fewer significant bits take `Bitmap.converted`'s
                    // own steps (to 16 bits, to the full range) first.
                    try band.forEachBand(rowsPerBand: sliceRows) { (_, part) throws(DecodeError) in
                        let premultiplied: Bitmap
                        do {
                            premultiplied = try part.converted(to: .rgba8Premultiplied, bytesPerRow: rowBytes)
                        } catch {
                            throw DecodeError(.unsupported, format: format, offset: nil, ContainerError.outputConversion("\(error)"))
                        }
                        premultiplied.bytes.withUnsafeBufferPointer { resampler.consume(rows: $0, count: part.height) }
                    }
                    return
                }
                if converter?.source != band.format {
                    do {
                        converter = try PixelConverter(from: band.format, significantBits: band.format.bitsPerComponent,
                                                       to: .rgba8Premultiplied, pixels: geometry.sourceWidth * geometry.sourceHeight)
                    } catch {
                        throw DecodeError(.unsupported, format: format, offset: nil, ContainerError.outputConversion("\(error)"))
                    }
                }
                guard let converter else { return }
                if slice.count < sliceRows * rowBytes { slice = [UInt8](repeating: 0, count: sliceRows * rowBytes) }
                let sourceRowBytes = band.bytesPerRow, width = band.width
                var top = 0
                while top < band.height {
                    let rows = min(sliceRows, band.height - top)
                    band.bytes.withUnsafeBytes { source in
                        slice.withUnsafeMutableBytes { target in
                            guard let s = source.baseAddress, let t = target.baseAddress else { return }
                            // Rows top ..< top + rows of the band (`height × bytesPerRow` bytes), into
                            // `rows × rowBytes` ≤ slice.count bytes. Zeroed once: the general route
                            // writes only the components the target has, and the target has all four.
                            converter.convert(width: width, rows: rows, from: PixelRows(base: s + top * sourceRowBytes, bytesPerRow: sourceRowBytes),
                                              into: MutablePixelRows(base: t, bytesPerRow: rowBytes))
                        }
                    }
                    slice.withUnsafeBufferPointer { resampler.consume(rows: $0, count: rows) }
                    top += rows
                }
            } catch {
                failure = error
            }
        }
        let session = DecodeSession(format: format, decoder: decoder, input: InputBuffer(bytes, isClosed: input == nil))
        _ = try session.pump(reading: input) { failure == nil }
        if let failure { throw failure }
        guard let resampler else {
            // Not one row arrived: there is no picture to scale.
            let end = session.input.writeIndex
            throw decoder.truncation ?? DecodeError(.truncated, format: format, offset: end, ContainerError.tooShortToIdentify(count: end))
        }
        // Rows a truncated file never delivered count as transparent.
        resampler.consumeBlankRows(resampler.sourceHeight)
        return Resampled(resampler: resampler, truncation: decoder.truncation, warnings: decoder.warnings)
    }
}

/// Where `ImageSource.thumbnail(maxPixelSize:from:)` takes its pixels from.
public enum ThumbnailSource: Sendable, Hashable {
    /// The image itself (ImageIO's `kCGImageSourceCreateThumbnailFromImageAlways`).
    case image
    /// The embedded EXIF thumbnail whenever there is one, however small, else the image
    /// (`kCGImageSourceCreateThumbnailFromImageIfAbsent`).
    case embeddedIfPresent
    /// The embedded thumbnail when its longer side reaches `maxPixelSize` (or the image's own
    /// longer side, if that is smaller), so the result is as large as from the image; else the image.
    case embeddedIfLargeEnough
}

extension ImageSource {
    /// The plan `decodedAndScaledDown(limitBytes:)` follows for this image.
    public func downscalePlan(limitBytes: Int) throws(DecodeError) -> DownscalePlan {
        let header = try headerProperties()
        return DownscalePlan(sourceWidth: header.width, sourceHeight: header.height, limitBytes: limitBytes)
    }

    /// SDWebImage's `decodedAndScaledDownImage(limitBytes:)`: the first frame at full size when it
    /// fits in `limitBytes` (4 bytes per pixel; 0 = the 60 MB iOS default), else scaled down per
    /// `DownscalePlan` with a Lanczos-3 filter — without ever holding the full-size image.
    /// `output` defaults to the display format, as SDWebImage returns decoded-for-display images.
    /// `jpegDCTScaling: false` resamples JPEGs from full size (to measure what the DCT-domain
    /// reduction costs in quality).
    public func decodedAndScaledDown(limitBytes: Int, output: ImageDecodingOptions.Output = .display,
                                     jpegDCTScaling: Bool = true) throws(DecodeError) -> Bitmap {
        let plan = try downscalePlan(limitBytes: limitBytes)
        guard plan.scalesDown else { return try firstFrame(options: ImageDecodingOptions(output: output)) }
        // `bitmap` is the only reference to the destination, so it is converted in place (the
        // display format needs no conversion: the resampler writes it).
        var bitmap = try Downscaler.resample(bytes, format: format, options: options,
                                             sourceWidth: plan.sourceWidth, sourceHeight: plan.sourceHeight,
                                             width: plan.destinationWidth, height: plan.destinationHeight,
                                             allowJPEGScaling: jpegDCTScaling, layout: resampledLayout(output)).resampler.takeBitmap()
        try deliverScaled(&bitmap, output: output, applyOrientation: false)
        return bitmap
    }

    /// `decodedAndScaledDown(limitBytes:output:jpegDCTScaling:)` delivered to `body` a band of
    /// rows at a time, top to bottom, as the resampler finishes them: the same rows, byte for
    /// byte, without the destination in memory (what `pureimage downscale` writes files with).
    /// When the image fits in `limitBytes` it is not scaled, and its rows come from
    /// `decodeRows(output:_:)`. The returned `StreamedFrame` has the image's properties (its own
    /// size; the bands carry the scaled size in `rows.width` and `frameHeight`), frame 0's warnings
    /// and truncation. An error thrown by `body` stops the delivery and is rethrown after the
    /// decode (which runs to its end).
    public func decodeScaledDownRows(limitBytes: Int, output: ImageDecodingOptions.Output = .display,
                                     jpegDCTScaling: Bool = true, _ body: (RowBand) throws -> Void) throws -> StreamedFrame {
        try decodeScaledDownRows(limitBytes: limitBytes, output: output, jpegDCTScaling: jpegDCTScaling, reading: nil, body)
    }

    /// `decodeScaledDownRows(limitBytes:output:jpegDCTScaling:_:)` of the file at `path`, holding
    /// a window of a JPEG, PNG or GIF file rather than all of it, as `decodeRows(contentsOfFile:)`
    /// does: a 100 MB baseline photo is scaled down with a few megabytes of it in memory. A PNG
    /// or GIF is read twice, in pieces: its container walk first, to the end of the file (the
    /// plan and the output's alpha come from the whole file's properties — a PNG's late chunks,
    /// a later GIF frame's transparency — which the start alone may not show), then the decode.
    /// A TIFF is read at offsets (`RandomAccessFile`: the IFD chain, then each strip or tile as
    /// its band is decoded). A WebP is read whole first. The rows and the result are those of
    /// the call on the whole file; I/O errors are typed (`FileError`).
    public static func decodeScaledDownRows(contentsOfFile path: String, options: DecodeOptions = DecodeOptions(), limitBytes: Int,
                                            output: ImageDecodingOptions.Output = .display, jpegDCTScaling: Bool = true,
                                            _ body: (RowBand) throws -> Void) throws -> StreamedFrame {
        try decodeScaledDownRows(contentsOfFile: path, options: options, limitBytes: limitBytes, output: output,
                                 jpegDCTScaling: jpegDCTScaling, window: fileWindowBytes, body)
    }

    /// `window`: the pieces read (tests and the fuzzer use small ones).
    @_spi(Reference) public static func decodeScaledDownRows(contentsOfFile path: String, options: DecodeOptions, limitBytes: Int,
                                                             output: ImageDecodingOptions.Output, jpegDCTScaling: Bool, window: Int,
                                                             _ body: (RowBand) throws -> Void) throws -> StreamedFrame {
        switch try openInPieces(path, options: options, window: window, formats: [.jpeg, .tiff, .png, .gif], walkingWhole: [.png, .gif]) {
        case .inPieces(let source, let rest):
            // (A JPEG header walk that failed on every byte it may read fails the plan, as the
            // whole file's does.)
            return try source.decodeScaledDownRows(limitBytes: limitBytes, output: output, jpegDCTScaling: jpegDCTScaling, reading: rest, body)
        case .atOffsets(let source, let file):
            do {
                return try source.decodeScaledDownRows(limitBytes: limitBytes, output: output, jpegDCTScaling: jpegDCTScaling,
                                                       reading: nil, atOffsets: file, body)
            } catch {
                throw file.failure ?? error
            }
        case .whole(let source):
            return try source.decodeScaledDownRows(limitBytes: limitBytes, output: output, jpegDCTScaling: jpegDCTScaling, body)
        }
    }

    /// `input`: the rest of the file, when this source holds only its start; `tiff`: the TIFF
    /// file whose first piece this source holds, read at offsets (its header the whole IFD
    /// chain's walk, as `properties()` of the file's bytes).
    func decodeScaledDownRows(limitBytes: Int, output: ImageDecodingOptions.Output, jpegDCTScaling: Bool,
                              reading input: FileRest?, atOffsets tiff: RandomAccessFile? = nil,
                              _ body: (RowBand) throws -> Void) throws -> StreamedFrame {
        let header = try tiff.map { try Self.walkContainer(format: .tiff, options: options, bytes: [], tiff: $0).properties } ?? headerProperties()
        let plan = DownscalePlan(sourceWidth: header.width, sourceHeight: header.height, limitBytes: limitBytes)
        guard plan.scalesDown else {
            return try streamFirstFrame(output: output, reading: input, atOffsets: tiff) { band in
                try body(RowBand(firstRow: band.firstRow, frameHeight: band.frameHeight, rows: try band.converted()))
            }
        }
        let target = scaledTarget(output, hasAlpha: header.hasAlpha)
        let width = plan.destinationWidth, height = plan.destinationHeight
        var failure: (any Error)?
        // The resampler (which keeps `deliver`, and so `body`) ends inside this closure: only
        // the decoder's report leaves it.
        let report: (truncation: DecodeError?, warnings: [DecodeWarning])
        do {
            report = try withoutActuallyEscaping(body) { body throws -> (truncation: DecodeError?, warnings: [DecodeWarning]) in
                // Bands of about 256 KiB: one allocation and one conversion per band, not per row.
                let layout = ResampledLayout(target) ?? .rgbaPremultiplied
                let bands = StreamingResampler.Output.bands(rowsPerBand: (1 << 18) / (width * 4)) { firstRow, rows, count in
                    guard failure == nil else { return }
                    do {
                        var band = Bitmap(uncheckedWidth: width, height: count, format: layout.format,
                                          bytesPerRow: width * 4, bytes: Array(rows))
                        try self.convertScaled(&band, to: target)
                        try body(RowBand(firstRow: firstRow, frameHeight: height, rows: band))
                    } catch {
                        failure = error
                    }
                }
                let resampled = try Downscaler.resample(bytes, format: format, options: options,
                                                        sourceWidth: plan.sourceWidth, sourceHeight: plan.sourceHeight,
                                                        width: width, height: height, allowJPEGScaling: jpegDCTScaling,
                                                        layout: layout, output: bands, reading: input, atOffsets: tiff)
                return (resampled.truncation, resampled.warnings)
            }
        } catch {
            // The consumer's own error comes first: the decode went on without it.
            throw failure ?? error
        }
        if let failure { throw failure }
        return StreamedFrame(properties: header, warnings: report.warnings, truncation: report.truncation, streamed: true)
    }

    /// `CGImageSourceCreateThumbnailAtIndex` with `kCGImageSourceThumbnailMaxPixelSize`: the
    /// longest side at most `maxPixelSize`, aspect kept, never enlarged; EXIF orientation applied
    /// when asked (`kCGImageSourceCreateThumbnailWithTransform`). Same streaming path.
    ///
    /// `from` chooses between the image and the JPEG thumbnail a camera stores in EXIF IFD1
    /// (`ThumbnailSource`); an embedded thumbnail is scaled the same way and oriented by the
    /// image's orientation (it is stored as the image is). One that is absent or does not decode
    /// leaves the image to make the thumbnail from.
    public func thumbnail(maxPixelSize: Int, applyOrientation: Bool = false,
                          output: ImageDecodingOptions.Output = .display,
                          from thumbnailSource: ThumbnailSource = .image) throws(DecodeError) -> Bitmap {
        try thumbnail(maxPixelSize: maxPixelSize, applyOrientation: applyOrientation, output: output, from: thumbnailSource,
                      reading: nil, atOffsets: nil, path: nil)
    }

    /// `thumbnail(maxPixelSize:applyOrientation:output:from:)` of the file at `path`, read as
    /// `decodeScaledDownRows(contentsOfFile:)` reads it — a JPEG, PNG or GIF in pieces (a PNG or
    /// GIF walked to its end first), a TIFF at offsets, a WebP whole — so a thumbnail of a
    /// 100 MB photo holds a few megabytes of it (`CGImageSourceCreateWithURL`, then
    /// `CGImageSourceCreateThumbnailAtIndex`). An image already within `maxPixelSize` is
    /// decoded from the whole file. The result is the call's on the file's bytes; I/O errors
    /// are typed (`FileError`).
    public static func thumbnail(contentsOfFile path: String, options: DecodeOptions = DecodeOptions(), maxPixelSize: Int,
                                 applyOrientation: Bool = false, output: ImageDecodingOptions.Output = .display,
                                 from thumbnailSource: ThumbnailSource = .image) throws(DecodeError) -> Bitmap {
        try thumbnail(contentsOfFile: path, options: options, maxPixelSize: maxPixelSize, applyOrientation: applyOrientation,
                      output: output, from: thumbnailSource, window: fileWindowBytes)
    }

    /// `window`: the pieces read (tests and the fuzzer use small ones).
    @_spi(Reference) public static func thumbnail(contentsOfFile path: String, options: DecodeOptions, maxPixelSize: Int,
                                                  applyOrientation: Bool, output: ImageDecodingOptions.Output,
                                                  from thumbnailSource: ThumbnailSource, window: Int) throws(DecodeError) -> Bitmap {
        switch try openInPieces(path, options: options, window: window, formats: [.jpeg, .tiff, .png, .gif], walkingWhole: [.png, .gif]) {
        case .inPieces(let source, let rest):
            return try source.thumbnail(maxPixelSize: maxPixelSize, applyOrientation: applyOrientation, output: output,
                                        from: thumbnailSource, reading: rest, atOffsets: nil, path: path)
        case .atOffsets(let source, let file):
            // The source holds the first piece: its properties are the whole IFD chain's walk.
            source.remember(Result { () throws(DecodeError) in try walkContainer(format: .tiff, options: options, bytes: [], tiff: file) })
            do {
                return try source.thumbnail(maxPixelSize: maxPixelSize, applyOrientation: applyOrientation, output: output,
                                            from: thumbnailSource, reading: nil, atOffsets: file, path: path)
            } catch {
                throw file.failure ?? error
            }
        case .whole(let source):
            return try source.thumbnail(maxPixelSize: maxPixelSize, applyOrientation: applyOrientation, output: output, from: thumbnailSource)
        }
    }

    /// `input`, `tiff`: as for `decodeScaledDownRows`, when this source holds only the start of
    /// the file at `path` (its properties the whole file's).
    private func thumbnail(maxPixelSize: Int, applyOrientation: Bool, output: ImageDecodingOptions.Output,
                           from thumbnailSource: ThumbnailSource, reading input: FileRest?, atOffsets tiff: RandomAccessFile?,
                           path: String?) throws(DecodeError) -> Bitmap {
        let header = try headerProperties()
        if thumbnailSource != .image, let embedded = embeddedThumbnail(header) {
            let longest = max(embedded.width, embedded.height)
            if thumbnailSource == .embeddedIfPresent || longest >= min(maxPixelSize, max(header.width, header.height)),
               var bitmap = try? embedded.source.thumbnail(maxPixelSize: maxPixelSize, applyOrientation: false, output: output) {
                // (A damaged embedded thumbnail is no error of the image's: the image makes it instead.)
                if applyOrientation { bitmap = bitmap.oriented(header.orientation) }
                return bitmap
            }
        }
        let plan = ThumbnailPlan(sourceWidth: header.width, sourceHeight: header.height, maxPixelSize: maxPixelSize)
        if plan.width == header.width && plan.height == header.height {
            if let path, input != nil || tiff != nil {
                // Not scaled: the whole image is the thumbnail, decoded from the whole file.
                return try ImageSource(contentsOfFile: path, options: options)
                    .firstFrame(options: ImageDecodingOptions(output: output, applyOrientation: applyOrientation))
            }
            return try firstFrame(options: ImageDecodingOptions(output: output, applyOrientation: applyOrientation))
        }
        var bitmap = try Downscaler.resample(bytes, format: format, options: options, sourceWidth: header.width, sourceHeight: header.height,
                                             width: plan.width, height: plan.height, layout: resampledLayout(output),
                                             reading: input, atOffsets: tiff).resampler.takeBitmap()
        try deliverScaled(&bitmap, output: output, applyOrientation: applyOrientation)
        return bitmap
    }

    /// The EXIF IFD1 JPEG thumbnail, when the headers point at one that is a JPEG whose own
    /// header reads.
    private func embeddedThumbnail(_ header: ImageProperties) -> (source: ImageSource, width: Int, height: Int)? {
        guard let exif = header.exif, let range = header.exifMetadata?.thumbnailRange, range.upperBound <= exif.count,
              let source = try? ImageSource(bytes: Array(exif[range]), format: .jpeg, options: options),
              let properties = try? source.properties() else { return nil }
        return (source, properties.width, properties.height)
    }

    private func deliverScaled(_ bitmap: inout Bitmap, output: ImageDecodingOptions.Output, applyOrientation: Bool) throws(DecodeError) {
        try convertScaled(&bitmap, to: scaledTarget(output, hasAlpha: (try? headerProperties().hasAlpha) ?? true))
        if applyOrientation, let orientation = try? headerProperties().orientation {
            bitmap = bitmap.oriented(orientation)
        }
    }

    /// The pixel format a scaled result is delivered in (the resampler works in premultiplied
    /// RGBA8, so `native` and `canonicalRGBA` are straight RGBA8).
    private func scaledTarget(_ output: ImageDecodingOptions.Output, hasAlpha: Bool) -> PixelFormat {
        switch output {
        case .native, .canonicalRGBA: .rgba8
        case .display: .display(hasAlpha: hasAlpha)
        case .format(let format): format
        case .libtiffRGBA: .rgba8Premultiplied
        }
    }

    /// The layout the resampler writes for `output`: the target itself when it is one the
    /// resampler writes (premultiplied RGBA8, the display format), else its own.
    private func resampledLayout(_ output: ImageDecodingOptions.Output) -> ResampledLayout {
        ResampledLayout(scaledTarget(output, hasAlpha: (try? headerProperties().hasAlpha) ?? true)) ?? .rgbaPremultiplied
    }

    /// The resampler's premultiplied pixels into `target`: 4-byte targets in place, so the
    /// destination exists once in memory.
    private func convertScaled(_ bitmap: inout Bitmap, to target: PixelFormat) throws(DecodeError) {
        guard bitmap.format != target else { return }
        do {
            if target.bitsPerPixel == 32 && target.bitsPerComponent == 8 && target.isValid,
               target.colorModel == .rgb || target.colorModel == .gray && target.alphaInfo == .none {
                try bitmap.convertInPlace(to: target)
            } else {
                bitmap = try bitmap.converted(to: target, bytesPerRow: target.minimumBytesPerRow(width: bitmap.width) ?? 0)
            }
        } catch {
            throw DecodeError(.unsupported, format: format, offset: nil, ContainerError.outputConversion(error.description))
        }
    }
}
