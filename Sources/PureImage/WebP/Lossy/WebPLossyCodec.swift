/// The `VP8 ` chunk (with its optional `ALPH`): frame header, first partition, then
/// macroblock rows (`VP8Decoder`), converted to RGBA as they become final (`VP8ColorKernels`),
/// with the alpha plane (`WebPAlphaDecoder`) — libwebp's `WebPDecodeRGBA` output.
final class WebPLossyCodec: WebPImageCodec {
    private let limits: DecodeLimits
    private let alpha: [UInt8]?
    private let sink: ((Bitmap) -> Void)?
    private(set) var header: VP8FrameHeader?
    private(set) var raster: WebPRaster?
    private var decoder: VP8Decoder?
    private var alphaPlane: [UInt8]?
    /// The chunk's declared payload size (the partition sizes are relative to it).
    private var chunkSize: Int

    /// `output`: as `WebPLosslessCodec`'s (asked with whether an `ALPH` payload came).
    init(limits: DecodeLimits, alpha: [UInt8]?, chunkSize: Int = -1, sink: ((Bitmap) -> Void)? = nil,
         output: ((_ alphaIsUsed: Bool) -> PixelFormat?)? = nil) {
        self.limits = limits
        self.alpha = alpha
        self.chunkSize = chunkSize
        self.sink = sink
        self.output = output
    }
    private let output: ((_ alphaIsUsed: Bool) -> PixelFormat?)?

    var size: (width: Int, height: Int)? { header.map { ($0.width, $0.height) } }

    func advance(payload: [UInt8], isComplete: Bool) throws(WebPCodecFailure) -> WebPCodecProgress {
        if chunkSize < 0 { chunkSize = payload.count }
        if header == nil {
            guard payload.count >= VP8FrameHeader.size else { return isComplete ? .truncated : .needMoreInput }
            header = try VP8FrameHeader(parsing: payload, chunkSize: chunkSize)
        }
        guard let header else { return .finished }
        if decoder == nil {
            // libwebp: "bad partition length" when the first partition is larger than the rest.
            let partitionEnd = VP8FrameHeader.size + header.firstPartitionSize
            guard partitionEnd <= chunkSize else {
                throw WebPCodecFailure(reason: .vp8FirstPartitionSize(size: header.firstPartitionSize, available: chunkSize - VP8FrameHeader.size), payloadOffset: 0)
            }
            guard payload.count >= partitionEnd else { return isComplete ? .truncated : .needMoreInput }
            var modes = VP8BoolDecoder(start: VP8FrameHeader.size, end: partitionEnd)
            let parsed = try payload.withUnsafeBufferPointer { data throws(WebPCodecFailure) in
                try VP8FrameParameters.read(&modes, data: data, bytes: payload, tokenStart: partitionEnd, chunkSize: chunkSize)
            }
            guard let parameters = parsed else { return isComplete ? .truncated : .needMoreInput }
            let mbWidth = (header.width + 15) >> 4, mbHeight = (header.height + 15) >> 4
            do {
                _ = try SizeMath.checkImage(width: header.width, height: header.height, bytesPerPixel: 4, limits: limits, format: .webp, offset: nil)
                _ = try SizeMath.allocationSize(mbWidth * 16, mbHeight * 16, 2, limits: limits, format: .webp, offset: nil)
            } catch {
                throw WebPCodecFailure(reason: .canvasTooLarge(width: header.width, height: header.height), payloadOffset: 6, kind: .limitExceeded)
            }
            if let alpha {
                alphaPlane = try WebPAlphaDecoder.decode(alpha, width: header.width, height: header.height, limits: limits)
            }
            let raster = WebPRaster(width: header.width, height: header.height, sink: sink)
            if let target = output?(alpha != nil) { raster.convertRows(to: target) }
            self.raster = raster
            decoder = VP8Decoder(frame: header, parameters: parameters, modesDecoder: modes)
        }
        guard let decoder else { return .finished }
        while decoder.rowsDone < decoder.mbHeight {
            let result = decoder.decodeRow(payload, isComplete: isComplete)
            emitFinishedRows()
            switch result {
            case .decoded: continue
            case .needMoreInput: return .needMoreInput
            case .endedEarly: return .truncated
            }
        }
        return .finished
    }

    /// Converts the rows that no later macroblock row can change.
    private func emitFinishedRows() {
        guard let decoder, let raster else { return }
        let width = raster.width
        let chromaHeight = (raster.height + 1) >> 1
        let lumaRows = decoder.finishedLumaRows
        let chromaRows = decoder.finishedChromaRows
        var end = raster.rowsDone
        // Row y needs chroma rows up to min((y + 1) / 2, last).
        while end < lumaRows && min(chromaHeight - 1, (end + 1) >> 1) < chromaRows { end += 1 }
        let first = raster.rowsDone
        guard end > first else { return }
        // Rows for the display format are written in it (premultiplied BGRA: what the raster's
        // conversion would make of them), not converted afterwards.
        let direct = raster.takesPremultipliedBGRA(hasAlpha: alphaPlane != nil)
        raster.appendRows(end - first, alreadyConverted: direct) { out in
            VP8ColorKernels.convertRows(first ..< end, width: width, height: raster.height, planes: decoder.planes,
                                        alpha: alphaPlane, layout: direct ? .bgraPremultiplied : .rgba, into: out)
        }
    }
}
