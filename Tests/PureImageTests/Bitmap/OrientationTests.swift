import Testing
@testable import PureImage

/// All eight EXIF orientations on a 3 × 2 image, against results computed by hand from the
/// EXIF definitions ("the 0th row is the visual …").
///
///   stored:  1 2 3
///            4 5 6
@Suite struct OrientationTests {
    static let expected: [(Orientation, width: Int, height: Int, [UInt8])] = [
        (.up, 3, 2, [1, 2, 3, 4, 5, 6]),
        (.upMirrored, 3, 2, [3, 2, 1, 6, 5, 4]),
        (.down, 3, 2, [6, 5, 4, 3, 2, 1]),
        (.downMirrored, 3, 2, [4, 5, 6, 1, 2, 3]),
        (.leftMirrored, 2, 3, [1, 4, 2, 5, 3, 6]),   // 5: transpose
        (.right, 2, 3, [4, 1, 5, 2, 6, 3]),          // 6: rotate 90° clockwise
        (.rightMirrored, 2, 3, [6, 3, 5, 2, 4, 1]),  // 7: transverse
        (.left, 2, 3, [3, 6, 2, 5, 1, 4]),           // 8: rotate 90° counter-clockwise
    ]

    @Test(arguments: expected.indices)
    func grayOrientation(_ index: Int) throws {
        let (orientation, width, height, pixels) = Self.expected[index]
        let stored = try Bitmap(width: 3, height: 2, format: .gray8, bytes: [1, 2, 3, 4, 5, 6])
        let upright = stored.oriented(orientation)
        #expect(upright.width == width && upright.height == height)
        #expect(upright.bytes == pixels, "EXIF \(orientation.rawValue)")
    }

    @Test(arguments: expected.indices)
    func multiBytePixelsMoveWhole(_ index: Int) throws {
        let (orientation, _, _, pixels) = Self.expected[index]
        let stored = try Bitmap(width: 3, height: 2, format: .rgba8, bytes: (1...6).flatMap { [UInt8($0), UInt8($0 * 10), 0, 255] })
        let upright = stored.oriented(orientation)
        #expect(upright.bytes == pixels.flatMap { [$0, $0 * 10, 0, 255] })
    }

    @Test(arguments: expected.indices)
    func packedPixels(_ index: Int) throws {
        // 2-bit gray: the values 1...6 do not fit, so use (v mod 4).
        let (orientation, _, _, pixels) = Self.expected[index]
        let format = PixelFormat(colorModel: .gray, bitsPerComponent: 2, alphaInfo: .none)
        let stored = try Bitmap(width: 3, height: 2, format: format, bytes: [0b01_10_11_00, 0b00_01_10_00])
        let upright = stored.oriented(orientation)
        let unpacked = try upright.converted(to: .gray8).tightBytes.map { $0 / 85 }
        #expect(unpacked == pixels.map { $0 % 4 })
    }

    @Test func exifValuesOutsideTheRangeMeanUp() {
        #expect(Orientation(exifValue: 0) == .up)
        #expect(Orientation(exifValue: 9) == .up)
        #expect(Orientation(exifValue: 6) == .right)
    }

    @Test func croppingIntersectsWithTheBounds() throws {
        let stored = try Bitmap(width: 3, height: 2, format: .gray8, bytes: [1, 2, 3, 4, 5, 6])
        #expect(stored.cropped(toX: 1, y: 0, width: 5, height: 5)?.bytes == [2, 3, 5, 6])
        #expect(stored.cropped(toX: -1, y: 1, width: 2, height: 1)?.bytes == [4])
        #expect(stored.cropped(toX: 3, y: 0, width: 1, height: 1) == nil)
        let packed = try Bitmap(width: 3, height: 2, format: PixelFormat(colorModel: .gray, bitsPerComponent: 2, alphaInfo: .none),
                                bytes: [0b01_10_11_00, 0b00_01_10_00])
        #expect(try packed.cropped(toX: 1, y: 0, width: 2, height: 2)?.converted(to: .gray8).tightBytes.map { $0 / 85 } == [2, 3, 1, 2])
    }
}
