/// Rows of pixels in memory the caller keeps alive: the first row's address and the distance
/// from one row to the next. What the conversion kernels read.
struct PixelRows {
    var base: UnsafeRawPointer
    var bytesPerRow: Int
}

/// Rows of pixels the conversion kernels write.
struct MutablePixelRows {
    var base: UnsafeMutableRawPointer
    var bytesPerRow: Int
}

/// One conversion between two pixel formats, decided once and applied to rows anywhere in
/// memory: a whole bitmap (`Bitmap.converted(to:)`), or a decoder's rows one band at a time,
/// written straight into the image it delivers (a PNG decoded to RGBA converts each scanline as
/// it is unfiltered, so no image in the stored format exists at all).
///
/// The arithmetic is the one at the top of Bitmap+Conversion.swift. `init` picks how it is
/// done — a copy, a look-up table built by the general route, a fast kernel, or the general
/// per-pixel route — and every choice gives the same bytes (`ConversionTests` compares them),
/// so where an image's rows are converted, and in how many pieces, never changes a pixel.
struct PixelConverter {
    private enum Path {
        /// The same format: each row's bytes copied.
        case copy
        /// Opaque 16-bit gray or RGB to a 4-byte 8-bit format (WideConversionKernels.swift).
        case wide(WideOpaqueConversion, table: [UInt8])
        /// Opaque 16-bit gray or RGB, or gray with straight alpha, to a 16-bit RGB format with alpha
        /// (WideConversionKernels.swift).
        case wideExpansion(WideExpansion)
        /// 16-bit CMYK (+ alpha) to a 16-bit RGB format with alpha (WideConversionKernels.swift).
        case wideCMYK(WideCMYKConversion)
        /// The same components in another order or byte order (ByteReorderKernel.swift).
        case reorder(ByteReorderKernel)
        /// 1/2/4-bit samples (gray or indexed) to a 4-byte 8-bit format (PackedConversionKernels.swift).
        case packed(table: [UInt32])
        /// 8-bit indices to a 4-byte 8-bit format: one word per palette entry.
        case indices(words: [UInt32])
        case kernel(ConversionKernel)
        /// Straight RGBA8 to RGB8 (AlphaDropKernel.swift).
        case alphaDrop(AlphaDropKernel)
        /// 16-bit samples narrowed to 8 bits, then one of the routes above (NarrowingConversionKernel.swift).
        indirect case narrowing(NarrowingConversion)
        case general(GeneralConversion)
    }

    let source: PixelFormat
    let target: PixelFormat
    private let path: Path

    /// Whether `convert` writes every byte of each row's pixels (`target`'s minimum row bytes),
    /// so the rows may be uninitialised memory. The general route writes only the components
    /// the target has; it is given zeroed rows.
    var writesWholeRows: Bool {
        switch path {
        case .copy, .wide, .wideExpansion, .wideCMYK, .reorder, .packed, .indices, .kernel, .alphaDrop: return true
        case .narrowing(let narrowing): return narrowing.writesWholeRows
        case .general: return false
        }
    }

    /// Whether a route other than the general, per-pixel one was found.
    var isFast: Bool {
        if case .general = path { return false }
        return true
    }

    /// `source` samples use their low `significantBits` bits. `pixels` is how many pixels will
    /// go through this converter in all (the tables cost about what a few thousand pixels do,
    /// so below that the general route is taken — the same bytes).
    ///
    /// Throws for a target the library does not convert to (indexed, float, depths other than
    /// 8 and 16, an invalid format), for float sources (`Bitmap.converted` turns them into
    /// 16-bit first), and for samples with fewer significant bits than their components when
    /// no table takes them (`Bitmap.fullRange` scales them first).
    init(from source: PixelFormat, significantBits: Int, to target: PixelFormat, pixels: Int) throws(BitmapError) {
        if let problem = target.validate() { throw .invalidFormat(problem) }
        if case .indexed = target.colorModel { throw .unsupportedConversion("to an indexed format") }
        guard source.componentType != .float, target.componentType != .float else { throw .unsupportedConversion("of float components") }
        guard target.bitsPerComponent == 8 || target.bitsPerComponent == 16 else {
            throw .unsupportedConversion("to \(target.bitsPerComponent)-bit components")
        }
        self.source = source
        self.target = target
        let fourByteTarget = target.bitsPerPixel == 32 && target.bitsPerComponent == 8
        if source == target && source.bitsPerPixel % 8 == 0 {
            // (Samples kept in their own format keep their significant bits as they are.)
            path = .copy
            return
        }
        if pixels >= WideOpaqueConversion.minimumPixels, let wide = WideOpaqueConversion(from: source, to: target) {
            path = .wide(wide, table: WideOpaqueConversion.table(significantBits: significantBits))
            return
        }
        guard significantBits >= source.bitsPerComponent else { throw .unsupportedConversion("of samples with fewer significant bits") }
        if let expansion = WideExpansion(from: source, to: target) {
            path = .wideExpansion(expansion)
            return
        }
        if let cmyk = WideCMYKConversion(from: source, to: target) {
            path = .wideCMYK(cmyk)
            return
        }
        if case .indexed(let palette) = source.colorModel, source.bitsPerComponent == 8, fourByteTarget {
            path = .indices(words: Self.paletteWords(palette, to: target))
        } else if source.bitsPerComponent < 8, fourByteTarget, pixels >= Bitmap.packedLookUpMinimumPixels {
            path = .packed(table: Bitmap.packedLookUpTable(from: source, to: target))
        } else if let kernel = ConversionKernel(from: source, to: target) {
            path = .kernel(kernel)
        } else if let reorder = ByteReorderKernel(from: source, to: target) {
            path = .reorder(reorder)
        } else if let drop = AlphaDropKernel(from: source, to: target) {
            path = .alphaDrop(drop)
        } else if let narrowing = NarrowingConversion(from: source, to: target) {
            path = .narrowing(narrowing)
        } else {
            path = .general(GeneralConversion(from: source, to: target))
        }
    }

    /// Converts `rows` rows of `width` pixels. The caller guarantees both buffers hold `rows`
    /// rows at their strides, each with at least `width` pixels of its format; only those
    /// pixels' bytes are written (padding is left alone).
    func convert(width: Int, rows: Int, from source: PixelRows, into target: MutablePixelRows) {
        guard width > 0, rows > 0 else { return }
        // Rows without padding on either side (and whole bytes per pixel) are one run of
        // pixels: an image of one pixel per row (2^28 rows is a valid TIFF) costs one call.
        if rows > 1, self.source.bitsPerPixel % 8 == 0, self.target.bitsPerPixel % 8 == 0,
           source.bytesPerRow * 8 == width * self.source.bitsPerPixel, target.bytesPerRow * 8 == width * self.target.bitsPerPixel {
            convert(width: width * rows, rows: 1, from: source, into: target)
            return
        }
        switch path {
        case .copy:
            let rowLength = width * self.source.bitsPerPixel / 8
            for y in 0 ..< rows {
                (target.base + y * target.bytesPerRow).copyMemory(from: source.base + y * source.bytesPerRow, byteCount: rowLength)
            }
        case .wide(let wide, let table):
            wide.run(width: width, height: rows, from: source, into: target, table: table)
        case .wideExpansion(let expansion):
            expansion.run(width: width, height: rows, from: source, into: target)
        case .wideCMYK(let cmyk):
            cmyk.run(width: width, height: rows, from: source, into: target)
        case .reorder(let reorder):
            reorder.run(width: width, height: rows, from: source, into: target)
        case .packed(let table):
            Bitmap.writePackedLookUp(table, bits: self.source.bitsPerComponent, width: width, height: rows, from: source, into: target)
        case .indices(let words):
            Self.lookUpIndices(words, width: width, height: rows, from: source, into: target)
        case .kernel(let kernel):
            kernel.run(width: width, height: rows, from: source, into: target)
        case .alphaDrop(let drop):
            drop.run(width: width, height: rows, from: source, into: target)
        case .narrowing(let narrowing):
            narrowing.run(width: width, height: rows, from: source, into: target)
        case .general(let general):
            general.run(width: width, height: rows, from: source, into: target)
        }
    }

    /// Every palette entry in the target format, as a little-endian word: converted once by the
    /// general route (so the pixels are exactly what it gives). Indices beyond the palette read
    /// as opaque black, as in the general route.
    private static func paletteWords(_ palette: Palette, to target: PixelFormat) -> [UInt32] {
        var entries = [UInt8](repeating: 0, count: 256 * 4)
        for index in 0..<256 {
            if index < palette.count {
                for k in 0..<4 { entries[index * 4 + k] = palette.rgba[index * 4 + k] }
            } else {
                entries[index * 4 + 3] = 255
            }
        }
        var converted = [UInt8](repeating: 0, count: 256 * 4)
        entries.withUnsafeBytes { from in
            converted.withUnsafeMutableBytes { to in
                guard let s = from.baseAddress, let d = to.baseAddress else { return }
                GeneralConversion(from: .rgba8, to: target).run(width: 256, height: 1, from: PixelRows(base: s, bytesPerRow: 1024),
                                                                into: MutablePixelRows(base: d, bytesPerRow: 1024))
            }
        }
        var words = [UInt32](repeating: 0, count: 256)
        for index in 0..<256 {
            for k in 0..<4 { words[index] |= UInt32(converted[index * 4 + k]) << UInt32(8 * k) }
        }
        return words
    }

    /// 8-bit indices to 4-byte pixels, a table look-up each. Bounds: row y holds `width` index
    /// bytes and `4 × width` target bytes (the caller's guarantee); an index is < 256 = words.count.
    private static func lookUpIndices(_ words: [UInt32], width: Int, height: Int, from source: PixelRows, into target: MutablePixelRows) {
        words.withUnsafeBufferPointer { words in
            guard let w = words.baseAddress else { return }
            for y in 0..<height {
                let s = (source.base + y * source.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                let t = target.base + y * target.bytesPerRow
                for x in 0..<width {
                    t.storeBytes(of: UInt32(littleEndian: w[Int(s[x])]), toByteOffset: x * 4, as: UInt32.self)
                }
            }
        }
    }
}
