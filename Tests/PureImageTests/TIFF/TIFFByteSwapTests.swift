import Testing
@testable import PureImage

/// `TIFFDecompressor.reverseWideSamples` (through `TIFFByteSwapKernels`) against a plain
/// reference: every wide depth, buffers that end inside a sample, and prefixes that end inside
/// a sample, past the end and at zero. Depths without a byte order are left alone.
@Suite struct TIFFByteSwapTests {
    /// Reverses each whole `size`-byte sample among the first `count` bytes.
    static func reference(_ bytes: [UInt8], size: Int, count: Int) -> [UInt8] {
        var out = bytes
        var start = 0
        while start + size <= count {
            out.replaceSubrange(start ..< start + size, with: bytes[start ..< start + size].reversed())
            start += size
        }
        return out
    }

    @Test(arguments: [16, 24, 32, 64])
    func wideSamplesAreReversedUpToTheRoundedPrefix(bitsPerSample: Int) {
        let size = bitsPerSample / 8
        var generator = JPEGIDCTLaneTests.SplitMix64(seed: UInt64(bitsPerSample))
        for length in 0...70 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            for prefix in [0, 1, size - 1, size, size + 1, length / 2, length, length + 5, Int.max] {
                var swapped = bytes
                TIFFDecompressor.reverseWideSamples(&swapped, bitsPerSample: bitsPerSample, prefix: prefix)
                // The prefix rounded up to a whole sample, never past the buffer's last whole one.
                let rounded = prefix >= length ? length : min(length, (prefix + size - 1) / size * size)
                #expect(swapped == Self.reference(bytes, size: size, count: rounded), "\(length) bytes, prefix \(prefix)")
            }
        }
    }

    @Test(arguments: [1, 2, 4, 8, 12])
    func otherDepthsAreLeftAlone(bitsPerSample: Int) {
        let bytes = (0..<40).map { UInt8($0) }
        var swapped = bytes
        TIFFDecompressor.reverseWideSamples(&swapped, bitsPerSample: bitsPerSample)
        #expect(swapped == bytes)
    }
}
