import Testing
@testable import PureImage

/// The resampler's 16-bit pair kernels (ResampleKernels.swift) against the plain Int64
/// definition (`DownscaleTests.resampledWhole`), and the bounds their exactness rests on.
@Suite struct ResampleKernelTests {
    /// Premultiplied RGBA8 that drives the filter's sums to their extremes: stripes of 0 and
    /// 255 (the negative lobes then overshoot most), random pixels and transparent runs.
    static func hostileImage(width: Int, height: Int, seed: UInt32) -> Bitmap {
        var state = seed
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let i = (y * width + x) * 4
                switch (y / 7 + x / 5) % 3 {
                case 0:
                    // Stripes one pixel wide, opaque.
                    let v: UInt8 = (x + y) % 2 == 0 ? 255 : 0
                    bytes[i] = v; bytes[i + 1] = v; bytes[i + 2] = v; bytes[i + 3] = 255
                case 1:
                    let a = UInt8(state >> 24)
                    bytes[i + 3] = a
                    for c in 0..<3 { bytes[i + c] = UInt8((UInt32(state >> (8 * UInt32(c))) & 0xFF) * UInt32(a) / 255) }
                default:
                    bytes[i + 3] = y % 3 == 0 ? 0 : 255
                    for c in 0..<3 { bytes[i + c] = bytes[i + 3] == 0 ? 0 : UInt8(truncatingIfNeeded: state >> 13) }
                }
            }
        }
        return Bitmap(uncheckedWidth: width, height: height, format: .rgba8Premultiplied, bytesPerRow: width * 4, bytes: bytes)
    }

    /// Sizes with odd and even widths and tap counts, reductions from none (identity horizontal
    /// pass) up to just below the box threshold, and destinations of one pixel.
    static let geometries: [(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int)] = [
        (97, 61, 40, 25), (120, 80, 120, 33), (101, 99, 41, 40), (300, 40, 121, 17), (64, 300, 9, 19),
        (255, 255, 1, 1), (33, 17, 32, 16), (500, 30, 33, 29), (17, 500, 3, 250), (640, 37, 641 / 2, 3),
    ]

    @Test(arguments: geometries.indices)
    func resamplerEqualsTheDefinition(index: Int) throws {
        let g = Self.geometries[index]
        let image = Self.hostileImage(width: g.sourceWidth, height: g.sourceHeight, seed: UInt32(index + 1))
        let like = Bitmap(uncheckedWidth: g.width, height: g.height, format: .rgba8Premultiplied, bytesPerRow: g.width * 4, bytes: [])
        let expected = DownscaleTests.resampledWhole(image, like: like)
        // Rows handed over one at a time and all at once: the same bytes.
        for rowsPerCall in [1, g.sourceHeight] {
            let resampler = try StreamingResampler(sourceWidth: g.sourceWidth, sourceHeight: g.sourceHeight,
                                                   destinationWidth: g.width, destinationHeight: g.height)
            image.bytes.withUnsafeBufferPointer { all in
                var y = 0
                while y < g.sourceHeight {
                    let count = min(rowsPerCall, g.sourceHeight - y)
                    resampler.consume(rows: UnsafeBufferPointer(rebasing: all[y * g.sourceWidth * 4 ..< (y + count) * g.sourceWidth * 4]), count: count)
                    y += count
                }
            }
            #expect(resampler.isComplete)
            let result = resampler.takeBitmap()
            #expect(result.bytes.count == expected.count)
            let differing = zip(result.bytes, expected).filter { $0 != $1 }.count
            #expect(differing == 0, "\(g), \(rowsPerCall) rows per call")
        }
    }

    /// Each layout the vertical pass writes is exactly the premultiplied result converted to it.
    @Test(arguments: [ResampledLayout.bgraPremultiplied, .bgrx, .rgbaStraight])
    func layoutsEqualTheConvertedResult(layout: ResampledLayout) throws {
        for (index, g) in Self.geometries.enumerated() {
            let image = Self.hostileImage(width: g.sourceWidth, height: g.sourceHeight, seed: UInt32(index + 100))
            func resampled(_ layout: ResampledLayout) throws -> Bitmap {
                let resampler = try StreamingResampler(sourceWidth: g.sourceWidth, sourceHeight: g.sourceHeight,
                                                       destinationWidth: g.width, destinationHeight: g.height, layout: layout)
                image.bytes.withUnsafeBufferPointer { resampler.consume(rows: $0, count: g.sourceHeight) }
                return resampler.takeBitmap()
            }
            let premultiplied = try resampled(.rgbaPremultiplied)
            let direct = try resampled(layout)
            #expect(direct.format == layout.format)
            let converted = try premultiplied.converted(to: layout.format, bytesPerRow: g.width * 4)
            #expect(direct.bytes.count == converted.bytes.count)
            let differing = zip(direct.bytes, converted.bytes).filter { $0 != $1 }.count
            #expect(differing == 0, "\(g)")
        }
    }

    /// An opaque source through the three-value ring (alpha left out, rows expanded to the
    /// layout at the end) gives the bytes of the four-value ring, in every layout — over
    /// widths whose rows end in every possible remainder of values, through the box stages, and
    /// cut short (the missing rows transparent).
    @Test(arguments: [ResampledLayout.rgbaPremultiplied, .bgraPremultiplied, .bgrx, .rgbaStraight])
    func opaqueRingEqualsTheFourValueRing(layout: ResampledLayout) throws {
        // Plus reductions beyond the box threshold: a horizontal box, an identity horizontal
        // pass into a vertical box, and both.
        let geometries = Self.geometries + (1...8).map { (sourceWidth: 53 + $0 * 7, sourceHeight: 40, width: 9 + $0, height: 13) }
            + [(sourceWidth: 700, sourceHeight: 40, width: 20, height: 13), (40, 700, 40, 20), (600, 600, 17, 19)]
        for (index, g) in geometries.enumerated() {
            var image = Self.hostileImage(width: g.sourceWidth, height: g.sourceHeight, seed: UInt32(index + 200))
            // Opaque: alpha 255 everywhere (colours are then any value, premultiplied or not).
            for i in stride(from: 3, to: image.bytes.count, by: 4) { image.bytes[i] = 255 }
            // Whole, and cut short (the rest blank, transparent: the ring takes alpha back).
            for delivered in [g.sourceHeight, g.sourceHeight * 2 / 3, 1] {
                func resampled(opaque: Bool) throws -> Bitmap {
                    let resampler = try StreamingResampler(sourceWidth: g.sourceWidth, sourceHeight: g.sourceHeight,
                                                           destinationWidth: g.width, destinationHeight: g.height, layout: layout, opaque: opaque)
                    #expect(resampler.valuesPerPixel == (opaque ? 3 : 4))
                    image.bytes.withUnsafeBufferPointer { resampler.consume(rows: $0, count: delivered) }
                    resampler.consumeBlankRows(g.sourceHeight)
                    #expect(resampler.valuesPerPixel == (opaque && delivered == g.sourceHeight ? 3 : 4))
                    return resampler.takeBitmap()
                }
                let four = try resampled(opaque: false), three = try resampled(opaque: true)
                #expect(three.bytes.count == four.bytes.count)
                let differing = zip(three.bytes, four.bytes).filter { $0 != $1 }.count
                #expect(differing == 0, "\(g), \(delivered) rows delivered")
            }
        }
    }

    /// What the 16-bit lanes rely on: every weight fits 16 bits, and one pixel's weights add up
    /// in absolute value to at most 1.6 × 2^14 (so |Σ w·p| < 2^23, and the vertical sums of
    /// 12-bit parts stay below 2^31) — over a sweep of sizes, with and without a fractional
    /// source extent.
    @Test func weightsFitTheirLanes() {
        var largestWeight: Int32 = 0
        var largestAbsoluteSum: Int32 = 0
        for source in [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597] {
            for destination in Set([1, 2, 3, source / 16 + 1, source / 7 + 1, source / 3 + 1, source / 2 + 1, source - 1, source]) where destination >= 1 && destination <= source {
                for extent in [nil, Double(source) - 0.375] as [Double?] {
                    let axis = ResampleFilter.axis(sourceSize: source, destinationSize: destination, sourceExtent: extent)
                    for i in 0..<destination {
                        var absoluteSum: Int32 = 0
                        for k in 0..<Int(axis.counts[i]) {
                            let w = axis.weights[i * axis.stride + k]
                            largestWeight = max(largestWeight, abs(w))
                            absoluteSum += abs(w)
                        }
                        largestAbsoluteSum = max(largestAbsoluteSum, absoluteSum)
                    }
                }
            }
        }
        #expect(largestWeight < 1 << 15)
        #expect(Double(largestAbsoluteSum) <= 1.6 * Double(1 << 14), "largest Σ|w| = \(largestAbsoluteSum)")
    }

    /// The vertical kernel — 16-bit pair products of the split values, rounded in 32 bits —
    /// equals the 64-bit definition `clamp((Σ w · (high · 2^12 + low) + 2^27) >> 28)` on random
    /// taps, weights and values, including sums that land exactly on a rounding boundary.
    /// Three pixels: the two-pixel vector loop and the one-pixel tail; as bytes, a block of
    /// eight and a tail of one to four values.
    @Test func verticalKernelEqualsTheDefinition() {
        var state: UInt64 = 99
        func next(_ range: ClosedRange<Int>) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Int((state >> 33) % UInt64(range.count))
        }
        let width = 12
        for trial in 0..<20_000 {
            let taps = next(1...12)
            let weights = (0..<taps).map { _ in Int32(next(-4000...20000)) }
            var high = (0..<taps).map { _ in (0..<width).map { _ in Int16(next(-2048...2047)) } }
            let low = (0..<taps).map { _ in (0..<width).map { _ in Int16(next(0...4095)) } }
            if trial % 4 == 0 {
                // One tap of 2^14 and a value of exactly (2k + 1) · 2^13: the sum is a half.
                high[0] = (0..<width).map { _ in Int16(2 * next(0...200) + 1) * 2 }
            }
            let soloWeights = trial % 4 == 0 ? [Int32(1 << 14)] + Array(repeating: 0, count: taps - 1) : weights
            let pairCount = (taps + 1) / 2
            // Every value rounded and clamped (the `.bytes` target), then as pixels with colours
            // at most alpha (the `.pixels` target).
            let levels: [Int64] = (0..<width).map { i in
                var sum: Int64 = 0
                for k in 0..<taps {
                    let value = Int64(high[k][i]) * 4096 + Int64(trial % 4 == 0 && k == 0 ? 0 : low[k][i])
                    sum += Int64(soloWeights[k]) * value
                }
                return min(255, max(0, (sum + (1 << 27)) >> 28))
            }
            var expected = [UInt8](repeating: 0, count: width)
            for pixel in 0 ..< width / 4 {
                for c in 0..<3 { expected[pixel * 4 + c] = UInt8(min(levels[pixel * 4 + 3], levels[pixel * 4 + c])) }
                expected[pixel * 4 + 3] = UInt8(levels[pixel * 4 + 3])
            }
            // As bytes: the first `byteCount` values (8 + a tail of 1 to 4).
            let byteCount = 9 + trial % 4
            let expectedBytes = levels[0 ..< byteCount].map { UInt8($0) }
            var bytes = [UInt8](repeating: 0, count: byteCount)
            let lows = trial % 4 == 0 ? [[Int16](repeating: 0, count: width)] + low.dropFirst() : low
            var result = [UInt8](repeating: 0, count: width)
            let highRows = high.map { row in UnsafeMutablePointer<Int16>.allocate(capacity: width).initialized(from: row) }
            let lowRows = lows.map { row in UnsafeMutablePointer<Int16>.allocate(capacity: width).initialized(from: row) }
            defer { (highRows + lowRows).forEach { $0.deallocate() } }
            // Padded to an even number of taps with the last row at weight 0, as the resampler does.
            let padded = (0 ..< pairCount * 2).map { min($0, taps - 1) }
            let pairs = (0..<pairCount).map { k in ResampleKernels.weightPair(soloWeights[2 * k], 2 * k + 1 < taps ? soloWeights[2 * k + 1] : 0) }
            let highPointers = padded.map { UnsafePointer(highRows[$0]) }, lowPointers = padded.map { UnsafePointer(lowRows[$0]) }
            highPointers.withUnsafeBufferPointer { h in
                lowPointers.withUnsafeBufferPointer { l in
                    pairs.withUnsafeBufferPointer { w in
                        result.withUnsafeMutableBufferPointer { out in
                            ResampleKernels.vertical(high: h, low: l, weightPairs: w, width: width, into: .pixels(.rgbaPremultiplied, out.baseAddress!))
                        }
                        bytes.withUnsafeMutableBufferPointer { out in
                            ResampleKernels.vertical(high: h, low: l, weightPairs: w, width: byteCount, into: .bytes(out.baseAddress!))
                        }
                    }
                }
            }
            #expect(result == expected, "trial \(trial)")
            #expect(bytes == expectedBytes, "trial \(trial)")
            if result != expected || bytes != expectedBytes { break }
        }
    }
}

private extension UnsafeMutablePointer where Pointee == Int16 {
    func initialized(from values: [Int16]) -> Self {
        initialize(from: values, count: values.count)
        return self
    }
}
