// Conversion between pixel formats. The arithmetic, in the order it is applied to a pixel:
//
// 1. Read.      Packed 1/2/4-bit samples are scaled to 8 bits by bit replication
//               (v × 255 / (2^bits − 1), exact); indexed pixels become the palette's straight
//               8-bit R, G, B, A; alpha-only pixels become black with that alpha.
// 2. Depth.     8 → 16: v × 257.   16 → 8: round(v × 255 / 65535) = (v + 128) / 257.
// 3. Colour.    (A premultiplied source is made straight first when CMYK is involved, since
//               those conversions are not linear; gray ↔ RGB work on premultiplied values.)
//               gray → RGB replicates. RGB → gray: Rec. 601 luma in 16.16 fixed point,
//               (19595 R + 38470 G + 7471 B + 32768) >> 16 (the weights sum to 65536).
//               CMYK → RGB: R = round((max − C)(max − K) / max), likewise G from M, B from Y.
//               RGB → CMYK: K = max − max(R, G, B); C = round((max − R − K) · max / (max − K)),
//               likewise M, Y; C = M = Y = 0 when K = max. Gray ↔ CMYK goes through RGB.
// 4. Alpha.     straight → premultiplied: c' = round(c · a / max).
//               premultiplied → straight: c = min(max, round(c' · max / a)), 0 when a = 0.
//               no alpha → alpha: a = max.
//               alpha → no alpha: the colour composited over black, i.e. the premultiplied
//               colour — what drawing into a Core Graphics `noneSkip…` context gives.
//               Skip components are written as max.
// 5. Write.     In the target's memory order (`ComponentLayout`).
//
// Rounding is round-half-up throughout; with the odd divisors 255 and 65535 a tie never occurs.
// Converting *to* an indexed format (colour quantisation) is not supported.

extension Bitmap {
    /// Returns this bitmap's pixels in `target` format. `bytesPerRow == 0` lets the library
    /// choose (see `PixelFormat.alignedBytesPerRow(width:)`).
    public func converted(to target: PixelFormat, bytesPerRow: Int = 0) throws(BitmapError) -> Bitmap {
        if let problem = target.validate() { throw .invalidFormat(problem) }
        if case .indexed = target.colorModel { throw .unsupportedConversion("to an indexed format") }
        if format.componentType == .float || target.componentType == .float {
            if target == format && (bytesPerRow == 0 || bytesPerRow == self.bytesPerRow) { return self }
            guard target.componentType != .float else { throw .unsupportedConversion("to float components") }
            // Bitmap+Float.swift: float → 16-bit unsigned, then on as any 16-bit source.
            return try floatToUnsigned16().converted(to: target, bytesPerRow: bytesPerRow)
        }
        guard target.bitsPerComponent == 8 || target.bitsPerComponent == 16 else {
            throw .unsupportedConversion("to \(target.bitsPerComponent)-bit components")
        }
        if target == format && (bytesPerRow == 0 || bytesPerRow == self.bytesPerRow) { return self }
        // Opaque 16-bit samples to 4-byte pixels go through one table, which scales them too.
        let tabulated = width * height >= WideOpaqueConversion.minimumPixels && WideOpaqueConversion(from: format, to: target) != nil
        if target != format && significantBitsPerComponent < format.bitsPerComponent && !tabulated {
            return try fullRange().converted(to: target, bytesPerRow: bytesPerRow)
        }
        let converter = try PixelConverter(from: format, significantBits: significantBitsPerComponent, to: target, pixels: width * height)
        let geometry = try Bitmap.checkedGeometry(width: width, height: height, format: target, bytesPerRow: bytesPerRow, align: true)
        let pixelBytes = (width * target.bitsPerPixel + 7) / 8
        let sourceRowBytes = self.bytesPerRow
        // A converter that writes every pixel byte gets fresh memory with only the row padding
        // zeroed (a 12 MP RGBA image is 48 MB of writes saved); the general route, zeroed rows.
        let converted = [UInt8](unsafeUninitializedCapacity: geometry.total) { buffer, initialized in
            PixelMemory.advise(buffer)
            let output = UnsafeMutableRawBufferPointer(buffer)
            if !converter.writesWholeRows { output.initializeMemory(as: UInt8.self, repeating: 0) }
            bytes.withUnsafeBytes { source in
                guard let s = source.baseAddress, let d = output.baseAddress else { return }
                converter.convert(width: width, rows: height, from: PixelRows(base: s, bytesPerRow: sourceRowBytes),
                                  into: MutablePixelRows(base: d, bytesPerRow: geometry.perRow))
                if converter.writesWholeRows && geometry.perRow > pixelBytes {
                    for y in 0..<height {
                        (d + y * geometry.perRow + pixelBytes).initializeMemory(as: UInt8.self, repeating: 0, count: geometry.perRow - pixelBytes)
                    }
                }
            }
            initialized = geometry.total
        }
        return Bitmap(uncheckedWidth: width, height: height, format: target, bytesPerRow: geometry.perRow, bytes: converted)
            .keepingSignificantBits(of: self)
    }

    /// Samples of `significantBitsPerComponent` bits (m = 2^bits − 1) scaled to the full range
    /// of their components (M = 2^bitsPerComponent − 1): round(v · M / m), with values above m
    /// (damaged data) taken as m. 8-bit components, and 16-bit ones in any 16-bit byte order.
    func fullRange() -> Bitmap {
        let bits = format.bitsPerComponent, used = significantBitsPerComponent
        guard used < bits, used > 0, bits == 8 || (bits == 16 && format.byteOrder.groupBytes <= 2) else { return withSignificantBits(bits) }
        let small = (1 << used) - 1, full = (1 << bits) - 1
        var scaled = self
        let littleEndian = format.byteOrder == .order16Little
        scaled.bytes.withUnsafeMutableBufferPointer { samples in
            for y in 0..<height {
                let start = y * bytesPerRow
                if bits == 8 {
                    for i in start..<(start + rowLength) {
                        samples[i] = UInt8(Self.scaledToFullRange(Int(samples[i]), significant: small, full: full))
                    }
                } else {
                    for i in stride(from: start, to: start + rowLength, by: 2) {
                        let (high, low) = littleEndian ? (i + 1, i) : (i, i + 1)
                        let w = Self.scaledToFullRange(Int(samples[high]) << 8 | Int(samples[low]), significant: small, full: full)
                        samples[high] = UInt8(w >> 8)
                        samples[low] = UInt8(w & 0xFF)
                    }
                }
            }
        }
        return scaled.withSignificantBits(bits)
    }

    /// `fullRange` for one sample: round(v · full / significant), v above `significant` taken
    /// as `significant`.
    @inline(__always)
    static func scaledToFullRange(_ sample: Int, significant small: Int, full: Int) -> Int {
        (min(sample, small) * full + small / 2) / small
    }

    /// Converts to a format of the same pixel size row by row, reusing this bitmap's storage
    /// (one row of scratch memory): for large images that must not exist twice.
    mutating func convertInPlace(to target: PixelFormat) throws(BitmapError) {
        if let problem = target.validate() { throw .invalidFormat(problem) }
        guard target.bitsPerPixel == format.bitsPerPixel, format.bitsPerComponent >= 8, target.bitsPerComponent >= 8,
              format.componentType == .unsignedInteger, target.componentType == .unsignedInteger else {
            throw .unsupportedConversion("in place needs the same pixel size")
        }
        if case .indexed = target.colorModel { throw .unsupportedConversion("to an indexed format") }
        let conversion = GeneralConversion(from: format, to: target)
        let rowLength = self.rowLength
        for y in 0..<height {
            let start = y * bytesPerRow
            let source = Bitmap(uncheckedWidth: width, height: 1, format: format, bytesPerRow: rowLength,
                                bytes: Array(bytes[start ..< start + rowLength]))
            var converted = Bitmap(uncheckedWidth: width, height: 1, format: target, bytesPerRow: rowLength,
                                   bytes: [UInt8](repeating: 0, count: rowLength))
            conversion.run(from: source, into: &converted)
            bytes.replaceSubrange(start ..< start + rowLength, with: converted.bytes)
        }
        self = Bitmap(uncheckedWidth: width, height: height, format: target, bytesPerRow: bytesPerRow, bytes: bytes)
    }

    /// Converts to the canonical RGBA used by the CLI and the conformance suite: straight RGBA,
    /// 8 bits for sources of ≤ 8 bits per component, else 16 (host byte order).
    public func canonicalRGBA() throws(BitmapError) -> Bitmap {
        // Float pixels (32/64 bits) become 16-bit RGBA.
        try converted(to: format.bitsPerComponent > 8 ? .rgba16 : .rgba8)
    }
}

/// One pixel between read and write: up to four colour components and alpha, as integers.
struct WorkingPixel {
    var c0: UInt32 = 0, c1: UInt32 = 0, c2: UInt32 = 0, c3: UInt32 = 0
    var alpha: UInt32 = 0
}

/// The reader/writer pair for the general case. Everything format-dependent is decided in
/// `init`; `run` is a plain loop over rows and pixels.
struct GeneralConversion {
    enum SourceKind { case packed(bits: Int), indexed(Palette), components(ComponentLayout) }

    let source: PixelFormat
    let target: PixelFormat
    let sourceKind: SourceKind
    let targetLayout: ComponentLayout

    /// Model, depth and alpha of the pixel after step 1.
    let readModel: ColorModel
    let readBits: Int
    let readHasAlpha: Bool
    let readPremultiplied: Bool

    init(from source: PixelFormat, to target: PixelFormat) {
        self.source = source
        self.target = target
        targetLayout = ComponentLayout(target)
        if case .indexed(let palette) = source.colorModel {
            // Packed or 8-bit indices both go through the palette.
            sourceKind = .indexed(palette)
            readModel = .rgb; readBits = 8; readHasAlpha = true; readPremultiplied = false
        } else if source.bitsPerComponent < 8 {
            sourceKind = .packed(bits: source.bitsPerComponent)
            readModel = source.alphaInfo == .alphaOnly ? .gray : source.colorModel
            readBits = 8
            readHasAlpha = source.alphaInfo == .alphaOnly
            readPremultiplied = false
        } else {
            sourceKind = .components(ComponentLayout(source))
            readModel = source.alphaInfo == .alphaOnly ? .gray : source.colorModel
            readBits = source.bitsPerComponent
            readHasAlpha = source.alphaInfo.containsAlpha
            readPremultiplied = source.alphaInfo.isPremultiplied || source.alphaInfo == .alphaOnly
        }
    }

    /// `bitmap`'s pixels into `result` (same size).
    func run(from bitmap: Bitmap, into result: inout Bitmap) {
        let width = bitmap.width, height = bitmap.height
        let sourceRowBytes = bitmap.bytesPerRow, targetRowBytes = result.bytesPerRow
        bitmap.bytes.withUnsafeBytes { src in
            result.bytes.withUnsafeMutableBytes { dst in
                guard let s = src.baseAddress, let d = dst.baseAddress else { return }
                run(width: width, height: height, from: PixelRows(base: s, bytesPerRow: sourceRowBytes),
                    into: MutablePixelRows(base: d, bytesPerRow: targetRowBytes))
            }
        }
    }

    /// `height` rows of `width` pixels; the caller guarantees the rows exist at their strides and
    /// hold `width` pixels each (`PixelConverter.convert`).
    func run(width: Int, height: Int, from sourceRows: PixelRows, into targetRows: MutablePixelRows) {
        guard width > 0, height > 0 else { return }
        let sourceBytesPerPixel = source.bitsPerComponent >= 8 ? source.bitsPerPixel / 8 : 0
        let targetBytesPerPixel = target.bitsPerPixel / 8
        let targetMax: UInt32 = target.bitsPerComponent == 16 ? 65535 : 255
        let targetHasAlpha = target.alphaInfo.containsAlpha
        let targetPremultiplied = target.alphaInfo.isPremultiplied || target.alphaInfo == .alphaOnly
        let targetWide = target.bitsPerComponent == 16
        let targetModel = target.alphaInfo == .alphaOnly ? ColorModel.gray : target.colorModel
        // CMYK conversions are not linear, so they must see straight colours: a premultiplied
        // source is unpremultiplied first (gray ↔ RGB are linear and work on either form).
        let involvesCMYK = (readModel == .cmyk) != (targetModel == .cmyk)
        let straightenBeforeModel = readHasAlpha && readPremultiplied && involvesCMYK && source.alphaInfo != .alphaOnly
        let sourceRowBytes = sourceRows.bytesPerRow
        let targetRowBytes = targetRows.bytesPerRow
        // The buffers as far as the last row's last pixel: every offset below stays inside
        // (x < width, and rows hold ≥ width pixels).
        let sourceCount = (height - 1) * sourceRowBytes + (width * source.bitsPerPixel + 7) / 8
        let targetCount = (height - 1) * targetRowBytes + (width * target.bitsPerPixel + 7) / 8
        let src = UnsafeBufferPointer(start: sourceRows.base.assumingMemoryBound(to: UInt8.self), count: sourceCount)
        let dst = UnsafeMutableBufferPointer(start: targetRows.base.assumingMemoryBound(to: UInt8.self), count: targetCount)
        for y in 0..<height {
            let sourceRow = y * sourceRowBytes
            let targetRow = y * targetRowBytes
            for x in 0..<width {
                var pixel = read(src, row: sourceRow, x: x, bytesPerPixel: sourceBytesPerPixel)
                Self.changeDepth(&pixel, from: readBits, to: target.bitsPerComponent)
                if straightenBeforeModel {
                    Self.changeAlpha(&pixel, hasAlpha: true, premultiplied: true, toAlpha: true, toPremultiplied: false, max: targetMax)
                }
                Self.changeModel(&pixel, from: readModel, to: targetModel, max: targetMax)
                Self.changeAlpha(&pixel, hasAlpha: readHasAlpha, premultiplied: readPremultiplied && !straightenBeforeModel,
                                 toAlpha: targetHasAlpha, toPremultiplied: targetPremultiplied, max: targetMax)
                write(pixel, into: dst, at: targetRow + x * targetBytesPerPixel, wide: targetWide, max: targetMax)
            }
        }
    }

    private func read(_ src: UnsafeBufferPointer<UInt8>, row: Int, x: Int, bytesPerPixel: Int) -> WorkingPixel {
        var pixel = WorkingPixel()
        switch sourceKind {
        case .indexed(let palette):
            let index: Int
            if source.bitsPerComponent < 8 {
                index = Int(Self.packedSample(src, row: row, x: x, bits: source.bitsPerComponent))
            } else {
                index = Int(src[row + x])
            }
            // An index beyond the palette reads as opaque black (the table padded with black,
            // as GIF decoders in browsers and libpng's expansion do).
            if index < palette.count {
                palette.rgba.withUnsafeBufferPointer { entries in
                    pixel.c0 = UInt32(entries[index * 4]); pixel.c1 = UInt32(entries[index * 4 + 1])
                    pixel.c2 = UInt32(entries[index * 4 + 2]); pixel.alpha = UInt32(entries[index * 4 + 3])
                }
            } else {
                pixel.alpha = 255
            }
        case .packed(let bits):
            let value = UInt32(Self.packedSample(src, row: row, x: x, bits: bits))
            let scaled = value * 255 / ((1 << UInt32(bits)) - 1)
            if source.alphaInfo == .alphaOnly { pixel.alpha = scaled } else { pixel.c0 = scaled }
        case .components(let layout):
            let base = row + x * bytesPerPixel
            let wide = source.bitsPerComponent == 16
            func component(_ high: Int, _ low: Int) -> UInt32 {
                wide ? UInt32(src[base + high]) << 8 | UInt32(src[base + low]) : UInt32(src[base + high])
            }
            let count = layout.colorHigh.count
            if count > 0 { pixel.c0 = component(layout.colorHigh[0], layout.colorLow[0]) }
            if count > 1 { pixel.c1 = component(layout.colorHigh[1], layout.colorLow[1]) }
            if count > 2 { pixel.c2 = component(layout.colorHigh[2], layout.colorLow[2]) }
            if count > 3 { pixel.c3 = component(layout.colorHigh[3], layout.colorLow[3]) }
            if readHasAlpha, let high = layout.extraHigh, let low = layout.extraLow {
                pixel.alpha = component(high, low)
            }
        }
        return pixel
    }

    /// Sample `x` of a row of packed samples, most significant bits first.
    static func packedSample(_ src: UnsafeBufferPointer<UInt8>, row: Int, x: Int, bits: Int) -> UInt8 {
        let bitOffset = x * bits
        let byte = src[row + bitOffset >> 3]
        let shift = 8 - bits - (bitOffset & 7)
        return (byte >> UInt8(shift)) & UInt8((1 << bits) - 1)
    }

    /// Stores `value` as sample `x` of a row of packed samples (the inverse of `packedSample`).
    static func storePackedSample(_ value: UInt8, _ dst: UnsafeMutableBufferPointer<UInt8>, row: Int, x: Int, bits: Int) {
        let bitOffset = x * bits
        let shift = UInt8(8 - bits - (bitOffset & 7))
        let mask = UInt8((1 << bits) - 1)
        let index = row + bitOffset >> 3
        dst[index] = dst[index] & ~(mask << shift) | ((value & mask) << shift)
    }

    static func changeDepth(_ pixel: inout WorkingPixel, from: Int, to: Int) {
        if from == to { return }
        if from == 8 {  // 8 → 16: v × 257
            pixel.c0 *= 257; pixel.c1 *= 257; pixel.c2 *= 257; pixel.c3 *= 257; pixel.alpha *= 257
        } else {        // 16 → 8: (v + 128) / 257 = round(v × 255 / 65535)
            pixel.c0 = (pixel.c0 + 128) / 257; pixel.c1 = (pixel.c1 + 128) / 257
            pixel.c2 = (pixel.c2 + 128) / 257; pixel.c3 = (pixel.c3 + 128) / 257
            pixel.alpha = (pixel.alpha + 128) / 257
        }
    }

    static func changeModel(_ pixel: inout WorkingPixel, from: ColorModel, to: ColorModel, max: UInt32) {
        switch (from, to) {
        case (.gray, .gray), (.rgb, .rgb), (.cmyk, .cmyk):
            return
        case (.gray, .rgb):
            pixel.c1 = pixel.c0; pixel.c2 = pixel.c0
        case (.rgb, .gray):
            pixel.c0 = luma(pixel.c0, pixel.c1, pixel.c2)
        case (.cmyk, .rgb):
            cmykToRGB(&pixel, max: max)
        case (.cmyk, .gray):
            cmykToRGB(&pixel, max: max)
            pixel.c0 = luma(pixel.c0, pixel.c1, pixel.c2)
        case (.rgb, .cmyk):
            rgbToCMYK(&pixel, max: max)
        case (.gray, .cmyk):
            pixel.c1 = pixel.c0; pixel.c2 = pixel.c0
            rgbToCMYK(&pixel, max: max)
        default:
            // Indexed sources were expanded to RGB when read; indexed targets are refused earlier.
            assertionFailure("unexpected colour conversion \(from) → \(to)")
        }
    }

    /// Rec. 601 luma in 16.16 fixed point.
    @inline(__always) static func luma(_ r: UInt32, _ g: UInt32, _ b: UInt32) -> UInt32 {
        (19595 * r + 38470 * g + 7471 * b + 32768) >> 16
    }

    static func cmykToRGB(_ pixel: inout WorkingPixel, max: UInt32) {
        let k = max - pixel.c3
        let half = max / 2
        let r = ((max - pixel.c0) * k + half) / max
        let g = ((max - pixel.c1) * k + half) / max
        let b = ((max - pixel.c2) * k + half) / max
        pixel.c0 = r; pixel.c1 = g; pixel.c2 = b; pixel.c3 = 0
    }

    static func rgbToCMYK(_ pixel: inout WorkingPixel, max: UInt32) {
        let brightest = Swift.max(pixel.c0, pixel.c1, pixel.c2)
        let k = max - brightest
        if brightest == 0 {
            pixel.c0 = 0; pixel.c1 = 0; pixel.c2 = 0; pixel.c3 = max
            return
        }
        // (max − c − k) = brightest − c; divide by (max − k) = brightest, rounding half up.
        func ink(_ c: UInt32) -> UInt32 { ((brightest - c) * max + brightest / 2) / brightest }
        pixel.c0 = ink(pixel.c0); pixel.c1 = ink(pixel.c1); pixel.c2 = ink(pixel.c2); pixel.c3 = k
    }

    static func changeAlpha(_ pixel: inout WorkingPixel, hasAlpha: Bool, premultiplied: Bool,
                            toAlpha: Bool, toPremultiplied: Bool, max: UInt32) {
        guard hasAlpha else {
            pixel.alpha = max
            return
        }
        // Dropping alpha composites over black: the premultiplied colour.
        let wantPremultiplied = toAlpha ? toPremultiplied : true
        if premultiplied == wantPremultiplied { return }
        let a = pixel.alpha
        if wantPremultiplied {
            premultiply(&pixel, max: max)
        } else if a == 0 {
            pixel.c0 = 0; pixel.c1 = 0; pixel.c2 = 0; pixel.c3 = 0
        } else {
            // round(c' · max / a) = floor((2 c' max + a) / 2a), capped at max.
            func straight(_ c: UInt32) -> UInt32 {
                Swift.min(max, UInt32((2 * UInt64(c) * UInt64(max) + UInt64(a)) / (2 * UInt64(a))))
            }
            pixel.c0 = straight(pixel.c0); pixel.c1 = straight(pixel.c1)
            pixel.c2 = straight(pixel.c2); pixel.c3 = straight(pixel.c3)
        }
    }

    /// c' = round(c · a / max) = (c · a + (max − 1) / 2) / max for odd max (255, 65535).
    @inline(__always) static func premultiply(_ pixel: inout WorkingPixel, max: UInt32) {
        let a = UInt64(pixel.alpha)
        let half = UInt64(max / 2)
        let m = UInt64(max)
        pixel.c0 = UInt32((UInt64(pixel.c0) * a + half) / m)
        pixel.c1 = UInt32((UInt64(pixel.c1) * a + half) / m)
        pixel.c2 = UInt32((UInt64(pixel.c2) * a + half) / m)
        pixel.c3 = UInt32((UInt64(pixel.c3) * a + half) / m)
    }

    private func write(_ pixel: WorkingPixel, into dst: UnsafeMutableBufferPointer<UInt8>, at base: Int, wide: Bool, max: UInt32) {
        func put(_ value: UInt32, _ high: Int, _ low: Int) {
            if wide {
                dst[base + high] = UInt8(truncatingIfNeeded: value >> 8)
                dst[base + low] = UInt8(truncatingIfNeeded: value)
            } else {
                dst[base + high] = UInt8(truncatingIfNeeded: value)
            }
        }
        let layout = targetLayout
        let count = layout.colorHigh.count
        if count > 0 { put(pixel.c0, layout.colorHigh[0], layout.colorLow[0]) }
        if count > 1 { put(pixel.c1, layout.colorHigh[1], layout.colorLow[1]) }
        if count > 2 { put(pixel.c2, layout.colorHigh[2], layout.colorLow[2]) }
        if count > 3 { put(pixel.c3, layout.colorHigh[3], layout.colorLow[3]) }
        if let high = layout.extraHigh, let low = layout.extraLow {
            put(target.alphaInfo.containsAlpha ? pixel.alpha : max, high, low)
        }
    }
}
