import Testing
@testable import PureImage

/// Corrupted and truncated TIFFs: every decode returns (an image, a partial image or a typed
/// error), without crashing, hanging or allocating beyond the limits.
@Suite struct TIFFRobustnessTests {
    /// A deterministic xorshift generator, so failures reproduce.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
    }

    static func samples() -> [[UInt8]] {
        var files: [[UInt8]] = [TIFFBuilder.gray8(.big, width: 5, height: 4, pixels: Array(0..<20)).build()]
        let root = packageRoot() + "/Conformance/generated/tiff/"
        for name in ["rgb8_lzw_tiles16_contig_little.tif", "rgba_unassoc16_deflate_pred2_strips_r7_separate_big.tif",
                     "palette4_packbits_strips_r7_contig_big.tif", "gray16_lzw_tiles16_contig_little.tif",
                     "bilevel_g4_strips_r7_contig_little.tif", "bilevel_g3_2d_tiles16_contig_big.tif", "bilevel_mh_strips.tif",
                     "rgb8_lzw_bigtiff.tif", "float32rgb_lzw_fpred_strips_r7_contig_little.tif",
                     "float16gray_deflate_fpred_tiles16_contig_little.tif"] {
            if let bytes = try? ImageFiles.read(root + name) { files.append(bytes) }
        }
        return files
    }

    @Test func flippedBytesNeverCrash() {
        var random = Random(state: 0x9E37_79B9_7F4A_7C15)
        var limits = DecodeLimits()
        limits.maxAllocationBytes = 64 << 20
        limits.maxPixels = 1 << 22
        let options = DecodeOptions(limits: limits)
        var decoded = 0, refused = 0
        for original in Self.samples() {
            for _ in 0..<300 {
                var bytes = original
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    let index = Int(random.next() % UInt64(bytes.count))
                    bytes[index] = UInt8(truncatingIfNeeded: random.next())
                }
                if (try? decodeTIFF(bytes, options: options)) != nil { decoded += 1 } else { refused += 1 }
                _ = try? TIFFSampleReader.decode(bytes, page: 0, limits: limits)   // the samples layer too
            }
        }
        #expect(decoded + refused >= 300)
    }

    @Test func everyTruncationOfRealFilesReturns() {
        for original in Self.samples() {
            var length = 0
            while length < original.count {
                let prefix = Array(original.prefix(length))
                if let (bitmaps, decoder) = try? decodeTIFF(prefix) {
                    // An image from a truncated file is reported as such (or it needed no more).
                    #expect(bitmaps.isEmpty || decoder.truncation != nil || !decoder.warnings.isEmpty || length >= original.count - 4)
                }
                length += max(1, original.count / 97)
            }
        }
    }
}
