import Testing
@testable import PureImage

/// `ColorConversionKernels.yccToRGB`, `yccToFourBytes` (each byte order) and `ycckToCMYK`
/// (`YCCLaneKernels` for sixteen pixels at a time, the scalar formulas for the rest) against
/// jdcolor.c's formulas as written (`red`, `green`, `blue` in 32 bits), bit for bit: every
/// (Y, Cb, Cr) triple, and rows of every width up to 100 with nothing written past the row.
@Suite struct JPEGColorConversionTests {
    typealias K = ColorConversionKernels

    static func reference(_ y: Int, _ cb: Int, _ cr: Int) -> (UInt8, UInt8, UInt8) {
        let luma = Int32(y), b = Int32(cb) - 128, r = Int32(cr) - 128
        return (K.clamp(K.red(luma, r)), K.clamp(K.green(luma, b, r)), K.clamp(K.blue(luma, b)))
    }

    static func fourBytes<Order: FourByteRGBOrder>(_ y: UnsafeBufferPointer<UInt8>, _ cb: UnsafeBufferPointer<UInt8>,
                                                   _ cr: UnsafeBufferPointer<UInt8>, width: Int, _ output: inout [UInt8], _ order: Order.Type) {
        output.withUnsafeMutableBufferPointer { out in
            K.yccToFourBytes(y.baseAddress!, cb.baseAddress!, cr.baseAddress!, width: width, out.baseAddress!, order)
        }
    }

    /// All 2^24 triples: for each (Cb, Cr), a row of the 256 Y values, through every kernel.
    @Test func everyTripleConvertsAsJdcolorDoes() {
        let luma = (0..<256).map { UInt8($0) }
        var rgb = [UInt8](repeating: 0, count: 3 * 256), cmyk = [UInt8](repeating: 0, count: 4 * 256)
        var rgbx = cmyk, bgrx = cmyk, xrgb = cmyk, xbgr = cmyk
        var blue = [UInt8](repeating: 0, count: 256), red = blue
        let black = (0..<256).map { UInt8(255 - $0) }
        var differing: [(Int, Int)] = []
        for cb in 0..<256 {
            for cr in 0..<256 {
                for i in 0..<256 { blue[i] = UInt8(cb); red[i] = UInt8(cr) }
                luma.withUnsafeBufferPointer { y in
                blue.withUnsafeBufferPointer { b in
                red.withUnsafeBufferPointer { r in
                black.withUnsafeBufferPointer { k in
                    rgb.withUnsafeMutableBufferPointer { out in
                        K.yccToRGB(y.baseAddress!, b.baseAddress!, r.baseAddress!, width: 256, out.baseAddress!)
                    }
                    cmyk.withUnsafeMutableBufferPointer { out in
                        K.ycckToCMYK(y.baseAddress!, b.baseAddress!, r.baseAddress!, k.baseAddress!, width: 256, out.baseAddress!)
                    }
                    Self.fourBytes(y, b, r, width: 256, &rgbx, RGBXOrder.self)
                    Self.fourBytes(y, b, r, width: 256, &bgrx, BGRXOrder.self)
                    Self.fourBytes(y, b, r, width: 256, &xrgb, XRGBOrder.self)
                    Self.fourBytes(y, b, r, width: 256, &xbgr, XBGROrder.self)
                }
                }
                }
                }
                var same = true
                for y in 0..<256 {
                    let (r, g, b) = Self.reference(y, cb, cr)
                    same = same && rgb[3 * y] == r && rgb[3 * y + 1] == g && rgb[3 * y + 2] == b
                    same = same && cmyk[4 * y] == 255 - r && cmyk[4 * y + 1] == 255 - g && cmyk[4 * y + 2] == 255 - b
                        && cmyk[4 * y + 3] == UInt8(255 - y)
                    same = same && Array(rgbx[(4 * y)..<(4 * y + 4)]) == [r, g, b, 255] && Array(bgrx[(4 * y)..<(4 * y + 4)]) == [b, g, r, 255]
                        && Array(xrgb[(4 * y)..<(4 * y + 4)]) == [255, r, g, b] && Array(xbgr[(4 * y)..<(4 * y + 4)]) == [255, b, g, r]
                }
                if !same { differing.append((cb, cr)) }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) (Cb, Cr) rows differ, first \(differing.prefix(4))")
    }

    /// Random, extreme and alternating rows of widths 1…100 (the vector body and every tail
    /// length); the bytes after the row stay untouched.
    @Test func rowsOfEveryWidthConvertAndStayInside() {
        var generator = JPEGIDCTLaneTests.SplitMix64(seed: 0xC010_0A5E)
        var failures: [String] = []
        for width in 1...100 {
            for pattern in 0..<6 {
                func sample(_ i: Int) -> UInt8 {
                    switch pattern {
                    case 0: return 0
                    case 1: return 255
                    case 2: return i & 1 == 0 ? 0 : 255
                    default: return UInt8(truncatingIfNeeded: generator.next())
                    }
                }
                let y = (0..<width).map(sample), cb = (0..<width).map(sample), cr = (0..<width).map(sample)
                var expected = [UInt8](repeating: 0xA5, count: 3 * width + 16)
                for i in 0..<width {
                    let (r, g, b) = Self.reference(Int(y[i]), Int(cb[i]), Int(cr[i]))
                    expected[3 * i] = r; expected[3 * i + 1] = g; expected[3 * i + 2] = b
                }
                var expectedBGRX = [UInt8](repeating: 0xA5, count: 4 * width + 16), expectedCMYK = expectedBGRX
                for i in 0..<width {
                    let (r, g, b) = Self.reference(Int(y[i]), Int(cb[i]), Int(cr[i]))
                    expectedBGRX.replaceSubrange((4 * i)..<(4 * i + 4), with: [b, g, r, 255])
                    expectedCMYK.replaceSubrange((4 * i)..<(4 * i + 4), with: [255 - r, 255 - g, 255 - b, cb[i]])
                }
                var actual = [UInt8](repeating: 0xA5, count: 3 * width + 16)
                var actualBGRX = [UInt8](repeating: 0xA5, count: 4 * width + 16), actualCMYK = actualBGRX
                y.withUnsafeBufferPointer { y in
                cb.withUnsafeBufferPointer { cb in
                cr.withUnsafeBufferPointer { cr in
                    actual.withUnsafeMutableBufferPointer { out in
                        K.yccToRGB(y.baseAddress!, cb.baseAddress!, cr.baseAddress!, width: width, out.baseAddress!)
                    }
                    Self.fourBytes(y, cb, cr, width: width, &actualBGRX, BGRXOrder.self)
                    actualCMYK.withUnsafeMutableBufferPointer { out in
                        // Cb doubles as K: any byte row will do.
                        K.ycckToCMYK(y.baseAddress!, cb.baseAddress!, cr.baseAddress!, cb.baseAddress!, width: width, out.baseAddress!)
                    }
                }
                }
                }
                if actual != expected { failures.append("RGB width \(width) pattern \(pattern)") }
                if actualBGRX != expectedBGRX { failures.append("BGRX width \(width) pattern \(pattern)") }
                if actualCMYK != expectedCMYK { failures.append("CMYK width \(width) pattern \(pattern)") }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(8))")
    }
}
