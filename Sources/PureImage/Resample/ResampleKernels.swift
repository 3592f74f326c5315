/// The resampler's inner loops (`StreamingResampler`), on unsafe buffers so they compile to
/// tight, vectorised loops. Each states the bounds its caller guarantees.
///
/// The arithmetic is exact integer arithmetic: 8-bit premultiplied samples times 14-bit
/// weights. A horizontal sum `h = Σ w·p` is an integer with |h| < 255 · 1.6 · 2^14 < 2^23 (the
/// weights of one pixel sum to 2^14; their absolute values to at most about 1.6 × that, at an
/// image edge where the clipped kernel keeps a negative lobe). A vertical sum `Σ w·h` stays
/// below 2^53, and the result is `clamp((Σ w·h + 2^27) >> 28)`.
///
/// Both passes multiply 16-bit lanes in pairs, the instruction SSE2 has for it (`pmaddwd`:
/// eight 16-bit products, added two by two into four 32-bit sums), which LLVM emits for the
/// `multiplyAddPairs` pattern below:
/// - horizontal: the two lanes of a pair are the same channel of two neighbouring source
///   pixels, and the weights those two taps have (`pixelPairs`, `weightPairs`);
/// - vertical: 32-bit horizontal sums do not fit 16-bit lanes, so each is kept in the ring as
///   `h = high · 2^12 + low` (high = h >> 12 in −2^11 ..< 2^11, low = h & 0xFFF) and
///   `Σ w·h = 2^12 · Σ w·high + Σ w·low`, two sums of 16-bit products that stay below 2^31
///   (1.6 · 2^14 · 2^12 < 2^27), and the rounding shift combines the two in 32 bits (`store`).
/// So the results are bit for bit those of the plain Int64 formulation.
enum ResampleKernels {
    /// Four 32-bit sums of the eight 16-bit products `a · b`, lanes 2i and 2i + 1 together.
    /// Bounds: no lane pair is (−32768, −32768) (the one overflow of the instruction); every
    /// caller's lanes are samples, 12-bit parts or weights of magnitude below 2^15.
    @inline(__always) static func multiplyAddPairs(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD4<Int32> {
        // (Widened lane by lane: the generic `SIMD8(truncatingIfNeeded:)` is not always inlined.)
        @inline(__always) func wide(_ v: SIMD8<Int16>) -> SIMD8<Int32> {
            SIMD8(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]))
        }
        let products = wide(a) &* wide(b)
        return products.evenHalf &+ products.oddHalf
    }

    /// A pair of 16-bit weights `(first, second)` in every lane pair.
    @inline(__always) static func broadcast(_ pair: UInt32) -> SIMD8<Int16> {
        unsafeBitCast(SIMD4<UInt32>(repeating: pair), to: SIMD8<Int16>.self)
    }

    /// Two weights as one little-endian word: `first` in the low 16 bits.
    static func weightPair(_ first: Int32, _ second: Int32) -> UInt32 {
        UInt32(UInt16(truncatingIfNeeded: first)) | UInt32(UInt16(truncatingIfNeeded: second)) << 16
    }

    /// Source pixels j and j + 1 channel by channel, `(r_j, r_j+1, g_j, g_j+1, b_j, b_j+1, a_j,
    /// a_j+1)` as 16-bit lanes, for every j of a premultiplied RGBA8 row (the last pixel pairs
    /// with zeros): any two consecutive taps are then one entry. Bounds: `row` holds `width × 4`
    /// bytes, `pairs` at least `width` entries.
    static func pixelPairs(_ row: UnsafeBufferPointer<UInt8>, width: Int, into pairs: UnsafeMutableBufferPointer<SIMD8<Int16>>) {
        guard width > 0, let bytes = row.baseAddress, let out = pairs.baseAddress,
              row.count >= width * 4, pairs.count >= width else { return }
        let source = UnsafeRawPointer(bytes)
        @inline(__always) func widen(_ v: SIMD16<UInt8>, from first: Int) -> SIMD8<Int16> {
            SIMD8(Int16(v[first]), Int16(v[first &+ 1]), Int16(v[first &+ 2]), Int16(v[first &+ 3]),
                  Int16(v[first &+ 4]), Int16(v[first &+ 5]), Int16(v[first &+ 6]), Int16(v[first &+ 7]))
        }
        var j = 0
        // Four entries a step from two 16-byte loads, pixels j ..< j + 4 and j + 1 ..< j + 5
        // (both inside the row while j + 5 ≤ width), their bytes interleaved.
        while j &+ 5 <= width {
            let a = source.loadUnaligned(fromByteOffset: j &* 4, as: SIMD16<UInt8>.self)
            let b = source.loadUnaligned(fromByteOffset: j &* 4 &+ 4, as: SIMD16<UInt8>.self)
            let low = SIMD16<UInt8>(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
            let high = SIMD16<UInt8>(a[8], b[8], a[9], b[9], a[10], b[10], a[11], b[11], a[12], b[12], a[13], b[13], a[14], b[14], a[15], b[15])
            out[j] = widen(low, from: 0)
            out[j &+ 1] = widen(low, from: 8)
            out[j &+ 2] = widen(high, from: 0)
            out[j &+ 3] = widen(high, from: 8)
            j &+= 4
        }
        while j &+ 1 < width {
            // Eight bytes from pixel j: it and the next one, both inside the row.
            let v = source.loadUnaligned(fromByteOffset: j &* 4, as: SIMD8<UInt8>.self)
            out[j] = SIMD8<Int16>(Int16(v[0]), Int16(v[4]), Int16(v[1]), Int16(v[5]), Int16(v[2]), Int16(v[6]), Int16(v[3]), Int16(v[7]))
            j &+= 1
        }
        let last = (width &- 1) &* 4
        out[width &- 1] = SIMD8<Int16>(Int16(bytes[last]), 0, Int16(bytes[last &+ 1]), 0, Int16(bytes[last &+ 2]), 0, Int16(bytes[last &+ 3]), 0)
    }

    /// Where the horizontal pass writes a row's `destination × 4` sums.
    enum HorizontalTarget {
        /// As they are (32 bits each).
        case sums(UnsafeMutablePointer<Int32>)
        /// Split as `splitIntoRing` does, straight into a ring row's two planes: four values a
        /// pixel, or three for an opaque source (alpha dropped; each pixel's four-lane store
        /// then reaches one value into the next pixel, which overwrites it, and the last one
        /// into the row's slack).
        case split(high: UnsafeMutablePointer<Int16>, low: UnsafeMutablePointer<Int16>, channels: Int)
    }

    /// Horizontal Lanczos pass of one premultiplied RGBA8 row into `target` (`destination × 4`
    /// exact sums). Destination pixel i takes taps `starts[i] ..< starts[i] + counts[i]`, two
    /// at a time: entry `starts[i] + 2k` of `pairs` against entry k of its `weightPairs` (the
    /// taps' two weights in every lane pair, as `broadcast` makes them — stored so, the inner
    /// loop is a load, a multiply-add and an add per pair; a zero second weight when the count
    /// is odd).
    /// Bounds: `starts[i] + counts[i] ≤` the row's pixels (clipped in `ResampleFilter.axis`),
    /// so every entry read, `starts[i] + 2k ≤ starts[i] + counts[i] − 1`, is one `pixelPairs`
    /// wrote; `counts[i] ≤ 2 × pairStride`; `weightPairs.count ≥ destination × pairStride`;
    /// `target` holds `destination × 4` values, or `destination × channels + 1` in each plane.
    static func horizontal(pairs: UnsafeBufferPointer<SIMD8<Int16>>, starts: UnsafeBufferPointer<Int32>, counts: UnsafeBufferPointer<Int32>,
                           weightPairs: UnsafeBufferPointer<SIMD8<Int16>>, pairStride: Int, destinationWidth width: Int,
                           into target: HorizontalTarget) {
        guard let pixels = pairs.baseAddress, let weightBase = weightPairs.baseAddress,
              starts.count >= width, counts.count >= width else { return }
        for i in 0..<width {
            let p = pixels + Int(starts[i])
            let w = weightBase + i &* pairStride
            let pairCount = (Int(counts[i]) &+ 1) >> 1
            // Two running sums, so the additions do not wait on one another (exact integers:
            // the order does not change the sum).
            var sum0 = SIMD4<Int32>(repeating: 0), sum1 = sum0
            var k = 0
            while k &+ 2 <= pairCount {
                sum0 &+= multiplyAddPairs(p[k &* 2], w[k])
                sum1 &+= multiplyAddPairs(p[k &* 2 &+ 2], w[k &+ 1])
                k &+= 2
            }
            if k < pairCount { sum0 &+= multiplyAddPairs(p[k &* 2], w[k]) }
            let sum = sum0 &+ sum1
            switch target {
            case .sums(let out):
                UnsafeMutableRawPointer(out + i &* 4).storeBytes(of: sum, as: SIMD4<Int32>.self)
            case .split(let high, let low, let channels):
                // |sum| < 2^23: the high part fits 16 bits; the low part is 12 bits. Both in one
                // word per value (low half, high half: the lanes of a little-endian word), then
                // the halves gathered.
                let words = unsafeBitCast((sum &>> 12) &<< 16 | (sum & 0xFFF), to: SIMD8<Int16>.self)
                let parts = SIMD8<Int16>(words[0], words[2], words[4], words[6], words[1], words[3], words[5], words[7])
                UnsafeMutableRawPointer(low + i &* channels).storeBytes(of: parts.lowHalf, as: SIMD4<Int16>.self)
                UnsafeMutableRawPointer(high + i &* channels).storeBytes(of: parts.highHalf, as: SIMD4<Int16>.self)
            }
        }
    }

    /// The horizontal pass of one source row (premultiplied RGBA8, `boxedWidth` pixels at most)
    /// with the resampler's tables: into ring row `ringRow`, split, or into `filtered` when
    /// `ringRow` is nil; `channels` values a pixel (3: an opaque ring). Bounds: `ringRow <
    /// ringRows` (each plane holds `ringRows × ringRowLength` values; checked); the tables and
    /// buffers are `buffers`' (see `ResampleBuffers`).
    static func horizontalRow(_ row: UnsafeBufferPointer<UInt8>, _ buffers: ResampleBuffers, intoRingRow ringRow: Int? = nil,
                              channels: Int = 4, destinationWidth: Int) {
        let b = buffers
        pixelPairs(row, width: row.count / 4, into: b.pixelPairs)
        let pairs = UnsafeBufferPointer(b.pixelPairs), starts = UnsafeBufferPointer(b.horizontalStarts)
        let counts = UnsafeBufferPointer(b.horizontalCounts), weights = UnsafeBufferPointer(b.horizontalWeightPairs)
        let values = destinationWidth * 4, length = b.ringRowLength
        let target: HorizontalTarget
        if let ringRow {
            guard let high = b.ringHigh.baseAddress, let low = b.ringLow.baseAddress, destinationWidth * channels + 1 <= length,
                  (ringRow + 1) * length <= b.ringHigh.count, (ringRow + 1) * length <= b.ringLow.count else { return }
            target = .split(high: high + ringRow * length, low: low + ringRow * length, channels: channels)
        } else {
            guard let sums = b.filtered.baseAddress, b.filtered.count >= values else { return }
            target = .sums(sums)
        }
        horizontal(pairs: pairs, starts: starts, counts: counts, weightPairs: weights, pairStride: b.horizontalPairStride,
                   destinationWidth: destinationWidth, into: target)
    }

    /// One destination row of the vertical pass: its `taps` ring rows from `firstRingRow`
    /// (taken modulo `ringRows`; the caller guarantees they are all in the ring and none has
    /// been written over), paired, with their weights from `verticalWeights[weightsAt...]`
    /// made into `weightPairs` words, then `vertical` into `out` (`destinationWidth` pixels
    /// in `layout`). An opaque ring (three values a pixel) goes through `opaqueRow` as RGB8
    /// and `expand` writes it in the layout (alpha 255: what the four-value pass gives an
    /// opaque source, its alpha sums being exactly 255 · 2^28).
    /// Bounds: `taps ≤ vertical stride`, so the paired taps (`taps` rounded up to even) fit
    /// `verticalHigh`, `verticalLow` (stride + 1) and `verticalWeightPairs` (checked too).
    static func verticalRow(_ buffers: ResampleBuffers, firstRingRow start: Int, taps count: Int, ringRows: Int, weightsAt offset: Int,
                            destinationWidth: Int, channels: Int, layout: ResampledLayout, expand: PixelConverter?,
                            into out: UnsafeMutableBufferPointer<UInt8>) {
        let b = buffers
        let pairCount = (count + 1) / 2
        let length = b.ringRowLength, values = destinationWidth * channels
        guard count > 0, let high = b.ringHigh.baseAddress, let low = b.ringLow.baseAddress, let target = out.baseAddress,
              ringRows * length <= b.ringHigh.count, ringRows * length <= b.ringLow.count, values <= length,
              pairCount * 2 <= b.verticalHigh.count, pairCount <= b.verticalWeightPairs.count,
              out.count >= destinationWidth * 4, offset + count <= b.verticalWeights.count else { return }
        // The taps in pairs; an odd count ends with the last row again, at weight 0.
        for k in 0 ..< pairCount * 2 {
            let slot = (start + min(k, count - 1)) % ringRows
            b.verticalHigh[k] = UnsafePointer(high + slot * length)
            b.verticalLow[k] = UnsafePointer(low + slot * length)
        }
        for k in 0 ..< pairCount {
            let first = b.verticalWeights[offset + 2 * k]
            b.verticalWeightPairs[k] = weightPair(first, 2 * k + 1 < count ? b.verticalWeights[offset + 2 * k + 1] : 0)
        }
        let rows = (high: UnsafeBufferPointer(rebasing: b.verticalHigh[0 ..< pairCount * 2]),
                    low: UnsafeBufferPointer(rebasing: b.verticalLow[0 ..< pairCount * 2]))
        let weights = UnsafeBufferPointer(rebasing: b.verticalWeightPairs[0 ..< pairCount])
        if channels == 3, let expand, let rgb = b.opaqueRow.baseAddress, b.opaqueRow.count >= values {
            vertical(high: rows.high, low: rows.low, weightPairs: weights, width: values, into: .bytes(rgb))
            expand.convert(width: destinationWidth, rows: 1, from: PixelRows(base: UnsafeRawPointer(rgb), bytesPerRow: values),
                           into: MutablePixelRows(base: UnsafeMutableRawPointer(target), bytesPerRow: destinationWidth * 4))
        } else {
            vertical(high: rows.high, low: rows.low, weightPairs: weights, width: values, into: .pixels(layout, target))
        }
    }

    /// Where the vertical pass writes a row.
    enum VerticalTarget {
        /// Pixels of four values, in a layout.
        case pixels(ResampledLayout, UnsafeMutablePointer<UInt8>)
        /// Each value rounded and clamped to a byte (an opaque source's R G B).
        case bytes(UnsafeMutablePointer<UInt8>)
    }

    /// Vertical Lanczos pass for one destination row: ring rows `2k` and `2k + 1` of `high` and
    /// `low` (the rows the row's filter spans, oldest first, padded to an even count with a
    /// row of weight zero) weighted by word k of `weightPairs`; then rounded, clamped to
    /// 0...255 and colours to at most alpha, and written as `width / 4` pixels in `layout`, or
    /// as `width` bytes (`VerticalTarget`).
    ///
    /// Two pixels (eight values) at a time, their sums kept in registers across every tap.
    /// Bounds: `high.count == low.count == 2 × weightPairs.count`; every row pointer holds
    /// `width` values; for pixels `width` is a whole number of them; the target holds `width`
    /// bytes.
    static func vertical(high: UnsafeBufferPointer<UnsafePointer<Int16>>, low: UnsafeBufferPointer<UnsafePointer<Int16>>,
                         weightPairs: UnsafeBufferPointer<UInt32>, width: Int, into target: VerticalTarget) {
        guard let highRows = high.baseAddress, let lowRows = low.baseAddress, let weights = weightPairs.baseAddress,
              high.count == low.count, high.count == 2 * weightPairs.count else { return }
        let pairCount = weightPairs.count
        @inline(__always) func load(_ row: UnsafePointer<Int16>, _ x: Int) -> SIMD8<Int16> {
            UnsafeRawPointer(row).loadUnaligned(fromByteOffset: x &* 2, as: SIMD8<Int16>.self)
        }
        // Lanes 0–3 (or 4–7) of two rows interleaved: the pairs `multiplyAddPairs` adds.
        @inline(__always) func lowerLanes(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD8<Int16> {
            SIMD8(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3])
        }
        @inline(__always) func upperLanes(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD8<Int16> {
            SIMD8(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
        }
        var x = 0
        while x &+ 8 <= width {
            var high0 = SIMD4<Int32>(repeating: 0), high1 = high0, low0 = high0, low1 = high0
            for k in 0..<pairCount {
                let w = broadcast(weights[k])
                let h0 = load(highRows[k &* 2], x), h1 = load(highRows[k &* 2 &+ 1], x)
                high0 &+= multiplyAddPairs(lowerLanes(h0, h1), w)
                high1 &+= multiplyAddPairs(upperLanes(h0, h1), w)
                let l0 = load(lowRows[k &* 2], x), l1 = load(lowRows[k &* 2 &+ 1], x)
                low0 &+= multiplyAddPairs(lowerLanes(l0, l1), w)
                low1 &+= multiplyAddPairs(upperLanes(l0, l1), w)
            }
            switch target {
            case .pixels(let layout, let out):
                store(high: high0, low: low0, layout, out + x)
                store(high: high1, low: low1, layout, out + (x &+ 4))
            case .bytes(let out):
                storeBytes(high: high0, low: low0, count: 4, out + x)
                storeBytes(high: high1, low: low1, count: 4, out + (x &+ 4))
            }
            x &+= 8
        }
        while x < width {
            // The last pixel of an odd number, or the last values of an opaque row (up to
            // seven), four at a time in scalar code.
            let count = min(4, width &- x)
            var high = SIMD4<Int32>(repeating: 0), low = high
            for k in 0 ..< pairCount &* 2 {
                let word = weights[k >> 1]
                let w = Int32(Int16(truncatingIfNeeded: k & 1 == 0 ? word : word >> 16))
                for c in 0 ..< count {
                    high[c] &+= w &* Int32(highRows[k][x &+ c])
                    low[c] &+= w &* Int32(lowRows[k][x &+ c])
                }
            }
            switch target {
            case .pixels(let layout, let out): store(high: high, low: low, layout, out + x)
            case .bytes(let out): storeBytes(high: high, low: low, count: count, out + x)
            }
            x &+= count
        }
    }

    /// `count` values (of four) rounded and clamped as `store` does, as bytes.
    @inline(__always) private static func storeBytes(high: SIMD4<Int32>, low: SIMD4<Int32>, count: Int, _ target: UnsafeMutablePointer<UInt8>) {
        let rounded = (high &+ (low &>> 12) &+ 32768) &>> 16
        for c in 0 ..< count { target[c] = UInt8(truncatingIfNeeded: Swift.min(255, Swift.max(0, rounded[c]))) }
    }

    /// One pixel from its four sums (premultiplied R, G, B, A), each `v = high · 2^12 + low`
    /// with two 14-bit weight factors in it: rounded and clamped, `clamp((v + 2^27) >> 28)`.
    /// In 32 bits: with `low = (low >> 12) · 2^12 + r`, 0 ≤ r < 2^12, `v + 2^27 = (high +
    /// (low >> 12) + 2^15) · 2^12 + r`, and dropping 28 bits of it drops r with the rest, so the
    /// result is `(high + (low >> 12) + 2^15) >> 16` (sums below 2^28: no overflow). Colours are
    /// then clamped to at most alpha and the pixel is written in `layout`: the opaque display
    /// format's fourth byte is 255 and its colours the premultiplied ones (dropping alpha
    /// composites over black, as every conversion does).
    @inline(__always) private static func store(high: SIMD4<Int32>, low: SIMD4<Int32>, _ layout: ResampledLayout,
                                                _ target: UnsafeMutablePointer<UInt8>) {
        let rounded = (high &+ (low &>> 12) &+ 32768) &>> 16
        @inline(__always) func level(_ v: Int32) -> UInt32 { UInt32(truncatingIfNeeded: Swift.min(255, Swift.max(0, v))) }
        let a = level(rounded[3])
        var r = min(a, level(rounded[0])), g = min(a, level(rounded[1])), b = min(a, level(rounded[2]))
        let word: UInt32
        switch layout {
        case .rgbaPremultiplied: word = r | g << 8 | b << 16 | a << 24
        case .bgraPremultiplied: word = b | g << 8 | r << 16 | a << 24
        case .bgrx: word = b | g << 8 | r << 16 | 255 << 24
        case .rgbaStraight:
            // Bitmap+Conversion.swift's premultiplied → straight: round(c · 255 / a), 0 when a = 0
            // (c ≤ a here, so no cap is needed); opaque pixels stay as they are.
            if a == 0 {
                r = 0; g = 0; b = 0
            } else if a != 255 {
                r = (2 * r * 255 + a) / (2 * a); g = (2 * g * 255 + a) / (2 * a); b = (2 * b * 255 + a) / (2 * a)
            }
            word = r | g << 8 | b << 16 | a << 24
        }
        UnsafeMutableRawPointer(target).storeBytes(of: UInt32(littleEndian: word), as: UInt32.self)
    }

    /// Row `row` of the ring becomes `values` (or zeros), each split into `high` (value >> 12)
    /// and `low` (value & 0xFFF); with three `channels` (an opaque source), each pixel's alpha
    /// value is left out. Bounds: `values` holds `pixels × 4` values, |value| < 2^23 (so `high`
    /// fits 16 bits with room to spare); each plane's rows are `length` values apart (checked).
    static func splitIntoRing(_ values: UnsafeBufferPointer<Int32>?, high: UnsafeMutableBufferPointer<Int16>,
                              low: UnsafeMutableBufferPointer<Int16>, row: Int, length: Int, pixels: Int, channels: Int) {
        guard let highBase = high.baseAddress, let lowBase = low.baseAddress, pixels * channels <= length,
              high.count >= (row + 1) * length, low.count >= (row + 1) * length else { return }
        let h = highBase + row * length, l = lowBase + row * length
        guard let values = values?.baseAddress else {
            h.update(repeating: 0, count: length)
            l.update(repeating: 0, count: length)
            return
        }
        for p in 0..<pixels {
            for c in 0..<channels {
                let value = values[p &* 4 &+ c]
                h[p &* channels &+ c] = Int16(truncatingIfNeeded: value >> 12)
                l[p &* channels &+ c] = Int16(truncatingIfNeeded: value & 0xFFF)
            }
        }
    }

    /// The ring's rows from three values a pixel (an opaque source's R G B) to four, each
    /// pixel's alpha the one every opaque pixel has after the horizontal pass, 255 · 2^14
    /// (high part 1020, low part 0): for a source found not to be opaque after all — a
    /// truncated one, whose missing rows are transparent. In place, last pixel first (pixel p
    /// moves from 3p to 4p ≥ 3p, over values already moved). Bounds: each of `ringRows` rows
    /// holds `ringRowLength ≥ 4 × pixels` values (checked).
    static func expandOpaqueRing(_ buffers: ResampleBuffers, ringRows: Int, pixels: Int) {
        let b = buffers, length = b.ringRowLength
        guard let high = b.ringHigh.baseAddress, let low = b.ringLow.baseAddress, pixels * 4 <= length,
              ringRows * length <= b.ringHigh.count, ringRows * length <= b.ringLow.count else { return }
        for row in 0..<ringRows {
            let h = high + row * length, l = low + row * length
            var p = pixels - 1
            while p >= 0 {
                for c in (0..<3).reversed() {
                    h[p * 4 + c] = h[p * 3 + c]
                    l[p * 4 + c] = l[p * 3 + c]
                }
                h[p * 4 + 3] = 1020
                l[p * 4 + 3] = 0
                p -= 1
            }
        }
    }

    /// The box stage: each output pixel is the rounded mean of `factor` consecutive source
    /// pixels (fewer for the last). Bounds: `row` holds `width × 4` bytes and `out` holds
    /// `ceil(width / factor) × 4`.
    static func boxAverage(_ row: UnsafeBufferPointer<UInt8>, width: Int, factor: Int, into out: UnsafeMutableBufferPointer<UInt8>) {
        var j = 0, x = 0
        while x < width {
            let end = min(width, x + factor), count = end - x
            var r = 0, g = 0, b = 0, a = 0
            for p in x..<end {
                r += Int(row[p * 4]); g += Int(row[p * 4 + 1]); b += Int(row[p * 4 + 2]); a += Int(row[p * 4 + 3])
            }
            out[j * 4] = UInt8((r + count / 2) / count); out[j * 4 + 1] = UInt8((g + count / 2) / count)
            out[j * 4 + 2] = UInt8((b + count / 2) / count); out[j * 4 + 3] = UInt8((a + count / 2) / count)
            j += 1
            x = end
        }
    }

    /// `sum += row`, element by element (equal lengths). Sums of exact integers below 2^53.
    static func add(_ row: UnsafeBufferPointer<Int32>, into sum: UnsafeMutableBufferPointer<Double>) {
        for i in 0..<min(row.count, sum.count) { sum[i] += Double(row[i]) }
    }

    /// `out = round(sum / count)` (halves towards +∞, in integers), then `sum = 0`. Equal lengths.
    static func average(_ sum: UnsafeMutableBufferPointer<Double>, count: Int, into out: UnsafeMutableBufferPointer<Int32>) {
        let twice = Int64(2 * count)
        for i in 0..<min(out.count, sum.count) {
            let n = 2 * Int64(sum[i]) + Int64(count)
            out[i] = Int32(truncatingIfNeeded: n >= 0 ? n / twice : -((-n + twice - 1) / twice))
            sum[i] = 0
        }
    }

    /// `out[i] = row[i] << 14`: a horizontal pass that keeps every pixel (one tap of 2^14). Equal lengths.
    static func widen(_ row: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<Int32>) {
        for i in 0..<min(row.count, out.count) { out[i] = Int32(row[i]) << 14 }
    }

    /// `sum += rows[k] × scale` for each of `count` rows of `rowBytes` bytes back to back in
    /// `rows` — `widen` then `add`, row by row, in one loop: the sums are the same exact integers
    /// (below 2^53) whatever the order. For sources of a pixel or two per row, where the calls
    /// per row would cost more than the arithmetic. Bounds: `rows` holds `count × rowBytes`
    /// bytes; `sum` holds `rowBytes` values.
    static func addWidenedRows(_ rows: UnsafeBufferPointer<UInt8>, rowBytes: Int, count: Int, scale: Double,
                               into sum: UnsafeMutableBufferPointer<Double>) {
        guard let source = rows.baseAddress, let target = sum.baseAddress,
              rowBytes <= sum.count, count * rowBytes <= rows.count else { return }
        if rowBytes == 4 {
            // One pixel per row: four integer running sums (each below count × 255 < 2^53).
            var total = SIMD4<UInt64>(repeating: 0)
            for k in 0..<count {
                let p = source + k &* 4
                total &+= SIMD4<UInt64>(UInt64(p[0]), UInt64(p[1]), UInt64(p[2]), UInt64(p[3]))
            }
            for i in 0..<4 { target[i] += Double(total[i]) * scale }
            return
        }
        for k in 0..<count {
            let row = source + k &* rowBytes
            for i in 0..<rowBytes { target[i] += Double(row[i]) * scale }
        }
    }
}
