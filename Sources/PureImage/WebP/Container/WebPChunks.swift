/// RFC 9649 §2 — the RIFF container of WebP: chunk framing and the fixed-layout chunks.
///
/// ```
///   offset 0  "RIFF"  size (u32 LE, bytes after this field)  "WEBP"
///   offset 12 chunk:  FourCC  size (u32 LE)  payload  [pad byte when size is odd]
///             chunk …   until 8 + RIFF size (bytes after that are ignored)
/// ```
enum WebPChunks {
    /// §2.2: the largest chunk payload libwebp accepts (`MAX_CHUNK_PAYLOAD`, 2^32 − 10).
    static let maxPayload = 0xFFFF_FFF6
    static let headerSize = 8

    /// The four characters of a FourCC, for messages and matching.
    static func fourCC(_ bytes: ArraySlice<UInt8>) -> String {
        String(bytes.map { $0 >= 0x20 && $0 < 0x7F ? Character(Unicode.Scalar($0)) : "?" })
    }

    static func le16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    static func le24(_ bytes: [UInt8], _ at: Int) -> Int { le16(bytes, at) | Int(bytes[at + 2]) << 16 }
    static func le32(_ bytes: [UInt8], _ at: Int) -> Int { le24(bytes, at) | Int(bytes[at + 3]) << 24 }
}

/// One chunk's framing: where it starts, its FourCC and payload size.
struct WebPChunkHeader: Equatable {
    var offset: Int
    var fourCC: String
    var size: Int
    var payloadStart: Int { offset + WebPChunks.headerSize }
    var payloadEnd: Int { payloadStart + size }
    /// §2.2: "If Chunk Size is odd, a single padding byte … is added."
    var paddedEnd: Int { payloadEnd + (size & 1) }
}

/// RFC 9649 §2.7 — the VP8X chunk: feature flags and canvas size.
///
/// ```
///   byte 0: |Rsv|I|L|E|X|A|R|   (bits 7-6 reserved, ICC, alpha, EXIF, XMP, animation, reserved)
///   bytes 1-3: reserved   bytes 4-6: canvas width − 1 (u24)   bytes 7-9: canvas height − 1
/// ```
struct WebPVP8X: Equatable {
    static let iccFlag: UInt8 = 0x20
    static let alphaFlag: UInt8 = 0x10
    static let exifFlag: UInt8 = 0x08
    static let xmpFlag: UInt8 = 0x04
    static let animationFlag: UInt8 = 0x02
    static let validFlags: UInt8 = 0x3E

    var flags: UInt8
    var canvasWidth: Int
    var canvasHeight: Int
    var hasAnimation: Bool { flags & Self.animationFlag != 0 }
    var hasAlpha: Bool { flags & Self.alphaFlag != 0 }

    /// `payload` is the chunk's 10 bytes.
    init(payload: [UInt8]) {
        flags = payload[0]
        canvasWidth = WebPChunks.le24(payload, 4) + 1
        canvasHeight = WebPChunks.le24(payload, 7) + 1
    }
}

/// RFC 9649 §2.7 ANIM: background colour (bytes B, G, R, A) and loop count (0 = forever).
struct WebPAnimationInfo: Equatable {
    /// 0xAARRGGBB, as libwebp reports it.
    var backgroundColor: UInt32
    var loopCount: Int

    init(payload: [UInt8]) {
        backgroundColor = UInt32(truncatingIfNeeded: WebPChunks.le32(payload, 0))
        loopCount = WebPChunks.le16(payload, 4)
    }
}

/// RFC 9649 §2.7 ANMF: a frame's placement and timing (16 bytes), followed by its image chunks.
///
/// ```
///   bytes 0-2 X/2   3-5 Y/2   6-8 width − 1   9-11 height − 1   12-14 duration (ms)
///   byte 15: |reserved (6)|B|D|   B = 1: do not blend, D = 1: dispose to background
/// ```
struct WebPFrameHeader: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    var duration: Int
    var blends: Bool
    var disposesToBackground: Bool

    init(payload: ArraySlice<UInt8>) {
        let bytes = Array(payload.prefix(16))
        x = 2 * WebPChunks.le24(bytes, 0)
        y = 2 * WebPChunks.le24(bytes, 3)
        width = WebPChunks.le24(bytes, 6) + 1
        height = WebPChunks.le24(bytes, 9) + 1
        duration = WebPChunks.le24(bytes, 12)
        blends = bytes[15] & 2 == 0
        disposesToBackground = bytes[15] & 1 != 0
    }
}
