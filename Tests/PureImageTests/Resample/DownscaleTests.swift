import Testing
@testable import PureImage

@Suite struct DownscaleTests {
    /// Numbers worked from SDWebImage's formulas (see `DownscalePlan`), e.g. for 12000 × 8000 at
    /// the default limit: 62 914 560 bytes → 15 728 640 destination pixels, tiles of 5 242 880;
    /// scale = sqrt(15728640 / 96000000) = 0.404771…; 4857 × 3238; bands of
    /// floor(5242880 / 12000) = 436 rows, ceil(8000 / 436) = 19 bands; seam floor(2 / 3238 × 8000) = 4.
    static let cases: [(w: Int, h: Int, limit: Int, scales: Bool, dw: Int, dh: Int, band: Int, seam: Int, bands: Int)] = [
        (12000, 8000, 0, true, 4857, 3238, 436, 4, 19),
        (8000, 8000, 0, true, 3965, 3965, 655, 4, 13),
        (3000, 2000, 4_000_000, true, 1224, 816, 111, 4, 19),
        (4097, 3840, 0, true, 4096, 3839, 1279, 2, 4),          // just above the threshold
        (4096, 3840, 0, false, 4096, 3840, 1280, 0, 3),         // exactly 15 728 640 pixels: fits
        (4000, 3000, 0, false, 4000, 3000, 1310, 0, 3),
        (100, 100, 4, true, 1, 1, 1, 200, 100),                 // tiny limit: one destination pixel
        (100, 100, 1, true, 1, 1, 1, 200, 100),                 // below 4 bytes: raised to 4
        (200_000, 200, 0, true, 125_413, 125, 26, 3, 8),        // very wide
        (200, 200_000, 0, true, 125, 125_413, 26_214, 3, 8),    // very tall
        (1, 1, 0, false, 1, 1, 5_242_880, 0, 1),
    ]

    @Test(arguments: cases.indices)
    func planMatchesSDWebImage(_ index: Int) {
        let c = Self.cases[index]
        let plan = DownscalePlan(sourceWidth: c.w, sourceHeight: c.h, limitBytes: c.limit)
        #expect(plan.scalesDown == c.scales)
        #expect(plan.destinationWidth == c.dw && plan.destinationHeight == c.dh, "\(c.w)×\(c.h): \(plan.destinationWidth)×\(plan.destinationHeight)")
        #expect(plan.bandRows == c.band)
        #expect(plan.seamOverlapRows == c.seam)
        #expect(plan.bandCount == c.bands)
        if c.limit == 0 {
            #expect(plan.destinationTotalPixels == 15_728_640 && plan.tileTotalPixels == 5_242_880)
        }
    }

    /// A header may claim any side (a fuzzed classic TIFF gave 32 × (2^63 − 1)); the plan is
    /// made before any limit is checked, so its arithmetic must hold for every Int.
    @Test(arguments: [(32, Int.max), (Int.max, 32), (Int.max, Int.max), (1, Int.max), (Int.max, 1), (0, Int.max), (Int.max, 0)])
    func planOfExtremeSidesDoesNotOverflow(_ sides: (Int, Int)) {
        let plan = DownscalePlan(sourceWidth: sides.0, sourceHeight: sides.1, limitBytes: 1 << 14)
        #expect(plan.scalesDown == (sides.0 > 0 && sides.1 > 0))
        if plan.scalesDown {
            #expect(plan.destinationWidth >= 1 && plan.destinationHeight >= 1)
            #expect(Double(plan.destinationWidth) * Double(plan.destinationHeight) <= plan.destinationTotalPixels)
            // Bands cover the source: (bandCount − 1) × bandRows < height ≤ bandCount × bandRows.
            #expect(plan.bandCount >= 1 && (plan.bandCount - 1) <= (sides.1 - 1) / plan.bandRows)
            #expect(plan.bandCount.multipliedReportingOverflow(by: plan.bandRows).overflow
                    || plan.bandCount * plan.bandRows >= sides.1)
        }
        #expect(plan.description.contains("source:"))
        let thumbnail = ThumbnailPlan(sourceWidth: sides.0, sourceHeight: sides.1, maxPixelSize: 256)
        #expect(max(thumbnail.width, thumbnail.height) <= max(256, min(sides.0, sides.1)))
        #expect(Downscaler.jpegScaleDenominator(sourceWidth: sides.0, sourceHeight: sides.1,
                                                destinationWidth: Int.max, destinationHeight: Int.max) == 1)
    }

    @Test func thumbnailSizes() {
        #expect(ThumbnailPlan(sourceWidth: 4000, sourceHeight: 3000, maxPixelSize: 200) == ThumbnailPlan(sourceWidth: 200, sourceHeight: 150, maxPixelSize: 0))
        let tall = ThumbnailPlan(sourceWidth: 1000, sourceHeight: 3001, maxPixelSize: 300)
        #expect(tall.width == 100 && tall.height == 300)
        let small = ThumbnailPlan(sourceWidth: 50, sourceHeight: 40, maxPixelSize: 300)   // never enlarged
        #expect(small.width == 50 && small.height == 40)
        let thin = ThumbnailPlan(sourceWidth: 10_000, sourceHeight: 3, maxPixelSize: 100)
        #expect(thin.width == 100 && thin.height == 1)
        // The DCT-scaled intermediate stays at least 4× the destination on both axes.
        #expect(Downscaler.jpegScaleDenominator(sourceWidth: 12000, sourceHeight: 8000, destinationWidth: 4857, destinationHeight: 3238) == 1)
        #expect(Downscaler.jpegScaleDenominator(sourceWidth: 12000, sourceHeight: 8000, destinationWidth: 1500, destinationHeight: 1000) == 2)
        #expect(Downscaler.jpegScaleDenominator(sourceWidth: 12000, sourceHeight: 8000, destinationWidth: 1501, destinationHeight: 1000) == 1)
        #expect(Downscaler.jpegScaleDenominator(sourceWidth: 4000, sourceHeight: 3000, destinationWidth: 200, destinationHeight: 150) == 4)
        #expect(Downscaler.jpegScaleDenominator(sourceWidth: 4000, sourceHeight: 3000, destinationWidth: 125, destinationHeight: 93) == 8)
        #expect(Downscaler.jpegScaleDenominator(sourceWidth: 4001, sourceHeight: 3000, destinationWidth: 126, destinationHeight: 93) == 4)
        #expect(Downscaler.jpegScaleDenominator(sourceWidth: 100, sourceHeight: 100, destinationWidth: 99, destinationHeight: 99) == 1)
    }

    /// Weights of every destination pixel sum to exactly 2^14; an unscaled axis is the identity.
    @Test func filterWeights() {
        for (source, destination) in [(100, 37), (1000, 3), (7, 7), (5, 1), (12000, 4857)] {
            let axis = ResampleFilter.axis(sourceSize: source, destinationSize: destination)
            for i in 0..<destination {
                let sum = (0..<Int(axis.counts[i])).reduce(Int32(0)) { $0 + axis.weights[i * axis.stride + $1] }
                #expect(sum == 1 << 14)
                #expect(axis.starts[i] >= 0 && Int(axis.starts[i] + axis.counts[i]) <= source)
            }
        }
        let identity = ResampleFilter.axis(sourceSize: 7, destinationSize: 7)
        for i in 0..<7 {
            let weights = (0..<Int(identity.counts[i])).map { identity.weights[i * identity.stride + $0] }
            #expect(weights.filter { $0 != 0 } == [1 << 14])
        }
    }

    /// A flat colour stays exactly flat (no ringing at band boundaries or edges), and a
    /// horizontal ramp is reproduced without a seam: rows the bands split are no more different
    /// from their neighbours than other rows are.
    @Test func noSeamsAtBandBoundaries() throws {
        let width = 300, height = 1200
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let o = (y * width + x) * 4
                pixels[o] = UInt8(x * 255 / (width - 1)); pixels[o + 1] = UInt8((y / 7) % 256); pixels[o + 2] = 90; pixels[o + 3] = 255
            }
        }
        var builder = PNGBuilder()
        builder.header(width: width, height: height, depth: 8, colorType: 6)
        builder.imageData(PNGBuilder.scanlines((0..<height).map { Array(pixels[$0 * width * 4 ..< ($0 + 1) * width * 4]) }))
        builder.end()
        let source = try ImageSource(bytes: builder.bytes)
        let limit = 40_000   // 10 000 destination pixels, bands of 11 source rows
        let plan = try source.downscalePlan(limitBytes: limit)
        #expect(plan.scalesDown && plan.bandRows == 11 && plan.bandCount == 110)
        let small = try source.decodedAndScaledDown(limitBytes: limit, output: .format(.rgba8)).tightlyPacked()
        #expect(small.width == plan.destinationWidth && small.height == plan.destinationHeight)
        // Blue is flat 90 everywhere, alpha 255.
        for p in 0..<(small.width * small.height) {
            #expect(small.bytes[p * 4 + 2] == 90 && small.bytes[p * 4 + 3] == 255)
        }
        // Row-to-row change of the green ramp is smooth: the largest jump is bounded and equals
        // the typical jump (no seam rows).
        var jumps: [Int] = []
        for y in 1..<small.height {
            var total = 0
            for x in 0..<small.width { total += abs(Int(small.bytes[(y * small.width + x) * 4 + 1]) - Int(small.bytes[((y - 1) * small.width + x) * 4 + 1])) }
            jumps.append(total / small.width)
        }
        let sorted = jumps.sorted()
        #expect(sorted.last! <= sorted[sorted.count / 2] + 3, "jumps \(jumps)")
    }

    /// `full` (tight premultiplied RGBA8) resampled at once to the size of `result`, written
    /// out directly from the filter's tables — horizontal pass over every row, then the vertical
    /// pass per destination pixel — independently of `StreamingResampler`'s ring and kernels.
    /// (Reductions up to `StreamingResampler.boxThreshold`, where no box stage runs.)
    static func resampledWhole(_ full: Bitmap, like result: Bitmap) -> [UInt8] {
        let horizontal = ResampleFilter.axis(sourceSize: full.width, destinationSize: result.width)
        let vertical = ResampleFilter.axis(sourceSize: full.height, destinationSize: result.height)
        var filtered = [Int32](repeating: 0, count: full.height * result.width * 4)
        for y in 0..<full.height {
            for i in 0..<result.width {
                for c in 0..<4 {
                    var sum: Int32 = 0
                    for k in 0..<Int(horizontal.counts[i]) {
                        sum += horizontal.weights[i * horizontal.stride + k] * Int32(full.bytes[(y * full.width + Int(horizontal.starts[i]) + k) * 4 + c])
                    }
                    filtered[(y * result.width + i) * 4 + c] = sum
                }
            }
        }
        var out = [UInt8](repeating: 0, count: result.width * result.height * 4)
        for r in 0..<result.height {
            for x in 0..<result.width {
                var channels = [Int64](repeating: 0, count: 4)
                for c in 0..<4 {
                    for k in 0..<Int(vertical.counts[r]) {
                        channels[c] += Int64(vertical.weights[r * vertical.stride + k]) * Int64(filtered[((Int(vertical.starts[r]) + k) * result.width + x) * 4 + c])
                    }
                    channels[c] = min(255, max(0, (channels[c] + (1 << 27)) >> 28))
                }
                for c in 0..<3 { out[(r * result.width + x) * 4 + c] = UInt8(min(channels[3], channels[c])) }
                out[(r * result.width + x) * 4 + 3] = UInt8(channels[3])
            }
        }
        return out
    }

    /// The streaming path equals resampling the full decode (same filter, whole image at once).
    @Test func streamingEqualsWholeImageResampling() throws {
        let built = PNGDecoderTests.build(colorType: 6, depth: 8, width: 97, height: 61, seed: 4)
        let source = try ImageSource(bytes: built.png)
        let streamed = try source.thumbnail(maxPixelSize: 40, output: .format(.rgba8Premultiplied)).tightlyPacked()
        let full = try source.image(options: ImageDecodingOptions(output: .format(.rgba8Premultiplied))).tightlyPacked()
        #expect(Self.resampledWhole(full, like: streamed) == streamed.bytes)
        // Interlaced: the same pixels.
        let interlaced = try ImageSource(bytes: built.interlacedPNG).thumbnail(maxPixelSize: 40, output: .format(.rgba8Premultiplied)).tightlyPacked()
        #expect(interlaced.bytes == streamed.bytes)
    }

    @Test func thumbnailAppliesOrientation() throws {
        var builder = PNGBuilder()
        builder.header(width: 400, height: 100, depth: 8, colorType: 0)
        let exif: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0]   // II, orientation 6
        builder.chunk("eXIf", exif)
        builder.imageData(PNGBuilder.scanlines((0..<100).map { y in (0..<400).map { x in UInt8(x < 200 ? 0 : 255) } }))
        builder.end()
        let source = try ImageSource(bytes: builder.bytes)
        let upright = try source.thumbnail(maxPixelSize: 40, applyOrientation: true, output: .format(.rgba8)).tightlyPacked()
        #expect(upright.width == 10 && upright.height == 40)
        // Rotated 90° clockwise: the stored left half (black) becomes the top.
        #expect(upright.bytes[0] == 0 && upright.bytes[(39 * 10) * 4] == 255)
        let stored = try source.thumbnail(maxPixelSize: 40, output: .format(.rgba8))
        #expect(stored.width == 40 && stored.height == 10)
    }
}

extension DownscaleTests {
    /// TIFF streams band by band (strips of 7 rows here) into the resampler; the result equals
    /// resampling the whole decoded page.
    @Test func tiffStreamingEqualsWholeImageResampling() throws {
        let (file, _) = IncrementalTIFFTests.ifdFirstTIFF(width: 97, height: 61, samples: 3, rowsPerStrip: 7, seed: 9)
        let source = try ImageSource(bytes: file)
        let streamed = try source.thumbnail(maxPixelSize: 40, output: .format(.rgba8Premultiplied)).tightlyPacked()
        let full = try source.image(options: ImageDecodingOptions(output: .format(.rgba8Premultiplied))).tightlyPacked()
        #expect(Self.resampledWhole(full, like: streamed) == streamed.bytes)
    }

    /// A DCT-scaled JPEG intermediate of ceil(size / d) pixels is mapped by the picture's true
    /// extent (size / d): filter centroids land at (i + 0.5) · extent / destination.
    @Test func fractionalSourceExtentKeepsGeometry() {
        let extent = 2500.0 / 8   // 312.5 picture pixels in 313 samples
        let axis = ResampleFilter.axis(sourceSize: 313, destinationSize: 35, sourceExtent: extent)
        for i in 3..<32 {   // interior pixels, away from the clipped edges
            var weighted = 0.0, total = 0.0
            for k in 0..<Int(axis.counts[i]) {
                let w = Double(axis.weights[i * axis.stride + k])
                weighted += w * (Double(Int(axis.starts[i]) + k) + 0.5)
                total += w
            }
            #expect(abs(weighted / total - (Double(i) + 0.5) * extent / 35) < 0.05, "pixel \(i)")
        }
    }
}

extension DownscaleTests {
    /// The corpus's EXIF orientation samples (one portrait photo stored in orientations 1–8):
    /// with `applyOrientation` every thumbnail is upright, i.e. matches orientation 1's within
    /// JPEG noise, while a wrongly flipped one is far off.
    @Test(.enabled(if: Corpus.isAvailable, "PUREIMAGE_CORPUS not set"))
    func orientationSamplesThumbnailUpright() throws {
        func thumbnail(_ n: Int) throws -> Bitmap {
            let bytes = try ImageFiles.read((Corpus.root ?? ".") + "/jpeg/exif-orientation/Portrait_\(n).jpg")
            return try ImageSource(bytes: bytes).thumbnail(maxPixelSize: 120, applyOrientation: true, output: .format(.rgba8)).tightlyPacked()
        }
        func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
            Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(1, a.count))
        }
        let upright = try thumbnail(1)
        #expect(upright.width == 80 && upright.height == 120)
        for n in 2...8 {
            let oriented = try thumbnail(n)
            #expect(oriented.width == upright.width && oriented.height == upright.height, "orientation \(n)")
            #expect(meanDifference(oriented.bytes, upright.bytes) < 2, "orientation \(n)")
        }
        // The check can fail: the upright thumbnail upside down is far from itself.
        let rowBytes = upright.width * 4
        let upsideDown = (0..<upright.height).reversed().flatMap { upright.bytes[$0 * rowBytes ..< ($0 + 1) * rowBytes] }
        #expect(meanDifference(upsideDown, upright.bytes) > 20)
    }
}

extension DownscaleTests {
    /// GIF streams its first frame in bands of canvas rows; the result equals resampling the
    /// composed first frame, for a frame smaller than the canvas, interlaced or not.
    @Test(arguments: [false, true])
    func gifStreamingEqualsWholeImageResampling(interlaced: Bool) throws {
        let gif = GIFTestFile.make(width: 300, height: 260, frame: (left: 17, top: 23, width: 250, height: 200),
                                   interlaced: interlaced, transparentIndex: 3, seed: 5)
        let source = try ImageSource(bytes: gif)
        let streamed = try source.thumbnail(maxPixelSize: 70, output: .format(.rgba8Premultiplied)).tightlyPacked()
        let full = try source.image(options: ImageDecodingOptions(output: .format(.rgba8Premultiplied))).tightlyPacked()
        // The file is what it says: the frame's first pixel is index (0 + 5) % 4 = 1, green;
        // the canvas outside the frame is transparent.
        #expect(Array(full.bytes[(23 * 300 + 17) * 4 ..< (23 * 300 + 17) * 4 + 4]) == [0, 255, 0, 255])
        #expect(Array(full.bytes[0 ..< 4]) == [0, 0, 0, 0])
        #expect(Self.resampledWhole(full, like: streamed) == streamed.bytes)
    }
}

/// Builds a GIF of any size: 4-colour global table (red, green, blue, white), one frame,
/// pixels from a seeded pattern, LZW data written as literals only (a clear code before every
/// two literals keeps every code 3 bits wide — valid, just not compressed).
enum GIFTestFile {
    static func make(width: Int, height: Int, frame: (left: Int, top: Int, width: Int, height: Int),
                     interlaced: Bool, transparentIndex: UInt8?, seed: Int) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        var out: [UInt8] = Array("GIF89a".utf8) + le16(width) + le16(height) + [0x81, 0, 0]
        out += [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]
        if let transparentIndex { out += [0x21, 0xF9, 4, 0x01, 0, 0, transparentIndex, 0] }
        out += [0x2C] + le16(frame.left) + le16(frame.top) + le16(frame.width) + le16(frame.height) + [interlaced ? 0x40 : 0]
        // Codes: clear (4), literals, end (5); LSB-first, 3 bits each.
        var codes: [Int] = []
        for i in 0..<frame.width * frame.height {
            if i % 2 == 0 { codes.append(4) }
            codes.append((i &* 7 &+ i / frame.width &* 3 &+ seed) % 4)
        }
        codes.append(5)
        var packed: [UInt8] = []
        var accumulator = 0, bits = 0
        for code in codes {
            accumulator |= code << bits
            bits += 3
            while bits >= 8 { packed.append(UInt8(accumulator & 0xFF)); accumulator >>= 8; bits -= 8 }
        }
        if bits > 0 { packed.append(UInt8(accumulator & 0xFF)) }
        out.append(2)   // minimum code size
        var start = 0
        while start < packed.count {
            let count = min(255, packed.count - start)
            out.append(UInt8(count))
            out += packed[start ..< start + count]
            start += count
        }
        return out + [0, 0x3B]
    }
}

extension DownscaleTests {
    /// Tall narrow sources (a pixel or two per row, reduced more than `boxThreshold`) take the
    /// batched vertical-box path: rows summed straight from the bytes, a group at a time. The
    /// result equals a model written here from the definition — each group of `boxY` rows
    /// averaged (in 14-bit fixed point, halves up), then the Lanczos pass over the group rows —
    /// however the rows are handed over (all at once, one by one, in uneven runs).
    @Test(arguments: [1, 2])
    func tallNarrowSourceThroughTheVerticalBox(width: Int) throws {
        let height = 100_003, destinationHeight = 97
        var state: UInt32 = 12345
        let source: [UInt8] = (0..<width * height * 4).map { index in
            state = state &* 1_664_525 &+ 1_013_904_223
            // Premultiplied: colour at most alpha (alpha is the 4th byte).
            return index % 4 == 3 ? 255 : UInt8(state >> 24)
        }
        let boxY = StreamingResampler.boxFactor(extent: Double(height), destination: destinationHeight)
        #expect(boxY > 1)
        let boxedHeight = (height + boxY - 1) / boxY
        let rowValues = width * 4
        // The box stage: round(Σ v·2^14 / n), halves up.
        var boxed = [Int64](repeating: 0, count: boxedHeight * rowValues)
        for group in 0..<boxedHeight {
            let first = group * boxY, count = min(boxY, height - first)
            for i in 0..<rowValues {
                var sum: Int64 = 0
                for y in first ..< first + count { sum += Int64(source[y * rowValues + i]) << 14 }
                boxed[group * rowValues + i] = (2 * sum + Int64(count)) / Int64(2 * count)
            }
        }
        let vertical = ResampleFilter.axis(sourceSize: boxedHeight, destinationSize: destinationHeight,
                                           sourceExtent: Double(height) / Double(boxY))
        var expected = [UInt8](repeating: 0, count: width * destinationHeight * 4)
        for r in 0..<destinationHeight {
            for x in 0..<width {
                var channels = [Int64](repeating: 0, count: 4)
                for c in 0..<4 {
                    for k in 0..<Int(vertical.counts[r]) {
                        channels[c] += Int64(vertical.weights[r * vertical.stride + k]) * boxed[(Int(vertical.starts[r]) + k) * rowValues + x * 4 + c]
                    }
                    channels[c] = min(255, max(0, (channels[c] + (1 << 27)) >> 28))
                }
                for c in 0..<3 { expected[(r * width + x) * 4 + c] = UInt8(min(channels[3], channels[c])) }
                expected[(r * width + x) * 4 + 3] = UInt8(channels[3])
            }
        }
        for runs in [[height], Array(repeating: 1, count: height), [7, boxY * 3 + 1, 1, height]] {
            let resampler = try StreamingResampler(sourceWidth: width, sourceHeight: height,
                                                   destinationWidth: width, destinationHeight: destinationHeight)
            var next = 0
            source.withUnsafeBufferPointer { all in
                for run in runs where next < height {
                    let count = min(run, height - next)
                    resampler.consume(rows: UnsafeBufferPointer(rebasing: all[next * rowValues ..< (next + count) * rowValues]), count: count)
                    next += count
                }
            }
            #expect(resampler.isComplete)
            #expect(resampler.takeBitmap().bytes == expected, "runs \(runs.prefix(4))")
        }
    }
}
