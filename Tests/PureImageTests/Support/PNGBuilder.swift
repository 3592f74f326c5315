@testable import PureImage

/// Builds PNG files in tests, chunk by chunk, with correct CRCs unless told otherwise.
struct PNGBuilder {
    private(set) var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    mutating func chunk(_ type: String, _ data: [UInt8], corruptCRC: Bool = false) {
        let typeBytes = Array(type.utf8)
        bytes += Self.be32(UInt32(data.count)) + typeBytes + data
        let crc = CRC32.checksum(data, initial: CRC32.checksum(typeBytes))
        bytes += Self.be32(corruptCRC ? crc ^ 1 : crc)
    }

    /// IHDR: width, height, bit depth, colour type, compression 0, filter 0, interlace.
    mutating func header(width: Int, height: Int, depth: UInt8, colorType: UInt8, interlaced: Bool = false) {
        chunk("IHDR", Self.be32(UInt32(width)) + Self.be32(UInt32(height)) + [depth, colorType, 0, 0, interlaced ? 1 : 0])
    }

    /// Raw scanlines (each already prefixed with its filter byte), zlib-compressed into one IDAT
    /// or split into `pieces` IDAT chunks.
    mutating func imageData(_ filteredScanlines: [UInt8], pieces: Int = 1) {
        let compressed = ZlibDeflater.deflate(filteredScanlines)
        let size = max(1, (compressed.count + pieces - 1) / pieces)
        var start = 0
        while start < compressed.count {
            chunk("IDAT", Array(compressed[start..<min(compressed.count, start + size)]))
            start += size
        }
    }

    mutating func end() { chunk("IEND", []) }

    /// Scanlines for `rows` of packed samples (filter type 0), non-interlaced.
    static func scanlines(_ rows: [[UInt8]]) -> [UInt8] { rows.flatMap { [0] + $0 } }

    /// Adam7 scanlines (filter type 0) from a full image of `width × height` pixels given as
    /// per-pixel sample bytes (`bitsPerPixel ≥ 8`) or packed rows (`bitsPerPixel < 8`).
    static func adam7Scanlines(width: Int, height: Int, bitsPerPixel: Int, rowBytes: Int, image: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for pass in PNGPass.passes(width: width, height: height, interlaced: true) where !pass.isEmpty {
            for row in 0..<pass.height {
                let y = pass.yStart + row * pass.yStep
                var line = [UInt8](repeating: 0, count: (pass.width * bitsPerPixel + 7) / 8)
                for i in 0..<pass.width {
                    let x = pass.xStart + i * pass.xStep
                    if bitsPerPixel >= 8 {
                        let size = bitsPerPixel / 8
                        for k in 0..<size { line[i * size + k] = image[y * rowBytes + x * size + k] }
                    } else {
                        let bit = x * bitsPerPixel
                        let value = (image[y * rowBytes + bit / 8] >> UInt8(8 - bitsPerPixel - bit % 8)) & UInt8((1 << bitsPerPixel) - 1)
                        let outBit = i * bitsPerPixel
                        line[outBit / 8] |= value << UInt8(8 - bitsPerPixel - outBit % 8)
                    }
                }
                out += [0] + line
            }
        }
        return out
    }
}
