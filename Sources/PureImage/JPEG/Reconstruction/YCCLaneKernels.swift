/// YCbCr → RGB for sixteen pixels at a time in 16-bit lanes, and the stores that interleave
/// the three channel vectors into 3- or 4-byte pixels: the vector bodies of the row kernels in
/// `ColorConversionKernels`, whose scalar `red`, `green`, `blue` (jdcolor.c's formulas as
/// written) stay the reference and do the last pixels of each row.
///
/// **The arithmetic.** With x = Cb − 128 or Cr − 128 in −128…127, each constant is split into
/// a multiple of 2^16, which adds an integer outside the floor, and a remainder below 2^15:
///
///     R = Y + x_r + ⌊(26345 · x_r + 2^15) / 2^16⌋                   91881 = 2^16 + 26345
///     G = Y − x_r + ⌊(−22554 · x_b + 18734 · x_r + 2^15) / 2^16⌋    −46802 = −2^16 + 18734
///     B = Y + 2·x_b + ⌊(−14942 · x_b + 2^15) / 2^16⌋                116130 = 2^17 − 14942
///
/// Red and blue have one product each, taken as a high half (`pmulhw`, one instruction for
/// eight lanes) of 2x times the constant: ⌊2x·c / 2^16⌋ = ⌊x·c / 2^15⌋, and adding 1 then
/// halving (an arithmetic shift, a floor) gives ⌊(⌊x·c / 2^15⌋ + 1) / 2⌋ = ⌊(x·c + 2^15) /
/// 2^16⌋, because ⌊(⌊a⌋ + n) / m⌋ = ⌊(a + n) / m⌋ for integers n and m > 0. 2x lies in
/// −256…254, so it fits 16 bits. Green's two products share one floor, so they are summed in 32
/// bits (`pmaddwd` on interleaved Cb and Cr lanes; |sum| ≤ 41288 · 128 + 2^15), shifted, and
/// narrowed (the shifted sum lies in −80…80). Every result lies in −227…480, inside Int16; the
/// clamp to 0…255 is the narrowing to bytes (`packuswb`). `JPEGColorConversionTests` compares
/// the row kernels with `red`, `green`, `blue` on all 2^24 (Y, Cb, Cr) triples. Lane types are
/// converted with `LaneConversions` (why not the standard library's: see there). (The form this
/// replaced multiplied each constant's high and low bytes separately: twice the multiplies, and
/// the compiler's own interleave of three byte vectors into 3-byte pixels took 70 instructions
/// per sixteen pixels; a 3000-pixel row went from 1.43 to 1.13 ns a pixel.)
///
/// Unsafe kernel file (STYLE.md item 20): `convert` reads 16 bytes at each row pointer;
/// `storeRGB` writes 50 bytes at `output` (48 bytes of pixels and 2 beyond, which the caller's
/// next pixels overwrite), `storeFour` exactly 64.
enum YCCLaneKernels {
    typealias Bytes = SIMD16<UInt8>
    typealias Short = SIMD8<Int16>
    typealias Words = SIMD8<UInt16>
    typealias Dwords = SIMD4<UInt32>

    /// ⌊a · c / 2^16⌋ in every lane: `pmulhw`.
    @inline(__always) static func multiplyHigh(_ a: Short, _ c: Int32) -> Short {
        LaneConversions.narrow((LaneConversions.widen(a) &* c) &>> 16)
    }

    /// R, G and B of eight pixels before the clamp (see the type's comment).
    @inline(__always) static func rgb(luma: Short, cb: Short, cr: Short) -> (Short, Short, Short) {
        let red = luma &+ cr &+ ((multiplyHigh(cr &<< 1, 26345) &+ 1) &>> 1)
        let products = LaneConversions.widen(cb) &* -22554 &+ LaneConversions.widen(cr) &* 18734 &+ 32768
        let green = luma &- cr &+ LaneConversions.narrow(products &>> 16)
        let blue = luma &+ (cb &<< 1) &+ ((multiplyHigh(cb &<< 1, -14942) &+ 1) &>> 1)
        return (red, green, blue)
    }

    /// R, G and B bytes of the sixteen pixels at `y`, `cb`, `cr`.
    @inline(__always)
    static func convert(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>) -> (Bytes, Bytes, Bytes) {
        let luma = UnsafeRawPointer(y).loadUnaligned(as: Bytes.self)
        let blue = UnsafeRawPointer(cb).loadUnaligned(as: Bytes.self), red = UnsafeRawPointer(cr).loadUnaligned(as: Bytes.self)
        typealias L = LaneConversions
        let centre = Short(repeating: 128)
        let low = rgb(luma: L.shorts(luma, half: 0), cb: L.shorts(blue, half: 0) &- centre, cr: L.shorts(red, half: 0) &- centre)
        let high = rgb(luma: L.shorts(luma, half: 1), cb: L.shorts(blue, half: 1) &- centre, cr: L.shorts(red, half: 1) &- centre)
        return (L.clampedBytes(low.0, high.0), L.clampedBytes(low.1, high.1), L.clampedBytes(low.2, high.2))
    }

    // Interleaves of two vectors' low or high halves, by 8, 16 and 32 bits (`punpck{l,h}{bw,wd,dq}`).
    @inline(__always) static func low8(_ a: Bytes, _ b: Bytes) -> Bytes {
        Bytes(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
    }
    @inline(__always) static func high8(_ a: Bytes, _ b: Bytes) -> Bytes {
        Bytes(a[8], b[8], a[9], b[9], a[10], b[10], a[11], b[11], a[12], b[12], a[13], b[13], a[14], b[14], a[15], b[15])
    }
    @inline(__always) static func low16(_ a: Words, _ b: Words) -> Words { Words(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3]) }
    @inline(__always) static func high16(_ a: Words, _ b: Words) -> Words { Words(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7]) }
    @inline(__always) static func low32(_ a: Words, _ b: Words) -> Words {
        let x = unsafeBitCast(a, to: Dwords.self), y = unsafeBitCast(b, to: Dwords.self)
        return unsafeBitCast(Dwords(x[0], y[0], x[1], y[1]), to: Words.self)
    }
    @inline(__always) static func high32(_ a: Words, _ b: Words) -> Words {
        let x = unsafeBitCast(a, to: Dwords.self), y = unsafeBitCast(b, to: Dwords.self)
        return unsafeBitCast(Dwords(x[2], y[2], x[3], y[3]), to: Words.self)
    }

    /// Sixteen 3-byte pixels R, G, B at `output` (48 bytes, and 2 more; see the type's
    /// comment). A pixel pair is six bytes, three 16-bit units: (R, G) of the even pixel,
    /// (B even, R odd), (G, B) of the odd one — built with masks and shifts on the byte
    /// vectors seen as 16-bit lanes (SSE2 has no byte shuffle). Each pair is then put in a
    /// 64-bit lane with two zero bytes after it, and the eight lanes are stored six bytes
    /// apart, each store's last two bytes overwritten by the next.
    @inline(__always)
    static func storeRGB(_ r: Bytes, _ g: Bytes, _ b: Bytes, _ output: UnsafeMutableRawPointer) {
        let red = unsafeBitCast(r, to: Words.self), green = unsafeBitCast(g, to: Words.self), blue = unsafeBitCast(b, to: Words.self)
        let even = Words(repeating: 0x00FF), odd = Words(repeating: 0xFF00)
        let first = (red & even) | (green &<< 8)    // R, G of pixel 2j (little-endian units)
        let second = (blue & even) | (red & odd)    // B of pixel 2j, R of pixel 2j + 1
        let third = (green &>> 8) | (blue & odd)    // G, B of pixel 2j + 1
        let zero = Words(repeating: 0)
        let firstSecondLow = low16(first, second), firstSecondHigh = high16(first, second)
        let thirdLow = low16(third, zero), thirdHigh = high16(third, zero)
        @inline(__always) func storePairs(_ pairs: Words, at offset: Int) {
            let halves = unsafeBitCast(pairs, to: SIMD2<UInt64>.self)
            output.storeBytes(of: halves[0], toByteOffset: offset, as: UInt64.self)
            output.storeBytes(of: halves[1], toByteOffset: offset + 6, as: UInt64.self)
        }
        storePairs(low32(firstSecondLow, thirdLow), at: 0)      // pixels 0–3
        storePairs(high32(firstSecondLow, thirdLow), at: 12)    // 4–7
        storePairs(low32(firstSecondHigh, thirdHigh), at: 24)   // 8–11
        storePairs(high32(firstSecondHigh, thirdHigh), at: 36)  // 12–15
    }

    /// Sixteen 4-byte pixels at `output` (64 bytes): byte k of pixel i is `channels.k[i]`.
    @inline(__always)
    static func storeFour(_ channels: (Bytes, Bytes, Bytes, Bytes), _ output: UnsafeMutableRawPointer) {
        let low01 = unsafeBitCast(low8(channels.0, channels.1), to: Words.self)
        let high01 = unsafeBitCast(high8(channels.0, channels.1), to: Words.self)
        let low23 = unsafeBitCast(low8(channels.2, channels.3), to: Words.self)
        let high23 = unsafeBitCast(high8(channels.2, channels.3), to: Words.self)
        output.storeBytes(of: low16(low01, low23), as: Words.self)
        output.storeBytes(of: high16(low01, low23), toByteOffset: 16, as: Words.self)
        output.storeBytes(of: low16(high01, high23), toByteOffset: 32, as: Words.self)
        output.storeBytes(of: high16(high01, high23), toByteOffset: 48, as: Words.self)
    }

    /// The four channel vectors in `Order`'s byte order, the fill byte 255.
    @inline(__always)
    static func ordered<Order: FourByteRGBOrder>(_ r: Bytes, _ g: Bytes, _ b: Bytes, _: Order.Type) -> (Bytes, Bytes, Bytes, Bytes) {
        let fill = Bytes(repeating: 255)
        @inline(__always) func channel(at position: Int) -> Bytes {
            position == Order.red ? r : position == Order.green ? g : position == Order.blue ? b : fill
        }
        return (channel(at: 0), channel(at: 1), channel(at: 2), channel(at: 3))
    }
}
