/// Every way a WebP file can fail to decode. Container cases cite the WebP container
/// specification (RFC 9649 §2, "RIFF Container"), lossless cases RFC 9649 §3 ("Lossless
/// Bitstream"), lossy cases RFC 6386 (VP8), alpha cases RFC 9649 §2.7.1.2 ("ALPH"). Where libwebp
/// is stricter or looser than the text, the case says what libwebp does — that is the behaviour
/// reproduced.
public enum WebPError: DecodeErrorReason, Hashable {
    // MARK: Container (RFC 9649 §2)

    /// §2.3 RIFF header: "WEBP" must follow the RIFF size.
    case notWebP
    /// §2.3: the RIFF size covers at least "WEBP" and one chunk header (libwebp: 12 bytes).
    case riffSizeTooSmall(Int)
    /// §2.2: a chunk size above 2^32 − 10 (libwebp's `MAX_CHUNK_PAYLOAD`).
    case chunkSizeTooLarge(fourCC: String, size: Int)
    /// §2.5 / §2.7: the chunk (with its padding byte) reaches past the end the RIFF size gives.
    case chunkOutsideRIFF(fourCC: String, end: Int, riffEnd: Int)
    /// §2.7: the VP8X chunk payload is 10 bytes.
    case vp8xSize(Int)
    /// §2.7: canvas width × height must be below 2^32.
    case canvasTooLarge(width: Int, height: Int)
    /// §2.5–§2.7: the first chunk must be `VP8 `, `VP8L` or `VP8X`.
    case unexpectedFirstChunk(String)
    /// §2.7: a still image in the extended format needs a `VP8 ` or `VP8L` chunk.
    case missingImageChunk
    /// §2.7: "Canvas Width … MUST" equal the bitstream's width for a still image (libwebp:
    /// `VP8_STATUS_BITSTREAM_ERROR`).
    case canvasMismatch(canvasWidth: Int, canvasHeight: Int, imageWidth: Int, imageHeight: Int)
    /// §2.7 ANIM: an animation needs its ANIM chunk before the first ANMF.
    case frameBeforeANIM
    /// §2.7 ANIM: the ANIM chunk payload is 6 bytes.
    case animSize(Int)
    /// §2.7 ANMF: the frame header is 16 bytes.
    case anmfSize(Int)
    /// §2.7 ANMF: frame width × height must be below 2^32.
    case frameTooLarge(width: Int, height: Int)
    /// §2.7 ANMF: "the frame MUST fit inside the canvas" (libwebp's WebPDemux refuses the file).
    case frameOutsideCanvas(frame: Int, x: Int, y: Int, width: Int, height: Int)
    /// §2.7: an animated file without any frame holding an image.
    case noFrames
    /// §2.7: VP8X flag bits outside alpha, animation, ICC, EXIF and XMP must be 0 (WebPDemux
    /// refuses animations with them set; stills decode, as libwebp's WebPDecode ignores them).
    case reservedVP8XFlags(UInt8)
    /// §2.7 ALPH: an ALPH chunk must come before the frame's VP8 chunk, and never with VP8L.
    case misplacedAlpha(frame: Int)
    /// §2.7 (WebPDemux): a still's image chunk inside an animated file, or a frame chunk in a
    /// still one.
    case mixedStillAndAnimation
    /// The input ended inside the named part.
    case truncated(inside: String)

    // MARK: Lossless (RFC 9649 §3)

    /// §3.2: the VP8L signature byte is 0x2F.
    case vp8lSignature(UInt8)
    /// §3.2: `version` MUST be 0.
    case vp8lVersion(Int)
    /// §3.5: "each transform is allowed to be used only once".
    case transformRepeated(Int)
    /// §3.6.2.5 / §3.7.2.1: color cache bits are 1…11.
    case colorCacheBits(Int)
    /// §3.7.2.1: a prefix code that is not a complete code (or has no symbol at all); libwebp
    /// refuses these.
    case invalidPrefixCode(String)
    /// §3.7.2.1.2: `max_symbol` larger than the alphabet.
    case maxSymbolTooLarge(maxSymbol: Int, alphabet: Int)
    /// §3.7.2.1.2: a repeat code running past the alphabet.
    case codeLengthRepeatOverflow(String)
    /// §3.6.2: a backward reference before the first pixel or past the last.
    case backwardReference(position: Int, distance: Int, length: Int)

    // MARK: Lossy (RFC 6386)

    /// RFC 6386 §9.1: the key frame start code is 9D 01 2A.
    case vp8StartCode([UInt8])
    /// RFC 6386 §9.1: WebP holds one key frame; an interframe cannot be decoded.
    case vp8NotKeyFrame
    /// RFC 6386 §9.1: versions (profiles) above 3 (libwebp: "Incorrect keyframe parameters").
    case vp8Profile(Int)
    /// RFC 6386 §9.1: `show_frame` is 0 (libwebp: "Frame not displayable").
    case vp8NotShown
    /// RFC 6386 §9.1 / libwebp: width and height must not be 0.
    case vp8ZeroSize
    /// RFC 6386 §9.1: the first partition's size is at least the chunk (libwebp's check).
    case vp8FirstPartitionSize(size: Int, available: Int)
    /// RFC 6386 §9.5: the partition-size table does not fit, or no byte is left for the last
    /// token partition (libwebp: "cannot parse partitions").
    case vp8Partitions

    // MARK: Alpha (RFC 9649 §2.7.1.2)

    /// ALPH header: compression method 0 or 1, filter 0…3, pre-processing 0 or 1, reserved 0.
    case alphaHeader(UInt8)
    /// ALPH without compression holds width × height bytes.
    case alphaTooShort(needed: Int, available: Int)
    /// The alpha stream could not be decoded (libwebp fails the whole image then).
    case alphaData(String)

    public var description: String {
        switch self {
        case .notWebP: return "RIFF form type is not WEBP"
        case .riffSizeTooSmall(let size): return "RIFF size \(size) is below 12"
        case .chunkSizeTooLarge(let fourCC, let size): return "chunk \(fourCC) declares \(size) bytes (more than 2^32 − 10)"
        case .chunkOutsideRIFF(let fourCC, let end, let riffEnd): return "chunk \(fourCC) ends at byte \(end), past the RIFF end \(riffEnd)"
        case .vp8xSize(let size): return "VP8X chunk of \(size) bytes (must be 10)"
        case .canvasTooLarge(let width, let height): return "canvas \(width)×\(height) has 2^32 pixels or more"
        case .unexpectedFirstChunk(let fourCC): return "first chunk is \(fourCC), expected VP8, VP8L or VP8X"
        case .missingImageChunk: return "no VP8 or VP8L chunk"
        case .canvasMismatch(let cw, let ch, let iw, let ih): return "canvas \(cw)×\(ch) differs from the bitstream's \(iw)×\(ih)"
        case .frameBeforeANIM: return "ANMF frame before the ANIM chunk"
        case .animSize(let size): return "ANIM chunk of \(size) bytes (must be at least 6)"
        case .anmfSize(let size): return "ANMF chunk of \(size) bytes (the frame header alone is 16)"
        case .frameTooLarge(let width, let height): return "frame \(width)×\(height) has 2^32 pixels or more"
        case .frameOutsideCanvas(let frame, let x, let y, let width, let height): return "frame \(frame) (\(width)×\(height) at \(x),\(y)) does not fit the canvas"
        case .noFrames: return "animation without frames"
        case .reservedVP8XFlags(let flags): return "VP8X flags 0x\(hex2(flags)) set reserved bits"
        case .misplacedAlpha(let frame): return "frame \(frame): ALPH chunk after the image or with VP8L"
        case .mixedStillAndAnimation: return "image chunks and animation frames mixed"
        case .truncated(let inside): return "input ends inside \(inside)"
        case .vp8lSignature(let byte): return "VP8L signature 0x\(hex2(byte)) (expected 0x2F)"
        case .vp8lVersion(let version): return "VP8L version \(version) (must be 0)"
        case .transformRepeated(let type): return "transform \(type) used twice"
        case .colorCacheBits(let bits): return "colour cache of \(bits) bits (1…11 allowed)"
        case .invalidPrefixCode(let which): return "invalid prefix code (\(which))"
        case .maxSymbolTooLarge(let maxSymbol, let alphabet): return "max_symbol \(maxSymbol) exceeds the alphabet of \(alphabet)"
        case .codeLengthRepeatOverflow(let which): return "code length repeat runs past the alphabet (\(which))"
        case .backwardReference(let position, let distance, let length): return "backward reference at pixel \(position): distance \(distance), length \(length) reaches outside the image"
        case .vp8StartCode(let bytes): return "VP8 start code \(bytes.map { hex2($0) }.joined(separator: " ")) (expected 9D 01 2A)"
        case .vp8NotKeyFrame: return "VP8 frame is not a key frame"
        case .vp8Profile(let profile): return "VP8 version \(profile) (0…3 allowed)"
        case .vp8NotShown: return "VP8 frame is not displayable (show_frame = 0)"
        case .vp8ZeroSize: return "VP8 width or height is 0"
        case .vp8FirstPartitionSize(let size, let available): return "first partition of \(size) bytes, \(available) available"
        case .vp8Partitions: return "token partitions do not fit the chunk"
        case .alphaHeader(let byte): return "ALPH header byte 0x\(hex2(byte)) is invalid"
        case .alphaTooShort(let needed, let available): return "uncompressed ALPH holds \(available) bytes, \(needed) needed"
        case .alphaData(let what): return "alpha data: \(what)"
        }
    }
}
