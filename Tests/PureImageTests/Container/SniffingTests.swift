import Testing
@testable import PureImage

@Suite struct SniffingTests {
    static let signatures: [(ImageFormat, [UInt8])] = [
        (.jpeg, [0xFF, 0xD8, 0xFF, 0xE0]),
        (.png, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
        (.gif, Array("GIF87a".utf8)),
        (.gif, Array("GIF89a".utf8)),
        (.tiff, [0x49, 0x49, 0x2A, 0x00]),
        (.tiff, [0x4D, 0x4D, 0x00, 0x2A]),
        (.tiff, [0x49, 0x49, 0x2B, 0x00]),
        (.webp, Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBP".utf8)),
        (.heic, [0, 0, 0, 0x18] + Array("ftypheic".utf8)),
        (.heic, [0, 0, 0, 0x18] + Array("ftypheix".utf8)),
        (.heic, [0, 0, 0, 0x18] + Array("ftyphevc".utf8)),
        (.heic, [0, 0, 0, 0x18] + Array("ftyphevx".utf8)),
        (.heif, [0, 0, 0, 0x18] + Array("ftypmif1".utf8)),
        (.heif, [0, 0, 0, 0x18] + Array("ftypmsf1".utf8)),
    ]

    @Test(arguments: signatures.indices)
    func everySignature(_ index: Int) {
        let (format, bytes) = Self.signatures[index]
        #expect(FormatSniffer.sniff(bytes + [0, 0, 0]) == .format(format))
        #expect(FormatSniffer.sniff(bytes) == .format(format))
        // Every proper prefix is undecided, never a wrong answer.
        for length in 1..<bytes.count {
            let result = FormatSniffer.sniff(bytes.prefix(length))
            #expect(result == .needMoreBytes || result == .format(format), "\(format) prefix \(length): \(result)")
        }
    }

    @Test func nearMissesAndUnknowns() {
        #expect(FormatSniffer.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0D, 0x1A, 0x0D]) == .nearMiss(.png))   // CR damage
        #expect(FormatSniffer.sniff([0x09, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .nearMiss(.png))   // high bit lost
        #expect(FormatSniffer.sniff(Array("GIF88a".utf8)) == .nearMiss(.gif))
        // Twelve bytes decide everything; fewer may still be the start of an ISO-BMFF `ftyp` box.
        let pad = [UInt8](repeating: 0x20, count: 8)
        #expect(FormatSniffer.sniff([0xFF, 0xD9, 0x00, 0x00] + pad) == .unknown)                          // JPEG needs FF D8 (SOI)
        #expect(FormatSniffer.sniff([0xFF, 0xD8, 0xFE, 0xE0] + pad) == .format(.jpeg))                     // junk before the next marker: libjpeg warns and goes on
        #expect(FormatSniffer.sniff([0x49, 0x49, 0x2A, 0x01] + pad) == .unknown)
        #expect(FormatSniffer.sniff([0xFF, 0xD9, 0x00, 0x00]) == .needMoreBytes)
        #expect(FormatSniffer.sniff(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)) == .unknown)
        #expect(FormatSniffer.sniff([0, 0, 0, 0x18] + Array("ftypmp42".utf8)) == .unknown)
        #expect(FormatSniffer.sniff([UInt8]()) == .needMoreBytes)
        #expect(FormatSniffer.sniff([0x42]) == .needMoreBytes)
        #expect(FormatSniffer.sniff([0x42] + pad + [0, 0, 0]) == .unknown)
    }

    @Test func imageSourceErrorsAreTyped() {
        do {
            _ = try ImageSource(bytes: [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 12))
            Issue.record("HEIC should be refused")
        } catch {
            #expect(error.kind == .unsupported)
            #expect(error.description.contains("recognised, not supported"))
        }
        do {
            // WebP is decoded: a RIFF size below 12 is a typed container error at byte 4.
            _ = try ImageSource(bytes: Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8)).properties()
            Issue.record("a RIFF size of 0 should be refused")
        } catch {
            #expect(error.kind == .malformed)
            #expect(error.description == "malformed at byte 4: WEBP: RIFF size 0 is below 12")
        }
        do {
            _ = try ImageSource(bytes: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
            Issue.record("garbage should be refused")
        } catch {
            #expect(error.kind == .unknownFormat)
            #expect(error.description == "unknown format at byte 0: no known image signature (starts with 01 02 03 04 05 06 07 08)")
        }
    }
}
