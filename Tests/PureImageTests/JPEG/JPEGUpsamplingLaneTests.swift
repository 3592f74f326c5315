import Testing
@testable import PureImage

/// `UpsamplingLaneKernels.h2v2Fancy` (eight columns a step, the last step overlapping) against
/// the scalar `UpsamplingKernels.h2v2Fancy`, byte for byte: rows of every width from 3 to 300 (the scalar path below
/// ten, then every overlap of the last step), random, extreme and alternating samples, and
/// nothing written past the row's 2 × width outputs.
@Suite struct JPEGUpsamplingLaneTests {
    static func rows(width: Int, pattern: Int, _ generator: inout JPEGIDCTLaneTests.SplitMix64) -> [UInt8] {
        (0..<width).map { i -> UInt8 in
            switch pattern {
            case 0: return 0
            case 1: return 255
            case 2: return i & 1 == 0 ? 0 : 255
            default: return UInt8(truncatingIfNeeded: generator.next())
            }
        }
    }

    @Test func h2v2MatchesTheScalarKernel() {
        var generator = JPEGIDCTLaneTests.SplitMix64(seed: 0x2_2F4A)
        var failures: [String] = []
        for width in 3...300 {
            for pattern in 0..<6 {
                // The far row: another pattern, so that near and far differ.
                let near = Self.rows(width: width, pattern: pattern, &generator)
                let far = Self.rows(width: width, pattern: (pattern + 3) % 6, &generator)
                var expected = [UInt8](repeating: 0xA5, count: 2 * width + 16), actual = expected
                var sums = [UInt16](repeating: 0, count: width)
                near.withUnsafeBufferPointer { near in
                far.withUnsafeBufferPointer { far in
                sums.withUnsafeMutableBufferPointer { sums in
                    expected.withUnsafeMutableBufferPointer {
                        UpsamplingKernels.h2v2Fancy(near: near.baseAddress!, far: far.baseAddress!, width: width, sums: sums.baseAddress!, $0.baseAddress!)
                    }
                    actual.withUnsafeMutableBufferPointer {
                        UpsamplingLaneKernels.h2v2Fancy(near: near.baseAddress!, far: far.baseAddress!, width: width, sums: sums.baseAddress!, $0.baseAddress!)
                    }
                }
                }
                }
                if actual != expected { failures.append("width \(width) pattern \(pattern)") }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) rows differ, first \(failures.prefix(8))")
    }
}
