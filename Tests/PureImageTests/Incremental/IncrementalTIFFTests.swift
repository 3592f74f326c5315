import Testing
@testable import PureImage

/// TIFF through the incremental source: pages decode band by band (a strip, or a row of
/// tiles) as soon as a band's bytes are in, so a file whose IFD precedes its image data shows
/// rows while it loads.
@Suite struct IncrementalTIFFTests {
    /// A little-endian 8-bit TIFF with its IFD right after the header and the strips after
    /// that (the order a streaming writer uses), `rowsPerStrip` rows per strip, uncompressed.
    static func ifdFirstTIFF(width: Int, height: Int, samples: Int, rowsPerStrip: Int, seed: UInt8) -> (file: [UInt8], pixels: [UInt8]) {
        let pixels = (0..<width * height * samples).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ Int(seed) &* 11) }
        let strips = (height + rowsPerStrip - 1) / rowsPerStrip
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        // Entries: tag, type (3 SHORT, 4 LONG), values. Out-of-line arrays follow the IFD.
        let entryCount = 9
        let arraysStart = 8 + 2 + 12 * entryCount + 4
        let dataStart = arraysStart + (strips > 1 ? 8 * strips : 0)
        let stripBytes = (0..<strips).map { min(rowsPerStrip, height - $0 * rowsPerStrip) * width * samples }
        let offsets = (0..<strips).map { dataStart + stripBytes[0..<$0].reduce(0, +) }
        var ifd = u16(entryCount)
        func entry(_ tag: Int, _ type: Int, _ values: [Int]) {
            ifd += u16(tag) + u16(type) + u32(values.count)
            let bytes = values.flatMap { type == 3 ? u16($0) : u32($0) }
            ifd += bytes.count <= 4 ? bytes + [UInt8](repeating: 0, count: 4 - bytes.count) : u32(tag == 273 ? arraysStart : arraysStart + 4 * strips)
        }
        entry(256, 3, [width]); entry(257, 3, [height]); entry(258, 3, [8]); entry(259, 3, [1])
        entry(262, 3, [samples == 3 ? 2 : 1]); entry(273, 4, offsets); entry(277, 3, [samples])
        entry(278, 3, [rowsPerStrip]); entry(279, 4, stripBytes)
        ifd += u32(0)
        var file: [UInt8] = [0x49, 0x49, 42, 0] + u32(8) + ifd
        if strips > 1 { file += offsets.flatMap(u32) + stripBytes.flatMap(u32) }
        return (file + pixels, pixels)
    }

    /// After each complete strip, the partial image holds exactly the rows of the strips so
    /// far (equal to the final image's) and zero bytes below.
    @Test func partialImageShowsStripsSoFar() throws {
        let (file, _) = Self.ifdFirstTIFF(width: 8, height: 12, samples: 3, rowsPerStrip: 3, seed: 1)
        let final = try ImageSource(bytes: file).image().tightBytes
        let rowBytes = 8 * 4
        let dataStart = file.count - 8 * 12 * 3
        let source = IncrementalImageSource()
        for strip in 0...4 {
            source.update(data: Array(file.prefix(dataStart + strip * 3 * 8 * 3)), final: false)
            #expect(source.status == (strip < 4 ? .incomplete : .complete))
            if strip == 0 { continue }   // no band yet: nothing decoded to show
            let partial = try #require(source.partialImage()?.tightBytes)
            let shown = strip * 3
            #expect(partial[0 ..< shown * rowBytes] == final[0 ..< shown * rowBytes], "strip \(strip)")
            #expect(partial[shown * rowBytes ..< 12 * rowBytes].allSatisfy { $0 == 0 }, "strip \(strip)")
        }
        source.update(data: file, final: true)
        #expect(source.status == .complete)
        #expect(try source.image(at: 0).tightBytes == final)
    }

    /// Any chunking gives the one-shot pixels, for strips and for a truncated file.
    @Test(arguments: [1, 2, 5, 13, 64])
    func anyChunkingEqualsOneShot(chunk: Int) {
        let (file, _) = Self.ifdFirstTIFF(width: 9, height: 7, samples: 1, rowsPerStrip: 2, seed: 3)
        for bytes in [file, Array(file.dropLast(20))] {
            let expected = IncrementalTests.oneShot(bytes)
            let (outcome, statuses) = IncrementalTests.incremental(bytes, chunkSizes: [chunk])
            #expect(outcome == expected)
            #expect(IncrementalTests.isMonotone(statuses))
        }
    }
}
