import Testing
import CReference
import PureImageConformance
@testable import PureImage

/// CCITT RLEW (compression 32771): modified Huffman rows, each padded to a 16-bit word. libtiff
/// cannot write it, so the rows are coded here from T.4's tables, and every file is compared
/// with libtiff's decoder — whose word alignment depends on how many bytes it has read ahead
/// and on the strip's address parity (`CCITTFaxDecoder.Scheme.modifiedHuffmanWordAligned`).
@Suite struct TIFFCCITTRLEWTests {
    /// T.4 1-D codes for alternating white and black runs (white first): make-up codes (the
    /// extended ones from 1792) then a terminating code for each run.
    static func codedRow(_ runs: [Int]) -> String {
        var bits = ""
        for (index, run) in runs.enumerated() {
            let black = index % 2 == 1
            var left = run
            while left >= 64 {
                let makeUp = min(left / 64, 40)   // 40 × 64 = 2560, the largest make-up code
                bits += makeUp >= 28 ? CCITTCodes.extendedMakeUp[makeUp - 28]
                                     : (black ? CCITTCodes.blackMakeUp : CCITTCodes.whiteMakeUp)[makeUp - 1]
                left -= makeUp * 64
            }
            bits += (black ? CCITTCodes.blackTerminating : CCITTCodes.whiteTerminating)[left]
        }
        return bits
    }

    /// Rows of random runs adding up to `width`, each row's code padded with zeros to 16 bits.
    static func stream(width: Int, rows: Int, random: inout TIFFRobustnessTests.Random) -> [UInt8] {
        var bits = ""
        for _ in 0..<rows {
            var runs: [Int] = [], x = 0
            while x < width {
                let run = min(width - x, Int(random.next() % UInt64(runs.count % 2 == 0 ? 90 : 20)))
                runs.append(run)
                x += run
            }
            if runs.count % 2 == 0 { runs.append(0) }   // end on a white run, as a coder might not
            var row = codedRow(runs)
            while row.count % 16 != 0 { row += "0" }
            bits += row
        }
        return TIFFCCITTTests.bits(bits)
    }

    /// A bilevel RLEW page in one strip whose data starts `lead` bytes after the header
    /// (header 8 bytes: lead 1 puts it at an odd offset).
    static func file(width: Int, rows: Int, strip: [UInt8], lead: Int) -> [UInt8] {
        var b = TIFFBuilder(.little)
        b.data = [UInt8](repeating: 0, count: lead) + strip
        b.short(256, UInt16(width)); b.short(257, UInt16(rows))
        b.short(258, 1); b.short(259, 32771); b.short(262, 0)
        b.long(273, b.dataOffset + UInt32(lead)); b.short(277, 1); b.short(278, UInt16(rows))
        b.long(279, UInt32(strip.count))
        return b.build()
    }

    /// Word-aligned rows at an even and an odd file offset, for widths whose rows end at every
    /// bit position: PureImage's samples (where libtiff gives them) and RGBA are libtiff's.
    @Test(arguments: [0, 1])
    func rowsMatchLibtiffAtEitherOffsetParity(lead: Int) throws {
        var random = TIFFRobustnessTests.Random(state: 0x9E37_79B9_7F4A_7C15 &+ UInt64(lead))
        for width in [8, 16, 37, 100, 333, 1728] {
            let strip = Self.stream(width: width, rows: 40, random: &random)
            // Read as libtiff reads them, words go missing (see below) and rows can fail: its
            // samples interface then refuses the strip, and the RGBA comparison remains.
            try TIFFReference.expectMatchesLibtiff(Self.file(width: width, rows: 40, strip: strip, lead: lead), "width \(width), lead \(lead)",
                                                   failedStrip: true)
        }
    }

    /// libtiff's word alignment by hand. Row 1 is one word: white 2 ("0111"), black 3 ("10"),
    /// white 3 ("1000"), six zero bits. To decode it libtiff has loaded three bytes (its
    /// 13-bit look-up for the black code took byte 2), holds 14 bits, drops them all (14 mod 16)
    /// and, its read pointer now odd, passes over byte 3: the word after row 1 is never read, and
    /// its second row comes from the third word — white 0 ("00110101"), black 8 ("000101") =
    /// 1111 1111. PureImage reads it the same way.
    @Test func libtiffSkipsTheWordItReadAheadInto() throws {
        let strip = TIFFCCITTTests.bits("0111 10 1000 000000" + "1111111111111111" + "00110101 000101 00")
        let samples = try TIFFReference.expectMatchesLibtiff(Self.file(width: 8, rows: 2, strip: strip, lead: 0), "by hand")
        #expect(samples == [0x38, 0xFF])
    }

    /// Damaged and truncated strips: bad codes, rows running out of data.
    @Test func damagedStripsMatchLibtiff() throws {
        var random = TIFFRobustnessTests.Random(state: 0x2545_F491_4F6C_DD1D)
        var compared = 0
        for trial in 0..<40 {
            var strip = Self.stream(width: 61, rows: 12, random: &random)
            for _ in 0..<(1 + Int(random.next() % 3)) {
                strip[Int(random.next() % UInt64(strip.count))] ^= UInt8(truncatingIfNeeded: 1 | random.next())
            }
            if trial % 4 == 3 { strip.removeLast(strip.count / 3) }
            let file = Self.file(width: 61, rows: 12, strip: strip, lead: trial % 2)
            let reference = ReferenceDecoders.tiffRGBA(file)
            guard let theirs = reference.frames.first else { continue }
            let ours = try ImageSource(bytes: file).image(options: ImageDecodingOptions(output: .libtiffRGBA)).tightBytes
            #expect(firstDifference(ours, theirs.samples) == nil, "trial \(trial)")
            compared += 1
        }
        #expect(compared >= 20, "libtiff's RGBA interface read only \(compared) of 40 damaged files")
    }
}
