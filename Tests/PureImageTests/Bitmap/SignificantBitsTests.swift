import Testing
@testable import PureImage

/// `Bitmap.significantBitsPerComponent` (Docs/Bitmap.md, "Significant bits"): samples of P bits
/// in wider components stay as they are in their own format and are scaled to the full range,
/// round(v · M / (2^P − 1)), by every conversion to another format.
struct SignificantBitsTests {
    /// A 4×1 gray image of 12-bit samples in 16-bit host-order components.
    static func twelveBitGray(_ values: [UInt16]) -> Bitmap {
        let format = PixelFormat(colorModel: .gray, bitsPerComponent: 16, alphaInfo: .none, byteOrder: .order16Host)
        let bytes = values.flatMap { value -> [UInt8] in
            let stored = value.littleEndian
            return [UInt8(stored & 0xFF), UInt8(stored >> 8)]
        }
        return Bitmap(uncheckedWidth: values.count, height: 1, format: format, bytesPerRow: values.count * 2, bytes: bytes)
            .withSignificantBits(12)
    }

    @Test func conversionsScaleToTheFullRange() throws {
        let bitmap = Self.twelveBitGray([0, 4095, 2048, 5000])
        #expect(bitmap.significantBitsPerComponent == 12)
        let rgba16 = try bitmap.converted(to: .rgba16)
        let reds = stride(from: 0, to: 32, by: 8).map { Int(rgba16.bytes[$0]) | Int(rgba16.bytes[$0 + 1]) << 8 }
        // 2048 · 65535 / 4095 = 32775.9…; 5000 is above 4095 (damaged data) and counts as 4095.
        #expect(reds == [0, 65535, 32776, 65535])
        #expect(rgba16.significantBitsPerComponent == 16)
        let gray8 = try bitmap.converted(to: .gray8, bytesPerRow: 4)
        #expect(gray8.bytes == [0, 255, 128, 255])
    }

    @Test func ownFormatBandsAndOrientationsKeepThem() throws {
        let bitmap = Self.twelveBitGray([1, 2, 3, 4])
        #expect(try bitmap.converted(to: bitmap.format) == bitmap)
        #expect(bitmap.oriented(.upMirrored).significantBitsPerComponent == 12)
        #expect(bitmap.tightlyPacked().significantBitsPerComponent == 12)
        #expect(bitmap.cropped(toX: 1, y: 0, width: 2, height: 1)?.significantBitsPerComponent == 12)
        // A padded copy in the same format keeps the values and the precision.
        let padded = try bitmap.converted(to: bitmap.format, bytesPerRow: 12)
        #expect(padded.significantBitsPerComponent == 12 && padded.bytes.prefix(8) == bitmap.bytes.prefix(8))
    }

    /// PAM keeps 12-bit samples with MAXVAL 4095; PNG stores them scaled to 16 bits.
    @Test func writersKeepOrScaleThem() throws {
        let bitmap = Self.twelveBitGray([0, 4095, 2048, 1])
        let pam = try ImageWriter.encode(bitmap, as: .pam)
        let header = String(decoding: pam.prefix(80), as: UTF8.self)
        #expect(header.contains("MAXVAL 4095"))
        #expect(Array(pam.suffix(8)) == [0x00, 0x00, 0x0F, 0xFF, 0x08, 0x00, 0x00, 0x01])
        let png = try ImageWriter.encode(bitmap, as: .png)
        let decoded = try ImageSource(bytes: png).image(options: .init(output: .native))
        #expect(Array(decoded.bytes.prefix(4)) == [0x00, 0x00, 0xFF, 0xFF])
    }
}
