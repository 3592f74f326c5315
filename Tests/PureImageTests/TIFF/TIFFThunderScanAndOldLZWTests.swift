import Testing
@testable import PureImage

/// ThunderScan (compression 32809) and pre-6.0 "old-style" LZW, by hand: each code of the
/// ThunderScan table and libtiff's row rules, and an LSB-first LZW stream.
@Suite struct TIFFThunderScanAndOldLZWTests {
    private func thunder(_ input: [UInt8], width: Int, rows: Int = 1) -> (bytes: [UInt8], written: Int, problem: String?, unwritten: [Range<Int>]) {
        let rowBytes = (width + 1) / 2
        var output = [UInt8](repeating: 0, count: rowBytes * rows)
        let result = ThunderScan.decode(ArraySlice(input), width: width, rows: rows, rowBytes: rowBytes, into: &output)
        return (output, result.written, result.problem, result.unwritten)
    }

    /// The worked example of ThunderScan.swift: raw 5; 2-bit deltas 0, 0, −1; 3-bit deltas +1, −1.
    @Test func rawAndDeltaCodes() {
        let result = thunder([0xC5, 0x43, 0x8F], width: 6)
        #expect(result.bytes == [0x55, 0x54, 0x54])
        #expect(result.written == 3)
        #expect(result.problem == nil)
    }

    /// Skip deltas write nothing: 0x69 is 2-bit deltas (skip, skip, +1); 0xA7 is 3-bit (skip, −1).
    @Test func skipDeltasWriteNoPixel() {
        let result = thunder([0xC3, 0x69, 0xA7], width: 3)
        #expect(result.bytes == [0x34, 0x30])
        #expect(result.problem == nil)
    }

    /// Deltas wrap modulo 16: raw 15 then +1 gives 0; raw 0 then −1 gives 15.
    @Test func deltasWrap() {
        let result = thunder([0xCF, 0x8F, 0xC0, 0x7F], width: 4)
        // 15, then +1 → 0, −1 → 15; then raw 0.
        #expect(result.bytes == [0xF0, 0xF0])
        #expect(result.problem == nil)
    }

    /// A run after an odd pixel completes the half-filled byte first, then repeats the pixel.
    @Test func runAfterAnOddPixel() {
        // raw 3; run of 3; raw 1; raw 2 → 3 3 3 3 1 2.
        let result = thunder([0xC3, 0x03, 0xC1, 0xC2], width: 6)
        #expect(result.bytes == [0x33, 0x33, 0x12])
        #expect(result.problem == nil)
        #expect(result.unwritten.isEmpty)
    }

    /// libtiff 4.5 writes a run only while it ends before the row's last pixel: one that ends
    /// exactly there is counted (the row is complete, no error) but not written.
    @Test func runEndingAtTheRowEndIsNotWritten() {
        // raw 7; run of 5 → the odd fill writes pixel 1, the other 4 reach the end: not written.
        let result = thunder([0xC7, 0x05], width: 6)
        #expect(result.bytes == [0x77, 0x00, 0x00])
        #expect(result.problem == nil)
        #expect(result.unwritten == [1..<3])
    }

    /// A row whose codes run out is an error; libtiff zeroes it from its last whole byte.
    @Test func shortRowIsAnErrorAndZeroed() {
        let result = thunder([0xC1, 0xC2, 0xC3], width: 4, rows: 2)
        #expect(result.bytes == [0x12, 0x00, 0x00, 0x00])
        #expect(result.problem?.contains("not enough data at row 0") == true)
        #expect(result.written == 1)
    }

    /// Each row starts again from pixel 0 and reads on where the previous row stopped.
    @Test func rowsContinueTheStream() {
        let result = thunder([0xC9, 0xC8, 0x40 | 0x3F, 0xC1], width: 2, rows: 2)
        // Row 0: 9, 8. Row 1: the 2-bit deltas (−1, −1, −1) start from 0 → 15, 14 (the third is dropped: row full).
        #expect(result.bytes == [0x98, 0xFE])
    }

    /// Old-style LZW: Clear, 'A', 'B', 258 ("AB"), End as 9-bit codes packed LSB-first
    /// (256 = 1 0000 0000: byte 0 is 0x00, bit 0 of byte 1 is 1 — how libtiff tells the flavours apart).
    @Test func oldStyleLZWStream() {
        let stream: [UInt8] = [0x00, 0x83, 0x08, 0x11, 0x18, 0x10]
        #expect(TIFFLZWDecoder.isOldStyle(ArraySlice(stream)))
        #expect(!TIFFLZWDecoder.isOldStyle([0x80, 0x10, 0x48]))
        var output = [UInt8](repeating: 0, count: 4)
        let result = TIFFLZWDecoder.decode(ArraySlice(stream), oldStyle: true, into: &output)
        #expect(result.written == 4)
        #expect(output == Array("ABAB".utf8))
    }
}
