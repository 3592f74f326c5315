import Testing
@testable import PureImage

@Suite struct ByteReaderTests {
    @Test func readsStateTheirEndianness() throws {
        var reader = ByteReader([0x12, 0x34, 0x56, 0x78, 0x9A])
        #expect(try reader.peekUInt16(.bigEndian) == 0x1234)
        #expect(try reader.peekUInt16(.littleEndian) == 0x3412)
        #expect(try reader.readUInt32(.littleEndian) == 0x7856_3412)
        #expect(reader.offset == 4)
        #expect(try reader.readUInt8() == 0x9A)
        #expect(reader.isAtEnd)
    }

    @Test func readingPastTheWindowThrowsAndDoesNotMove() throws {
        var reader = ByteReader([1, 2, 3, 4, 5, 6], range: 2..<5)
        #expect(reader.offset == 2)
        #expect(throws: ByteReaderError.endOfData(offset: 2, needed: 4, available: 3)) { try reader.readUInt32(.bigEndian) }
        #expect(reader.offset == 2)
        #expect(try reader.readUInt16(.bigEndian) == 0x0304)
        #expect(throws: ByteReaderError.self) { try reader.getUInt8(at: 1) }
        #expect(throws: ByteReaderError.self) { try reader.getBytes(at: Int.max - 1, count: 4) }
        #expect(throws: ByteReaderError.self) { try reader.skip(-1) }
    }

    @Test func inputBufferDistinguishesWaitingFromTruncated() {
        var input = InputBuffer([1, 2, 3])
        #expect(input.demand(3) == .ready)
        #expect(input.demand(4) == .needMoreInput)
        input.append(contentsOf: [4])
        #expect(input.demand(4) == .ready)
        input.close()
        #expect(input.demand(5) == .truncated)
        #expect(input.demand(Int.max, at: 2) == .truncated)
        _ = input.consume(2)
        #expect(input.readIndex == 2 && input.available == 2)
    }

    @Test func sizeMathRefusesOverflowAndLimits() throws {
        #expect(SizeMath.product(1 << 40, 1 << 30) == nil)
        #expect(SizeMath.product(3, 5, 7) == 105)
        #expect(SizeMath.product(-1, 5) == nil)
        #expect(SizeMath.rowBytes(width: 9, bitsPerPixel: 1) == 2)
        let limits = DecodeLimits(maxPixels: 1000, maxMemoryBytes: 4000)
        #expect(throws: DecodeError.self) { try SizeMath.checkImage(width: 100, height: 11, bytesPerPixel: 1, limits: limits, format: .png, offset: 16) }
        #expect(throws: DecodeError.self) { try SizeMath.checkImage(width: 10, height: 100, bytesPerPixel: 8, limits: limits, format: .png, offset: 16) }
        #expect(try SizeMath.checkImage(width: 10, height: 100, bytesPerPixel: 4, limits: limits, format: .png, offset: 16) == 4000)
    }

    @Test func crc32MatchesKnownValues() {
        // The CRC-32 check value of "123456789" is 0xCBF43926 (ISO 3309 / PNG Annex D).
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
        // Chaining equals one pass.
        let bytes = Array("IEND".utf8)
        #expect(CRC32.checksum(bytes) == 0xAE42_6082)
        #expect(CRC32.checksum(Array(bytes[2...]), initial: CRC32.checksum(Array(bytes[..<2]))) == 0xAE42_6082)
    }
}
