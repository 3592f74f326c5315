/// WebPDecoder, the chunks (RFC 9649 §2.5–§2.7): what each chunk header leads to — which
/// chunks are accepted where, as libwebp's `WebPDecode` (a still) and `WebPDemux` (an
/// animation) accept them — and the chunks read whole: VP8X, ALPH, ICCP, EXIF, XMP, ANIM and
/// each ANMF frame with its own chunks.
extension WebPDecoder {
    /// Decides what to do with a chunk whose header was just read.
    func dispatch(_ chunk: WebPChunkHeader) throws(DecodeError) {
        chunkCount += 1
        // §2.2: chunk sizes above 2^32 − 10 are refused.
        guard chunk.size <= WebPChunks.maxPayload else {
            throw DecodeError(.malformed, format: .webp, offset: chunk.offset + 4, WebPError.chunkSizeTooLarge(fourCC: chunk.fourCC, size: chunk.size))
        }
        let isImage = chunk.fourCC == "VP8 " || chunk.fourCC == "VP8L"
        if chunkCount == 1 {
            // §2.5–§2.7: the simple formats start with the image chunk, the extended with VP8X.
            guard isImage || chunk.fourCC == "VP8X" else {
                throw DecodeError(.malformed, format: .webp, offset: chunk.offset, WebPError.unexpectedFirstChunk(chunk.fourCC))
            }
            if isImage {
                // libwebp checks the simple format's chunk size against the RIFF size alone.
                guard chunk.payloadEnd <= riffEnd else {
                    throw DecodeError(.malformed, format: .webp, offset: chunk.offset + 4,
                                      WebPError.chunkOutsideRIFF(fourCC: chunk.fourCC, end: chunk.payloadEnd, riffEnd: riffEnd))
                }
                startImage(chunk)
                return
            }
            state = .wholeChunk(chunk)
            return
        }
        let beforeImage = imageChunk == nil
        // Chunks up to the image (and every chunk of an animation) must end inside the RIFF
        // size (libwebp's ParseOptionalChunks, WebPDemux's SizeIsInvalid).
        if beforeImage && chunk.paddedEnd > riffEnd {
            throw DecodeError(.malformed, format: .webp, offset: chunk.offset + 4,
                              WebPError.chunkOutsideRIFF(fourCC: chunk.fourCC, end: chunk.paddedEnd, riffEnd: riffEnd))
        }
        if !beforeImage && chunk.paddedEnd > riffEnd {
            // After the image: what follows is not read by libwebp; stop here.
            warn(at: chunk.offset, "chunk \(chunk.fourCC) reaches past the RIFF end; ignored with the rest of the file")
            state = .skip(WebPChunkHeader(offset: chunk.offset, fourCC: chunk.fourCC, size: max(0, riffEnd - chunk.payloadStart)))
            return
        }
        switch chunk.fourCC {
        case "VP8X":
            throw DecodeError(.malformed, format: .webp, offset: chunk.offset, WebPError.mixedStillAndAnimation)
        case "VP8 ", "VP8L":
            if isAnimation { throw DecodeError(.malformed, format: .webp, offset: chunk.offset, WebPError.mixedStillAndAnimation) }
            if imageChunk == nil { startImage(chunk) } else { state = .skip(chunk) }
        case "ALPH":
            if isAnimation { throw DecodeError(.malformed, format: .webp, offset: chunk.offset, WebPError.mixedStillAndAnimation) }
            state = imageChunk == nil ? .wholeChunk(chunk) : .skip(chunk)
        case "ANIM", "ANMF":
            state = isAnimation ? .wholeChunk(chunk) : .skip(chunk)
        case "ICCP", "EXIF", "XMP ":
            if metadataBytes + chunk.size > options.limits.maxMetadataBytes {
                warn(at: chunk.offset, "\(chunk.fourCC) chunk of \(chunk.size) bytes exceeds the metadata limit; skipped")
                state = .skip(chunk)
            } else {
                state = .wholeChunk(chunk)
            }
        default:
            // §2.7: "Unknown chunks … MUST be ignored."
            state = .skip(chunk)
        }
    }

    /// A chunk whose whole payload is there.
    func readWholeChunk(_ chunk: WebPChunkHeader, payload: [UInt8]) throws(DecodeError) {
        switch chunk.fourCC {
        case "VP8X":
            // §2.7: "Chunk Size: 10" (libwebp refuses any other size).
            guard chunk.size == 10 else { throw DecodeError(.malformed, format: .webp, offset: chunk.offset + 4, WebPError.vp8xSize(chunk.size)) }
            let parsed = WebPVP8X(payload: payload)
            guard parsed.canvasWidth * parsed.canvasHeight < 1 << 32 else {
                throw DecodeError(.malformed, format: .webp, offset: chunk.payloadStart + 4,
                                  WebPError.canvasTooLarge(width: parsed.canvasWidth, height: parsed.canvasHeight))
            }
            if parsed.hasAnimation && parsed.flags & ~WebPVP8X.validFlags != 0 {
                throw DecodeError(.malformed, format: .webp, offset: chunk.payloadStart, WebPError.reservedVP8XFlags(parsed.flags))
            }
            _ = try SizeMath.checkImage(width: parsed.canvasWidth, height: parsed.canvasHeight, bytesPerPixel: 4,
                                        limits: options.limits, format: .webp, offset: chunk.payloadStart + 4)
            vp8x = parsed
            var properties = ImageProperties(format: .webp, width: parsed.canvasWidth, height: parsed.canvasHeight,
                                             colorModel: .rgb, bitsPerComponent: 8, hasAlpha: parsed.hasAlpha)
            if parsed.hasAnimation {
                properties.frameCount = 0
                properties.extra.append(("webpFormat", "animated"))
            }
            self.properties = properties
        case "ALPH":
            alphaChunk = chunk
            alphaPayload = payload
            properties?.hasAlpha = true
        case "ICCP":
            metadataBytes += payload.count
            properties?.iccProfile = payload
        case "EXIF":
            metadataBytes += payload.count
            properties?.exif = payload
            properties?.exifMetadata = EXIFReader.read(block: payload)
            if let orientation = properties?.exifMetadata?.orientation { properties?.orientation = orientation }
        case "XMP ":
            metadataBytes += payload.count
            properties?.text.append(TextEntry(keyword: "XMP", text: String(decoding: payload, as: UTF8.self)))
        case "ANIM":
            // §2.7 ANIM: 6 bytes (WebPDemux reads the first ANIM chunk only).
            guard chunk.size >= 6 else { throw DecodeError(.malformed, format: .webp, offset: chunk.offset + 4, WebPError.animSize(chunk.size)) }
            if animationInfo == nil {
                let info = WebPAnimationInfo(payload: payload)
                animationInfo = info
                properties?.loopCount = info.loopCount
                properties?.extra.append(("webpBackgroundColor", "0x" + String(info.backgroundColor, radix: 16, uppercase: true)))
            }
        case "ANMF":
            guard animationInfo != nil else { throw DecodeError(.malformed, format: .webp, offset: chunk.offset, WebPError.frameBeforeANIM) }
            try readFrame(chunk, payload: payload)
        default:
            break
        }
    }

    /// §2.7 ANMF: the frame header and the frame's ALPH / VP8 / VP8L chunks, as WebPDemux reads
    /// them. A frame without an image chunk is dropped (WebPDemux does not count it).
    func readFrame(_ chunk: WebPChunkHeader, payload: [UInt8]) throws(DecodeError) {
        guard let canvas = vp8x else { return }
        guard payload.count >= 16 else { throw DecodeError(.malformed, format: .webp, offset: chunk.offset + 4, WebPError.anmfSize(chunk.size)) }
        let header = WebPFrameHeader(payload: payload[0..<16])
        guard header.width * header.height < 1 << 32 else {
            throw DecodeError(.malformed, format: .webp, offset: chunk.payloadStart + 6, WebPError.frameTooLarge(width: header.width, height: header.height))
        }
        let number = frames.count
        guard number < options.limits.maxFrames else {
            throw DecodeError(.limitExceeded, format: .webp, offset: chunk.offset, LimitReason.tooManyFrames(limit: options.limits.maxFrames))
        }
        let parsed: WebPFrame?
        do {
            parsed = try WebPFrame.parse(header: header, payload: payload, payloadOffset: chunk.payloadStart, number: number, log: structureLog)
        } catch {
            throw DecodeError(.malformed, format: .webp, offset: chunk.payloadStart + error.payloadOffset, error.reason)
        }
        guard let frame = parsed else {
            warn(at: chunk.offset, "ANMF frame without an image chunk; ignored (as WebPDemux ignores it)")
            return
        }
        // §2.7: "the frame MUST fit inside the canvas" (WebPDemux's CheckFrameBounds).
        guard frame.x + frame.width <= canvas.canvasWidth, frame.y + frame.height <= canvas.canvasHeight else {
            throw DecodeError(.malformed, format: .webp, offset: chunk.payloadStart,
                              WebPError.frameOutsideCanvas(frame: number, x: frame.x, y: frame.y, width: frame.width, height: frame.height))
        }
        frames.append(frame)
        properties?.frameCount = frames.count
        properties?.frames.append(FrameProperties(delay: Double(frame.duration) / 1000, x: frame.x, y: frame.y,
                                                  width: frame.width, height: frame.height,
                                                  disposal: frame.disposesToBackground ? .background : .none,
                                                  blend: frame.blends ? .over : .source, hasAlpha: frame.hasAlpha))
        if frames.count > 1 || frame.hasAlpha || frame.width < canvas.canvasWidth || frame.height < canvas.canvasHeight {
            properties?.hasAlpha = true
        }
        if options.firstFrameOnly { state = .done }
    }
}
