/// One animation frame (RFC 9649 §2.7 ANMF) as WebPDemux reads it: placement, timing and the
/// frame's compressed image, kept until the frame is drawn.
struct WebPFrame {
    var number: Int
    var x: Int
    var y: Int
    /// The bitstream's size: WebPDemux takes a frame's width and height from its VP8 / VP8L
    /// header, not from the ANMF fields.
    var width: Int
    var height: Int
    /// Milliseconds.
    var duration: Int
    var blends: Bool
    var disposesToBackground: Bool
    var isLossless: Bool
    var hasAlpha: Bool
    /// Absolute offset of the image chunk's payload (for error messages).
    var imageOffset: Int
    var image: [UInt8]
    var alpha: [UInt8]?

    /// Reads the frame's chunks after the 16-byte header: at most one ALPH (before the image,
    /// never with VP8L), then one VP8 or VP8L; WebPDemux stops at the first other chunk. Returns
    /// nil when there is no image chunk and no ALPH (the frame is then ignored).
    static func parse(header: WebPFrameHeader, payload: [UInt8], payloadOffset: Int, number: Int,
                      log: StructureLog? = nil) throws(WebPCodecFailure) -> WebPFrame? {
        var at = 16
        var alpha: (start: Int, end: Int)?
        var image: (fourCC: String, start: Int, end: Int)?
        while payload.count - at >= WebPChunks.headerSize {
            let fourCC = WebPChunks.fourCC(payload[at ..< at + 4])
            let size = WebPChunks.le32(payload, at + 4)
            let start = at + WebPChunks.headerSize
            if let log {
                // `pureimage inspect`: the frame's chunks, one level below the ANMF.
                let available = min(size, payload.count - start)
                let fields = WebPInspector.describe(fourCC, Array(payload[start ..< start + min(available, 64)]), size: size)
                log.record(payloadOffset + at, fourCC, WebPInspector.describeHeader(size: size, available: available)
                           + (fields.isEmpty ? "" : "  " + fields), level: 2)
            }
            guard size <= WebPChunks.maxPayload, start + size <= payload.count else {
                throw WebPCodecFailure(reason: .chunkOutsideRIFF(fourCC: fourCC, end: payloadOffset + start + size,
                                                                 riffEnd: payloadOffset + payload.count), payloadOffset: at + 4)
            }
            let end = start + size
            if fourCC == "ALPH" && alpha == nil {
                // An ALPH after the image (or with VP8L) makes WebPDemux refuse the file.
                if image != nil { throw WebPCodecFailure(reason: .misplacedAlpha(frame: number), payloadOffset: at) }
                alpha = (start, end)
            } else if (fourCC == "VP8 " || fourCC == "VP8L") && image == nil {
                if fourCC == "VP8L" && alpha != nil { throw WebPCodecFailure(reason: .misplacedAlpha(frame: number), payloadOffset: at) }
                image = (fourCC, start, end)
            } else {
                break
            }
            at = min(payload.count, end + (size & 1))
        }
        guard let image else {
            if alpha != nil { throw WebPCodecFailure(reason: .missingImageChunk, payloadOffset: 16) }
            return nil
        }
        let bytes = Array(payload[image.start ..< image.end])
        let isLossless = image.fourCC == "VP8L"
        let size: (width: Int, height: Int)
        var hasAlpha = alpha != nil
        if isLossless {
            guard bytes.count >= VP8LHeader.size else { throw WebPCodecFailure(reason: .truncated(inside: "a frame's VP8L header"), payloadOffset: image.start) }
            let header = try VP8LHeader(parsing: bytes)
            size = (header.width, header.height)
            hasAlpha = header.alphaIsUsed
        } else {
            do {
                let header = try VP8FrameHeader(parsing: bytes, chunkSize: bytes.count)
                size = (header.width, header.height)
            } catch {
                throw WebPCodecFailure(reason: error.reason, payloadOffset: image.start + error.payloadOffset)
            }
        }
        return WebPFrame(number: number, x: header.x, y: header.y, width: size.width, height: size.height,
                         duration: header.duration, blends: header.blends, disposesToBackground: header.disposesToBackground,
                         isLossless: isLossless, hasAlpha: hasAlpha, imageOffset: payloadOffset + image.start,
                         image: bytes, alpha: alpha.map { Array(payload[$0.start ..< $0.end]) })
    }

    /// Decodes the frame's image to straight RGBA8 (width × height × 4 bytes). A bitstream
    /// that fails or ends early fails the frame, as `WebPAnimDecoderGetNext` fails.
    func decode(limits: DecodeLimits) throws(DecodeError) -> [UInt8] {
        let codec: any WebPImageCodec = isLossless ? WebPLosslessCodec(limits: limits) : WebPLossyCodec(limits: limits, alpha: alpha)
        let progress: WebPCodecProgress
        do {
            progress = try codec.advance(payload: image, isComplete: true)
        } catch {
            throw DecodeError(error.kind, format: .webp, offset: imageOffset + error.payloadOffset, error.reason)
        }
        guard progress == .finished, let raster = codec.raster else {
            throw DecodeError(.malformed, format: .webp, offset: imageOffset + image.count,
                              WebPError.truncated(inside: "the image of frame \(number)"))
        }
        return raster.pixels
    }
}
