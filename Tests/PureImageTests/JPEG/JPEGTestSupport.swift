import CReference
import Foundation
@testable import PureImage

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

    static func decode(_ bytes: [UInt8], scale: Int = 1) -> Result<Ours, DecodeError> {
        let decoder = JPEGDecoder(options: DecodeOptions(jpegScaleDenominator: scale))
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
        let pixels: [UInt8]
        let width: Int
        let height: Int
        let channels: Int
        let message: String
    }

    static func reference(_ bytes: [UInt8], scale: Int = 1) -> Reference {
        var image = PIRefImage()
        let status = bytes.withUnsafeBufferPointer { pi_ref_jpeg_decode($0.baseAddress, $0.count, Int32(scale), &image) }
        defer { pi_ref_image_free(&image) }
        let message = withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        var pixels: [UInt8] = []
        if status >= 0, let base = image.pixels {
            pixels = Array(UnsafeBufferPointer(start: base, count: image.size))
        }
        return Reference(status: status, pixels: pixels, width: Int(image.width), height: Int(image.height),
                         channels: Int(image.channels), message: message)
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
        if ours.bitmap.format.colorModel == .cmyk && adobe { return ours.bitmap.bytes.map { 255 - $0 } }
        return ours.bitmap.bytes
    }
}
