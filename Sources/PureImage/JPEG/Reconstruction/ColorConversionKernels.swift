/// Colour conversion exactly as libjpeg-turbo 2.1's jdcolor.c (T.871 JFIF §7 equations in
/// 16-bit fixed point with ONE_HALF rounding):
///
///     R = Y + ((91881 · Cr' + 2^15) >> 16)                      (1.40200 · 2^16 = 91881)
///     G = Y + ((−22554 · Cb' − 46802 · Cr' + 2^15) >> 16)       (0.34414, 0.71414)
///     B = Y + ((116130 · Cb' + 2^15) >> 16)                     (1.77200)       Cb' = Cb − 128, Cr' = Cr − 128
///
/// each clamped to 0…255. `red`, `green` and `blue` are these formulas as written: the
/// reference, and what rows narrower than a vector's sixteen pixels go through. A wider row's
/// last pixels are converted by one more vector step that ends at the row's end and overlaps
/// the previous one (the overlapped pixels are written twice, with the same values): on a
/// 160-pixel row the scalar tail was a tenth of the pixels and about half of the time.
/// jdcolor.c keeps the four products in tables indexed by Cb and Cr; here they are computed, in
/// 16-bit lanes sixteen pixels at a time (`YCCLaneKernels`, which says why that is exact), as
/// libjpeg-turbo's SIMD kernels compute them.
///
/// Unsafe kernel file: every function reads `width` samples per input row and writes
/// `width × channels` bytes to `output`.
enum ColorConversionKernels {
    @inline(__always) static func clamp(_ value: Int32) -> UInt8 { UInt8(truncatingIfNeeded: min(max(value, 0), 255)) }

    @inline(__always) static func red(_ luma: Int32, _ cr: Int32) -> Int32 { luma + ((91881 &* cr &+ 32768) >> 16) }
    @inline(__always) static func green(_ luma: Int32, _ cb: Int32, _ cr: Int32) -> Int32 {
        luma + ((-22554 &* cb &- 46802 &* cr &+ 32768) >> 16)
    }
    @inline(__always) static func blue(_ luma: Int32, _ cb: Int32) -> Int32 { luma + ((116130 &* cb &+ 32768) >> 16) }

    /// The reference formulas for pixel `i` of the rows, clamped.
    @inline(__always)
    static func pixel(_ i: Int, _ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>) -> (UInt8, UInt8, UInt8) {
        let luma = Int32(y[i]), blueDifference = Int32(cb[i]) &- 128, redDifference = Int32(cr[i]) &- 128
        return (clamp(red(luma, redDifference)), clamp(green(luma, blueDifference, redDifference)), clamp(blue(luma, blueDifference)))
    }

    /// Bound: inputs are read at 0…width − 1 (the vector body reads pixels i…i + 15 with
    /// i + 16 < width, the last step i = width − 17) and outputs written at 0…3 · width − 1
    /// (its stores reach 3i + 49 < 3 · width: two bytes past its pixels, inside the row
    /// because one more pixel follows; the scalar formula writes that last pixel after them).
    static func yccToRGB(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, width: Int,
                         _ output: UnsafeMutablePointer<UInt8>) {
        var i = 0
        while i &+ 16 < width {
            let (r, g, b) = YCCLaneKernels.convert(y + i, cb + i, cr + i)
            YCCLaneKernels.storeRGB(r, g, b, UnsafeMutableRawPointer(output + 3 &* i))
            i &+= 16
        }
        if width > 17 && i < width &- 1 {
            let last = width &- 17
            let (r, g, b) = YCCLaneKernels.convert(y + last, cb + last, cr + last)
            YCCLaneKernels.storeRGB(r, g, b, UnsafeMutableRawPointer(output + 3 &* last))
            i = width &- 1
        }
        while i < width {
            (output[3 &* i], output[3 &* i &+ 1], output[3 &* i &+ 2]) = pixel(i, y, cb, cr)
            i &+= 1
        }
    }

    /// `yccToRGB` into 4-byte pixels in `Order`'s byte order, the fourth byte 255 (an opaque
    /// pixel: what converting the RGB row to RGBA, BGRA, premultiplied or not, gives). A type
    /// per order keeps the offsets constants, so the channel vectors are placed at compile
    /// time. Bound: inputs read at 0…width − 1 (the vector body at i…i + 15 with i + 16 ≤
    /// width, the last step i = width − 16), outputs written at 0…4 · width − 1.
    static func yccToFourBytes<Order: FourByteRGBOrder>(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>,
                                                        width: Int, _ output: UnsafeMutablePointer<UInt8>, _ order: Order.Type) {
        var i = 0
        while i &+ 16 <= width {
            let (r, g, b) = YCCLaneKernels.convert(y + i, cb + i, cr + i)
            YCCLaneKernels.storeFour(YCCLaneKernels.ordered(r, g, b, order), UnsafeMutableRawPointer(output + 4 &* i))
            i &+= 16
        }
        if width >= 16 && i < width {
            let last = width &- 16
            let (r, g, b) = YCCLaneKernels.convert(y + last, cb + last, cr + last)
            YCCLaneKernels.storeFour(YCCLaneKernels.ordered(r, g, b, order), UnsafeMutableRawPointer(output + 4 &* last))
            i = width
        }
        while i < width {
            let pixel = output + 4 &* i
            (pixel[Order.red], pixel[Order.green], pixel[Order.blue]) = Self.pixel(i, y, cb, cr)
            pixel[Order.fill] = 255
            i &+= 1
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

    /// YCCK → CMYK: the colour conversion's R, G, B inverted (255 − clamp(x), the byte's
    /// complement), K as stored. Bound: as `yccToFourBytes` (exact stores).
    static func ycckToCMYK(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, _ k: UnsafePointer<UInt8>,
                           width: Int, _ output: UnsafeMutablePointer<UInt8>) {
        var i = 0
        while i &+ 16 <= width {
            let (r, g, b) = YCCLaneKernels.convert(y + i, cb + i, cr + i)
            let black = UnsafeRawPointer(k + i).loadUnaligned(as: YCCLaneKernels.Bytes.self)
            YCCLaneKernels.storeFour((~r, ~g, ~b, black), UnsafeMutableRawPointer(output + 4 &* i))
            i &+= 16
        }
        if width >= 16 && i < width {
            let last = width &- 16
            let (r, g, b) = YCCLaneKernels.convert(y + last, cb + last, cr + last)
            let black = UnsafeRawPointer(k + last).loadUnaligned(as: YCCLaneKernels.Bytes.self)
            YCCLaneKernels.storeFour((~r, ~g, ~b, black), UnsafeMutableRawPointer(output + 4 &* last))
            i = width
        }
        while i < width {
            let (r, g, b) = pixel(i, y, cb, cr)
            output[4 &* i] = 255 &- r
            output[4 &* i &+ 1] = 255 &- g
            output[4 &* i &+ 2] = 255 &- b
            output[4 &* i &+ 3] = k[i]
            i &+= 1
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
