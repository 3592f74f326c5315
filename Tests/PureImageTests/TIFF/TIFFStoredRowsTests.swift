import Testing
@testable import PureImage

/// Uncompressed strips whose stored rows are the rendered rows — 8-bit gray, gray + alpha, RGB,
/// RGBA and CMYK, and 16-bit samples in a big-endian file — are written into the page from the
/// input where they lie (`TIFFPageDecoder.storeUncompressedBand`), converted in direct mode or
/// copied into a native page; a strip that is short or missing goes the general way. Each case
/// mixes the two and must give libtiff's samples and RGBA, the native decode converted for
/// every output, and the rows the general way renders (`decodeRows` streams every band through
/// `TIFFRendering.render`). Layouts whose samples rendering changes (16-bit little-endian,
/// WhiteIsZero, a second extra sample) are here too: they must take the general way.
@Suite struct TIFFStoredRowsTests {
    static let width = 5, height = 7, rowsPerStrip = 2

    /// A page layout: what the tags say about each pixel's samples.
    struct Layout: CustomStringConvertible, Sendable {
        var order: TIFFBuilder.Order = .little
        var bitsPerSample = 8
        var photometric: UInt16 = 2
        var samplesPerPixel = 3
        var extraSamples: [UInt16] = []
        /// The format the page renders to, and whether its bytes are the stored bytes.
        var format: PixelFormat
        var storedIsRendered = true

        var description: String {
            "\(order) \(bitsPerSample)-bit photometric \(photometric) × \(samplesPerPixel)" + (extraSamples.isEmpty ? "" : " extra \(extraSamples)")
        }
        var rowBytes: Int { width * samplesPerPixel * bitsPerSample / 8 }
    }

    static let layouts: [Layout] = [
        Layout(format: .rgb8),
        Layout(order: .big, format: .rgb8),
        Layout(photometric: 1, samplesPerPixel: 1, format: .gray8),
        Layout(photometric: 1, samplesPerPixel: 2, extraSamples: [2], format: PixelFormat(colorModel: .gray, bitsPerComponent: 8, alphaInfo: .last)),
        Layout(samplesPerPixel: 4, extraSamples: [1], format: PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .premultipliedLast)),
        Layout(samplesPerPixel: 4, extraSamples: [2], format: PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .last)),
        Layout(photometric: 5, samplesPerPixel: 4, format: PixelFormat(colorModel: .cmyk, bitsPerComponent: 8, alphaInfo: .none)),
        Layout(order: .big, bitsPerSample: 16, format: PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .none)),
        Layout(order: .big, bitsPerSample: 16, photometric: 1, samplesPerPixel: 1, format: PixelFormat(colorModel: .gray, bitsPerComponent: 16, alphaInfo: .none)),
        // Rendering changes these samples: swapped to big-endian, inverted, or one dropped.
        Layout(bitsPerSample: 16, format: PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .none), storedIsRendered: false),
        Layout(photometric: 0, samplesPerPixel: 1, format: .gray8, storedIsRendered: false),
        Layout(samplesPerPixel: 5, extraSamples: [1, 0], format: PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .premultipliedLast),
               storedIsRendered: false),
    ]

    /// The stored bytes of every row: each byte distinct within its row and column.
    static func stored(_ layout: Layout) -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0 ..< height {
            for x in 0 ..< layout.rowBytes {
                bytes.append(UInt8(truncatingIfNeeded: 37 * y + 11 * x + 3))
            }
        }
        return bytes
    }

    /// The image in strips of `rowsPerStrip` rows; `resize` takes bytes off the end of the given
    /// strips (negative) or appends some (their byte counts say so).
    /// `compression` with `encode` (PackBits, LZW: `encode` makes the strip's stored bytes);
    /// `keep` encodes only the first bytes of the given strips (a complete stream that decodes
    /// short).
    static func file(_ layout: Layout, resize: [Int: Int] = [:], compression: UInt16 = 1,
                     encode: ([UInt8]) -> [UInt8] = { $0 }, keep: [Int: Int] = [:]) -> [UInt8] {
        let rowBytes = layout.rowBytes
        let all = stored(layout)
        var strips: [[UInt8]] = []
        for top in stride(from: 0, to: height, by: rowsPerStrip) {
            let rows = min(rowsPerStrip, height - top)
            let strip = encode(Array(all[(top * rowBytes) ..< ((top + rows) * rowBytes)].prefix(keep[strips.count] ?? .max)))
            let change = resize[strips.count] ?? 0
            strips.append(change < 0 ? Array(strip.dropLast(-change)) : strip + [UInt8](repeating: 0xA5, count: change))
        }
        var b = TIFFBuilder(layout.order)
        b.short(256, UInt16(width))
        b.short(257, UInt16(height))
        b.raw(258, type: 3, count: UInt32(layout.samplesPerPixel),
              value: (0 ..< layout.samplesPerPixel).flatMap { _ in b.u16(UInt16(layout.bitsPerSample)) })
        b.short(259, compression)
        b.short(262, layout.photometric)
        b.short(277, UInt16(layout.samplesPerPixel))
        b.short(278, UInt16(rowsPerStrip))
        b.short(284, 1)                        // chunky
        if !layout.extraSamples.isEmpty {
            b.raw(338, type: 3, count: UInt32(layout.extraSamples.count), value: layout.extraSamples.flatMap { b.u16($0) })
        }
        b.appendStrips(strips)
        b.entries.sort { $0.tag < $1.tag }
        return b.build()
    }

    static func expectOutputsMatchNative(_ bytes: [UInt8], _ what: String) throws {
        let native = try ImageSource(bytes: bytes, format: .tiff).decode(options: .init(output: .native))
        for output: ImageDecodingOptions.Output in [.canonicalRGBA, .display, .format(.rgb8), .format(.rgba16)] {
            let decoded = try ImageSource(bytes: bytes, format: .tiff).decode(options: .init(output: output))
            let expected = try DirectOutputTests.expected(native, output)
            #expect(decoded.bitmap.bytes == expected.bytes && decoded.bitmap.format == expected.format, "\(what), \(output)")
            #expect(decoded.warnings.count == native.warnings.count, "\(what), \(output)")
        }
    }

    /// The native page equals the rows `decodeRows` streams (every band rendered the general way),
    /// format and bytes; returns the page.
    @discardableResult
    static func expectNativeIsTheRenderedRows(_ bytes: [UInt8], _ what: String) throws -> Bitmap {
        let native = try ImageSource(bytes: bytes, format: .tiff).decode(options: .init(output: .native)).bitmap
        var streamed: [UInt8] = [], formats: [PixelFormat] = []
        _ = try ImageSource(bytes: bytes, format: .tiff).decodeRows(output: .native) { band in
            streamed += band.rows.bytes
            formats.append(band.rows.format)
        }
        #expect(formats.allSatisfy { $0 == native.format }, "\(what): page \(native.format), rendered rows \(formats)")
        #expect(streamed == native.bytes, "\(what): the page differs from the rendered rows")
        return native
    }

    /// The stored samples as the page holds them: big-endian at 16 bits.
    static func rendered(_ layout: Layout) -> [UInt8] {
        var bytes = stored(layout)
        if layout.bitsPerSample == 16 && layout.order == .little {
            for i in stride(from: 0, to: bytes.count - 1, by: 2) { bytes.swapAt(i, i + 1) }
        }
        return bytes
    }

    @Test(arguments: layouts)
    func wholeStripsAreTheStoredPixels(layout: Layout) throws {
        let bytes = Self.file(layout)
        let native = try ImageSource(bytes: bytes, format: .tiff).decode(options: .init(output: .native))
        #expect(native.bitmap.format == layout.format)
        if layout.storedIsRendered || layout.bitsPerSample == 16 {
            #expect(native.bitmap.bytes == Self.rendered(layout))
        }
        #expect(native.warnings.isEmpty && native.truncation == nil)
        try Self.expectNativeIsTheRenderedRows(bytes, "\(layout), whole strips")
        try TIFFReference.expectMatchesLibtiff(bytes, "\(layout), whole strips")
        try Self.expectOutputsMatchNative(bytes, "\(layout), whole strips")
    }

    /// One strip short by a row and a half (the general path places what it holds; strip 3, one
    /// row, is left with none), the others whole (from the input). The other strips' rows are
    /// the stored pixels. (Not strips 0 or 1: first two counts that differ make libtiff, and so
    /// the layout, estimate every count as one row — `TIFFImageLayout.libtiffByteCounts`.)
    @Test(arguments: layouts, [2, 3])
    func aShortStripAmongWholeOnes(layout: Layout, strip: Int) throws {
        let rowBytes = layout.rowBytes
        let bytes = Self.file(layout, resize: [strip: -(rowBytes + 7)])
        let native = try Self.expectNativeIsTheRenderedRows(bytes, "\(layout), short strip \(strip)")
        let short = (strip * Self.rowsPerStrip * rowBytes) ..< (min(Self.height, (strip + 1) * Self.rowsPerStrip) * rowBytes)
        if layout.storedIsRendered || layout.bitsPerSample == 16 {
            let pixels = Self.rendered(layout)
            for i in 0 ..< pixels.count where !short.contains(i) {
                if native.bytes[i] != pixels[i] { Issue.record("\(layout), strip \(strip) short: byte \(i) differs"); break }
            }
        }
        try TIFFReference.expectMatchesLibtiff(bytes, "\(layout), short strip \(strip)", failedStrip: true)
        try Self.expectOutputsMatchNative(bytes, "\(layout), short strip \(strip)")
    }

    /// A strip that decodes short, after whole ones, into the page's reused chunk buffer: what its
    /// codec did not write is zeros, not the previous strip's bytes. (None, PackBits and LZW get
    /// the buffer uncleared and clear after themselves, from where they stopped:
    /// `TIFFDecompressor.writesPrefix`.) Uncompressed strips go the general way in a layout
    /// rendering changes (16-bit little-endian); compressed ones always do.
    @Test(arguments: [UInt16(1), 32773, 5])
    func aStripDecodingShortLeavesNoEarlierBytes(compression: UInt16) throws {
        let layout = compression == 1 ? Self.layouts[9] : Self.layouts[0]
        #expect(!layout.storedIsRendered || compression != 1)
        let encode: ([UInt8]) -> [UInt8]
        switch compression {
        case 32773: encode = { Self.packBits($0) }
        case 5: encode = { Self.lzwLiterals($0) }
        default: encode = { $0 }
        }
        let rowBytes = layout.rowBytes, kept = rowBytes - 7
        let bytes = Self.file(layout, compression: compression, encode: encode, keep: [2: kept])
        let native = try ImageSource(bytes: bytes, format: .tiff).decode(options: .init(output: .native)).bitmap
        let strip2 = (2 * Self.rowsPerStrip * rowBytes) ..< (3 * Self.rowsPerStrip * rowBytes)
        // Past the decoded bytes (and the 16-bit sample the last one belongs to), zeros.
        let unwritten = native.bytes[(strip2.lowerBound + kept + 1) ..< strip2.upperBound]
        #expect(unwritten.allSatisfy { $0 == 0 }, "compression \(compression): \(unwritten.filter { $0 != 0 }.count) bytes not zero")
        let pixels = Self.rendered(layout)
        for i in 0 ..< pixels.count where !strip2.contains(i) || i < strip2.lowerBound + kept - 1 {
            if native.bytes[i] != pixels[i] { Issue.record("compression \(compression): byte \(i) differs"); break }
        }
        try TIFFReference.expectMatchesLibtiff(bytes, "compression \(compression), strip 2 short", failedStrip: true)
    }

    /// PackBits (TIFF 6.0 §9) as literal runs of up to 128 bytes.
    static func packBits(_ bytes: [UInt8]) -> [UInt8] {
        stride(from: 0, to: bytes.count, by: 128).flatMap { start in
            let run = bytes[start ..< min(start + 128, bytes.count)]
            return [UInt8(run.count - 1)] + run
        }
    }

    /// LZW (TIFF 6.0 §13) as literal codes only: Clear, one code per byte, End, with the early
    /// change; a Clear again before the table fills.
    static func lzwLiterals(_ bytes: [UInt8]) -> [UInt8] {
        var codes: [(code: Int, width: Int)] = [(256, 9)]
        var nextFree = 258, width = 9, hasPrevious = false
        for byte in bytes {
            if nextFree >= 4000 {
                codes.append((256, width))
                nextFree = 258; width = 9; hasPrevious = false
            }
            codes.append((Int(byte), width))
            if hasPrevious { nextFree += 1 }
            if width < 12 && nextFree >= (1 << width) - 1 { width += 1 }
            hasPrevious = true
        }
        codes.append((257, width))
        return packMSB(codes)
    }

    /// A strip holding more bytes than its rows (its byte count says so): its first bytes are
    /// the rows, as libtiff reads them.
    @Test(arguments: layouts)
    func aStripLongerThanItsRows(layout: Layout) throws {
        let bytes = Self.file(layout, resize: [2: 9])
        let native = try Self.expectNativeIsTheRenderedRows(bytes, "\(layout), long strip")
        if layout.storedIsRendered || layout.bitsPerSample == 16 {
            #expect(native.bytes == Self.rendered(layout))
        }
        try TIFFReference.expectMatchesLibtiff(bytes, "\(layout), long strip")
        try Self.expectOutputsMatchNative(bytes, "\(layout), long strip")
    }

    /// `TIFFRendering.formatOfUnchangedSamples` names a format exactly for the layouts whose
    /// rendered rows are the stored bytes.
    @Test(arguments: layouts)
    func theStoredFormatIsNamedExactlyWhenRenderingKeepsTheBytes(layout: Layout) throws {
        let bytes = Self.file(layout)
        let reader = RandomAccessReader(bytes)
        let header = try TIFFHeader(parsing: reader)
        let directory = try #require(try TIFFDirectory.parse(at: header.firstIFD, reader: reader, endianness: header.endianness,
                                                              variant: header.variant, isClosed: true))
        let pageLayout = try TIFFImageLayout(directory: directory, reader: reader, limits: .default).forRendering()
        let named = TIFFRendering.formatOfUnchangedSamples(pageLayout, bigEndianSamples: layout.order == .big)
        #expect(named == (layout.storedIsRendered ? layout.format : nil), "\(layout)")
    }
}
