/// A WebP image bitstream (a `VP8L` chunk, or `VP8 ` with its optional `ALPH`), decoded as the
/// chunk's payload arrives, into a `WebPRaster`.
protocol WebPImageCodec: AnyObject {
    /// The bitstream's own width and height, once its header has been read.
    var size: (width: Int, height: Int)? { get }
    /// The decoded rows; nil until the header has been read.
    var raster: WebPRaster? { get }
    /// Decodes as far as `payload` (the chunk payload received so far) allows. `isComplete`:
    /// no more bytes will come (the chunk is whole, or the input was closed).
    func advance(payload: [UInt8], isComplete: Bool) throws(WebPCodecFailure) -> WebPCodecProgress
}

enum WebPCodecProgress: Equatable {
    case needMoreInput
    case finished
    /// The bitstream ended before the image did: `raster` holds the rows decoded (maybe none).
    case truncated
}

/// A bitstream error at a byte offset relative to the start of the chunk payload.
struct WebPCodecFailure: Error {
    var reason: WebPError
    var payloadOffset: Int
    var kind: DecodeError.Kind = .malformed
}

/// RFC 9649 §3.2 — the 5-byte VP8L header: signature 0x2F, 14 bits width − 1, 14 bits height −
/// 1, 1 bit alpha_is_used, 3 bits version (0).
struct VP8LHeader: Equatable {
    static let size = 5
    var width: Int
    var height: Int
    var alphaIsUsed: Bool

    init(parsing bytes: [UInt8]) throws(WebPCodecFailure) {
        guard bytes[0] == 0x2F else { throw WebPCodecFailure(reason: .vp8lSignature(bytes[0]), payloadOffset: 0) }
        let bits = WebPChunks.le32(bytes, 1)
        width = (bits & 0x3FFF) + 1
        height = ((bits >> 14) & 0x3FFF) + 1
        alphaIsUsed = (bits >> 28) & 1 == 1
        let version = bits >> 29
        guard version == 0 else { throw WebPCodecFailure(reason: .vp8lVersion(version), payloadOffset: 4) }
    }
}

/// The `VP8L` chunk: header, then `VP8LDecoder`, rows converted from ARGB to RGBA.
final class WebPLosslessCodec: WebPImageCodec {
    private let limits: DecodeLimits
    private let sink: ((Bitmap) -> Void)?
    private(set) var header: VP8LHeader?
    private(set) var raster: WebPRaster?
    private var decoder: VP8LDecoder?

    /// `output`: the format the raster converts its rows to (`WebPRaster.convertRows(to:)`),
    /// asked once the header says whether the image uses alpha; nil keeps RGBA8.
    init(limits: DecodeLimits, sink: ((Bitmap) -> Void)? = nil, output: ((_ alphaIsUsed: Bool) -> PixelFormat?)? = nil) {
        self.limits = limits
        self.sink = sink
        self.output = output
    }
    private let output: ((_ alphaIsUsed: Bool) -> PixelFormat?)?

    var size: (width: Int, height: Int)? { header.map { ($0.width, $0.height) } }

    func advance(payload: [UInt8], isComplete: Bool) throws(WebPCodecFailure) -> WebPCodecProgress {
        if decoder == nil {
            guard payload.count >= VP8LHeader.size else { return isComplete ? .truncated : .needMoreInput }
            let parsed = try VP8LHeader(parsing: payload)
            do {
                _ = try SizeMath.checkImage(width: parsed.width, height: parsed.height, bytesPerPixel: 4,
                                            limits: limits, format: .webp, offset: nil)
            } catch {
                throw WebPCodecFailure(reason: .canvasTooLarge(width: parsed.width, height: parsed.height), payloadOffset: 1, kind: .limitExceeded)
            }
            header = parsed
            let raster = WebPRaster(width: parsed.width, height: parsed.height, sink: sink)
            if let target = output?(parsed.alphaIsUsed) { raster.convertRows(to: target) }
            self.raster = raster
            decoder = VP8LDecoder(width: parsed.width, height: parsed.height, startByte: VP8LHeader.size, limits: limits)
        }
        guard let decoder, let raster else { return .finished }
        do {
            let progress = try decoder.advance(data: payload, available: payload.count, isComplete: isComplete) { rows, _, count in
                raster.appendRows(count) { out in WebPPixelKernels.argbToRGBA(rows, into: out) }
            }
            switch progress {
            case .needMoreInput: return .needMoreInput
            case .finished: return .finished
            case .truncated: return .truncated
            }
        } catch {
            switch error {
            case .exhausted: return .truncated
            case .invalid(let reason, let bitPosition):
                throw WebPCodecFailure(reason: reason, payloadOffset: bitPosition / 8)
            }
        }
    }
}
