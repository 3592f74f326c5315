import Testing
@testable import PureImage

/// The rounding rules of `Bitmap.converted(to:)`, checked exhaustively against a Double
/// reference with round-half-up.
@Suite struct ConversionTests {
    static func roundHalfUp(_ value: Double) -> Int { Int((value + 0.5).rounded(.down)) }

    static func pixel(_ format: PixelFormat, _ bytes: [UInt8]) throws -> Bitmap {
        try Bitmap(width: bytes.count / (format.bitsPerPixel / 8), height: 1, format: format, bytes: bytes)
    }

    @Test func premultiplyEveryColourAndAlpha() throws {
        // One row of 256 × 256 pixels: colour c, alpha a.
        var bytes: [UInt8] = []
        for a in 0..<256 { for c in 0..<256 { bytes += [UInt8(c), UInt8(c), UInt8(c), UInt8(a)] } }
        let straight = try Self.pixel(.rgba8, bytes)
        let premultiplied = try straight.converted(to: .rgba8Premultiplied)
        var mismatches = 0
        for a in 0..<256 {
            for c in 0..<256 {
                let index = (a * 256 + c) * 4
                let expected = Self.roundHalfUp(Double(c * a) / 255)
                if Int(premultiplied.tightBytes[index]) != expected || premultiplied.tightBytes[index + 3] != UInt8(a) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func unpremultiplyEveryColourAndAlpha() throws {
        var bytes: [UInt8] = []
        for a in 0..<256 { for c in 0..<256 { bytes += [UInt8(c), 0, 0, UInt8(a)] } }
        let premultiplied = try Self.pixel(.rgba8Premultiplied, bytes)
        let straight = try premultiplied.converted(to: .rgba8)
        var mismatches = 0
        for a in 0..<256 {
            for c in 0..<256 {
                let index = (a * 256 + c) * 4
                // c = min(max, round(c' · max / a)), and 0 when a = 0.
                let expected = a == 0 ? 0 : min(255, Self.roundHalfUp(Double(c) * 255 / Double(a)))
                if Int(straight.tightBytes[index]) != expected { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func alphaZeroAndMax() throws {
        let straight = try Self.pixel(.rgba8, [200, 100, 50, 0, 200, 100, 50, 255])
        let premultiplied = try straight.converted(to: .rgba8Premultiplied)
        #expect(premultiplied.tightBytes == [0, 0, 0, 0, 200, 100, 50, 255])
        #expect(try premultiplied.converted(to: .rgba8).tightBytes == [0, 0, 0, 0, 200, 100, 50, 255])
        // 16-bit: a = 0 clears, a = 65535 keeps.
        let format16 = PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .last)
        let premultiplied16 = PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .premultipliedLast)
        let wide = try Self.pixel(format16, [0x12, 0x34, 0, 0, 0, 0, 0, 0, 0x12, 0x34, 0, 0, 0, 0, 0xFF, 0xFF])
        #expect(try wide.converted(to: premultiplied16).tightBytes == [0, 0, 0, 0, 0, 0, 0, 0, 0x12, 0x34, 0, 0, 0, 0, 0xFF, 0xFF])
    }

    @Test func sixteenToEightRoundsEveryValue() throws {
        var bytes: [UInt8] = []
        for v in 0..<65536 { bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
        let gray16 = try Self.pixel(PixelFormat(colorModel: .gray, bitsPerComponent: 16, alphaInfo: .none), bytes)
        let gray8 = try gray16.converted(to: .gray8)
        for v in 0..<65536 {
            let expected = Self.roundHalfUp(Double(v) * 255 / 65535)
            if Int(gray8.tightBytes[v]) != expected {
                Issue.record("16→8 of \(v): \(gray8.tightBytes[v]), expected \(expected)")
                return
            }
            #expect(expected == (v + 128) / 257 || v < 0)
        }
    }

    @Test func eightToSixteenIsTimes257() throws {
        let gray8 = try Self.pixel(.gray8, (0..<256).map(UInt8.init))
        let gray16 = try gray8.converted(to: PixelFormat(colorModel: .gray, bitsPerComponent: 16, alphaInfo: .none))
        for v in 0..<256 {
            #expect(Int(gray16.tightBytes[2 * v]) << 8 | Int(gray16.tightBytes[2 * v + 1]) == v * 257)
        }
    }

    @Test func grayReplicatesAndLowBitDepthsScale() throws {
        let gray = try Self.pixel(.gray8, [0, 77, 255])
        #expect(try gray.converted(to: .rgb8).tightBytes == [0, 0, 0, 77, 77, 77, 255, 255, 255])
        // 2-bit gray 0,1,2,3 → 0, 85, 170, 255 (bit replication).
        let twoBit = try Bitmap(width: 4, height: 1, format: PixelFormat(colorModel: .gray, bitsPerComponent: 2, alphaInfo: .none), bytes: [0b00_01_10_11])
        #expect(try twoBit.converted(to: .gray8).tightBytes == [0, 85, 170, 255])
    }

    @Test func rgbToGrayUsesRec601() throws {
        let rgb = try Self.pixel(.rgb8, [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])
        // (19595·R + 38470·G + 7471·B + 32768) >> 16
        #expect(try rgb.converted(to: .gray8).tightBytes == [76, 150, 29, 255])
    }

    @Test func cmykToRGB() throws {
        let cmyk = PixelFormat(colorModel: .cmyk, bitsPerComponent: 8, alphaInfo: .none)
        let pixels = try Self.pixel(cmyk, [0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 255, 128, 64, 0, 51])
        // R = round((255 − C)(255 − K) / 255)
        let expected: [UInt8] = [255, 255, 255, 0, 255, 255, 0, 0, 0,
                                 UInt8(Self.roundHalfUp(127.0 * 204 / 255)), UInt8(Self.roundHalfUp(191.0 * 204 / 255)), 204]
        #expect(try pixels.converted(to: .rgb8).tightBytes == expected)
    }

    @Test func indexedExpandsThroughThePaletteAndPadsWithBlack() throws {
        let palette = try #require(Palette(rgba: [10, 20, 30, 255, 40, 50, 60, 0]))
        let indexed = try Bitmap(width: 3, height: 1, format: PixelFormat(colorModel: .indexed(palette), bitsPerComponent: 8, alphaInfo: .none), bytes: [1, 0, 7])
        #expect(try indexed.converted(to: .rgba8).tightBytes == [40, 50, 60, 0, 10, 20, 30, 255, 0, 0, 0, 255])
        // Converting to an indexed format would need colour quantisation: refused.
        #expect(throws: BitmapError.self) { try indexed.converted(to: PixelFormat(colorModel: .indexed(palette), bitsPerComponent: 8, alphaInfo: .none)) }
    }

    @Test func droppingAlphaCompositesOverBlack() throws {
        let straight = try Self.pixel(.rgba8, [200, 100, 50, 128])
        #expect(try straight.converted(to: .rgb8).tightBytes == [100, 50, 25])
        let display = try straight.converted(to: .display(hasAlpha: false))
        #expect(display.tightBytes == [25, 50, 100, 255])
    }

    @Test func roundTripEveryEightBitRGBLayout() throws {
        var bytes: [UInt8] = []
        var seed: UInt32 = 12345
        for _ in 0..<64 {
            seed = seed &* 1_103_515_245 &+ 12345
            bytes += [UInt8(truncatingIfNeeded: seed >> 8), UInt8(truncatingIfNeeded: seed >> 16), UInt8(truncatingIfNeeded: seed >> 24), 255]
        }
        let source = try Bitmap(width: 8, height: 8, format: .rgba8, bytes: bytes)
        for alpha in AlphaInfo.allCases where alpha != .alphaOnly {
            for order in ByteOrder.allCases {
                let format = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: alpha, byteOrder: order)
                guard format.isValid else { continue }
                let there = try source.converted(to: format)
                #expect(try there.converted(to: .rgba8).tightBytes == source.bytes, "\(alpha) \(order)")
                let wide = try there.converted(to: .rgba16)
                #expect(try wide.converted(to: .rgba8).tightBytes == source.bytes, "\(alpha) \(order) via 16 bits")
            }
        }
    }
}

/// The fast kernels give exactly what the general per-pixel path gives, for every source and
/// target they cover, on pseudo-random pixels with every alpha value (rows 0–2) and on an
/// opaque row (row 3, which the RGBA kernels take without multiplying).
@Suite struct ConversionKernelTests {
    @Test func kernelsEqualTheGeneralPath() throws {
        let sources: [PixelFormat] = [
            .gray8, PixelFormat(colorModel: .gray, bitsPerComponent: 8, alphaInfo: .last), .rgb8, .rgba8,
            PixelFormat(colorModel: .cmyk, bitsPerComponent: 8, alphaInfo: .none),
            PixelFormat(colorModel: .cmyk, bitsPerComponent: 8, alphaInfo: .last),
        ]
        let targets: [PixelFormat] = [.rgba8, .rgba8Premultiplied, .display(hasAlpha: true), .display(hasAlpha: false)]
        for source in sources {
            let bytesPerPixel = source.bitsPerPixel / 8
            var seed: UInt32 = 99
            let bytes = (0..<(256 * 4 * bytesPerPixel)).map { index -> UInt8 in
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let pixel = index / bytesPerPixel
                guard index % bytesPerPixel == bytesPerPixel - 1 && source.containsAlpha else { return UInt8(truncatingIfNeeded: seed >> 24) }
                return pixel / 256 == 3 ? 255 : UInt8(pixel % 256)
            }
            let bitmap = try Bitmap(width: 256, height: 4, format: source, bytes: bytes)
            for target in targets {
                #expect(ConversionKernel(from: source, to: target) != nil)
                let fast = try bitmap.converted(to: target)
                var general = try Bitmap(zeroedWidth: 256, height: 4, format: target)
                GeneralConversion(from: source, to: target).run(from: bitmap, into: &general)
                #expect(fast.bytes == general.bytes, "\(source.summary) → \(target.summary)")
            }
        }
    }

    /// RGB rows are converted a 4-byte load per pixel, except each row's last pixel, whose load
    /// would read past the row: padded rows of every small width (each row is then its own run,
    /// ending on that pixel) and a one-pixel image, in both orders, against the general path.
    @Test func rgbKernelOnPaddedRowsEqualsTheGeneralPath() throws {
        let targets: [PixelFormat] = [.rgba8, .rgba8Premultiplied, .display(hasAlpha: true), .display(hasAlpha: false)]
        for width in [1, 2, 3, 5, 17] {
            for padding in [0, 1, 3] {
                let rowBytes = 3 * width + padding, height = width == 1 && padding == 0 ? 1 : 3
                let bytes = (0..<(rowBytes * height)).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) }
                let bitmap = try Bitmap(width: width, height: height, format: .rgb8, bytesPerRow: rowBytes, bytes: bytes)
                for target in targets {
                    #expect(ConversionKernel(from: .rgb8, to: target) != nil)
                    let fast = try bitmap.converted(to: target)
                    var general = try Bitmap(zeroedWidth: width, height: height, format: target)
                    GeneralConversion(from: .rgb8, to: target).run(from: bitmap, into: &general)
                    #expect(fast.bytes == general.bytes, "RGB8 width \(width) padding \(padding) → \(target.summary)")
                }
            }
        }
    }

    /// CMYK's colour is (255 − ink) · (255 − K) / 255 rounded, which the kernel computes as a
    /// premultiplication: every (ink, K) pair, in each ink channel, against the general path.
    @Test func cmykKernelEqualsTheGeneralPathForEveryInkAndBlack() throws {
        let cmyk = PixelFormat(colorModel: .cmyk, bitsPerComponent: 8, alphaInfo: .none)
        var bytes: [UInt8] = []
        for k in 0...255 {
            for ink in 0...255 { bytes += [UInt8(ink), UInt8(255 - ink), UInt8(ink / 2 + 64), UInt8(k)] }
        }
        let bitmap = try Bitmap(width: 256, height: 256, format: cmyk, bytes: bytes)
        for target in [PixelFormat.rgba8, .rgba8Premultiplied, .display(hasAlpha: true), .display(hasAlpha: false)] {
            #expect(ConversionKernel(from: cmyk, to: target) != nil)
            let fast = try bitmap.converted(to: target)
            var general = try Bitmap(zeroedWidth: 256, height: 256, format: target)
            GeneralConversion(from: cmyk, to: target).run(from: bitmap, into: &general)
            #expect(fast.bytes == general.bytes, "cmyk → \(target.summary)")
        }
    }

    /// The premultiplication the RGBA kernels use, against its definition for every pair.
    @Test func premultiplyWithoutDivisionIsExact() {
        var wrong = 0
        for c in 0...255 {
            for a in 0...255 where ConversionKernel.premultiplyByShifts(UInt8(c), UInt8(a)) != ConversionKernel.premultiply(UInt8(c), UInt8(a)) {
                wrong += 1
            }
        }
        #expect(wrong == 0)
    }

    /// 8-bit indexed sources go through a per-entry table: the same bytes as the general path,
    /// for a palette with every kind of alpha and indices beyond the palette.
    @Test func indexLookUpEqualsTheGeneralPath() throws {
        var seed: UInt32 = 7
        func next() -> UInt8 { seed = seed &* 1_664_525 &+ 1_013_904_223; return UInt8(truncatingIfNeeded: seed >> 24) }
        let entries = (0..<200).flatMap { i -> [UInt8] in [next(), next(), next(), i % 3 == 0 ? 255 : UInt8(i)] }
        let palette = try #require(Palette(rgba: entries))
        let source = PixelFormat(colorModel: .indexed(palette), bitsPerComponent: 8, alphaInfo: .none)
        let indices = (0..<(256 * 3)).map { UInt8($0 % 256) }
        let bitmap = try Bitmap(width: 256, height: 3, format: source, bytes: indices)
        for target in [PixelFormat.rgba8, .rgba8Premultiplied, .display(hasAlpha: true), .display(hasAlpha: false)] {
            let fast = try bitmap.converted(to: target)
            var general = try Bitmap(zeroedWidth: 256, height: 3, format: target)
            GeneralConversion(from: source, to: target).run(from: bitmap, into: &general)
            #expect(fast.bytes == general.bytes, "indexed → \(target.summary)")
        }
    }

    /// Packed 1/2/4-bit gray and indexed sources go through a per-value table (from 2048 pixels
    /// on; smaller ones take the general path): the same bytes as the general path, for widths
    /// that end mid-byte, padded source rows, and both padded target rows (the zero-filled
    /// path) and tight ones (written into fresh memory, every byte by the table).
    @Test(arguments: [1, 2, 4])
    func packedLookUpEqualsTheGeneralPath(bits: Int) throws {
        // Typed step by step: as one expression inside #require this line took 18 s to type-check.
        var paletteBytes: [UInt8] = []
        for i in 0..<(1 << bits) {
            let red = UInt8(i * 40 % 256), alpha = UInt8(255 - i)
            paletteBytes += [red, 7, 200, alpha]
        }
        let palette = try #require(Palette(rgba: paletteBytes))
        #expect(683 * 3 >= Bitmap.packedLookUpMinimumPixels && 64 * 3 < Bitmap.packedLookUpMinimumPixels)
        for model in [ColorModel.gray, .indexed(palette)] {
            let source = PixelFormat(colorModel: model, bitsPerComponent: bits, alphaInfo: .none)
            for width in [1, 7, 13, 64, 683, 1030] {
                let rowBytes = (width * bits + 7) / 8 + 2
                let bytes = (0..<(rowBytes * 3)).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 29) }
                let bitmap = try Bitmap(width: width, height: 3, format: source, bytesPerRow: rowBytes, bytes: bytes)
                for target in [PixelFormat.rgba8, .rgba8Premultiplied, .display(hasAlpha: true), .display(hasAlpha: false)] {
                    let fast = try bitmap.converted(to: target)
                    var general = try Bitmap(zeroedWidth: width, height: 3, format: target)
                    GeneralConversion(from: source, to: target).run(from: bitmap, into: &general)
                    #expect(fast.bytes == general.bytes, "\(source.summary) width \(width) → \(target.summary)")
                    let tight = try bitmap.converted(to: target, bytesPerRow: 4 * width)
                    #expect(tight.bytesPerRow == 4 * width && tight.bytes == general.tightlyPacked().bytes,
                            "\(source.summary) width \(width) → \(target.summary), tight rows")
                }
            }
        }
    }
}

extension ConversionKernelTests {
    /// Opaque 16-bit gray and RGB to the 4-byte 8-bit RGB formats go through one 65 536-entry
    /// table (`WideOpaqueConversion`, from 2^15 pixels on): the same bytes as the general route
    /// (`fullRange`, then `GeneralConversion`), for both 16-bit byte orders, 16, 12 and 9
    /// significant bits (samples above the significant range included, as damaged data has),
    /// padded source rows, and every target, tight rows and padded ones.
    @Test func wideOpaqueTableEqualsTheGeneralRoute() throws {
        let width = 300, height = 110  // 33 000 pixels: above the table's minimum
        #expect(width * height >= WideOpaqueConversion.minimumPixels)
        var seed: UInt32 = 5
        func next() -> UInt8 { seed = seed &* 1_664_525 &+ 1_013_904_223; return UInt8(truncatingIfNeeded: seed >> 24) }
        for model in [ColorModel.gray, .rgb] {
            for order in [ByteOrder.default, .order16Little] {
                let source = PixelFormat(colorModel: model, bitsPerComponent: 16, alphaInfo: .none, byteOrder: order)
                let rowBytes = width * source.bitsPerPixel / 8 + 6
                let bytes = (0 ..< rowBytes * height).map { _ in next() }
                for significant in [16, 12, 9] {
                    var bitmap = try Bitmap(width: width, height: height, format: source, bytesPerRow: rowBytes, bytes: bytes)
                    if significant < 16 { bitmap = bitmap.withSignificantBits(significant) }
                    for target in [PixelFormat.rgba8, .rgba8Premultiplied, .display(hasAlpha: true), .display(hasAlpha: false)] {
                        #expect(WideOpaqueConversion(from: source, to: target) != nil)
                        let scaled = bitmap.fullRange()
                        var general = try Bitmap(zeroedWidth: width, height: height, format: target)
                        GeneralConversion(from: source, to: target).run(from: scaled, into: &general)
                        let label = "\(source.summary) \(significant) bits → \(target.summary)"
                        // Compared as booleans: a failure prints the label, not two 130 kB arrays.
                        let expected = general.tightlyPacked().bytes
                        let fast = try bitmap.converted(to: target)
                        let fastMatches = fast.bytes == general.bytes && fast.bytesPerRow == general.bytesPerRow
                        #expect(fastMatches, "\(label)")
                        let tight = try bitmap.converted(to: target, bytesPerRow: 4 * width)
                        let tightMatches = tight.bytesPerRow == 4 * width && tight.bytes == expected
                        #expect(tightMatches, "\(label), tight rows")
                        let padded = try bitmap.converted(to: target, bytesPerRow: 4 * width + 12)
                        let paddedMatches = padded.bytes.count == (4 * width + 12) * height && padded.tightlyPacked().bytes == expected
                        #expect(paddedMatches, "\(label), padded rows")
                        let paddingZero = (0 ..< height).allSatisfy { y in
                            padded.bytes[(y * padded.bytesPerRow + 4 * width) ..< (y + 1) * padded.bytesPerRow].allSatisfy { $0 == 0 }
                        }
                        #expect(paddingZero, "\(label), padding zeroed")
                    }
                }
            }
        }
    }
}

extension ConversionKernelTests {
    /// Opaque 16-bit gray and RGB, and gray with straight alpha, to the 16-bit RGB formats with
    /// an alpha or skip component (`WideExpansion`; gray + alpha into straight targets only): the
    /// same bytes as `GeneralConversion`, for both 16-bit byte orders of the source and of the
    /// target, every alpha position and kind, padded source rows.
    @Test func wideExpansionEqualsTheGeneralRoute() throws {
        let width = 37, height = 5
        var seed: UInt32 = 11
        func next() -> UInt8 { seed = seed &* 1_664_525 &+ 1_013_904_223; return UInt8(truncatingIfNeeded: seed >> 24) }
        var checked = 0
        let sources = [(ColorModel.gray, AlphaInfo.none), (.rgb, .none), (.gray, .last), (.gray, .first)]
        for (model, sourceAlpha) in sources {
            for order in [ByteOrder.default, .order16Little, .order16Big] {
                let source = PixelFormat(colorModel: model, bitsPerComponent: 16, alphaInfo: sourceAlpha, byteOrder: order)
                let rowBytes = width * source.bitsPerPixel / 8 + 6
                let bitmap = try Bitmap(width: width, height: height, format: source, bytesPerRow: rowBytes, bytes: (0 ..< rowBytes * height).map { _ in next() })
                for alpha in [AlphaInfo.last, .first, .premultipliedLast, .premultipliedFirst, .noneSkipLast, .noneSkipFirst] {
                    for targetOrder in [ByteOrder.default, .order16Little, .order16Big] {
                        let target = PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: alpha, byteOrder: targetOrder)
                        guard target.validate() == nil else { continue }
                        let expected = sourceAlpha == .none || alpha == .last || alpha == .first
                        #expect((WideExpansion(from: source, to: target) != nil) == expected, "\(source.summary) → \(target.summary)")
                        var general = try Bitmap(zeroedWidth: width, height: height, format: target)
                        GeneralConversion(from: source, to: target).run(from: bitmap, into: &general)
                        let fast = try bitmap.converted(to: target, bytesPerRow: general.bytesPerRow)
                        #expect(fast.bytes == general.bytes, "\(source.summary) → \(target.summary)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked >= 72)
    }
}

extension ConversionKernelTests {
    /// 16-bit CMYK, opaque or with straight alpha, into the 16-bit RGB formats with an alpha or
    /// skip component (`WideCMYKConversion`; CMYK + alpha into straight targets only): the same
    /// bytes as `GeneralConversion`, for every source and target byte order, every alpha position
    /// and kind, padded source rows, and samples at 0 and 65535 among random ones.
    @Test func wideCMYKEqualsTheGeneralRoute() throws {
        let width = 41, height = 4
        var seed: UInt32 = 17
        func next() -> UInt8 { seed = seed &* 1_664_525 &+ 1_013_904_223; return UInt8(truncatingIfNeeded: seed >> 24) }
        var taken = 0, checked = 0
        for sourceAlpha in [AlphaInfo.none, .last] {
            for order in [ByteOrder.default, .order16Little, .order16Big] {
                let source = PixelFormat(colorModel: .cmyk, bitsPerComponent: 16, alphaInfo: sourceAlpha, byteOrder: order)
                let rowBytes = width * source.bitsPerPixel / 8 + 6
                let bytes = (0 ..< rowBytes * height).map { index -> UInt8 in
                    switch index % 53 { case 0, 1: 0x00; case 2, 3: 0xFF; default: next() }
                }
                let bitmap = try Bitmap(width: width, height: height, format: source, bytesPerRow: rowBytes, bytes: bytes)
                for alpha in [AlphaInfo.last, .first, .premultipliedLast, .premultipliedFirst, .noneSkipLast, .noneSkipFirst] {
                    for targetOrder in [ByteOrder.default, .order16Little, .order16Big] {
                        let target = PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: alpha, byteOrder: targetOrder)
                        guard target.validate() == nil else { continue }
                        let expected = sourceAlpha == .none || alpha == .last || alpha == .first
                        let kernel = WideCMYKConversion(from: source, to: target) != nil
                        #expect(kernel == expected, "\(source.summary) → \(target.summary)")
                        if kernel { taken += 1 }
                        var general = try Bitmap(zeroedWidth: width, height: height, format: target)
                        GeneralConversion(from: source, to: target).run(from: bitmap, into: &general)
                        let fast = try bitmap.converted(to: target, bytesPerRow: general.bytesPerRow)
                        #expect(fast.bytes == general.bytes, "\(source.summary) → \(target.summary)")
                        checked += 1
                    }
                }
            }
        }
        #expect(taken >= 36 && checked >= 72)
    }
}

extension ConversionKernelTests {
    /// 16-bit sources with alpha, straight or premultiplied, and CMYK into 8-bit targets: where
    /// the 8-bit format of the same kind has a fast route to the target, the samples are
    /// narrowed to 8 bits first (`NarrowingConversion`) — the same bytes as `GeneralConversion`,
    /// for every alpha position and kind, both 16-bit byte orders, padded rows, and rows longer
    /// than a piece (the conversion works `piecePixels` at a time).
    @Test func narrowingEqualsTheGeneralRoute() throws {
        let width = NarrowingConversion.piecePixels + 37, height = 3
        var seed: UInt32 = 5
        func next() -> UInt8 { seed = seed &* 1_664_525 &+ 1_013_904_223; return UInt8(truncatingIfNeeded: seed >> 24) }
        let alphas: [AlphaInfo] = [.last, .first, .premultipliedLast, .premultipliedFirst]
        var sources = alphas.flatMap { [PixelFormat(colorModel: .gray, bitsPerComponent: 16, alphaInfo: $0),
                                        PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: $0)] }
        sources += [PixelFormat(colorModel: .cmyk, bitsPerComponent: 16, alphaInfo: .none),
                    PixelFormat(colorModel: .cmyk, bitsPerComponent: 16, alphaInfo: .last)]
        let targets: [PixelFormat] = [.rgba8, .rgba8Premultiplied, .display(hasAlpha: true), .display(hasAlpha: false), .rgb8, .gray8]
        var narrowed = 0, checked = 0
        for base in sources {
            for order in [ByteOrder.default, .order16Little] {
                let source = PixelFormat(colorModel: base.colorModel, bitsPerComponent: 16, alphaInfo: base.alphaInfo, byteOrder: order)
                guard source.validate() == nil else { continue }
                let rowBytes = width * source.bitsPerPixel / 8 + 4
                // Some alpha samples at the extremes, where premultiplying and rounding are exact.
                let bytes = (0 ..< rowBytes * height).map { index -> UInt8 in
                    index % 97 < 6 ? (index % 2 == 0 ? 0xFF : 0x00) : next()
                }
                let bitmap = try Bitmap(width: width, height: height, format: source, bytesPerRow: rowBytes, bytes: bytes)
                for target in targets {
                    let takesNarrowing = NarrowingConversion(from: source, to: target) != nil
                    if takesNarrowing { narrowed += 1 }
                    // What 16-bit PNGs and TIFFs decode to — gray + alpha, RGBA, CMYK (+ alpha) — drawn in
                    // the RGBA formats and the display format: never the per-pixel route.
                    let decoderOutput = base.alphaInfo == .last || (base.colorModel == .cmyk && base.alphaInfo == .none)
                    if decoderOutput && target.bitsPerPixel == 32 {
                        #expect(takesNarrowing, "\(source.summary) → \(target.summary)")
                    }
                    var general = try Bitmap(zeroedWidth: width, height: height, format: target)
                    GeneralConversion(from: source, to: target).run(from: bitmap, into: &general)
                    let fast = try bitmap.converted(to: target, bytesPerRow: general.bytesPerRow)
                    #expect(fast.bytes == general.bytes, "\(source.summary) → \(target.summary)")
                    checked += 1
                }
            }
        }
        #expect(narrowed >= 4 * 4 * 2)
        #expect(checked == 2 * sources.count * targets.count)
    }

    /// The narrowing's shift form of (v + 128) / 257 is the general route's, for every v.
    @Test func narrowingRoundsAsTheGeneralRoute() {
        var mismatches = 0
        for value in 0 ... 65535 {
            var pixel = WorkingPixel()
            pixel.c0 = UInt32(value)
            GeneralConversion.changeDepth(&pixel, from: 16, to: 8)
            if UInt32(NarrowingConversion.narrowed(UInt16(value))) != pixel.c0 { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }
}

extension ConversionKernelTests {
    /// Straight RGBA8 to RGB8 (`AlphaDropKernel`, the PPM writer's conversion): the same bytes
    /// as `GeneralConversion` for every alpha value (random colours, padded rows), whole and in
    /// place (the same rows read and written).
    @Test func alphaDropEqualsTheGeneralRoute() throws {
        let width = 256, height = 3
        var seed: UInt32 = 41
        func next() -> UInt8 { seed = seed &* 1_664_525 &+ 1_013_904_223; return UInt8(truncatingIfNeeded: seed >> 24) }
        let rowBytes = width * 4 + 5
        var bytes = (0 ..< rowBytes * height).map { _ in next() }
        // Row 0: every alpha 0…255 once; rows 1 and 2 random, with an opaque run.
        for x in 0..<width { bytes[4 * x + 3] = UInt8(x) }
        for x in 0..<64 { bytes[2 * rowBytes + 4 * x + 3] = 255 }
        let bitmap = try Bitmap(width: width, height: height, format: .rgba8, bytesPerRow: rowBytes, bytes: bytes)
        #expect(AlphaDropKernel(from: .rgba8, to: .rgb8) != nil)
        #expect(AlphaDropKernel(from: .rgba8Premultiplied, to: .rgb8) == nil)
        var general = try Bitmap(zeroedWidth: width, height: height, format: .rgb8)
        GeneralConversion(from: .rgba8, to: .rgb8).run(from: bitmap, into: &general)
        let fast = try bitmap.converted(to: .rgb8, bytesPerRow: general.bytesPerRow)
        #expect(fast.bytes == general.bytes)
        let converter = try PixelConverter(from: .rgba8, significantBits: 8, to: .rgb8, pixels: width * height)
        var inPlace = bytes
        inPlace.withUnsafeMutableBytes { rows in
            converter.convert(width: width, rows: height, from: PixelRows(base: UnsafeRawPointer(rows.baseAddress!), bytesPerRow: rowBytes),
                              into: MutablePixelRows(base: rows.baseAddress!, bytesPerRow: rowBytes))
        }
        let pixelRowBytes = width * 3
        #expect((0 ..< height).allSatisfy { y in
            inPlace[y * rowBytes ..< y * rowBytes + pixelRowBytes] == general.bytes[y * general.bytesPerRow ..< y * general.bytesPerRow + pixelRowBytes]
        })
    }

    /// Conversions that only move bytes (`ByteReorderKernel`): the same bytes as
    /// `GeneralConversion` for every colour model, both depths, every byte order and alpha
    /// position of the same alpha kind, on random pixels (every alpha value) with padded rows.
    @Test func byteReorderEqualsTheGeneralRoute() throws {
        func bits(_ format: PixelFormat) -> Int { format.bitsPerComponent }
        let width = 29, height = 4
        var seed: UInt32 = 23
        func next() -> UInt8 { seed = seed &* 1_664_525 &+ 1_013_904_223; return UInt8(truncatingIfNeeded: seed >> 24) }
        let alphas: [[AlphaInfo]] = [[.none], [.first, .last], [.premultipliedFirst, .premultipliedLast]]
        var formats: [[PixelFormat]] = []
        for model in [ColorModel.gray, .rgb, .cmyk] {
            for bits in [8, 16] {
                for group in alphas {
                    var same: [PixelFormat] = []
                    for alpha in group {
                        for order in [ByteOrder.default, .order16Little, .order16Big, .order32Little, .order32Big] {
                            let format = PixelFormat(colorModel: model, bitsPerComponent: bits, alphaInfo: alpha, byteOrder: order)
                            if format.validate() == nil, !same.contains(format) { same.append(format) }
                        }
                    }
                    formats.append(same)
                }
            }
        }
        var checked = 0
        for same in formats {
            for source in same {
                let rowBytes = width * source.bitsPerPixel / 8 + 3
                let bitmap = try Bitmap(width: width, height: height, format: source, bytesPerRow: rowBytes,
                                        bytes: (0 ..< rowBytes * height).map { _ in next() })
                for target in same where target != source {
                    #expect(ByteReorderKernel(from: source, to: target) != nil, "\(source.summary) → \(target.summary)")
                    var general = try Bitmap(zeroedWidth: width, height: height, format: target)
                    GeneralConversion(from: source, to: target).run(from: bitmap, into: &general)
                    let fast = try bitmap.converted(to: target, bytesPerRow: general.bytesPerRow)
                    #expect(fast.bytes == general.bytes, "\(source.summary) → \(target.summary)")
                    // In place (same rows read and written), as `WebPRaster` converts.
                    let converter = try PixelConverter(from: source, significantBits: bits(source), to: target, pixels: width * height)
                    var inPlace = bitmap.bytes
                    inPlace.withUnsafeMutableBytes { rows in
                        converter.convert(width: width, rows: height, from: PixelRows(base: UnsafeRawPointer(rows.baseAddress!), bytesPerRow: rowBytes),
                                          into: MutablePixelRows(base: rows.baseAddress!, bytesPerRow: rowBytes))
                    }
                    let pixelRowBytes = width * target.bitsPerPixel / 8
                    let inPlaceMatches = (0 ..< height).allSatisfy { y in
                        inPlace[y * rowBytes ..< y * rowBytes + pixelRowBytes] == general.bytes[y * general.bytesPerRow ..< y * general.bytesPerRow + pixelRowBytes]
                    }
                    #expect(inPlaceMatches, "\(source.summary) → \(target.summary), in place")
                    checked += 1
                }
            }
        }
        #expect(checked > 50, "\(checked) pairs")
    }
}

extension ConversionTests {
    /// Rows without padding are converted as one run of pixels (`converted(to:)`); the pixels
    /// must be those of the same image with padded rows, converted row by row — for narrow and
    /// wide rows, several source and target depths, and the general (CMYK) path.
    @Test(arguments: [1, 3, 64])
    func unpaddedRowsConvertLikePaddedRows(width: Int) throws {
        let height = 37
        var state: UInt32 = UInt32(width)
        func nextByte() -> UInt8 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(state >> 24)
        }
        let cmyk = PixelFormat(colorModel: .cmyk, bitsPerComponent: 8, alphaInfo: .none)
        let pairs: [(PixelFormat, PixelFormat)] = [
            (.gray8, .rgba8Premultiplied), (.rgba8, .rgba8Premultiplied), (.rgba8, .display(hasAlpha: true)),
            (.rgb8, .rgba16), (.rgba16, .rgba8), (cmyk, .rgba8), (.rgba8, .gray8),
        ]
        for (from, to) in pairs {
            let pixelBytes = from.bitsPerPixel / 8
            let tight = (0..<width * height * pixelBytes).map { _ in nextByte() }
            let paddedRow = width * pixelBytes + 5
            var padded = [UInt8](repeating: 0xEE, count: paddedRow * height)
            for y in 0..<height {
                padded.replaceSubrange(y * paddedRow ..< y * paddedRow + width * pixelBytes,
                                       with: tight[y * width * pixelBytes ..< (y + 1) * width * pixelBytes])
            }
            let fromTight = try Bitmap(width: width, height: height, format: from, bytesPerRow: width * pixelBytes, bytes: tight)
                .converted(to: to, bytesPerRow: width * to.bitsPerPixel / 8)
            let fromPadded = try Bitmap(width: width, height: height, format: from, bytesPerRow: paddedRow, bytes: padded)
                .converted(to: to, bytesPerRow: width * to.bitsPerPixel / 8 + 3)
            #expect(fromTight.width == width && fromTight.height == height && fromTight.bytesPerRow == width * to.bitsPerPixel / 8)
            #expect(fromTight.tightlyPacked().bytes == fromPadded.tightlyPacked().bytes, "\(from) → \(to), width \(width)")
        }
    }
}
