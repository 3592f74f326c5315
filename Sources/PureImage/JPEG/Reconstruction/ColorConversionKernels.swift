/// Colour conversion exactly as libjpeg-turbo 2.1's jdcolor.c (T.871 JFIF §7 equations in
/// 16-bit fixed point with ONE_HALF rounding):
///
///     R = Y + ((91881 · Cr' + 2^15) >> 16)                      (1.40200 · 2^16 = 91881)
///     G = Y + ((−22554 · Cb' − 46802 · Cr' + 2^15) >> 16)       (0.34414, 0.71414)
///     B = Y + ((116130 · Cb' + 2^15) >> 16)                     (1.77200)       Cb' = Cb − 128, Cr' = Cr − 128
///
/// each clamped to 0…255. `red`, `green` and `blue` are these formulas as written (the
/// reference). jdcolor.c keeps the four products in tables indexed by Cb and Cr; here they are
/// computed, which lets the compiler turn the loops into vector code, where table look-ups
/// cannot be — and computed in 16-bit lanes (`red16`, `green16`, `blue16`): on the SSE2
/// baseline a 32-bit lane multiply is emulated (`pmuludq` and shuffles), a 16-bit one
/// (`pmullw`) is one instruction, eight lanes at a time. A 6 MP 4:2:0 decode went from 21.3
/// to 19.2 ms with that change alone.
///
/// **Why the 16-bit forms are exact.** With x = Cb' or Cr' in −128…127 and the constant split
/// as c = 256 · h + l,
///
///     ⌊(c·x + 2^15) / 2^16⌋ = ⌊(h·x + ⌊(l·x + 2^15) / 2^8⌋) / 2^8⌋
///
/// because ⌊(⌊a⌋ + n) / m⌋ = ⌊(a + n) / m⌋ for integers n and m > 0. With |h| ≤ 103 and |l| ≤
/// 94, |h·x| ≤ 13184 and l·x + 2^15 lies in 0…65535, so every term fits 16 bits (the inner
/// shift is a logical one on the UInt16 bit pattern). Constants too large for that first give
/// up a multiple of 2^16, which leaves the floor exactly:
///
///     91881·x  = 2^16·x   + 26345·x      26345 = 103·256 − 23
///     116130·x = 2^17·x   − 14942·x     −14942 = −58·256 − 94
///     −46802·x = −2^16·x  + 18734·x      18734 = 73·256 + 46,  −22554 = −88·256 − 26
///
/// (green's two products share one floor: |h| sums to ≤ 161 · 128 = 20608, |l| to ≤ 72 · 128 =
/// 9216). Each result lies in −227…481, inside Int16. `JPEGColorConversionTests` compares the
/// two forms on all 2^24 (Y, Cb, Cr) triples.
///
/// Unsafe kernel file: every function reads `width` samples per input row and writes
/// `width × channels` bytes to `output`.
enum ColorConversionKernels {
    @inline(__always) static func clamp(_ value: Int32) -> UInt8 { UInt8(truncatingIfNeeded: min(max(value, 0), 255)) }
    @inline(__always) static func clamp(_ value: Int16) -> UInt8 { UInt8(truncatingIfNeeded: min(max(value, 0), 255)) }

    @inline(__always) static func red(_ luma: Int32, _ cr: Int32) -> Int32 { luma + ((91881 &* cr &+ 32768) >> 16) }
    @inline(__always) static func green(_ luma: Int32, _ cb: Int32, _ cr: Int32) -> Int32 {
        luma + ((-22554 &* cb &- 46802 &* cr &+ 32768) >> 16)
    }
    @inline(__always) static func blue(_ luma: Int32, _ cb: Int32) -> Int32 { luma + ((116130 &* cb &+ 32768) >> 16) }

    /// ⌊(l·x + 2^15) / 2^8⌋ for the split above, as an Int16 (0…255).
    @inline(__always) static func roundedLow(_ sum: Int16) -> Int16 { Int16(bitPattern: UInt16(bitPattern: sum &+ Int16.min) &>> 8) }

    @inline(__always) static func red16(_ luma: Int16, _ cr: Int16) -> Int16 {
        luma &+ cr &+ ((cr &* 103 &+ roundedLow(cr &* -23)) &>> 8)
    }
    @inline(__always) static func green16(_ luma: Int16, _ cb: Int16, _ cr: Int16) -> Int16 {
        luma &- cr &+ ((cb &* -88 &+ cr &* 73 &+ roundedLow(cb &* -26 &+ cr &* 46)) &>> 8)
    }
    @inline(__always) static func blue16(_ luma: Int16, _ cb: Int16) -> Int16 {
        luma &+ (cb &<< 1) &+ ((cb &* -58 &+ roundedLow(cb &* -94)) &>> 8)
    }

    /// Bound: `i < width`, so inputs are read at 0…width − 1 and outputs written at
    /// 0…3 · width − 1.
    static func yccToRGB(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, width: Int,
                         _ output: UnsafeMutablePointer<UInt8>) {
        for i in 0..<width {
            let luma = Int16(y[i]), blueDifference = Int16(cb[i]) &- 128, redDifference = Int16(cr[i]) &- 128
            output[3 &* i] = clamp(red16(luma, redDifference))
            output[3 &* i &+ 1] = clamp(green16(luma, blueDifference, redDifference))
            output[3 &* i &+ 2] = clamp(blue16(luma, blueDifference))
        }
    }

    /// `yccToRGB` into 4-byte pixels in `Order`'s byte order, the fourth byte 255 (an opaque
    /// pixel: what converting the RGB row to RGBA, BGRA, premultiplied or not, gives). A type
    /// per order keeps the offsets constants, so the loop vectorises as `yccToRGB` does.
    /// Bound: inputs read at 0…width − 1, outputs written at 0…4 · width − 1.
    static func yccToFourBytes<Order: FourByteRGBOrder>(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>,
                                                        width: Int, _ output: UnsafeMutablePointer<UInt8>, _: Order.Type) {
        for i in 0..<width {
            let luma = Int16(y[i]), blueDifference = Int16(cb[i]) &- 128, redDifference = Int16(cr[i]) &- 128
            let pixel = output + 4 &* i
            pixel[Order.red] = clamp(red16(luma, redDifference))
            pixel[Order.green] = clamp(green16(luma, blueDifference, redDifference))
            pixel[Order.blue] = clamp(blue16(luma, blueDifference))
            pixel[Order.fill] = 255
        }
    }

    /// One output row of 4-byte pixels in `order`, from the rows of `transform` (Y, Cb, Cr;
    /// R, G, B; or gray, whose one row the caller passes three times). Bound: as
    /// `yccToFourBytes`.
    static func toFourBytes(_ order: FourByteRGB.Order, from transform: JPEGColorTransform, _ a: UnsafePointer<UInt8>,
                            _ b: UnsafePointer<UInt8>, _ c: UnsafePointer<UInt8>, width: Int, _ output: UnsafeMutablePointer<UInt8>) {
        func run<Order: FourByteRGBOrder>(_ type: Order.Type) {
            switch transform {
            case .yccToRGB: yccToFourBytes(a, b, c, width: width, output, type)
            case .gray: grayToFourBytes(a, width: width, output, type)
            default: rgbToFourBytes(a, b, c, width: width, output, type)
            }
        }
        switch order {
        case .rgbx: run(RGBXOrder.self)
        case .bgrx: run(BGRXOrder.self)
        case .xrgb: run(XRGBOrder.self)
        case .xbgr: run(XBGROrder.self)
        }
    }

    /// Gray into 4-byte pixels (gray → RGB replicates): the sample in all three colour bytes and
    /// 255 in the fourth, one 4-byte store a pixel built with shifts, which the compiler runs
    /// several pixels per vector (byte stores through three row pointers that might alias the
    /// output did not vectorise: the display decode of a gray JPEG cost 1.33× its native one).
    /// Bound: `width` bytes in, 4 · width bytes out.
    static func grayToFourBytes<Order: FourByteRGBOrder>(_ gray: UnsafePointer<UInt8>, width: Int,
                                                         _ output: UnsafeMutablePointer<UInt8>, _: Order.Type) {
        let fill = UInt32(0xFF) &<< UInt32(8 &* Order.fill)
        let colour = ~(UInt32(0xFF) &<< UInt32(8 &* Order.fill))
        let out = UnsafeMutableRawPointer(output)
        for i in 0..<width {
            let g = UInt32(gray[i])
            let word = ((g | g &<< 8 | g &<< 16 | g &<< 24) & colour) | fill
            out.storeBytes(of: word.littleEndian, toByteOffset: 4 &* i, as: UInt32.self)
        }
    }

    /// Stored RGB (no transform) into 4-byte pixels, as `yccToFourBytes`. Same bounds.
    static func rgbToFourBytes<Order: FourByteRGBOrder>(_ r: UnsafePointer<UInt8>, _ g: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                                                        width: Int, _ output: UnsafeMutablePointer<UInt8>, _: Order.Type) {
        for i in 0..<width {
            let pixel = output + 4 &* i
            pixel[Order.red] = r[i]
            pixel[Order.green] = g[i]
            pixel[Order.blue] = b[i]
            pixel[Order.fill] = 255
        }
    }

    /// Bound: as `yccToRGB`, 4 · width bytes out.
    static func ycckToCMYK(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, _ k: UnsafePointer<UInt8>,
                           width: Int, _ output: UnsafeMutablePointer<UInt8>) {
        for i in 0..<width {
            let luma = Int16(y[i]), blueDifference = Int16(cb[i]) &- 128, redDifference = Int16(cr[i]) &- 128
            output[4 &* i] = clamp(255 &- red16(luma, redDifference))
            output[4 &* i &+ 1] = clamp(255 &- green16(luma, blueDifference, redDifference))
            output[4 &* i &+ 2] = clamp(255 &- blue16(luma, blueDifference))
            output[4 &* i &+ 3] = k[i]
        }
    }

    /// RGB (Adobe transform 0, or 'R','G','B' ids) and CMYK as stored: interleave (any sample
    /// size).
    static func interleave<Sample>(_ rows: [UnsafePointer<Sample>], width: Int, _ output: UnsafeMutablePointer<Sample>) {
        let channels = rows.count
        for (c, row) in rows.enumerated() {
            var o = output + c
            for i in 0..<width { o.pointee = row[i]; o += channels }
        }
    }
}
