/// 16-bit samples into an 8-bit format the fast routes do not take from 16 bits directly —
/// gray + alpha and RGBA (16-bit PNG and TIFF with alpha, straight or premultiplied), CMYK and
/// CMYK + alpha (16-bit TIFF) — in two steps over a few hundred pixels at a time: every sample
/// narrowed to 8 bits into a small buffer, in the source's own component order, then that
/// 8-bit format converted to the target by the converter for it (a fast kernel or a reorder).
///
/// Exact, because the general route changes the depth first, before anything else it does to a
/// pixel (Bitmap+Conversion.swift, step 2), with the same rounding, (v + 128) / 257; what
/// follows depends on the colour model and alpha of the pixel, which the 8-bit format keeps.
/// `ConversionTests` compares the two routes for every source layout, byte order and target.
/// Before this the per-pixel route cost a 3 MP 16-bit RGBA PNG 41 ms on top of its 168 ms
/// decode when drawn in the display format.
///
/// Safety: x runs over 0..<width on rows that hold `width × bytesPerPixel` bytes at
/// `y × bytesPerRow` (`PixelConverter.convert`'s guarantee). A piece is at most `piecePixels`
/// pixels: `piecePixels × samplesPerPixel` bytes of the buffer, allocated for exactly that.
struct NarrowingConversion {
    /// Pixels narrowed at a time: the buffer stays in L1 between the two steps.
    static let piecePixels = 512

    let samplesPerPixel: Int
    let littleEndianSamples: Bool
    let targetBytesPerPixel: Int
    /// The 8-bit format's conversion to the target.
    let then: PixelConverter

    /// Nil unless the source has 16-bit unsigned components whose two bytes are adjacent (swap
    /// groups of at most 2 bytes), the target has 8-bit components, and the 8-bit format with the
    /// source's colour model and alpha converts to the target by a route other than the general
    /// one (otherwise narrowing first saves nothing).
    init?(from source: PixelFormat, to target: PixelFormat) {
        guard source.bitsPerComponent == 16, source.componentType == .unsignedInteger, source.byteOrder.groupBytes <= 2,
              target.bitsPerComponent == 8, target.bitsPerPixel % 8 == 0 else { return nil }
        if case .indexed = source.colorModel { return nil }
        let narrow = PixelFormat(colorModel: source.colorModel, bitsPerComponent: 8, alphaInfo: source.alphaInfo)
        guard narrow.validate() == nil, narrow.bitsPerPixel * 2 == source.bitsPerPixel,
              let then = try? PixelConverter(from: narrow, significantBits: 8, to: target, pixels: 0), then.isFast else { return nil }
        samplesPerPixel = source.bitsPerPixel / 16
        littleEndianSamples = source.byteOrder == .order16Little
        targetBytesPerPixel = target.bitsPerPixel / 8
        self.then = then
    }

    var writesWholeRows: Bool { then.writesWholeRows }

    func run(width: Int, height: Int, from source: PixelRows, into target: MutablePixelRows) {
        let samples = samplesPerPixel, piece = Self.piecePixels
        withUnsafeTemporaryAllocation(byteCount: piece * samples, alignment: 16) { buffer in
            guard let narrow = buffer.baseAddress else { return }
            for y in 0 ..< height {
                let s = source.base + y &* source.bytesPerRow, d = target.base + y &* target.bytesPerRow
                var x = 0
                while x < width {
                    let count = min(piece, width &- x)
                    // count × samples 16-bit samples from pixel x on; count × samples bytes out.
                    if littleEndianSamples {
                        Self.narrow(LittleEndianSixteen.self, s + x &* 2 &* samples, into: narrow, count: count &* samples)
                    } else {
                        Self.narrow(BigEndianSixteen.self, s + x &* 2 &* samples, into: narrow, count: count &* samples)
                    }
                    then.convert(width: count, rows: 1, from: PixelRows(base: UnsafeRawPointer(narrow), bytesPerRow: count &* samples),
                                 into: MutablePixelRows(base: d + x &* targetBytesPerPixel, bytesPerRow: count &* targetBytesPerPixel))
                    x &+= count
                }
            }
        }
    }

    /// `count` 16-bit samples at `from` to 8 bits at `into`: (v + 128) / 257, which is
    /// (w − ⌊w / 256⌋) / 256 with w = v + 128 (checked for every v by `ConversionTests`) — shifts
    /// and a subtraction in 32-bit lanes, which the compiler vectorises.
    @inline(__always)
    private static func narrow<Order: SixteenBitOrder>(_: Order.Type, _ from: UnsafeRawPointer, into: UnsafeMutableRawPointer, count: Int) {
        for i in 0 ..< count {
            let w = UInt32(Order.value(from.loadUnaligned(fromByteOffset: 2 &* i, as: UInt16.self))) &+ 128
            into.storeBytes(of: UInt8(truncatingIfNeeded: (w &- w &>> 8) &>> 8), toByteOffset: i, as: UInt8.self)
        }
    }

    /// The rounding above, for one sample (the tests check it against the general route's).
    static func narrowed(_ value: UInt16) -> UInt8 {
        let w = UInt32(value) &+ 128
        return UInt8(truncatingIfNeeded: (w &- w &>> 8) &>> 8)
    }
}

/// How a stored 16-bit sample reads as a number, as a type so that `narrow` is specialised.
private protocol SixteenBitOrder {
    static func value(_ stored: UInt16) -> UInt16
}

private enum LittleEndianSixteen: SixteenBitOrder {
    @inline(__always) static func value(_ stored: UInt16) -> UInt16 { UInt16(littleEndian: stored) }
}

private enum BigEndianSixteen: SixteenBitOrder {
    @inline(__always) static func value(_ stored: UInt16) -> UInt16 { UInt16(bigEndian: stored) }
}
