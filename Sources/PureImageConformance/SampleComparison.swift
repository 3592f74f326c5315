import CReference
import PureImage

/// TIFF below the photometric interpretation: PureImage's `DecodedSamples` against libtiff's
/// `TIFFReadEncodedStrip` / `TIFFReadEncodedTile` output (`pi_ref_tiff_decode_samples`), byte
/// for byte. This checks every codec and predictor on every file libtiff decodes, including the
/// depths, sample formats and photometrics its RGBA interface refuses (12-bit, float, Lab, …).
public struct ReferenceSamples: Sendable {
    public var status: ReferenceResult.Status
    public var message: String
    public var width = 0, height = 0, samplesPerPixel = 0, bitsPerSample = 0, sampleFormat = 1
    public var isDataUnits = false
    public var bytes: [UInt8] = []
}

extension ReferenceDecoders {
    /// libtiff's decoded samples of page `page` (layout as `DecodedSamples`, multi-byte samples
    /// in host order, which is little-endian on every machine this runs on).
    public static func tiffSamples(_ bytes: [UInt8], page: Int = 0) -> ReferenceSamples {
        var image = PIRefImage()
        var sampleFormat: Int32 = 1, chunked: Int32 = 0
        _ = bytes.withUnsafeBufferPointer { pi_ref_tiff_decode_samples($0.baseAddress, $0.count, Int32(page), &image, &sampleFormat, &chunked) }
        defer { pi_ref_image_free(&image) }
        let text = message(image.message)
        guard image.status >= 0, let pixels = image.pixels else { return ReferenceSamples(status: .rejected, message: text) }
        var result = ReferenceSamples(status: image.status == 0 ? .ok : .warning, message: text)
        result.width = Int(image.width)
        result.height = Int(image.height)
        result.samplesPerPixel = Int(image.channels)
        result.bitsPerSample = Int(image.bits)
        result.sampleFormat = Int(sampleFormat)
        result.isDataUnits = chunked != 0
        result.bytes = Array(UnsafeBufferPointer(start: pixels, count: image.size))
        return result
    }
}

public enum SampleComparison {
    /// Nil when both decoders give the same samples, else what differs (geometry, or the first
    /// differing byte with its row and byte column). `tamper` (tests only) changes ours first.
    public static func difference(_ ours: DecodedSamples, _ theirs: ReferenceSamples) -> String? {
        let geometry = "\(ours.width)×\(ours.height) \(ours.samplesPerPixel)×\(ours.bitsPerSample)-bit format \(ours.sampleFormat)\(ours.isDataUnits ? " data units" : "")"
        let reference = "\(theirs.width)×\(theirs.height) \(theirs.samplesPerPixel)×\(theirs.bitsPerSample)-bit format \(theirs.sampleFormat)\(theirs.isDataUnits ? " data units" : "")"
        guard geometry == reference, ours.bytes.count == theirs.bytes.count else {
            return "decoded samples: geometry differs: ours \(geometry) (\(ours.bytes.count) bytes), libtiff \(reference) (\(theirs.bytes.count) bytes)"
        }
        guard let index = ours.bytes.indices.first(where: { ours.bytes[$0] != theirs.bytes[$0] }) else { return nil }
        let count = zip(ours.bytes, theirs.bytes).reduce(0) { $0 + ($1.0 != $1.1 ? 1 : 0) }
        let position = ours.isDataUnits ? "byte \(index)" : "row \(index / max(1, ours.rowBytes)) byte \(index % max(1, ours.rowBytes))"
        return "decoded samples differ: first at \(position): \(ours.bytes[index]) vs \(theirs.bytes[index]); \(count) bytes differ"
    }
}
