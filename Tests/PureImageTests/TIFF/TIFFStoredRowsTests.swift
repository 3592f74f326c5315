import Testing
@testable import PureImage

/// Uncompressed 8-bit RGB strips are written into the page from the input where they lie
/// (`TIFFPageDecoder.storeUncompressedBand`), converted in direct mode or copied into a native
/// page; a strip that is short or missing goes the general way. Each case mixes the two and
/// must give libtiff's samples and RGBA, and the native decode converted for every output.
@Suite struct TIFFStoredRowsTests {
    static let width = 5, height = 7, rowsPerStrip = 2

    /// Pixel (x, y)'s R, G, B: distinct in every row and column.
    static func pixels() -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0 ..< height {
            for x in 0 ..< width {
                let red = UInt8(10 * y + x), green = UInt8(100 + 3 * x + y), blue = UInt8(250 - 7 * y - x)
                bytes += [red, green, blue]
            }
        }
        return bytes
    }

    /// The image in strips of `rowsPerStrip` rows; `resize` takes bytes off the end of the given
    /// strips (negative) or appends some (their byte counts say so).
    static func file(resize: [Int: Int] = [:]) -> [UInt8] {
        let rowBytes = width * 3
        let all = pixels()
        var strips: [[UInt8]] = []
        for top in stride(from: 0, to: height, by: rowsPerStrip) {
            let rows = min(rowsPerStrip, height - top)
            let strip = Array(all[(top * rowBytes) ..< ((top + rows) * rowBytes)])
            let change = resize[strips.count] ?? 0
            strips.append(change < 0 ? Array(strip.dropLast(-change)) : strip + [UInt8](repeating: 0xA5, count: change))
        }
        var b = TIFFBuilder(.little)
        b.short(256, UInt16(width))
        b.short(257, UInt16(height))
        b.short(258, 8, 8, 8)
        b.short(259, 1)                        // no compression
        b.short(262, 2)                        // RGB
        b.short(277, 3)
        b.short(278, UInt16(rowsPerStrip))
        b.short(284, 1)                        // chunky
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

    @Test func wholeStripsAreTheStoredPixels() throws {
        let bytes = Self.file()
        let native = try ImageSource(bytes: bytes, format: .tiff).decode(options: .init(output: .native))
        #expect(native.bitmap.format == .rgb8)
        #expect(native.bitmap.bytes == Self.pixels())
        #expect(native.warnings.isEmpty && native.truncation == nil)
        try TIFFReference.expectMatchesLibtiff(bytes, "whole strips")
        try Self.expectOutputsMatchNative(bytes, "whole strips")
    }

    /// One strip short by a row and a half (the general path places what it holds; strip 3, one
    /// row, is left with none), the others whole (from the input). The other strips' rows are
    /// the stored pixels. (Not strips 0 or 1: first two counts that differ make libtiff, and so
    /// the layout, estimate every count as one row — `TIFFImageLayout.libtiffByteCounts`.)
    @Test(arguments: [2, 3])
    func aShortStripAmongWholeOnes(strip: Int) throws {
        let bytes = Self.file(resize: [strip: -(Self.width * 3 + 7)])
        let native = try ImageSource(bytes: bytes, format: .tiff).decode(options: .init(output: .native))
        let rowBytes = Self.width * 3
        let short = (strip * Self.rowsPerStrip * rowBytes) ..< (min(Self.height, (strip + 1) * Self.rowsPerStrip) * rowBytes)
        let pixels = Self.pixels()
        for i in 0 ..< pixels.count where !short.contains(i) {
            if native.bitmap.bytes[i] != pixels[i] { Issue.record("strip \(strip) short: byte \(i) differs"); break }
        }
        try TIFFReference.expectMatchesLibtiff(bytes, "short strip \(strip)", failedStrip: true)
        try Self.expectOutputsMatchNative(bytes, "short strip \(strip)")
    }

    /// A strip holding more bytes than its rows (its byte count says so): its first bytes are
    /// the rows, as libtiff reads them.
    @Test func aStripLongerThanItsRows() throws {
        let bytes = Self.file(resize: [2: 9])
        let native = try ImageSource(bytes: bytes, format: .tiff).decode(options: .init(output: .native))
        #expect(native.bitmap.bytes == Self.pixels())
        try TIFFReference.expectMatchesLibtiff(bytes, "long strip")
        try Self.expectOutputsMatchNative(bytes, "long strip")
    }
}
