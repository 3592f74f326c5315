import Testing
@testable import PureImage

/// The lane-parallel islow IDCT against the scalar reference kernel, bit for bit: random
/// blocks of every density and magnitude the entropy decoder can produce (any Int16, as a
/// damaged file can give), every quantizer range (Int16-narrowed multipliers, negative ones
/// included), and the blocks that take each shortcut.
@Suite struct JPEGIDCTLaneTests {
    /// SplitMix64 (Steele, Lea and Flood 2014): deterministic, so a failure replays.
    struct SplitMix64 {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    final class Harness {
        let workspace = UnsafeMutablePointer<Int32>.allocate(capacity: 128)
        var scalar = [UInt8](repeating: 0, count: 8 * 11)
        var lanes = [UInt8](repeating: 0, count: 8 * 11)
        deinit { workspace.deallocate() }

        /// Runs both kernels at a stride of 11 (not a multiple of the block) and compares the
        /// whole buffers, so a store outside the 8×8 block would show too.
        func agree(_ block: [Int16], _ quant: [Int32]) -> Bool {
            scalar = [UInt8](repeating: 0x5A, count: 8 * 11)
            lanes = scalar
            let narrowed = quant.map { Int16(truncatingIfNeeded: $0) }
            block.withUnsafeBufferPointer { c in
                quant.withUnsafeBufferPointer { q in
                narrowed.withUnsafeBytes { q16 in
                    IDCTKernels.rangeLimit.withUnsafeBufferPointer { r in
                        guard let c = c.baseAddress, let q = q.baseAddress, let r = r.baseAddress else { return }
                        scalar.withUnsafeMutableBufferPointer { o in
                            if let o = o.baseAddress { IDCTKernels.islow(c, q, o, stride: 11, workspace: workspace, range: r) }
                        }
                        lanes.withUnsafeMutableBufferPointer { o in
                            if let o = o.baseAddress, let q16 = q16.baseAddress {
                                IDCTLaneKernels.islow(c, q16, o, stride: 11, workspace: workspace, range: r)
                            }
                        }
                    }
                }
                }
            }
            return scalar == lanes
        }
    }

    /// A coefficient drawn from one of the ranges that matter: the small values of real files,
    /// the 11-bit AC / 12-bit DC range of valid 8-bit data, and anything a corrupt file can give.
    static func coefficient(_ generator: inout SplitMix64, magnitude: Int) -> Int16 {
        switch magnitude {
        case 0: return Int16(truncatingIfNeeded: Int(generator.next() % 33) - 16)
        case 1: return Int16(truncatingIfNeeded: Int(generator.next() % 4095) - 2047)
        default: return Int16(truncatingIfNeeded: generator.next())
        }
    }

    static func quantizer(_ generator: inout SplitMix64, kind: Int) -> [Int32] {
        (0..<64).map { _ in
            switch kind {
            case 0: return Int32(1 + generator.next() % 16)
            case 1: return Int32(1 + generator.next() % 255)
            default: return Int32(Int16(truncatingIfNeeded: generator.next()))   // 16-bit DQT, narrowed
            }
        }
    }

    @Test(TestTime.limit(minutes: 2)) func randomBlocksMatchTheScalarKernel() {
        let harness = Harness()
        var generator = SplitMix64(seed: 0x1DC7)
        var mismatches = 0
        for trial in 0..<1_000_000 {
            let quant = Self.quantizer(&generator, kind: trial % 3)
            // Density: DC only, a few low-frequency terms, row 0 only, column 0 only, dense.
            let density = trial % 5
            var block = [Int16](repeating: 0, count: 64)
            for k in 0..<64 {
                let used: Bool
                switch density {
                case 0: used = k == 0
                case 1: used = k < 20 && generator.next() % 3 == 0
                case 2: used = k < 8
                case 3: used = k % 8 == 0
                default: used = generator.next() % 2 == 0
                }
                if used { block[k] = Self.coefficient(&generator, magnitude: Int(generator.next() % 3)) }
            }
            if !harness.agree(block, quant) {
                mismatches += 1
                if mismatches <= 3 { Issue.record("block \(block) quant \(quant): scalar \(harness.scalar) lanes \(harness.lanes)") }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func extremeBlocksMatchTheScalarKernel() {
        let harness = Harness()
        let extremes: [Int16] = [0, 1, -1, 1023, -1024, 2047, -2048, 16383, -16384, .max, .min]
        let quants: [Int32] = [1, 2, 255, 32767, -32768, -1]
        for value in extremes {
            for q in quants {
                let quant = [Int32](repeating: q, count: 64)
                // Every coefficient at the value; DC alone; each single position; alternating signs.
                #expect(harness.agree([Int16](repeating: value, count: 64), quant))
                #expect(harness.agree([value] + [Int16](repeating: 0, count: 63), quant))
                for k in 0..<64 {
                    var block = [Int16](repeating: 0, count: 64)
                    block[k] = value
                    #expect(harness.agree(block, quant), "k \(k) value \(value) q \(q)")
                }
                let alternating = (0..<64).map { $0 & 1 == 0 ? value : Int16(truncatingIfNeeded: -Int(value)) }
                #expect(harness.agree(alternating, quant))
            }
        }
    }
}
