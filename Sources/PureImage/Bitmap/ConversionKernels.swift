/// Fast paths for the conversions decoders hit on every image: 8-bit gray, gray + alpha, RGB,
/// straight RGBA, CMYK and CMYK + alpha (default byte order) into straight RGBA8, premultiplied
/// RGBA8 or the display format (B G R A / B G R x). They produce exactly what `GeneralConversion`
/// produces (the tests compare the two on every input) — only without its per-pixel dispatch.
///
/// Safety: every loop runs x over 0..<width on rows that hold `width × bytesPerPixel` bytes at
/// `y × bytesPerRow` (`PixelConverter.convert`'s caller guarantees it: a `Bitmap`'s invariants,
/// or a decoder's row buffers); source and target pixel sizes are the ones checked in `init?`.
struct ConversionKernel {
    enum Source { case gray, grayAlpha, rgb, rgba, cmyk, cmykAlpha }
    enum Target { case rgba, rgbaPremultiplied, bgraPremultiplied, bgrx }

    let source: Source
    let target: Target

    init?(from: PixelFormat, to: PixelFormat) {
        guard from.bitsPerComponent == 8, to.bitsPerComponent == 8, from.byteOrder == .default else { return nil }
        switch (from.colorModel, from.alphaInfo) {
        case (.gray, .none): source = .gray
        case (.gray, .last): source = .grayAlpha
        case (.rgb, .none): source = .rgb
        case (.rgb, .last): source = .rgba
        case (.cmyk, .none): source = .cmyk
        case (.cmyk, .last): source = .cmykAlpha
        default: return nil
        }
        switch (to.colorModel, to.alphaInfo, to.byteOrder) {
        case (.rgb, .last, .default), (.rgb, .last, .order32Big): target = .rgba
        case (.rgb, .premultipliedLast, .default), (.rgb, .premultipliedLast, .order32Big): target = .rgbaPremultiplied
        case (.rgb, .premultipliedFirst, .order32Little): target = .bgraPremultiplied
        case (.rgb, .noneSkipFirst, .order32Little): target = .bgrx
        default: return nil
        }
    }

    /// c · a / 255 rounded half up, for 8-bit c and a: (c · a + 127) / 255.
    @inline(__always) static func premultiply(_ c: UInt8, _ a: UInt8) -> UInt8 {
        UInt8((UInt32(c) * UInt32(a) + 127) / 255)
    }

    /// `premultiply` without the division, in 16-bit arithmetic that vectorises: with
    /// x = c · a + 127 ≤ 65152, ⌊x / 255⌋ = (x + 1 + ⌊x / 256⌋) / 256 (checked for all 65 536
    /// pairs by `ConversionKernelTests.premultiplyWithoutDivisionIsExact`; the sum stays
    /// ≤ 65407, inside UInt16).
    @inline(__always) static func premultiplyByShifts(_ c: UInt8, _ a: UInt8) -> UInt8 {
        let x = UInt16(c) &* UInt16(a) &+ 127
        return UInt8(truncatingIfNeeded: (x &+ 1 &+ (x &>> 8)) &>> 8)
    }

    /// The three low bytes of `word` (R, G, B in memory order) each times `factor` (≤ 255) / 255,
    /// rounded half up (`premultiplyByShifts`), with alpha's byte 0 and, if asked, R and B
    /// swapped. R and B are scaled together in the two 16-bit halves of one word (each
    /// c · factor + 127 ≤ 65152, and the shift form stays ≤ 65407, so neither half carries into
    /// the other), G alone: uniform 32-bit lane arithmetic with no branch.
    @inline(__always) static func scaledColour(_ word: UInt32, by factor: UInt32, swapRedBlue: Bool) -> UInt32 {
        let redBlue = (word & 0x00FF_00FF) &* factor &+ 0x007F_007F
        let green = ((word &>> 8) & 0xFF) &* factor &+ 0x7F
        var scaledRedBlue = ((redBlue &+ 0x0001_0001 &+ ((redBlue &>> 8) & 0x00FF_00FF)) &>> 8) & 0x00FF_00FF
        let scaledGreen = ((green &+ 1 &+ (green &>> 8)) &>> 8) & 0xFF
        if swapRedBlue { scaledRedBlue = (scaledRedBlue &<< 16 | scaledRedBlue &>> 16) & 0x00FF_00FF }
        return scaledRedBlue | scaledGreen &<< 8
    }

    /// Straight RGBA to a premultiplied target or the opaque display format (dropping alpha
    /// composites over black: the premultiplied colour), a pixel as one 32-bit word with no
    /// branch (`scaledColour`; BGRA orders swap R and B), which the compiler runs four pixels
    /// at a time. Same bounds as `run`; pixels are read and written as unaligned little-endian
    /// words.
    private func premultiplyRGBA(width: Int, height: Int, from rows: PixelRows, into result: MutablePixelRows) {
        let target = self.target
        let sourceRowBytes = rows.bytesPerRow, targetRowBytes = result.bytesPerRow
        let swapRedBlue = target != .rgbaPremultiplied
        let opaque: UInt32 = target == .bgrx ? 0xFF00_0000 : 0
        let s0 = rows.base, d0 = result.base
        for y in 0..<height {
            let s = s0 + y * sourceRowBytes, d = d0 + y * targetRowBytes
            // An opaque row (every alpha 255, found by one AND over the row, which is then in
            // cache) needs no multiply: c · 255 premultiplied is c. Without this the row costs
            // the 32-bit lane multiplies that SSE2 has no instruction for.
            var alphas: UInt32 = 0xFF00_0000
            for x in 0..<width { alphas &= UInt32(littleEndian: s.loadUnaligned(fromByteOffset: 4 &* x, as: UInt32.self)) }
            if alphas == 0xFF00_0000 {
                for x in 0..<width {
                    let pixel = UInt32(littleEndian: s.loadUnaligned(fromByteOffset: 4 &* x, as: UInt32.self))
                    let out = swapRedBlue ? (pixel & 0xFF00_FF00) | (pixel &<< 16 & 0x00FF_0000) | (pixel &>> 16 & 0xFF) : pixel
                    d.storeBytes(of: out.littleEndian, toByteOffset: 4 &* x, as: UInt32.self)
                }
                continue
            }
            for x in 0..<width {
                let pixel = UInt32(littleEndian: s.loadUnaligned(fromByteOffset: 4 &* x, as: UInt32.self))
                let out = Self.scaledColour(pixel, by: pixel &>> 24, swapRedBlue: swapRedBlue) | (pixel & 0xFF00_0000) | opaque
                d.storeBytes(of: out.littleEndian, toByteOffset: 4 &* x, as: UInt32.self)
            }
        }
    }

    /// 8-bit CMYK (ink values, 0 = no ink) to any target: each colour is (255 − ink) · (255 − K)
    /// / 255 rounded half up (`GeneralConversion`'s `cmykToRGB`) — the inverted ink premultiplied
    /// by the inverted K — and alpha is 255, so straight and premultiplied targets get the same
    /// bytes. A pixel is one 32-bit word, inverted, scaled by its K byte (`scaledColour`). Same
    /// bounds as `run`, with 4 source bytes a pixel.
    private func cmykToRGB(width: Int, height: Int, from rows: PixelRows, into result: MutablePixelRows) {
        let sourceRowBytes = rows.bytesPerRow, targetRowBytes = result.bytesPerRow
        let swapRedBlue = target == .bgraPremultiplied || target == .bgrx
        let s0 = rows.base, d0 = result.base
        for y in 0..<height {
            let s = s0 + y * sourceRowBytes, d = d0 + y * targetRowBytes
            for x in 0..<width {
                let inverted = ~UInt32(littleEndian: s.loadUnaligned(fromByteOffset: 4 &* x, as: UInt32.self))
                let out = Self.scaledColour(inverted, by: inverted &>> 24, swapRedBlue: swapRedBlue) | 0xFF00_0000
                d.storeBytes(of: out.littleEndian, toByteOffset: 4 &* x, as: UInt32.self)
            }
        }
    }

    /// 8-bit CMYK + straight alpha (C M Y K A) to any target: the colour as in `cmykToRGB`, then,
    /// as the general route does after it, premultiplied by alpha for the premultiplied targets
    /// and the display format (`scaledColour` again: the same two roundings), kept straight for
    /// RGBA. Same bounds as `run`, with 5 source bytes a pixel: the 4-byte load at 5x ends at
    /// 5x + 3 and alpha is at 5x + 4, both inside the pixel.
    private func cmykAlphaToRGB(width: Int, height: Int, from rows: PixelRows, into result: MutablePixelRows) {
        let sourceRowBytes = rows.bytesPerRow, targetRowBytes = result.bytesPerRow
        let swapRedBlue = target == .bgraPremultiplied || target == .bgrx
        let straight = target == .rgba, opaque: UInt32 = target == .bgrx ? 0xFF00_0000 : 0
        let s0 = rows.base, d0 = result.base
        for y in 0..<height {
            let s = s0 + y * sourceRowBytes, d = d0 + y * targetRowBytes
            for x in 0..<width {
                let inverted = ~UInt32(littleEndian: s.loadUnaligned(fromByteOffset: 5 &* x, as: UInt32.self))
                let alpha = UInt32(s.load(fromByteOffset: 5 &* x &+ 4, as: UInt8.self))
                let colour = Self.scaledColour(inverted, by: inverted &>> 24, swapRedBlue: swapRedBlue)
                let scaled = straight ? colour : Self.scaledColour(colour, by: alpha, swapRedBlue: false)
                let out = scaled | alpha &<< 24 | opaque
                d.storeBytes(of: out.littleEndian, toByteOffset: 4 &* x, as: UInt32.self)
            }
        }
    }

    func run(width: Int, height: Int, from rows: PixelRows, into result: MutablePixelRows) {
        guard width > 0, height > 0 else { return }
        // The commonest case on its own loops, with nothing to decide per pixel: opaque RGB to
        // any of the targets (premultiplied or not, alpha or skip: 255 leaves the colour as it
        // is), in RGBA or BGRA order.
        if source == .rgb {
            let sourceRowBytes = rows.bytesPerRow, targetRowBytes = result.bytesPerRow
            let rgbaOrder = target == .rgba || target == .rgbaPremultiplied
            let s0 = rows.base, d0 = result.base
            // Rows of `width` pixels: 3 × width source bytes ≤ sourceRowBytes, 4 × width target
            // bytes ≤ targetRowBytes, `height` rows in each buffer. A pixel is one 4-byte load at
            // 3x (its three bytes and the next pixel's first, replaced by 255) and one 4-byte
            // store; the last pixel of a row, whose load would read a byte past the row
            // (past the buffer, for the last row), is assembled from its three bytes.
            for y in 0..<height {
                let s = s0 + y * sourceRowBytes, d = d0 + y * targetRowBytes
                // In BGRA order the loaded word R G B x, byte-swapped, is x B G R: shifted down
                // one byte it is B G R 0, and 255 goes on top.
                if rgbaOrder {
                    for x in 0 ..< width &- 1 {
                        let pixel = UInt32(littleEndian: s.loadUnaligned(fromByteOffset: 3 &* x, as: UInt32.self)) | 0xFF00_0000
                        d.storeBytes(of: pixel.littleEndian, toByteOffset: 4 &* x, as: UInt32.self)
                    }
                } else {
                    for x in 0 ..< width &- 1 {
                        let word = UInt32(littleEndian: s.loadUnaligned(fromByteOffset: 3 &* x, as: UInt32.self))
                        let pixel = word.byteSwapped &>> 8 | 0xFF00_0000
                        d.storeBytes(of: pixel.littleEndian, toByteOffset: 4 &* x, as: UInt32.self)
                    }
                }
                let last = width &- 1
                let r = UInt32(s.load(fromByteOffset: 3 &* last, as: UInt8.self)), g = UInt32(s.load(fromByteOffset: 3 &* last &+ 1, as: UInt8.self))
                let b = UInt32(s.load(fromByteOffset: 3 &* last &+ 2, as: UInt8.self))
                let pixel = (rgbaOrder ? r | b &<< 16 : b | r &<< 16) | g &<< 8 | 0xFF00_0000
                d.storeBytes(of: pixel.littleEndian, toByteOffset: 4 &* last, as: UInt32.self)
            }
            return
        }
        if source == .cmyk {
            cmykToRGB(width: width, height: height, from: rows, into: result)
            return
        }
        if source == .cmykAlpha {
            cmykAlphaToRGB(width: width, height: height, from: rows, into: result)
            return
        }
        if source == .rgba && target != .rgba {
            // (.bgrx keeps the source's alpha bits set to 255 by `opaque`.)
            premultiplyRGBA(width: width, height: height, from: rows, into: result)
            return
        }
        // Opaque gray: every target is (g, g, g, 255) in memory order (no alpha to premultiply,
        // B = G = R), one 32-bit store per pixel. The streaming downscaler feeds gray JPEG, PNG
        // and TIFF rows through here.
        if source == .gray {
            let sourceRowBytes = rows.bytesPerRow, targetRowBytes = result.bytesPerRow
            let s0 = rows.base.assumingMemoryBound(to: UInt8.self), d0 = result.base
            // Rows of `width` pixels: width source bytes ≤ sourceRowBytes, 4 × width
            // target bytes ≤ targetRowBytes, `height` rows in each buffer.
            for y in 0..<height {
                let s = s0 + y * sourceRowBytes, d = d0 + y * targetRowBytes
                for x in 0..<width {
                    let pixel = UInt32(s[x]) &* 0x0001_0101 | 0xFF00_0000
                    d.storeBytes(of: pixel.littleEndian, toByteOffset: 4 * x, as: UInt32.self)
                }
            }
            return
        }
        // Gray + alpha: the gray byte spread into the three colour bytes (no carries), scaled by
        // alpha for the premultiplied targets and the display format (`scaledColour`; R = G = B,
        // so the order needs no swap, and alpha 255 leaves the colour as it is). Rows of `width`
        // pixels: 2 × width source bytes, 4 × width target bytes, `height` rows in each buffer.
        if source == .grayAlpha {
            let sourceRowBytes = rows.bytesPerRow, targetRowBytes = result.bytesPerRow
            let straight = target == .rgba, opaque: UInt32 = target == .bgrx ? 0xFF00_0000 : 0
            let s0 = rows.base, d0 = result.base
            for y in 0..<height {
                let s = s0 + y * sourceRowBytes, d = d0 + y * targetRowBytes
                for x in 0..<width {
                    let pair = UInt32(UInt16(littleEndian: s.loadUnaligned(fromByteOffset: 2 &* x, as: UInt16.self)))
                    let alpha = pair &>> 8, colour = (pair & 0xFF) &* 0x0001_0101
                    let scaled = straight ? colour : Self.scaledColour(colour, by: alpha, swapRedBlue: false)
                    let out = scaled | alpha &<< 24 | opaque
                    d.storeBytes(of: out.littleEndian, toByteOffset: 4 &* x, as: UInt32.self)
                }
            }
            return
        }
        let sourceStep: Int
        switch source { case .gray: sourceStep = 1; case .grayAlpha: sourceStep = 2; case .rgb: sourceStep = 3; case .rgba, .cmyk: sourceStep = 4
        case .cmykAlpha: sourceStep = 5 }
        let sourceRowBytes = rows.bytesPerRow, targetRowBytes = result.bytesPerRow
        let s0 = rows.base.assumingMemoryBound(to: UInt8.self), d0 = result.base.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            let s = s0 + y * sourceRowBytes
            let d = d0 + y * targetRowBytes
            for x in 0..<width {
                let p = s + x * sourceStep
                var r: UInt8, g: UInt8, b: UInt8, a: UInt8
                switch source {
                case .gray: r = p[0]; g = r; b = r; a = 255
                case .grayAlpha: r = p[0]; g = r; b = r; a = p[1]
                case .rgb: r = p[0]; g = p[1]; b = p[2]; a = 255
                case .rgba: r = p[0]; g = p[1]; b = p[2]; a = p[3]
                case .cmyk:
                    let white = 255 - p[3]
                    r = Self.premultiply(255 - p[0], white); g = Self.premultiply(255 - p[1], white)
                    b = Self.premultiply(255 - p[2], white); a = 255
                case .cmykAlpha:
                    let white = 255 - p[3]
                    r = Self.premultiply(255 - p[0], white); g = Self.premultiply(255 - p[1], white)
                    b = Self.premultiply(255 - p[2], white); a = p[4]
                }
                let q = d + x * 4
                switch target {
                case .rgba:
                    q[0] = r; q[1] = g; q[2] = b; q[3] = a
                case .rgbaPremultiplied:
                    if a != 255 { r = Self.premultiply(r, a); g = Self.premultiply(g, a); b = Self.premultiply(b, a) }
                    q[0] = r; q[1] = g; q[2] = b; q[3] = a
                case .bgraPremultiplied:
                    if a != 255 { r = Self.premultiply(r, a); g = Self.premultiply(g, a); b = Self.premultiply(b, a) }
                    q[0] = b; q[1] = g; q[2] = r; q[3] = a
                case .bgrx:
                    // Dropping alpha composites over black: the premultiplied colour.
                    if a != 255 { r = Self.premultiply(r, a); g = Self.premultiply(g, a); b = Self.premultiply(b, a) }
                    q[0] = b; q[1] = g; q[2] = r; q[3] = 255
                }
            }
        }
    }
}
