import Testing
@testable import PureImage

@Suite struct PNGFilterTests {
    /// PNG §9.2, forward direction, written independently of the decoder's kernels.
    static func filter(_ type: UInt8, row: [UInt8], previous: [UInt8], bpp: Int) -> [UInt8] {
        func a(_ i: Int) -> Int { i >= bpp ? Int(row[i - bpp]) : 0 }
        func b(_ i: Int) -> Int { previous.isEmpty ? 0 : Int(previous[i]) }
        func c(_ i: Int) -> Int { i >= bpp && !previous.isEmpty ? Int(previous[i - bpp]) : 0 }
        return row.indices.map { i in
            let x = Int(row[i])
            let predicted: Int
            switch type {
            case 1: predicted = a(i)
            case 2: predicted = b(i)
            case 3: predicted = (a(i) + b(i)) / 2
            case 4:
                let p = a(i) + b(i) - c(i)
                let pa = abs(p - a(i)), pb = abs(p - b(i)), pc = abs(p - c(i))
                predicted = pa <= pb && pa <= pc ? a(i) : (pb <= pc ? b(i) : c(i))
            default: predicted = 0
            }
            return UInt8((x - predicted) & 0xFF)
        }
    }

    /// Property: unfilter(filter(row)) == row for every type, every bpp, with and without a
    /// row above, over seeded random rows.
    @Test(arguments: [1, 2, 3, 4, 6, 8])
    func unfilterInvertsFilter(bpp: Int) {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(bpp)
        func next() -> UInt8 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: seed >> 33)
        }
        for length in [bpp, bpp * 3, bpp * 17 + (bpp > 1 ? 0 : 5)] {
            let previous = (0..<length).map { _ in next() }
            let row = (0..<length).map { _ in next() }
            for type: UInt8 in 0...4 {
                for above in [previous, []] {
                    var filtered = Self.filter(type, row: row, previous: above, bpp: bpp)
                    let ok = filtered.withUnsafeMutableBufferPointer { buffer in
                        above.withUnsafeBufferPointer { PNGUnfilter.unfilter(type: type, row: buffer, previous: $0, bpp: bpp) }
                    }
                    #expect(ok)
                    #expect(filtered == row, "type \(type) bpp \(bpp) length \(length) above \(!above.isEmpty)")
                }
            }
        }
    }

    /// §9.4 worked by hand: a = 10, b = 20, c = 15 → p = 15, pa = 5, pb = 5, pc = 0 → c.
    /// a = 10, b = 12, c = 11 → p = 11, pa = 1, pb = 1, pc = 0 → c; ties prefer a, then b.
    @Test func paethPredictorByHand() {
        #expect(PNGUnfilter.paethPredictor(10, 20, 15) == 15)
        #expect(PNGUnfilter.paethPredictor(10, 20, 10) == 20)   // p = 20: pb = 0
        #expect(PNGUnfilter.paethPredictor(20, 10, 10) == 20)   // p = 20: pa = 0
        #expect(PNGUnfilter.paethPredictor(5, 5, 5) == 5)       // all tie → a
        #expect(PNGUnfilter.paethPredictor(0, 255, 0) == 255)   // p = 255: pb = 0
        #expect(PNGUnfilter.paethPredictor(100, 0, 50) == 50)   // p = 50: pa = 50, pb = 50, pc = 0 → c
    }

    @Test func unknownFilterTypeIsRefused() {
        var row: [UInt8] = [1, 2, 3]
        let ok = row.withUnsafeMutableBufferPointer { PNGUnfilter.unfilter(type: 5, row: $0, previous: UnsafeBufferPointer(start: nil, count: 0), bpp: 1) }
        #expect(!ok)
    }

    /// §8.2 pass geometry for sizes that leave passes empty.
    @Test func adam7PassGeometry() {
        let sizes = { (w: Int, h: Int) in PNGPass.passes(width: w, height: h, interlaced: true).map { [$0.width, $0.height] } }
        #expect(sizes(1, 1) == [[1, 1], [0, 1], [1, 0], [0, 1], [1, 0], [0, 1], [1, 0]])
        #expect(sizes(8, 8) == [[1, 1], [1, 1], [2, 1], [2, 2], [4, 2], [4, 4], [8, 4]])
        #expect(sizes(5, 3) == [[1, 1], [1, 1], [2, 0], [1, 1], [3, 1], [2, 2], [5, 1]])
        // Every pixel is covered exactly once.
        for (w, h) in [(1, 1), (3, 7), (8, 8), (9, 17), (33, 2)] {
            var hits = [Int](repeating: 0, count: w * h)
            for pass in PNGPass.passes(width: w, height: h, interlaced: true) {
                for row in 0..<pass.height { for column in 0..<pass.width {
                    hits[(pass.yStart + row * pass.yStep) * w + pass.xStart + column * pass.xStep] += 1
                } }
            }
            #expect(hits.allSatisfy { $0 == 1 }, "\(w)×\(h)")
        }
    }
}
