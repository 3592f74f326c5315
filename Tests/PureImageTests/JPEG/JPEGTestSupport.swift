import CReference
import Foundation
@_spi(Reference) @testable import PureImage
import PureImageConformance

/// Shared helpers for the JPEG tests: one-shot decoding through `JPEGDecoder` and through
/// libjpeg-turbo (CReference), and the corpus file list.
enum JPEGTestSupport {
    struct Ours {
        let bitmap: Bitmap
        let properties: ImageProperties?
        let truncated: Bool
        let warnings: [DecodeWarning]
    }

    /// Feeds `full` to a JPEG decoder `chunk` bytes at a time, then closes the input; returns
    /// the decoder and what its last `advance` (after the close) said.
    static func decodeInChunks(_ full: [UInt8], chunk: Int) throws(DecodeError) -> (JPEGDecoder, DecodeProgress) {
        let decoder = JPEGDecoder(options: DecodeOptions())
        var input = InputBuffer()
        var offset = 0
        while offset < full.count {
            input.append(contentsOf: full[offset ..< min(full.count, offset + chunk)])
            offset += chunk
            _ = try decoder.advance(&input)
        }
        input.close()
        return (decoder, try decoder.advance(&input))
    }

    static func decode(_ bytes: [UInt8], scale: Int = 1, asStored: Bool = false) -> Result<Ours, DecodeError> {
        var options = DecodeOptions(jpegScaleDenominator: scale)
        if asStored { options.jpegColorHandling = .asStored }
        let decoder = JPEGDecoder(options: options)
        var input = InputBuffer(bytes, isClosed: true)
        do {
            _ = try decoder.advance(&input)
            let bitmap = try decoder.frame(at: 0)
            return .success(Ours(bitmap: bitmap, properties: decoder.properties, truncated: decoder.truncation != nil, warnings: decoder.warnings))
        } catch {
            return .failure(error)
        }
    }

    struct Reference {
        let status: Int32
        /// 8-bit samples, or 16-bit ones in host byte order (12-bit and lossless files).
        let pixels: [UInt8]
        let width: Int
        let height: Int
        let channels: Int
        let message: String
        /// Which library answered: "libjpeg-turbo 2.1.5" or "libjpeg-turbo 3".
        var library = "libjpeg-turbo 2.1.5"
        /// The samples are in the stored colour space: libjpeg-turbo 3 converts no lossless
        /// colours, so a lossless YCbCr file is compared before its conversion (ours then
        /// decoded with `jpegColorHandling = .asStored`).
        var asStored = false
    }

    /// libjpeg-turbo 2.1.5 (Debian, CReference), or libjpeg-turbo 3 (`LibjpegTurbo3`) for what
    /// 2.1.5 refuses as a process or precision it lacks: 12-bit and lossless files.
    static func reference(_ bytes: [UInt8], scale: Int = 1) -> Reference {
        var image = PIRefImage()
        let status = bytes.withUnsafeBufferPointer { pi_ref_jpeg_decode($0.baseAddress, $0.count, Int32(scale), &image) }
        defer { pi_ref_image_free(&image) }
        let message = withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if status < 0 && lacksProcess(message) {
            var (result, _) = LibjpegTurbo3.decode(bytes, scaleDenominator: scale)
            let asStored = result.message == "Unsupported color conversion request"
            if asStored { (result, _) = LibjpegTurbo3.decode(bytes, scaleDenominator: scale, asStored: true) }
            let frame = result.frames.first
            return Reference(status: result.status == .rejected ? -1 : result.status == .ok ? 0 : 1, pixels: frame?.samples ?? [],
                             width: frame?.width ?? 0, height: frame?.height ?? 0, channels: frame?.channels ?? 0,
                             message: result.message, library: "libjpeg-turbo 3", asStored: asStored)
        }
        var pixels: [UInt8] = []
        if status >= 0, let base = image.pixels {
            pixels = Array(UnsafeBufferPointer(start: base, count: image.size))
        }
        return Reference(status: status, pixels: pixels, width: Int(image.width), height: Int(image.height),
                         channels: Int(image.channels), message: message)
    }

    /// libjpeg-turbo 2.1.5's refusals of processes that libjpeg-turbo 3 decodes.
    static func lacksProcess(_ message: String) -> Bool { JPEGReference.lacksProcess(message) }

    /// libjpeg-turbo's refusals of a process it does not implement at all (lossless
    /// arithmetic coding, SOF11): no reference exists for those files.
    static func noReferenceExists(_ message: String) -> Bool { JPEGReference.noneExists(message) }

    /// libjpeg-turbo's refusal of a frame whose height a DNL segment defines.
    static func refusesDNL(_ message: String) -> Bool { JPEGReference.refusesDNL(message) }

    /// libjpeg-turbo 3 cannot output a multi-scan lossless image some of whose scans are
    /// missing (it reads sample arrays no scan wrote and stops with JERR_BAD_VIRTUAL_ACCESS);
    /// PureImage outputs the components it has (a deliberate difference, listed in
    /// Conformance/expectations.tsv).
    static func cannotOutputMissingScans(_ reference: Reference) -> Bool {
        reference.status < 0 && reference.library == "libjpeg-turbo 3" && reference.message == "Bogus virtual array access"
    }

    /// Paths (relative to the corpus root) of manifest rows with format `jpeg` under `prefixes`.
    static func corpusFiles(root: String, prefixes: [String]) -> [String] {
        guard let manifest = try? String(contentsOfFile: root + "/manifest.tsv", encoding: .utf8) else { return [] }
        var files: [String] = []
        for line in manifest.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 2, fields[1] == "jpeg" else { continue }
            let path = String(fields[0])
            if prefixes.contains(where: { path.hasPrefix($0) }) { files.append(path) }
        }
        return files.sorted()
    }

    static func read(_ path: String) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return [UInt8](data)
    }

    /// Our bytes as libjpeg-turbo would print them: Adobe CMYK is stored inverted and we
    /// un-invert it in the native bitmap (Docs/JPEG.md "CMYK").
    static func asLibjpegBytes(_ ours: Ours) -> [UInt8] {
        let adobe = ours.properties?.extra.contains { $0.key == "adobeTransform" } ?? false
        guard ours.bitmap.format.colorModel == .cmyk && adobe else { return ours.bitmap.bytes }
        if ours.bitmap.format.bitsPerComponent == 8 { return ours.bitmap.bytes.map { 255 - $0 } }
        // 16-bit host-order samples of P bits: 2^P − 1 − x.
        let maximum = (1 << ours.bitmap.significantBitsPerComponent) - 1
        var bytes = ours.bitmap.bytes
        for i in stride(from: 0, to: bytes.count - 1, by: 2) {
            let value = maximum - Int(UInt16(littleEndian: UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8))
            let stored = UInt16(truncatingIfNeeded: value).littleEndian
            bytes[i] = UInt8(stored & 0xFF)
            bytes[i + 1] = UInt8(stored >> 8)
        }
        return bytes
    }
}
