@testable import PureImage
import Testing

/// The GIF LZW decoder on hand-written code streams. Each stream lists `(code, width)` pairs so
/// the width the decoder must use is stated by hand; `pack` only does the LSB-first bit
/// packing of GIF89a Appendix F.
@Suite("GIF LZW")
struct GIFLZWTests {
    /// LSB-first packing: each code's low bit goes to the lowest free bit of the current byte.
    static func pack(_ codes: [(code: Int, width: Int)]) -> [UInt8] {
        var bytes: [UInt8] = []
        var accumulator = 0, bits = 0
        for (code, width) in codes {
            accumulator |= code << bits
            bits += width
            while bits >= 8 { bytes.append(UInt8(accumulator & 0xFF)); accumulator >>= 8; bits -= 8 }
        }
        if bits > 0 { bytes.append(UInt8(accumulator & 0xFF)) }
        return bytes
    }

    /// Decodes `input` in pieces of `chunk` bytes into an output of `capacity` bytes.
    static func run(_ input: [UInt8], minimumCodeSize: Int = 2, capacity: Int, chunk: Int? = nil) -> (output: [UInt8], stop: LZWDecoder.Stop) {
        var decoder = LZWDecoder(variant: .gif, minimumCodeSize: minimumCodeSize)
        var output = [UInt8](repeating: 0xEE, count: capacity)
        var stop = LZWDecoder.Stop.needMoreInput
        let step = max(1, chunk ?? max(1, input.count))
        var position = 0
        output.withUnsafeMutableBufferPointer { out in
            repeat {
                let end = min(input.count, position + step)
                stop = input[position..<end].withUnsafeBytes { decoder.decode($0, into: out) }
                position = end
            } while stop == .needMoreInput && position < input.count
        }
        #expect(decoder.dictionary.invariantsHold(written: decoder.written, endCode: decoder.endCode))
        return (Array(output.prefix(decoder.written)), stop)
    }

    @Test func bitPackingMatchesTheWorkedExample() {
        // Minimum code size 2: clear = 4, end = 5, first free = 6, codes start 3 bits wide.
        // Pixels 1 2 3 0: clear(3) 1(3) 2(3) 3(3) — after the third code the next free slot is
        // 8 = 2^3, so 0 and the end code are 4 bits wide.
        let bytes = Self.pack([(4, 3), (1, 3), (2, 3), (3, 3), (0, 4), (5, 4)])
        #expect(bytes == [0x8C, 0x06, 0x05])
        let result = Self.run(bytes, capacity: 4)
        #expect(result.output == [1, 2, 3, 0])
        #expect(result.stop == .outputFull)
    }

    @Test func kwkwkCodeIsTheEntryBeingDefined() {
        // clear, 0 → "0"; 6 (= next free, not yet defined) → "0"+"0"; 7 (next free again) → "00"+"0".
        // After code "6" the table has 6 = "00"; next free 7; after "7": 7 = "000", next free 8 →
        // 4 bits from here on.
        let bytes = Self.pack([(4, 3), (0, 3), (6, 3), (7, 3), (5, 4)])
        let result = Self.run(bytes, capacity: 16)
        #expect(result.output == [0, 0, 0, 0, 0, 0])
        #expect(result.stop == .endCode)
    }

    @Test func clearCodeResetsWidthAndTable() {
        // 1 2 (entry 6 = "12") 6 → "12"; clear; 6 is now undefined and must not be used
        // before it is redefined: 3 3 (entry 6 = "33") 6 → "33".
        let codes: [(Int, Int)] = [(4, 3), (1, 3), (2, 3), (6, 3), (4, 4), (3, 3), (3, 3), (6, 3), (5, 4)]
        let result = Self.run(Self.pack(codes), capacity: 32)
        #expect(result.output == [1, 2, 1, 2, 3, 3, 3, 3])
        #expect(result.stop == .endCode)
    }

    @Test func widthGrowsAtEachPowerOfTwo() {
        // All-literal stream with minimum code size 2: after literal number i (0-based) the next
        // free slot is 6 + i. Width 3 while that is < 8, 4 while < 16, 5 while < 32, … 12 max.
        var codes: [(Int, Int)] = [(4, 3)]
        var expected: [UInt8] = []
        var width = 3
        for i in 0 ..< 60 {
            codes.append((i % 4, width))
            expected.append(UInt8(i % 4))
            if 6 + i >= 1 << width { width += 1 }
        }
        // The boundaries, by hand: literal 3 is the first 4-bit code, 11 the first 5-bit one,
        // 27 the first 6-bit one.
        #expect(codes[1 + 2].1 == 3 && codes[1 + 3].1 == 4)
        #expect(codes[1 + 10].1 == 4 && codes[1 + 11].1 == 5)
        #expect(codes[1 + 26].1 == 5 && codes[1 + 27].1 == 6)
        codes.append((5, width))
        let result = Self.run(Self.pack(codes), capacity: 100)
        #expect(result.output == expected)
        #expect(result.stop == .endCode)
    }

    @Test func fullTableWithoutClearKeepsDecodingAt12Bits() {
        // 4090 literals fill slots 6…4095 (the 4090th defines 4095 at 12 bits). Then without a
        // clear: more literals at 12 bits, and code 4095 (defined: "literal 4088, literal 4089")
        // still works. Giflib and browsers do the same ("deferred clear").
        var codes: [(Int, Int)] = [(4, 3)]
        var expected: [UInt8] = []
        var width = 3
        var nextFree = 6
        for i in 0 ..< 4091 {
            codes.append((i % 3, width))
            expected.append(UInt8(i % 3))
            if i > 0 && nextFree < 4096 { nextFree += 1 }
            if nextFree >= 1 << width && width < 12 { width += 1 }
        }
        #expect(nextFree == 4096 && width == 12)
        // Entry 4095 = string(literal 4089) + first byte of literal 4090.
        codes.append((4095, 12))
        expected += [UInt8(4089 % 3), UInt8(4090 % 3)]
        codes.append((1, 12))
        expected.append(1)
        codes.append((5, 12))
        let result = Self.run(Self.pack(codes), capacity: 5000)
        #expect(result.output == expected)
        #expect(result.stop == .endCode)
    }

    @Test func invalidCodeStopsAndKeepsEarlierOutput() {
        // clear 1 2 3 (next free 8, width 4) then 9: above the next free slot, invalid.
        let result = Self.run(Self.pack([(4, 3), (1, 3), (2, 3), (3, 3), (9, 4), (5, 4)]), capacity: 16)
        #expect(result.output == [1, 2, 3])
        #expect(result.stop == .invalidCode(9))
        // A non-literal first code after clear is invalid too (nothing to repeat).
        let first = Self.run(Self.pack([(4, 3), (6, 3)]), capacity: 16)
        #expect(first.output.isEmpty)
        #expect(first.stop == .invalidCode(6))
    }

    @Test func missingEndCodeAndExcessData() {
        // Output full before the end code: the rest is ignored.
        let full = Self.run(Self.pack([(4, 3), (1, 3), (2, 3), (3, 3), (0, 4), (1, 4), (2, 4)]), capacity: 3)
        #expect(full.output == [1, 2, 3])
        #expect(full.stop == .outputFull)
        // Input ends without an end code and before the output is full (3+3+3+3+4 bits = two
        // whole bytes, so no padding bits are read as codes).
        let short = Self.run(Self.pack([(4, 3), (1, 3), (2, 3), (3, 3), (0, 4)]), capacity: 10)
        #expect(short.output == [1, 2, 3, 0])
        #expect(short.stop == .needMoreInput)
    }

    @Test func stringCutAtTheEndOfTheOutput() {
        // clear 1 1 6(= "11") — the output has room for 3 pixels only.
        let result = Self.run(Self.pack([(4, 3), (1, 3), (1, 3), (6, 3), (5, 4)]), capacity: 3)
        #expect(result.output == [1, 1, 1])
        #expect(result.stop == .outputFull)
    }

    @Test func resumesAcrossAnyInputSplit() {
        var codes: [(Int, Int)] = [(4, 3)]
        var width = 3
        for i in 0 ..< 300 {
            codes.append(((i * 7) % 4, width))
            if 6 + i >= 1 << width && width < 12 { width += 1 }
        }
        codes.append((5, width))
        let bytes = Self.pack(codes)
        let whole = Self.run(bytes, capacity: 400)
        for chunk in [1, 2, 3, 7, 64] {
            let pieces = Self.run(bytes, capacity: 400, chunk: chunk)
            #expect(pieces.output == whole.output)
            #expect(pieces.stop == whole.stop)
        }
    }

    @Test func minimumCodeSizesTwoToEleven() {
        // Sizes 9–11 (accepted like Chromium and Firefox): a literal above 255 is its low byte.
        for size in 2...11 {
            let clear = 1 << size
            let codes: [(Int, Int)] = [(clear, size + 1), (clear - 1, size + 1), (0, size + 1), (clear + 1, size + 1)]
            let result = Self.run(Self.pack(codes), minimumCodeSize: size, capacity: 8)
            #expect(result.output == [UInt8(truncatingIfNeeded: clear - 1), 0], "size \(size)")
            #expect(result.stop == .endCode)
        }
    }

    @Test func minimumCodeSizeOneWidensLikeGiflib() {
        // Size 1: clear = 2, end = 3, first free 4, codes start 2 bits wide. giflib counts the
        // first code after clear in RunningCode, so right after it the next free slot (4) is
        // 2^2 and the width is already 3.
        let result = Self.run(Self.pack([(2, 2), (1, 2), (0, 3), (4, 3), (3, 3)]), minimumCodeSize: 1, capacity: 8)
        #expect(result.output == [1, 0, 1, 0])   // 4 = "1" + "0"
        #expect(result.stop == .endCode)
    }
}
