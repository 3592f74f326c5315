import Testing
@testable import PureImage

/// Corrupted and truncated TIFFs: every decode returns (an image, a partial image or a typed
/// error), without crashing, hanging or allocating beyond the limits. The samples are a
/// hand-built file and four generated ones (strips and tiles, LZW, Deflate with predictor,
/// PackBits, planar, both byte orders).
@Suite(.enabled(if: GeneratedCorpus.isAvailable, "Conformance/generated is absent"))
struct TIFFRobustnessTests {
    /// A deterministic xorshift generator, so failures reproduce.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
    }

    static func samples() throws -> [[UInt8]] {
        var files: [[UInt8]] = [TIFFBuilder.gray8(.big, width: 5, height: 4, pixels: Array(0..<20)).build()]
        for name in ["rgb8_lzw_tiles16_contig_little.tif", "rgba_unassoc16_deflate_pred2_strips_r7_separate_big.tif",
                     "palette4_packbits_strips_r7_contig_big.tif", "gray16_lzw_tiles16_contig_little.tif",
                     "bilevel_g4_strips_r7_contig_little.tif", "bilevel_g3_2d_tiles16_contig_big.tif", "bilevel_mh_strips.tif",
                     "rgb8_lzw_bigtiff.tif", "float32rgb_lzw_fpred_strips_r7_contig_little.tif",
                     "float16gray_deflate_fpred_tiles16_contig_little.tif", "rgba_unassoc8_webp_lossy_tiles16.tif",
                     "rgb8_webp_lossless_tiles16.tif", "pixarlog_gray8.tif", "pixarlog_rgb16_big.tif"] {
            files.append(try GeneratedCorpus.read("tiff/" + name))
        }
        // IFD first, then strips (the generated files put the IFD last, as libtiff writes):
        // prefixes that cut the image data decode as truncated.
        files.append(IncrementalTIFFTests.ifdFirstTIFF(width: 37, height: 29, samples: 3, rowsPerStrip: 4, seed: 3).file)
        return files
    }

    @Test(TestTime.limit(minutes: 2))
    func flippedBytesNeverCrash() throws {
        var random = Random(state: 0x9E37_79B9_7F4A_7C15)
        var limits = DecodeLimits()
        limits.maxMemoryBytes = 64 << 20
        limits.maxPixels = 1 << 22
        let options = DecodeOptions(limits: limits)
        var decoded = 0, refused = 0
        let samples = try Self.samples()
        for original in samples {
            for _ in 0..<300 {
                var bytes = original
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    let index = Int(random.next() % UInt64(bytes.count))
                    bytes[index] = UInt8(truncatingIfNeeded: random.next())
                }
                do {
                    let (bitmaps, decoder) = try decodeTIFF(bytes, options: options)
                    decoded += 1
                    // Whatever decodes has its page, at the size the IFD declares.
                    if let page = bitmaps.first, let properties = decoder.properties {
                        #expect(page.width == properties.width && page.height == properties.height)
                    }
                } catch {
                    refused += 1
                    #expect(error.kind != .malformed || error.offset != nil, "\(error)")
                }
                _ = try? TIFFSampleReader.decode(bytes, page: 0, limits: limits)   // the samples layer too
            }
        }
        #expect(decoded + refused == samples.count * 300)
        // Flipped bytes reach both outcomes, or the test exercises one path only.
        #expect(decoded > 100 && refused > 100, "\(decoded) decoded, \(refused) refused")
    }

    /// Every prefix of each sample either fails, or decodes with `truncation` set, or — when the
    /// bytes it lacks are not image data — decodes to exactly the whole file's pixels.
    @Test(TestTime.limit(minutes: 2))
    func everyTruncationIsReportedOrComplete() throws {
        var truncated = 0, complete = 0, failed = 0
        for original in try Self.samples() {
            let whole = try decodeTIFF(original).bitmaps.first.map { $0.tightBytes }
            var length = 0
            while length < original.count {
                let prefix = Array(original.prefix(length))
                if let (bitmaps, decoder) = try? decodeTIFF(prefix) {
                    if decoder.truncation != nil {
                        truncated += 1
                    } else {
                        complete += 1
                        #expect(bitmaps.first.map { $0.tightBytes } == whole, "a prefix of \(length) of \(original.count) bytes decoded without truncation to other pixels")
                    }
                } else {
                    failed += 1
                }
                length += max(1, original.count / 97)
            }
        }
        #expect(truncated > 0 && failed > 0, "\(truncated) truncated, \(complete) complete, \(failed) failed")
    }
}
