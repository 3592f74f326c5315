import Testing
import CReference
import PureImageConformance
@testable import PureImage

/// PixarLog (32909). The generated corpus holds libtiff-written files of every data format
/// PureImage decodes (compared with libtiff by `decodedSamplesMatchLibtiff` and `pureimage
/// conform`); here: the companding tables at their seams, and damaged strips against libtiff.
@Suite struct TIFFPixarLogTests {
    /// Token 1250 is 1.0 exactly (b · exp(c · 1250) with b = exp(−c · 1250)); tokens 0 ..< 1/c
    /// = 250 are linear (c = 1/⌊1/ln 1.004⌋), the logarithmic part starting at 250; values above
    /// 1.0 clamp to the top of the integer formats.
    @Test func tablesAtTheirSeams() {
        let tables = PixarLogDecoder.Tables()
        #expect(tables.linear[1250] == 1.0)
        #expect(tables.linear8[1250] == 255 && tables.linear16[1250] == 65535)
        #expect(tables.linear8[2047] == 255 && tables.linear16[2047] == 65535)
        #expect(tables.linear[0] == 0 && tables.linear8[0] == 0)
        #expect(tables.linear.count == 2049 && tables.linear[2048] == tables.linear[2047])
        // Continuous at the seam: the first logarithmic step is about the ratio 1.004.
        let ratio = tables.linear[250] / tables.linear[249]
        #expect(ratio > 1.003 && ratio < 1.0045, "\(ratio)")
    }

    /// Bytes of the strips changed at random: a damaged zlib stream fails its strip whole (libtiff
    /// writes nothing), one that still inflates decodes whatever it holds; PureImage's RGBA is
    /// libtiff's either way.
    @Test(.enabled(if: TIFFGeneratedCorpusTests.isAvailable, "run Conformance/generate_corpus.py"),
          arguments: ["pixarlog_rgb8.tif", "pixarlog_gray16.tif"])
    func damagedStripsMatchLibtiff(_ name: String) throws {
        let original = try GeneratedCorpus.read("tiff/" + name)
        let strips = try TIFFCCITTTests.stripRange(original).lowerBound
        var random = TIFFRobustnessTests.Random(state: 0x5851_F42D_4C95_7F2D)
        var compared = 0
        for trial in 0..<40 {
            var bytes = original
            let index = strips + Int(random.next() % UInt64(max(1, original.count / 2 - strips)))
            bytes[index] ^= UInt8(truncatingIfNeeded: 1 | random.next())
            guard let theirs = ReferenceDecoders.tiffRGBA(bytes).frames.first else { continue }
            let ours = try ImageSource(bytes: bytes).image(options: ImageDecodingOptions(output: .libtiffRGBA)).tightBytes
            #expect(firstDifference(ours, theirs.samples) == nil, "\(name) trial \(trial) (byte \(index))")
            compared += 1
        }
        #expect(compared > 30)
    }

    /// What PureImage does not decode is refused with a typed error: 12-bit data (libtiff's
    /// PICIO format), a predictor (libtiff swaps big-endian values twice), tiles (libtiff reads a
    /// tile's rows as image-wide).
    @Test func unsupportedLayoutsAreTyped() throws {
        for (bits, predictor, tiled) in [(12, 1, false), (8, 2, false), (8, 1, true)] {
            var b = TIFFBuilder(.little)
            b.data = [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]
            b.short(256, 16); b.short(257, 16); b.short(258, UInt16(bits)); b.short(259, 32909); b.short(262, 1)
            if tiled {
                b.short(322, 16); b.short(323, 16); b.long(324, b.dataOffset); b.long(325, 8)
            } else {
                b.long(273, b.dataOffset); b.short(278, 16); b.long(279, 8)
            }
            b.short(277, 1)
            if predictor != 1 { b.short(317, UInt16(predictor)) }
            b.entries.sort { $0.tag < $1.tag }
            do {
                _ = try ImageSource(bytes: b.build()).image(options: ImageDecodingOptions(output: .native))
                Issue.record("\(bits) bits, predictor \(predictor), tiled \(tiled): decoded")
            } catch {
                #expect(error.kind == .unsupported, "\(error)")
            }
        }
    }
}
