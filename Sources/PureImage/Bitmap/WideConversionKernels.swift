/// Opaque 16-bit gray and RGB (12-bit and 16-bit JPEG, 16-bit PNG and TIFF) into the 4-byte,
/// 8-bit RGB formats — RGBA, premultiplied RGBA or BGRA, the display format — in one pass.
///
/// The general route scales the samples to the full 16-bit range when fewer bits are
/// significant (`fullRange`, a copy of the whole image), then converts pixel by pixel with
/// `GeneralConversion`. For a source without alpha each 8-bit output component depends on one
/// 16-bit sample alone, through the same function for every channel: `fullRange`'s
/// `scaledToFullRange`, then `GeneralConversion.changeDepth`. So the function is tabulated once
/// (65 536 entries, by those two routines themselves), and every pixel is three look-ups and
/// one 4-byte store; the fourth byte is what the general path writes for an opaque pixel, 255
/// (alpha, or the skip byte), and premultiplying by 255 changes nothing. Every pixel byte is
/// written, so the output can be fresh memory with no zero fill first.
/// `ConversionTests` compares the two routes on random images for every source layout, byte
/// order, significant-bit count and target.
///
/// Safety: every loop runs x over 0..<width on rows that hold `width × bytesPerPixel` bytes at
/// `y × bytesPerRow` (`PixelConverter.convert`'s guarantee); the offsets come from `ComponentLayout`,
/// inside the pixel sizes checked in `init?`.
struct WideOpaqueConversion {
    /// Below this many pixels the table (65 536 entries) costs more than it saves.
    static let minimumPixels = 1 << 15

    let sourceLayout: ComponentLayout
    let sourceBytesPerPixel: Int
    let gray: Bool
    /// Bit shifts of R, G, B and the fourth byte in a little-endian target word.
    let redShift: UInt32, greenShift: UInt32, blueShift: UInt32, fillShift: UInt32

    init?(from source: PixelFormat, to target: PixelFormat) {
        guard source.bitsPerComponent == 16, source.componentType != .float, source.alphaInfo == .none,
              source.byteOrder.groupBytes <= 2,
              source.colorModel == .gray || source.colorModel == .rgb else { return nil }
        guard target.bitsPerComponent == 8, target.componentType != .float, target.bitsPerPixel == 32,
              target.colorModel == .rgb else { return nil }
        let layout = ComponentLayout(target)
        guard layout.colorHigh.count == 3, let fill = layout.extraHigh else { return nil }
        sourceLayout = ComponentLayout(source)
        sourceBytesPerPixel = source.bitsPerPixel / 8
        gray = source.colorModel == .gray
        redShift = UInt32(8 * layout.colorHigh[0])
        greenShift = UInt32(8 * layout.colorHigh[1])
        blueShift = UInt32(8 * layout.colorHigh[2])
        fillShift = UInt32(8 * fill)
    }

    /// Every 16-bit sample's 8-bit result, by the general route's own steps.
    static func table(significantBits: Int) -> [UInt8] {
        let small = (1 << significantBits) - 1
        return (0 ..< 65536).map { sample in
            var pixel = WorkingPixel()
            pixel.c0 = UInt32(significantBits < 16 ? Bitmap.scaledToFullRange(sample, significant: small, full: 65535) : sample)
            GeneralConversion.changeDepth(&pixel, from: 16, to: 8)
            return UInt8(truncatingIfNeeded: pixel.c0)
        }
    }

    /// Converts `height` rows of `width` pixels with `table` (`table(significantBits:)` for the
    /// source's samples), every pixel byte written (the caller's guarantee that the rows exist:
    /// `PixelConverter.convert`). A component's two bytes are adjacent (no alpha, swap groups of
    /// at most 2 bytes: `init?`), so each sample is one 16-bit load in the source's byte order.
    func run(width: Int, height: Int, from source: PixelRows, into target: MutablePixelRows, table: [UInt8]) {
        if sourceLayout.colorHigh[0] > sourceLayout.colorLow[0] {
            run(LittleEndianSamples.self, width: width, height: height, from: source, into: target, table: table)
        } else {
            run(BigEndianSamples.self, width: width, height: height, from: source, into: target, table: table)
        }
    }

    private func run<Samples: SampleByteOrder>(_: Samples.Type, width: Int, height: Int, from source: PixelRows,
                                                into target: MutablePixelRows, table: [UInt8]) {
        let sourceRowBytes = source.bytesPerRow, targetRowBytes = target.bytesPerRow, step = sourceBytesPerPixel
        // Each component's lower byte offset: where its 16-bit sample starts.
        let first = zip(sourceLayout.colorHigh, sourceLayout.colorLow).map { min($0, $1) }
        let fill = UInt32(255) << fillShift
        table.withUnsafeBufferPointer { table in
            guard let t = table.baseAddress, table.count == 65536 else { return }
            // Bound: a 16-bit sample indexes the 65 536-entry table.
            @inline(__always) func mapped(_ p: UnsafeRawPointer, _ offset: Int) -> UInt32 {
                UInt32(t[Samples.value(p.loadUnaligned(fromByteOffset: offset, as: UInt16.self))])
            }
            if gray {
                // One look-up, copied into the three colour bytes by a multiply (≤ 255 in each
                // byte: no carries).
                let spread = UInt32(1) << redShift | UInt32(1) << greenShift | UInt32(1) << blueShift
                let o = first[0]
                for y in 0 ..< height {
                    let s = source.base + y &* sourceRowBytes, d = target.base + y &* targetRowBytes
                    for x in 0 ..< width {
                        let word = mapped(s + x &* step, o) &* spread | fill
                        d.storeBytes(of: word.littleEndian, toByteOffset: 4 &* x, as: UInt32.self)
                    }
                }
                return
            }
            let (o0, o1, o2) = (first[0], first[1], first[2])
            for y in 0 ..< height {
                let s = source.base + y &* sourceRowBytes, d = target.base + y &* targetRowBytes
                for x in 0 ..< width {
                    let p = s + x &* step
                    let word = mapped(p, o0) &<< redShift | mapped(p, o1) &<< greenShift | mapped(p, o2) &<< blueShift | fill
                    d.storeBytes(of: word.littleEndian, toByteOffset: 4 &* x, as: UInt32.self)
                }
            }
        }
    }
}

/// How a 16-bit sample stored in memory reads as a number: the source's byte order, as a type
/// so that `WideOpaqueConversion.run` is specialised for each.
private protocol SampleByteOrder {
    static func value(_ stored: UInt16) -> Int
}

private enum LittleEndianSamples: SampleByteOrder {
    @inline(__always) static func value(_ stored: UInt16) -> Int { Int(UInt16(littleEndian: stored)) }
}

private enum BigEndianSamples: SampleByteOrder {
    @inline(__always) static func value(_ stored: UInt16) -> Int { Int(UInt16(bigEndian: stored)) }
}

/// 16-bit gray and RGB — opaque, or gray with straight alpha — into the 16-bit RGB formats with
/// an alpha or skip component (canonical RGBA for 16-bit PNG, TIFF and JPEG files: `.rgba16`),
/// in one pass. No depth changes, so each colour sample is copied (gray replicated into R, G
/// and B) and the fourth component is the maximum, 65535, for an opaque source — which
/// premultiplying leaves as it is — or the source's alpha, copied into a straight target:
/// what the general route gives, with none of its per-pixel dispatch (a 16 M-pixel gray TIFF
/// decoded to canonical RGBA spent 73 % of its 1.2 s there; a 3 MP 16-bit gray + alpha PNG,
/// 20 ms). Every pixel is one 8-byte word, built from the source's bytes at the shifts of the
/// target's byte layout. `ConversionTests` compares the two routes for every source layout,
/// byte order and target.
///
/// Safety: as `WideOpaqueConversion`: x runs over 0..<width on rows that hold
/// `width × bytesPerPixel` bytes at `y × bytesPerRow`; the source offsets come from
/// `ComponentLayout`, inside the 2-, 4- or 6-byte source pixel, and the target pixel is 8 bytes.
struct WideExpansion {
    let sourceLayout: ComponentLayout
    let sourceBytesPerPixel: Int
    let gray: Bool
    let word: WideTargetWord

    init?(from source: PixelFormat, to target: PixelFormat) {
        guard source.bitsPerComponent == 16, source.componentType != .float, source.byteOrder.groupBytes <= 2,
              source.colorModel == .gray || source.colorModel == .rgb else { return nil }
        // Straight alpha goes into straight alpha unchanged; premultiplying it, or compositing it
        // over black for a skip target, is left to the general route (and RGBA to RGBA is a
        // reorder).
        let straight: Set<AlphaInfo> = [.last, .first]
        guard source.alphaInfo == .none || (source.colorModel == .gray && straight.contains(source.alphaInfo)
                                            && straight.contains(target.alphaInfo)) else { return nil }
        sourceLayout = ComponentLayout(source)
        guard let word = WideTargetWord(target, source: source, sourceLayout: sourceLayout) else { return nil }
        self.word = word
        sourceBytesPerPixel = source.bitsPerPixel / 8
        gray = source.colorModel == .gray
    }

    func run(width: Int, height: Int, from source: PixelRows, into target: MutablePixelRows) {
        let sourceRowBytes = source.bytesPerRow, targetRowBytes = target.bytesPerRow, step = sourceBytesPerPixel
        let high = sourceLayout.colorHigh, low = sourceLayout.colorLow
        // Gray reads its one sample three times.
        let (h0, l0) = (high[0], low[0])
        let (h1, l1) = gray ? (h0, l0) : (high[1], low[1])
        let (h2, l2) = gray ? (h0, l0) : (high[2], low[2])
        let (rh, gh, bh) = (word.highShifts[0], word.highShifts[1], word.highShifts[2])
        let (rl, gl, bl) = (word.lowShifts[0], word.lowShifts[1], word.lowShifts[2])
        let fill = word.fill, alpha = word.alpha
        // An opaque source reads its first colour byte in place of alpha, masked off (its
        // fourth component is `fill`), so both cases run one loop.
        let (ah, al, ahShift, alShift) = alpha ?? (h0, l0, 0, 0)
        let alphaMask: UInt64 = alpha == nil ? 0 : .max
        for y in 0 ..< height {
            let s = source.base + y &* sourceRowBytes
            let d = target.base + y &* targetRowBytes
            for x in 0 ..< width {
                let p = s + x &* step
                @inline(__always) func byte(_ offset: Int) -> UInt64 { UInt64(p.load(fromByteOffset: offset, as: UInt8.self)) }
                let packed = byte(h0) &<< rh | byte(l0) &<< rl | byte(h1) &<< gh | byte(l1) &<< gl
                    | byte(h2) &<< bh | byte(l2) &<< bl | (byte(ah) &<< ahShift | byte(al) &<< alShift) & alphaMask | fill
                d.storeBytes(of: packed.littleEndian, toByteOffset: 8 &* x, as: UInt64.self)
            }
        }
    }
}

/// 16-bit CMYK — opaque, or with straight alpha last — into the 16-bit RGB formats with an alpha
/// or skip component (canonical RGBA for a 16-bit CMYK TIFF: `.rgba16`), in one pass: each
/// colour is (65535 − ink) · (65535 − K) / 65535 rounded half up, the general route's
/// `cmykToRGB` at 16 bits (the product plus 32767 stays below 2^32), and the fourth component is
/// 65535 for an opaque source — which premultiplying leaves as it is — or the source's alpha,
/// copied into a straight target (premultiplied and skip targets of a source with alpha are left
/// to the general route). `ConversionTests` compares the two routes for both source byte orders
/// and every target layout.
///
/// Safety: x runs over 0..<width on rows that hold `width × bytesPerPixel` bytes at
/// `y × bytesPerRow` (`PixelConverter.convert`'s guarantee); the source offsets come from
/// `ComponentLayout`, inside the 8- or 10-byte source pixel, and the target pixel is 8 bytes.
struct WideCMYKConversion {
    let sourceLayout: ComponentLayout
    let sourceBytesPerPixel: Int
    let word: WideTargetWord

    init?(from source: PixelFormat, to target: PixelFormat) {
        guard source.bitsPerComponent == 16, source.componentType != .float, source.byteOrder.groupBytes <= 2,
              source.colorModel == .cmyk, source.alphaInfo == .none || source.alphaInfo == .last else { return nil }
        if source.alphaInfo == .last && target.alphaInfo != .last && target.alphaInfo != .first { return nil }
        let sourceLayout = ComponentLayout(source)
        guard sourceLayout.colorHigh.count == 4,
              let word = WideTargetWord(target, source: source, sourceLayout: sourceLayout) else { return nil }
        self.sourceLayout = sourceLayout
        self.word = word
        sourceBytesPerPixel = source.bitsPerPixel / 8
    }

    func run(width: Int, height: Int, from source: PixelRows, into target: MutablePixelRows) {
        let sourceRowBytes = source.bytesPerRow, targetRowBytes = target.bytesPerRow, step = sourceBytesPerPixel
        let high = sourceLayout.colorHigh, low = sourceLayout.colorLow
        let (ch, mh, yh, kh) = (high[0], high[1], high[2], high[3])
        let (cl, ml, yl, kl) = (low[0], low[1], low[2], low[3])
        let (rh, gh, bh) = (word.highShifts[0], word.highShifts[1], word.highShifts[2])
        let (rl, gl, bl) = (word.lowShifts[0], word.lowShifts[1], word.lowShifts[2])
        let fill = word.fill, alpha = word.alpha
        // An opaque source reads its first ink in place of alpha, masked off (`fill` is its
        // fourth component), so both cases run one loop.
        let (ah, al, ahShift, alShift) = alpha ?? (ch, cl, 0, 0)
        let alphaMask: UInt64 = alpha == nil ? 0 : .max
        for y in 0 ..< height {
            let s = source.base + y &* sourceRowBytes
            let d = target.base + y &* targetRowBytes
            for x in 0 ..< width {
                let p = s + x &* step
                @inline(__always) func byte(_ offset: Int) -> UInt64 { UInt64(p.load(fromByteOffset: offset, as: UInt8.self)) }
                @inline(__always) func sample(_ h: Int, _ l: Int) -> UInt32 {
                    UInt32(p.load(fromByteOffset: h, as: UInt8.self)) &<< 8 | UInt32(p.load(fromByteOffset: l, as: UInt8.self))
                }
                let white = 65535 &- sample(kh, kl)
                // (65535 − ink) · white + 32767 ≤ 65535² + 32767 < 2^32.
                @inline(__always) func colour(_ h: Int, _ l: Int) -> UInt64 {
                    UInt64(((65535 &- sample(h, l)) &* white &+ 32767) / 65535)
                }
                let r = colour(ch, cl), g = colour(mh, ml), b = colour(yh, yl)
                let packed = (r &>> 8) &<< rh | (r & 0xFF) &<< rl | (g &>> 8) &<< gh | (g & 0xFF) &<< gl
                    | (b &>> 8) &<< bh | (b & 0xFF) &<< bl | (byte(ah) &<< ahShift | byte(al) &<< alShift) & alphaMask | fill
                d.storeBytes(of: packed.littleEndian, toByteOffset: 8 &* x, as: UInt64.self)
            }
        }
    }
}

/// The 8-byte pixel word of a 16-bit RGB target with an alpha or skip component, as
/// `WideExpansion` and `WideCMYKConversion` build it: where each colour component's high and
/// low byte go, and what the fourth component holds — 65535 for an opaque source (which
/// premultiplying leaves as it is), or the source's alpha bytes, copied (the callers admit only
/// straight targets for a source with alpha).
struct WideTargetWord {
    /// Bit shifts of each colour component's high and low byte in the little-endian target word.
    let highShifts: [UInt64], lowShifts: [UInt64]
    /// The fourth component's bytes, both 0xFF, in place — for an opaque source.
    let fill: UInt64
    /// A source with alpha: its alpha's high and low byte offsets, and their shifts in the target
    /// word (the fourth component's).
    let alpha: (high: Int, low: Int, highShift: UInt64, lowShift: UInt64)?

    init?(_ target: PixelFormat, source: PixelFormat, sourceLayout: ComponentLayout) {
        guard target.bitsPerComponent == 16, target.componentType != .float, target.bitsPerPixel == 64,
              target.colorModel == .rgb, target.byteOrder.groupBytes <= 2, target.alphaInfo != .alphaOnly else { return nil }
        let layout = ComponentLayout(target)
        guard layout.colorHigh.count == 3, let extraHigh = layout.extraHigh, let extraLow = layout.extraLow else { return nil }
        highShifts = layout.colorHigh.map { UInt64(8 * $0) }
        lowShifts = layout.colorLow.map { UInt64(8 * $0) }
        if source.alphaInfo == .none {
            fill = UInt64(0xFF) << UInt64(8 * extraHigh) | UInt64(0xFF) << UInt64(8 * extraLow)
            alpha = nil
        } else {
            guard let high = sourceLayout.extraHigh, let low = sourceLayout.extraLow else { return nil }
            fill = 0
            alpha = (high, low, UInt64(8 * extraHigh), UInt64(8 * extraLow))
        }
    }
}
