import Testing
@testable import PureImage

/// Every AlphaInfo × ByteOrder combination for 8-bit RGB, checked byte by byte against a table
/// written by hand from the rule in `ByteOrder`'s documentation (and Docs/Bitmap.md).
/// R = 0x11, G = 0x22, B = 0x33, A = 0xFF (opaque, so premultiplication changes nothing),
/// x = skip byte, written as 0xFF.
@Suite struct PixelLayoutTests {
    static let r: UInt8 = 0x11, g: UInt8 = 0x22, b: UInt8 = 0x33, a: UInt8 = 0xFF, x: UInt8 = 0xFF

    /// nil = the combination is invalid (pixel size not a whole number of byte-order groups).
    static let table8: [(AlphaInfo, ByteOrder, [UInt8]?)] = [
        (.none, .default, [r, g, b]),
        (.none, .order16Little, nil), (.none, .order16Big, nil),
        (.none, .order32Little, nil), (.none, .order32Big, nil),
        (.premultipliedLast, .default, [r, g, b, a]),
        (.premultipliedLast, .order16Little, [g, r, a, b]),
        (.premultipliedLast, .order16Big, [r, g, b, a]),
        (.premultipliedLast, .order32Little, [a, b, g, r]),
        (.premultipliedLast, .order32Big, [r, g, b, a]),
        (.premultipliedFirst, .default, [a, r, g, b]),
        (.premultipliedFirst, .order16Little, [r, a, b, g]),
        (.premultipliedFirst, .order16Big, [a, r, g, b]),
        (.premultipliedFirst, .order32Little, [b, g, r, a]),   // iOS display format: BGRA
        (.premultipliedFirst, .order32Big, [a, r, g, b]),
        (.last, .default, [r, g, b, a]),
        (.last, .order16Little, [g, r, a, b]),
        (.last, .order16Big, [r, g, b, a]),
        (.last, .order32Little, [a, b, g, r]),
        (.last, .order32Big, [r, g, b, a]),
        (.first, .default, [a, r, g, b]),
        (.first, .order16Little, [r, a, b, g]),
        (.first, .order16Big, [a, r, g, b]),
        (.first, .order32Little, [b, g, r, a]),
        (.first, .order32Big, [a, r, g, b]),
        (.noneSkipLast, .default, [r, g, b, x]),
        (.noneSkipLast, .order16Little, [g, r, x, b]),
        (.noneSkipLast, .order16Big, [r, g, b, x]),
        (.noneSkipLast, .order32Little, [x, b, g, r]),
        (.noneSkipLast, .order32Big, [r, g, b, x]),
        (.noneSkipFirst, .default, [x, r, g, b]),
        (.noneSkipFirst, .order16Little, [r, x, b, g]),
        (.noneSkipFirst, .order16Big, [x, r, g, b]),
        (.noneSkipFirst, .order32Little, [b, g, r, x]),        // iOS display format without alpha
        (.noneSkipFirst, .order32Big, [x, r, g, b]),
        (.alphaOnly, .default, [a]),
        (.alphaOnly, .order16Little, nil), (.alphaOnly, .order16Big, nil),
        (.alphaOnly, .order32Little, nil), (.alphaOnly, .order32Big, nil),
    ]

    @Test func tableCoversEveryCombination() {
        #expect(Self.table8.count == AlphaInfo.allCases.count * ByteOrder.allCases.count)
        for alpha in AlphaInfo.allCases {
            for order in ByteOrder.allCases {
                #expect(Self.table8.contains { $0.0 == alpha && $0.1 == order }, "\(alpha) \(order) missing")
            }
        }
    }

    @Test(arguments: table8.indices)
    func eightBitLayout(_ index: Int) throws {
        let (alpha, order, expected) = Self.table8[index]
        let format = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: alpha, byteOrder: order)
        guard let expected else {
            #expect(!format.isValid, "\(alpha) \(order) should be invalid")
            return
        }
        #expect(format.isValid)
        let source = try Bitmap(width: 1, height: 1, format: .rgba8, bytes: [Self.r, Self.g, Self.b, Self.a])
        let converted = try source.converted(to: format)
        #expect(Array(converted.row(0)) == expected, "\(alpha) \(order)")
        // And back: reading the layout recovers the components (alpha-only keeps just alpha).
        if alpha != .alphaOnly {
            let back = try converted.converted(to: .rgba8)
            #expect(Array(back.row(0)) == [Self.r, Self.g, Self.b, Self.a])
        }
    }

    /// 16-bit components: R = 0x1122, G = 0x3344, B = 0x5566, A = 0xFFFF.
    @Test func sixteenBitLayouts() throws {
        let rgba: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0xFF, 0xFF]  // big-endian, logical order
        let source = try Bitmap(width: 1, height: 1, format: PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .last), bytes: rgba)
        let cases: [(AlphaInfo, ByteOrder, [UInt8])] = [
            (.last, .default, [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0xFF, 0xFF]),
            (.last, .order16Little, [0x22, 0x11, 0x44, 0x33, 0x66, 0x55, 0xFF, 0xFF]),
            (.last, .order16Big, [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0xFF, 0xFF]),
            (.last, .order32Little, [0x44, 0x33, 0x22, 0x11, 0xFF, 0xFF, 0x66, 0x55]),
            (.first, .default, [0xFF, 0xFF, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]),
            (.first, .order16Little, [0xFF, 0xFF, 0x22, 0x11, 0x44, 0x33, 0x66, 0x55]),
            (.none, .default, [0x11, 0x22, 0x33, 0x44, 0x55, 0x66]),
            (.none, .order16Little, [0x22, 0x11, 0x44, 0x33, 0x66, 0x55]),
        ]
        for (alpha, order, expected) in cases {
            let format = PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: alpha, byteOrder: order)
            let converted = try source.converted(to: format)
            #expect(Array(converted.row(0)) == expected, "16-bit \(alpha) \(order)")
        }
        #expect(!PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .none, byteOrder: .order32Little).isValid)
    }

    @Test func containsAlphaFollowsCoreGraphics() {
        let withoutAlpha: Set<AlphaInfo> = [.none, .noneSkipFirst, .noneSkipLast]
        for alpha in AlphaInfo.allCases {
            #expect(alpha.containsAlpha == !withoutAlpha.contains(alpha))
        }
    }

    @Test func displayFormatIsHostOrderPremultipliedFirst() {
        let withAlpha = PixelFormat.display(hasAlpha: true)
        #expect(withAlpha.alphaInfo == .premultipliedFirst && withAlpha.byteOrder == .order32Little && withAlpha.bitsPerComponent == 8)
        let opaque = PixelFormat.display(hasAlpha: false)
        #expect(opaque.alphaInfo == .noneSkipFirst && opaque.byteOrder == .order32Little)
    }

    @Test func bytesPerRowZeroAlignsToEightPixels() throws {
        // 8 pixels × 4 bytes = 32-byte alignment for RGBA8; 24 for RGB8; 1 byte for 1-bit gray.
        #expect(try Bitmap(zeroedWidth: 1, height: 1, format: .rgba8).bytesPerRow == 32)
        #expect(try Bitmap(zeroedWidth: 9, height: 1, format: .rgba8).bytesPerRow == 64)
        #expect(try Bitmap(zeroedWidth: 8, height: 1, format: .rgba8).bytesPerRow == 32)
        #expect(try Bitmap(zeroedWidth: 5, height: 2, format: .rgb8).bytesPerRow == 24)
        let oneBit = PixelFormat(colorModel: .gray, bitsPerComponent: 1, alphaInfo: .none)
        #expect(try Bitmap(zeroedWidth: 9, height: 1, format: oneBit).bytesPerRow == 2)
        #expect(throws: BitmapError.self) { try Bitmap(zeroedWidth: 4, height: 1, format: .rgba8, bytesPerRow: 15) }
        #expect(try Bitmap(zeroedWidth: 4, height: 3, format: .rgba8, bytesPerRow: 20).bytes.count == 60)
    }
}
