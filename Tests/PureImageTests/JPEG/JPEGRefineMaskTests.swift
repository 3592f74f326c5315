import Testing
@testable import PureImage

/// The masks the AC refinement walk runs on (`RefineMask`), against the definitions they
/// replace: a coefficient-by-coefficient read through the zigzag table, and shifts.
@Suite struct JPEGRefineMaskTests {
    /// The mask as jdphuff.c's walk reads it: bit k when the coefficient at zigzag index k ≠ 0.
    static func slowNonZero(_ block: [Int16]) -> UInt64 {
        var mask: UInt64 = 0
        for k in 0..<64 where block[JPEGZigZag.natural[k]] != 0 { mask |= 1 << UInt64(k) }
        return mask
    }

    static func mask(_ block: [Int16]) -> UInt64 {
        block.withUnsafeBufferPointer { RefineMask.nonZero($0.baseAddress!) }
    }

    @Test func everySinglePositionMapsToItsZigzagIndex() {
        for position in 0..<64 {
            for value: Int16 in [1, -1, .min, .max, 256] {
                var block = [Int16](repeating: 0, count: 64)
                block[position] = value
                let k = JPEGZigZag.natural.firstIndex(of: position)!
                #expect(Self.mask(block) == 1 << UInt64(k), "position \(position), value \(value)")
            }
        }
        #expect(Self.mask([Int16](repeating: 0, count: 64)) == 0)
        #expect(Self.mask([Int16](repeating: -32768, count: 64)) == .max)
    }

    @Test func randomBlocksOfEveryDensityMatchTheWalk() {
        var random = JPEGIDCTLaneTests.SplitMix64(seed: 0x5EF1_4E_4A5C)
        for trial in 0..<200_000 {
            // Density from empty to full; values from ±1 to the whole Int16 range.
            let density = Int(random.next() % 65)
            var block = [Int16](repeating: 0, count: 64)
            for _ in 0..<density {
                let position = Int(random.next() % 64)
                let draw = random.next()
                block[position] = trial % 3 == 0 ? Int16(truncatingIfNeeded: draw) : (draw & 1 == 0 ? 1 : -1)
            }
            let expected = Self.slowNonZero(block)
            let got = Self.mask(block)
            if got != expected {
                Issue.record("trial \(trial): mask \(String(got, radix: 16)) expected \(String(expected, radix: 16)) for \(block)")
                return
            }
        }
    }

    @Test func indexRangesMatchTheirDefinition() {
        for first in 0..<64 {
            for last in 0..<64 {
                var expected: UInt64 = 0
                if first <= last { for k in first...last { expected |= 1 << UInt64(k) } }
                #expect(RefineMask.indices(from: first, through: last) == expected, "\(first)...\(last)")
            }
            for stop in 0...64 {
                var expected: UInt64 = 0
                if first < stop { for k in first..<stop { expected |= 1 << UInt64(k) } }
                #expect(RefineMask.indices(from: first, below: stop) == expected, "\(first)..<\(stop)")
            }
        }
    }

    /// The broadword select against clearing the lowest set bit `rank` times: every rank
    /// (past 64 too) of words of every density, and of every single bit and its complement.
    @Test func indexOfSetBitMatchesClearingBitByBit() {
        func slow(_ x: UInt64, _ rank: Int) -> Int {
            var rest = x
            for _ in 0..<rank where rest != 0 { rest &= rest - 1 }
            return rest == 0 ? 64 : rest.trailingZeroBitCount
        }
        var words: [UInt64] = [0, .max, 0x8000_0000_0000_0000, 0x8080_8080_8080_8080, 0x00FF_00FF_00FF_00FF]
        for bit in 0..<64 { words += [1 << UInt64(bit), ~(1 << UInt64(bit))] }
        var random = JPEGIDCTLaneTests.SplitMix64(seed: 0x5E1E_C7)
        for trial in 0..<20_000 {
            // Sparse to dense: AND or OR of up to three draws.
            let draws = (random.next(), random.next(), random.next())
            switch trial % 5 {
            case 0: words.append(draws.0 & draws.1 & draws.2)
            case 1: words.append(draws.0 & draws.1)
            case 2: words.append(draws.0)
            case 3: words.append(draws.0 | draws.1)
            default: words.append(draws.0 | draws.1 | draws.2)
            }
        }
        var failures = 0
        for x in words {
            for rank in 0...70 where RefineMask.indexOfSetBit(x, rank: rank) != slow(x, rank) {
                failures += 1
                if failures <= 5 {
                    Issue.record("x \(String(x, radix: 16)), rank \(rank): \(RefineMask.indexOfSetBit(x, rank: rank)), expected \(slow(x, rank))")
                }
            }
        }
        #expect(failures == 0)
    }

    /// jdphuff.c's correction, written out: a set bit adds 2^Al to the magnitude unless it is
    /// there already; the Int16 wraps as JCOEF arithmetic does on corrupt input.
    @Test func correctionsMatchTheBranchyForm() {
        let natural = JPEGZigZag.naturalPointer
        for al in 0...15 {
            let p1 = Int16(truncatingIfNeeded: 1 << al), m1 = Int16(truncatingIfNeeded: -1 << al)
            for value: Int16 in [1, -1, 2, -2, 3, -3, 255, -256, .max, .min, p1, m1, p1 | 1] where value != 0 {
                for bit in 0...1 {
                    var block = [Int16](repeating: 0, count: 64)
                    block[Int(natural[5])] = value
                    block.withUnsafeMutableBufferPointer { RefineMask.correct($0.baseAddress!, natural, at: 5, bit: bit, p1: p1, m1: m1) }
                    let expected = bit != 0 && value & p1 == 0 ? (value >= 0 ? value &+ p1 : value &+ m1) : value
                    #expect(block[Int(natural[5])] == expected, "Al \(al), value \(value), bit \(bit)")
                }
            }
        }
    }
}
