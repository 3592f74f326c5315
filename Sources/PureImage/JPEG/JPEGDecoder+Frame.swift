/// JPEGDecoder, the frame: what libjpeg-turbo refuses, the colour transform, setting up the
/// coefficient store and the renderer, and rendering bands of MCU rows (whole, partial and
/// progressive).
extension JPEGDecoder {
    /// What libjpeg refuses once a scan starts (jdinput.c `initial_setup`, jdmaster.c): sizes
    /// beyond JPEG_MAX_DIMENSION, sampling factors outside 1...4, component counts it cannot
    /// convert, and scales it does not offer.
    func checkSupported(_ frame: FrameHeader, at offset: Int) throws(DecodeError) {
        let count = frame.components.count
        // A zero height that no DNL defined (the first scan cut off before its end was seen).
        guard frame.height > 0 else {
            throw DecodeError(.malformed, format: .jpeg, offset: offset, JPEGError.emptyImage(width: frame.width, height: 0, components: count))
        }
        guard frame.width <= 65500, frame.height <= 65500 else {
            throw DecodeError(.limitExceeded, format: .jpeg, offset: offset, JPEGError.dimensionTooLarge(width: frame.width, height: frame.height))
        }
        for (index, component) in frame.components.enumerated() where !(1...4).contains(component.h) || !(1...4).contains(component.v) {
            throw DecodeError(.malformed, format: .jpeg, offset: offset, JPEGError.badSamplingFactor(component: index, h: component.h, v: component.v))
        }
        guard count == 1 || count == 3 || count == 4 else {
            throw DecodeError(.unsupported, format: .jpeg, offset: offset, JPEGError.componentCount(count))
        }
        guard [1, 2, 4, 8].contains(options.jpegScaleDenominator) else {
            throw DecodeError(.unsupported, format: .jpeg, offset: offset, JPEGError.scaleDenominator(options.jpegScaleDenominator))
        }
    }

    /// libjpeg-turbo converts no lossless colours; PureImage converts lossless YCbCr with the
    /// arithmetic of the lossy decoder, which exists for 8 and 12 bits only (its centre 2^(P−1)
    /// and range 0…2^P−1 are built into the tables), so other precisions are refused.
    func checkConvertible(_ frame: FrameHeader, transform: JPEGColorTransform, at offset: Int) throws(DecodeError) {
        guard lossless, frame.precision != 8, frame.precision != 12, transform == .yccToRGB || transform == .ycckToCMYK else { return }
        throw DecodeError(.unsupported, format: .jpeg, offset: offset, JPEGError.losslessColorConversion(precision: frame.precision))
    }

    /// The colour transform, whether CMYK is inverted, and a problem to warn about. JPEG-in-TIFF
    /// decides the colour handling itself (`DecodeOptions.jpegColorHandling`).
    func colorTransform(for frame: FrameHeader) -> (JPEGColorTransform, Bool, String?) {
        switch options.jpegColorHandling {
        case .automatic: return JPEGColorTransform.select(frame: frame, metadata: metadata, lossless: lossless)
        case .asStored: return JPEGColorTransform.asStored(componentCount: frame.components.count)
        case .yccToRGB:
            return frame.components.count == 3 ? (.yccToRGB, false, nil)
                : JPEGColorTransform.asStored(componentCount: frame.components.count)
        }
    }

    /// The first SOS fixes everything libjpeg decides in `jpeg_read_header` /
    /// `jpeg_start_decompress`: limits, colour space, geometry, buffers, default tables.
    func setUpFrame(_ frame: FrameHeader, firstScan: ScanHeader, at offset: Int) throws(DecodeError) {
        let count = frame.components.count
        try checkSupported(frame, at: offset)
        let scale = options.jpegScaleDenominator
        let (transform, inverted, problem) = colorTransform(for: frame)
        if let problem { warn(at: offset, problem) }
        try checkConvertible(frame, transform: transform, at: offset)
        let geometry: FrameGeometry
        do {
            geometry = try FrameGeometry(frame: frame, scaleDenominator: scale, lossless: lossless)
        } catch {
            throw DecodeError(.unsupported, format: .jpeg, offset: offset, error)
        }
        // jdinput.c: a progressive file always has multiple scans.
        multiScan = progressive || firstScan.components.count < count || (keepsWholeImage && !lossless)
        progression = ProgressiveState(components: count)
        // Buffers sized from the frame header: a refusal is placed at the scan that needs them.
        // Lossless frames have no coefficients; their samples go straight into the planes.
        var store: CoefficientStore?
        if !lossless {
            do {
                // Bands only for one-shot Huffman progressive decodes that ask (the downscaler):
                // an arithmetic scan's state is its adaptive statistics as well, not kept here.
                if progressive && !arithmetic, let request = options.jpegCoefficientBands,
                   let bands = CoefficientBands.plan(geometry: geometry, bandBytes: request.bandBytes, minimumRows: request.minimumRows) {
                    store = try CoefficientStore(geometry: geometry, bands: bands, budget: budget)
                } else {
                    store = try CoefficientStore(geometry: geometry, wholeImage: multiScan, interleavedRows: firstScan.components.count > 1,
                                                 budget: budget)
                }
            } catch {
                throw error.located(at: offset)
            }
        }
        // The renderer's sample planes are rings of three MCU rows in every mode: single-scan
        // files render each MCU row as it is decoded, multi-scan files render theirs from the
        // coefficient store band by band once the scans are in (`renderWholeImage`), so no
        // full-size sample plane exists beside the coefficients. One MCU row is `v` block rows
        // of each component when several are interleaved, one block row when a scan or the
        // frame has one component (T.81 A.2).
        // A multi-scan lossless image keeps whole planes instead: its scans deliver samples
        // component by component, and rows go out at the end.
        let ring = lossless ? geometry.components.map { multiScan ? $0.sampleHeight : geometry.maxV }
            : Self.mcuRowHeights(geometry, interleaved: multiScan ? count > 1 : firstScan.components.count > 1)
        // A caller's 4-byte RGB target written by the renderer itself, for 8-bit gray or RGB
        // output. Not below 8 bits: a lossless file of 2–7 bits has samples a conversion
        // scales to the full range (`Bitmap.significantBitsPerComponent`), which this skips.
        let fourByte = frame.precision == 8 && FourByteRGB.writes(transform)
            ? options.jpegDirectFormat.flatMap(FourByteRGB.init(target:)) : nil
        var sink: ((UnsafeBufferPointer<UInt8>) -> Void)?
        if let rowSink {
            let width = geometry.outputWidth, precision = frame.precision
            let bits = precision <= 8 ? 8 : 16
            let format = Self.outputFormat(transform.colorModel, bits: bits, fourByte: fourByte)
            sink = { row in
                rowSink(Bitmap(uncheckedWidth: width, height: 1, format: format, bytesPerRow: row.count, bytes: Array(row))
                    .withSignificantBits(precision))
            }
        } else if fourByte == nil,
                  let direct = try directImage(geometry: geometry, native: Self.nativeFormat(transform.colorModel, bits: frame.precision <= 8 ? 8 : 16),
                                               precision: frame.precision, offset: offset) {
            directImage = direct
            sink = { row in direct.append(UnsafeRawBufferPointer(row)) }
        }
        let renderer: AnyJPEGRenderer
        do {
            renderer = try AnyJPEGRenderer(precision: frame.precision, geometry: geometry, transform: transform, invertCMYK: inverted,
                                           ringMCURows: ring, budget: budget, fourByte: fourByte, rowSink: sink)
        } catch {
            throw error.located(at: offset)
        }
        renderer.setRawRowSink(rawRowSink)
        colorTransform = transform
        invertsCMYK = inverted
        self.geometry = geometry
        self.store = store
        self.renderer = renderer
        latched = [Bool](repeating: false, count: count)
        latchedQuant = [[UInt16]?](repeating: nil, count: count)
        // jdhuff.c `jinit_huff_decoder` → `std_huff_tables`: fill empty slots 0 and 1 (the
        // progressive decoder, jdphuff.c, and the arithmetic one do not).
        if !progressive && !arithmetic && !lossless { installStandardTables() }
        if var properties {
            // width/height stay the stored size; `frame(at:)` has the scaled size.
            properties.colorModel = transform.colorModel
            applyMetadata(to: &properties)
            if let problem = metadata.iccProfile().problem { warn(at: nil, problem) }
            self.properties = properties
        }
    }

    func installStandardTables() {
        if dcSpecs[0] == nil { dcSpecs[0] = HuffmanTables.standardDC0 }
        if dcSpecs[1] == nil { dcSpecs[1] = HuffmanTables.standardDC1 }
        if acSpecs[0] == nil { acSpecs[0] = HuffmanTables.standardAC0 }
        if acSpecs[1] == nil { acSpecs[1] = HuffmanTables.standardAC1 }
    }

    /// Single-scan files: IDCT and output for MCU row `row` as soon as it is decoded.
    func renderMCURow(_ row: Int, scan: any EntropyScan) {
        guard let renderer, let store, let geometry else { return }
        if scan.interleaved {
            for (c, component) in geometry.components.enumerated() {
                renderer.reconstruct(component: c, from: store, blockRows: row * component.v ..< (row + 1) * component.v)
            }
        } else {
            renderer.reconstruct(component: scan.firstComponent, from: store, blockRows: row ..< row + 1)
        }
        renderer.emitRows()
    }

    /// Per component, the sample rows of one MCU row: `v` block rows when several components
    /// are interleaved, one block row when the scan or the frame has one component (T.81 A.2).
    static func mcuRowHeights(_ geometry: FrameGeometry, interleaved: Bool) -> [Int] {
        geometry.components.map { ($0.v > 0 && interleaved ? $0.v : 1) * $0.scaledBlockSize }
    }

    /// Multi-scan files, once the scans are in: the whole image from the coefficient store.
    func renderWholeImage() {
        guard let renderer, let store, let geometry, !renderer.isComplete else { return }
        if let bands = store.bands {
            renderBands(bands, store: store, renderer: renderer, geometry: geometry)
            return
        }
        guard store.isWholeImage else { return }
        let smoothing = progressive ? progression.smoothing(geometry: geometry, store: store, quantization: latchedQuant,
                                                            scanCount: scanCount, lastGoodIMCURow: lastGoodIMCURow) : nil
        Self.render(store, geometry: geometry, smoothing: smoothing, into: renderer)
    }

    /// IDCT and output MCU row by MCU row from a whole-image coefficient store, top to bottom,
    /// into a renderer made with `mcuRowHeights(geometry, interleaved: components > 1)` rings
    /// (block smoothing reads its neighbours from the store, which holds every block).
    /// `rows` limits it to those render rows (a band of `CoefficientBands`, whose rings hold them).
    static func render(_ store: CoefficientStore, geometry: FrameGeometry, smoothing: [BlockSmoothing]?,
                       rows band: Range<Int>? = nil, into renderer: AnyJPEGRenderer) {
        let interleaved = geometry.components.count > 1
        let rows = interleaved ? geometry.mcuRows : geometry.components[0].heightInBlocks
        for row in (band ?? 0..<rows).clamped(to: 0..<rows) {
            for (c, component) in geometry.components.enumerated() {
                let step = interleaved ? component.v : 1
                renderer.reconstruct(component: c, from: store, blockRows: row * step ..< (row + 1) * step, smoothing: smoothing?[c])
            }
            renderer.emitRows()
        }
    }

    /// Progressive partial image: what libjpeg-turbo's buffered-image mode shows after scan
    /// `completed.number` (`jpeg_start_output(cinfo, scan)`): every latched component's
    /// coefficients so far, dequantized, block-smoothed with the coefficient bits of that scan
    /// (`smoothing_ok` latches them at the start of the output pass), through the usual IDCT,
    /// upsampling and colour stages. Components without a scan yet have no quantization table
    /// and show mid-gray, as in libjpeg (their IDCT multipliers stay zero). If the next scan has
    /// already decoded some MCUs, their coefficients show too (libjpeg also renders what the
    /// input side has stored by then).
    func renderProgressivePartial(_ completed: (number: Int, progression: ProgressiveState, lastGood: Int)) -> PartialFrame? {
        guard let geometry, let store, let frame,
              let preview = try? AnyJPEGRenderer(precision: frame.precision, geometry: geometry, transform: colorTransform,
                                                  invertCMYK: invertsCMYK,
                                                  ringMCURows: Self.mcuRowHeights(geometry, interleaved: geometry.components.count > 1),
                                                  budget: budget, fourByte: renderer?.fourByte) else { return nil }
        for (c, table) in latchedQuant.enumerated() {
            if let table { preview.setQuantization(component: c, table) }
        }
        let smoothing = completed.progression.smoothing(geometry: geometry, store: store, quantization: latchedQuant,
                                                        scanCount: completed.number, lastGoodIMCURow: completed.lastGood)
        Self.render(store, geometry: geometry, smoothing: smoothing, into: preview)
        let bitmap = nativeBitmap(preview, rows: geometry.outputHeight, bytes: preview.pixels)
        return PartialFrame(bitmap: bitmap, decodedRows: geometry.outputHeight, frameIndex: 0)
    }

    /// `DecodeOptions.directOutput` where the renderer cannot write the output itself
    /// (`FourByteRGB`): the image each rendered row is converted into as it is emitted
    /// (`DirectImage`), so that a 12-bit, 16-bit or CMYK JPEG decoded to the display format
    /// holds the output image and a row of samples, not a native image and then its
    /// conversion. Nil (the native image is kept and converted when delivered, as before) when
    /// no output was asked for, when the output is the native format, or when no converter
    /// takes rows of `precision` significant bits without scaling the whole image first
    /// (`PixelConverter`; `Bitmap.converted` does that).
    func directImage(geometry: FrameGeometry, native: PixelFormat, precision: Int, offset: Int) throws(DecodeError) -> DirectImage? {
        guard let output = options.directOutput,
              let target = output.target(native: native, hasAlpha: properties?.hasAlpha ?? false), target != native else { return nil }
        let width = geometry.outputWidth, height = geometry.outputHeight
        let significantBits = min(precision, native.bitsPerComponent)
        guard let converter = try? PixelConverter(from: native, significantBits: significantBits, to: target, pixels: width * height) else { return nil }
        return try DirectImage(width: width, height: height, converter: converter, budget: budget, format: .jpeg, offset: offset)
    }
}
