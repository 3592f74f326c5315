import Testing
import CReference
import PureImageConformance
@testable import PureImage

/// Native samples against libtiff's decoded strips and tiles (`pi_ref_tiff_decode_native`) for
/// 8- and 16-bit files whose native layout is the stored one: BlackIsZero, RGB, 8-bit palette
/// indices and 4-sample CMYK, every sample kept (no extra samples dropped).
@Suite struct TIFFNativeSampleTests {
    static func libtiffNative(_ bytes: [UInt8]) -> (channels: Int, bits: Int, samples: [UInt8], status: Int32)? {
        var image = PIRefImage()
        _ = bytes.withUnsafeBufferPointer { pi_ref_tiff_decode_native($0.baseAddress, $0.count, 0, &image) }
        defer { pi_ref_image_free(&image) }
        guard image.status >= 0, let pixels = image.pixels else { return nil }
        return (Int(image.channels), Int(image.bits), Array(UnsafeBufferPointer(start: pixels, count: image.size)), image.status)
    }

    /// Our native bitmap in libtiff's native layout (16-bit host-endian), or nil when the
    /// layouts differ by design (inverted WhiteIsZero, dropped extras, converted YCbCr).
    static func comparable(_ bytes: [UInt8], channels: Int, bits: Int) -> [UInt8]? {
        guard let source = try? ImageSource(bytes: bytes), let properties = try? source.properties(),
              let bitmap = try? source.image(options: ImageDecodingOptions(output: .native)) else { return nil }
        let format = bitmap.format
        guard format.bitsPerComponent == bits, format.componentsPerPixel == channels, properties.format == .tiff else { return nil }
        guard let photometric = photometric(bytes), [1, 2, 3, 5].contains(photometric) else { return nil }
        var samples = bitmap.tightBytes
        if bits == 16 {
            var i = 0
            while i + 1 < samples.count { samples.swapAt(i, i + 1); i += 2 }   // big-endian → little-endian host
        }
        return samples
    }

    static func photometric(_ bytes: [UInt8]) -> Int? {
        let reader = RandomAccessReader(bytes)
        guard let header = try? TIFFHeader(parsing: reader),
              let directory = try? TIFFDirectory.parse(at: header.firstIFD, reader: reader, endianness: header.endianness, variant: header.variant, isClosed: true) else { return nil }
        return (try? directory.integer(TIFFTag.photometric, reader: reader)) ?? nil
    }

    @Test(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
    func corpusNativeSamplesMatchLibtiff() {
        var compared = 0, identical = 0
        var failures: [String] = []
        for entry in Corpus.manifest() where entry.format == "tiff" {
            guard let bytes = Corpus.read(entry), let reference = Self.libtiffNative(bytes),
                  reference.bits == 8 || reference.bits == 16,
                  let ours = Self.comparable(bytes, channels: reference.channels, bits: reference.bits) else { continue }
            compared += 1
            if ours == reference.samples {
                identical += 1
            } else if reference.status == 0 {
                let first = zip(ours, reference.samples).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
                failures.append("\(entry.path): \(ours.count) vs \(reference.samples.count) bytes, first difference at byte \(first)")
            }
        }
        report("TIFF native vs libtiff strips/tiles: \(compared) files compared, \(identical) identical, \(failures.count) differ (clean libtiff decodes)")
        for failure in failures { report("TIFF native FAIL " + failure) }
        #expect(failures.isEmpty)
        #expect(compared > 50)
    }

    /// Every TIFF of the shared and generated corpora whose samples libtiff decodes: PureImage's
    /// `decodedSamples` (codec + predictor, any depth, any photometric) equals libtiff's
    /// TIFFReadEncodedStrip / TIFFReadEncodedTile output byte for byte.
    @Test(.enabled(if: Corpus.isAvailable || TIFFGeneratedCorpusTests.isAvailable, "no corpus: set PUREIMAGE_CORPUS or run Conformance/generate_corpus.py"))
    func decodedSamplesMatchLibtiff() {
        var paths: [String] = Corpus.manifest().filter { $0.format == "tiff" }.map(\.absolutePath)
        paths += CorpusWalk.files(under: TIFFGeneratedCorpusTests.root + "/tiff")
        var compared = 0
        var failures: [String] = []
        for path in paths {
            guard let bytes = try? ImageFiles.read(path) else { continue }
            let theirs = ReferenceDecoders.tiffSamples(bytes)
            guard theirs.status != .rejected, let ours = try? ImageSource(bytes: bytes).decodedSamples() else { continue }
            compared += 1
            if let difference = SampleComparison.difference(ours, theirs) { failures.append("\(path): \(difference)") }
        }
        report("TIFF decoded samples vs libtiff: \(compared) files compared, \(failures.count) differ")
        for failure in failures.prefix(20) { report("TIFF samples FAIL " + failure) }
        #expect(failures.isEmpty)
        #expect(compared > 100)
    }
}
