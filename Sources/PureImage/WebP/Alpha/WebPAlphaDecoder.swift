/// RFC 9649 §2.7.1.2 — the ALPH chunk: the alpha plane of a lossy image.
///
/// ```
///   byte 0: |Rsv(2)|P(2)|F(2)|C(2)|   C compression (0 raw, 1 lossless), F filter (0 none,
///           1 horizontal, 2 vertical, 3 gradient), P pre-processing (0, 1), Rsv 0
///   then:   width × height bytes (C = 0), or a VP8L image stream without its header (C = 1)
///           whose green channel is the (filtered) alpha
/// ```
/// The pre-processing flag only tells that the encoder reduced the alpha levels; libwebp's
/// decoder dithers such alpha only when asked to (`alpha_dithering_strength`, 0 by default), so
/// it changes nothing here.
enum WebPAlphaDecoder {
    /// Decodes the alpha plane of a `width × height` image. libwebp fails the whole image when
    /// its alpha cannot be decoded, and so does this.
    static func decode(_ payload: [UInt8], width: Int, height: Int, limits: DecodeLimits) throws(WebPCodecFailure) -> [UInt8] {
        guard let header = payload.first, payload.count > 1 else {
            throw WebPCodecFailure(reason: .alphaTooShort(needed: 2, available: payload.count), payloadOffset: 0)
        }
        let method = header & 3, filter = Int((header >> 2) & 3), preprocessing = (header >> 4) & 3, reserved = header >> 6
        guard method <= 1, preprocessing <= 1, reserved == 0 else { throw WebPCodecFailure(reason: .alphaHeader(header), payloadOffset: 0) }
        var plane: [UInt8]
        if method == 0 {
            let needed = width * height
            guard payload.count - 1 >= needed else {
                throw WebPCodecFailure(reason: .alphaTooShort(needed: needed, available: payload.count - 1), payloadOffset: 0)
            }
            plane = Array(payload[1 ... needed])
        } else {
            plane = [UInt8](repeating: 0, count: width * height)
            let decoder = VP8LDecoder(width: width, height: height, startByte: 1, limits: limits)
            let progress: VP8LDecoder.Progress
            do {
                progress = try decoder.advance(data: payload, available: payload.count, isComplete: true) { rows, first, count in
                    WebPAlphaKernels.green(of: rows, count: count * width, into: &plane, at: first * width)
                }
            } catch {
                switch error {
                case .exhausted:
                    throw WebPCodecFailure(reason: .alphaData("the lossless stream ends before its last pixel"), payloadOffset: payload.count)
                case .invalid(let reason, let bitPosition):
                    throw WebPCodecFailure(reason: .alphaData("\(reason)"), payloadOffset: bitPosition / 8)
                }
            }
            guard progress == .finished else {
                throw WebPCodecFailure(reason: .alphaData("the lossless stream ends before its last pixel"), payloadOffset: payload.count)
            }
        }
        WebPAlphaKernels.unfilter(&plane, width: width, height: height, filter: filter)
        return plane
    }
}
