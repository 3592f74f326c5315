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
                    for i in 0 ..< count * width { plane[first * width + i] = UInt8(truncatingIfNeeded: rows[i] >> 8) }
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
        unfilter(&plane, width: width, height: height, filter: filter)
        return plane
    }

    /// RFC 9649 §2.7.1.2 filtering methods, undone row by row: the predictor is the left pixel
    /// (horizontal), the pixel above (vertical) or clip(left + above − above-left) (gradient);
    /// the top-left pixel is predicted from 0, the rest of the first row from the left, the
    /// first pixel of other rows from the pixel above (libwebp's `WebPUnfilters`).
    static func unfilter(_ plane: inout [UInt8], width: Int, height: Int, filter: Int) {
        guard filter != 0, width > 0 else { return }
        for y in 0..<height {
            let row = y * width
            if y == 0 {
                var left: UInt8 = 0
                for x in 0..<width { plane[x] = plane[x] &+ left; left = plane[x] }
                continue
            }
            let above = row - width
            switch filter {
            case 1:
                var left = plane[above]
                for x in 0..<width { plane[row + x] = plane[row + x] &+ left; left = plane[row + x] }
            case 2:
                for x in 0..<width { plane[row + x] = plane[row + x] &+ plane[above + x] }
            default:
                var left = Int(plane[above]), topLeft = Int(plane[above])
                for x in 0..<width {
                    let top = Int(plane[above + x])
                    let g = left + top - topLeft
                    let predictor = g < 0 ? 0 : g > 255 ? 255 : g
                    left = (Int(plane[row + x]) + predictor) & 0xFF
                    plane[row + x] = UInt8(left)
                    topLeft = top
                }
            }
        }
    }
}
