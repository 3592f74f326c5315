/// GIF89a §23–§26 extensions. Each is `0x21`, a label, then data sub-blocks (§15) up to a
/// Block Terminator. The decoder hands this type one sub-block at a time.
enum GIFExtensionLabel {
    /// §25 Plain Text Extension (skipped: no browser renders it).
    static let plainText: UInt8 = 0x01
    /// §23 Graphic Control Extension.
    static let graphicControl: UInt8 = 0xF9
    /// §24 Comment Extension.
    static let comment: UInt8 = 0xFE
    /// §26 Application Extension.
    static let application: UInt8 = 0xFF

    static func name(_ label: UInt8) -> String {
        switch label {
        case plainText: return "Plain Text Extension"
        case graphicControl: return "Graphic Control Extension"
        case comment: return "Comment Extension"
        case application: return "Application Extension"
        default: return "Extension 0x\(hex2(label))"
        }
    }
}

/// GIF89a §23 Graphic Control Extension: its one 4-byte sub-block.
///
/// ```
///   0 packed: RRR DDD U T — reserved, disposal method 0…7, user input flag, transparent flag
///   1 delay time, 1/100 s (LE16)
///   3 transparent colour index
/// ```
struct GIFGraphicControl: Hashable, Sendable {
    /// How the frame is treated after display (§23 "Disposal Method").
    enum Disposal: Int, Hashable, Sendable {
        /// 0: no disposal specified — browsers leave the frame in place.
        case unspecified = 0
        /// 1: do not dispose — leave the frame in place.
        case keep = 1
        /// 2: restore to background — browsers and ImageIO clear the rectangle to transparent.
        case background = 2
        /// 3: restore to previous — the canvas as it was before the frame was drawn.
        case previous = 3
    }

    /// The disposal value 0...7 as stored.
    var disposalValue: Int
    var userInput: Bool
    /// Delay in hundredths of a second, 0...65535.
    var delayCentiseconds: Int
    /// The transparent colour index when the flag is set.
    var transparentIndex: Int?

    /// The disposal the compositor applies: 0–3 as defined; 4 acts as 3 and 5–7 as 0, which is
    /// what Firefox (`nsGIFDecoder2`) and Chromium (`GIFImageReader`) do ("some specs say the
    /// third bit, value 4, means restore-previous").
    var disposal: Disposal {
        switch disposalValue {
        case 1: return .keep
        case 2: return .background
        case 3, 4: return .previous
        default: return .unspecified
        }
    }

    /// GIF89a §23 Graphic Control Extension. giflib (`DGifExtensionToGCB`) accepts only a first
    /// sub-block of exactly 4 bytes; any other length means "no graphic control" — we match it.
    init?(parsing block: ArraySlice<UInt8>) {
        guard block.count == 4 else { return nil }
        let b = Array(block)
        disposalValue = Int((b[0] >> 2) & 0x07)
        userInput = b[0] & 0x02 != 0
        delayCentiseconds = Int(b[1]) | Int(b[2]) << 8
        transparentIndex = b[0] & 0x01 != 0 ? Int(b[3]) : nil
    }

    init(disposalValue: Int = 0, delayCentiseconds: Int = 0, transparentIndex: Int? = nil) {
        self.disposalValue = disposalValue
        self.userInput = false
        self.delayCentiseconds = delayCentiseconds
        self.transparentIndex = transparentIndex
    }
}

/// GIF89a §26 Application Extension: an 11-byte first sub-block (8-byte identifier, 3-byte
/// authentication code), then application data sub-blocks.
enum GIFApplication {
    /// True for the Netscape looping extension, "NETSCAPE2.0" or its twin "ANIMEXTS1.0".
    /// Like giflib's users (and `pi_ref_gif_decode`), the first 11 bytes decide; a longer first
    /// sub-block is accepted.
    static func isLooping(identifier block: ArraySlice<UInt8>) -> Bool {
        guard block.count >= 11 else { return false }
        let id = Array(block.prefix(11))
        return id == Array("NETSCAPE2.0".utf8) || id == Array("ANIMEXTS1.0".utf8)
    }

    /// The loop count from a NETSCAPE2.0 data sub-block: id byte 1, then LE16 count
    /// (0 = forever). Sub-blocks with another id (2 = buffering) or shorter than 3 bytes are
    /// not loop counts.
    static func loopCount(subBlock block: ArraySlice<UInt8>) -> Int? {
        guard block.count >= 3, block[block.startIndex] == 1 else { return nil }
        return Int(block[block.startIndex + 1]) | Int(block[block.startIndex + 2]) << 8
    }
}

/// GIF89a §24 Comment Extension: "7-bit ASCII" per the spec; in practice any bytes. Decoded as
/// UTF-8 when valid, else as Latin-1 (one byte, one character).
enum GIFComment {
    static func text(_ bytes: [UInt8]) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
