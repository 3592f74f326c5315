/// `VP8ColorKernels.row` computed eight pixels at a time in 16-bit lanes: the same fancy
/// upsampling and the same fixed-point YUV → RGBA, bit for bit (`VP8ColorLaneTests` compares
/// the two on random and extreme planes at every width up to 80 and both row parities). The
/// scalar kernel stays the readable reference.
///
/// A row is made in two steps: each chroma plane is upsampled into a row of `width` bytes
/// (`upsample`), then eight pixels of Y, U and V at a time become RGBA (`convert`).
///
/// **Why 16-bit lanes are exact.** Upsampling: every sum is at most 4 × 255 + 8 + 2 × 510 =
/// 2048. Conversion: `MultHi(v, c) = (v × c) >> 8` is split so that no product leaves 16 bits
/// (`multiplyHigh`). Then R = Y1 + MultHi(v, 26149) − 14234 lies in [−14234, 30814] and G = Y1 + 8708 −
/// MultHi(u, 6419) − MultHi(v, 13320) in [−10952, 27710] (Y1 = MultHi(y, 19077) ≤ 19002): both fit
/// in Int16, so wrapping 16-bit arithmetic gives them exactly and the arithmetic shift by 6 and
/// the clamp to 0…255 are the scalar `clip` (the shifted values lie in [−223, 481] and
/// [−172, 432], well inside `VP8Lanes`' comparison range). B = Y1 + MultHi(u, 33050) − 17685 lies in
/// [−17685, 34232], too wide for Int16: with s = Y1 + MultHi(u, 33050) ≤ 51917 in UInt16,
/// (s − 17685) >> 6 (logical) is right where s ≥ 17685 and is set to 0 where it is not, which
/// is what `clip` makes of a negative value.
///
/// **Layout.** R | G << 8 and B | 0xFF00 in 16-bit lanes, interleaved by 16 bits, are the
/// little-endian RGBA words of four pixels per vector; the two upsampled values of a chroma
/// pair, `a | b << 8`, are the two bytes in pixel order. Both rely on a little-endian target;
/// `available` is false elsewhere and the callers take the scalar kernel.
///
/// Unsafe: a named kernel (STYLE.md item 20). Bounds: `upsample` reads `count` = (width + 1) / 2
/// chroma samples of each row and writes `width` bytes; `convert` reads `width` bytes of Y, U,
/// V (and alpha, when given) and writes `4 × width` bytes. The vector loops stop where eight more lanes would pass
/// those ends (see each loop's condition); the rest is scalar.
enum VP8ColorLaneKernels {
    typealias Lanes = SIMD8<UInt16>
    typealias Signed = SIMD8<Int16>

    #if _endian(little)
    static let available = true
    #else
    static let available = false
    #endif

    @inline(__always) private static func load(_ p: UnsafePointer<UInt8>) -> Lanes { VP8Lanes.load(p) }

    /// `MultHi(a, c) = (a × c) >> 8` for 8-bit `a`, in 16-bit lanes: with c = 256·high + low,
    /// (a·c) >> 8 = a·high + (a·low) >> 8 exactly (a·high·256 is a multiple of 256), and
    /// a·high ≤ 255 × 129, a·low ≤ 255 × 255, their sum ≤ 33149: nothing leaves 16 bits.
    @inline(__always) private static func multiplyHigh(_ a: Lanes, _ c: UInt16) -> Lanes {
        a &* (c &>> 8) &+ (a &* (c & 0xFF)) &>> 8
    }

    /// One chroma plane's samples for one output row. `near` is the chroma row nearer to the
    /// output row (the upper of the pair for an upper output row), `far` the other; a pixel
    /// takes 9/16 of its nearest sample, 3/16 of the next one across and the one along, 1/16 of
    /// the far diagonal (the formulas of `VP8ColorKernels`, with the rows named by distance).
    static func upsample(width: Int, near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, out: UnsafeMutablePointer<UInt8>) {
        @inline(__always) func edge(_ n: Int, _ f: Int) -> UInt8 { UInt8(truncatingIfNeeded: (3 &* n &+ f &+ 2) &>> 2) }
        out[0] = edge(Int(near[0]), Int(far[0]))
        let pairs = (width &- 1) &>> 1
        var x = 1
        // Lanes x … x + 7 read samples x − 1 … x + 7 ≤ pairs < (width + 1) / 2 and write bytes
        // 2x − 1 … 2x + 14 ≤ 2 · pairs ≤ width − 1.
        while x &+ 7 <= pairs {
            let ntl = load(near + (x &- 1)), nt = load(near + x)
            let ftl = load(far + (x &- 1)), ft = load(far + x)
            let average = ntl &+ nt &+ ftl &+ ft &+ 8
            let diagonal12 = (average &+ 2 &* (nt &+ ftl)) &>> 3
            let diagonal03 = (average &+ 2 &* (ntl &+ ft)) &>> 3
            let first = (diagonal12 &+ ntl) &>> 1, second = (diagonal03 &+ nt) &>> 1
            UnsafeMutableRawPointer(out + (2 &* x &- 1)).storeBytes(of: first | second &<< 8, as: Lanes.self)
            x &+= 8
        }
        while x <= pairs {
            let ntl = Int(near[x &- 1]), nt = Int(near[x]), ftl = Int(far[x &- 1]), ft = Int(far[x])
            let average = ntl &+ nt &+ ftl &+ ft &+ 8
            let diagonal12 = (average &+ 2 &* (nt &+ ftl)) &>> 3
            let diagonal03 = (average &+ 2 &* (ntl &+ ft)) &>> 3
            out[2 &* x &- 1] = UInt8(truncatingIfNeeded: (diagonal12 &+ ntl) &>> 1)
            out[2 &* x] = UInt8(truncatingIfNeeded: (diagonal03 &+ nt) &>> 1)
            x &+= 1
        }
        if width & 1 == 0 { out[width &- 1] = edge(Int(near[pairs]), Int(far[pairs])) }
    }

    /// `c · a / 255` rounded as `ConversionKernel.premultiplyByShifts` rounds it (the same
    /// formula, whose sums stay ≤ 65407: exact in 16-bit lanes).
    @inline(__always) private static func premultiply(_ c: Lanes, _ a: Lanes) -> Lanes {
        let x = c &* a &+ 127
        return (x &+ 1 &+ (x &>> 8)) &>> 8
    }

    /// Full-resolution Y, U and V rows → pixels in `layout`, with the `alpha` row's values
    /// (255 without one). Unsafe bounds as above, and `alpha` holds `width` bytes.
    static func convert(width: Int, y: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>,
                        alpha: UnsafePointer<UInt8>? = nil, out: UnsafeMutablePointer<UInt8>, layout: VP8PixelLayout = .rgba) {
        let bgra = layout == .bgraPremultiplied
        var x = 0
        // Lanes x … x + 7 < width.
        while x &+ 8 <= width {
            let luma = multiplyHigh(load(y + x), 19077)
            let u8 = load(u + x), v8 = load(v + x)
            let r = unsafeBitCast(luma &+ multiplyHigh(v8, 26149) &- 14234, to: Signed.self) &>> 6
            let g = unsafeBitCast(luma &+ 8708 &- multiplyHigh(u8, 6419) &- multiplyHigh(v8, 13320), to: Signed.self) &>> 6
            let blueSum = luma &+ multiplyHigh(u8, 33050)
            // blueSum < 17685 exactly when blueSum / 2 < 8843, a comparison of non-negative Int16s.
            let negative = VP8Lanes.greater(Signed(repeating: 8843), unsafeBitCast(blueSum &>> 1, to: Signed.self))
            var blue = unsafeBitCast(VP8Lanes.clamp(unsafeBitCast((blueSum &- 17685) &>> 6, to: Signed.self) & ~negative, 0, 255),
                                     to: Lanes.self)
            var red = unsafeBitCast(VP8Lanes.clamp(r, 0, 255), to: Lanes.self)
            var green = unsafeBitCast(VP8Lanes.clamp(g, 0, 255), to: Lanes.self)
            var a = Lanes(repeating: 255)
            if let alpha {
                a = load(alpha + x)
                if bgra { red = premultiply(red, a); green = premultiply(green, a); blue = premultiply(blue, a) }
            }
            let redGreen = (bgra ? blue : red) | green &<< 8, blueAlpha = (bgra ? red : blue) | a &<< 8
            let low = Lanes(redGreen[0], blueAlpha[0], redGreen[1], blueAlpha[1], redGreen[2], blueAlpha[2], redGreen[3], blueAlpha[3])
            let high = Lanes(redGreen[4], blueAlpha[4], redGreen[5], blueAlpha[5], redGreen[6], blueAlpha[6], redGreen[7], blueAlpha[7])
            let o = UnsafeMutableRawPointer(out + 4 &* x)
            o.storeBytes(of: low, as: Lanes.self)
            o.storeBytes(of: high, toByteOffset: 16, as: Lanes.self)
            x &+= 8
        }
        guard x < width else { return }
        let tail = UnsafeMutableBufferPointer(start: out, count: 4 &* width)
        while x < width {
            VP8ColorKernels.yuvToRGBA(Int(y[x]), Int(u[x]), Int(v[x]), tail, 4 &* x)
            VP8ColorKernels.finish(tail, 4 &* x, alpha: alpha?[x], layout: layout)
            x &+= 1
        }
    }
}
