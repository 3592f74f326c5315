/// RFC 9649 §2.7 "Assembling the Canvas from Frames", exactly as libwebp's `WebPAnimDecoder`
/// does it (anim_decode.c), which the conformance runner compares against:
///
/// 1. The canvas starts transparent black (0, 0, 0, 0). The ANIM background colour is not
///    painted, and "dispose to background" clears to transparent, not to that colour.
/// 2. A frame is a *key frame* when it is the first, or it has no alpha / does not blend and
///    covers the whole canvas, or the previous frame was disposed to background and either
///    covered the whole canvas or was itself a key frame. A key frame starts from a transparent
///    canvas and is not blended; any other frame starts from the previous canvas after disposal.
/// 3. The frame's pixels replace the canvas inside its rectangle. Then, when the frame blends
///    (and is not a key frame), each pixel whose alpha is not 255 is blended over the pixel of
///    the previous canvas after disposal — except, when the previous frame was disposed to
///    background, inside that frame's rectangle, where the new pixel stays as decoded.
/// 4. "Dispose to background" clears the frame's rectangle of the canvas the next frame starts
///    from.
///
/// Blending is libwebp's non-premultiplied integer approximation of "src over dst":
/// `dst_factor = dst_a × (256 − src_a) >> 8`, `a = src_a + dst_factor`, and each colour
/// channel `(src_c × src_a + dst_c × dst_factor) × (2^24 / a) >> 24`; a pixel with alpha 0 leaves
/// the destination (its colour too).
struct WebPAnimationCompositor {
    let width: Int
    let height: Int
    /// The canvas after the last frame drawn (straight RGBA8).
    private(set) var canvas: [UInt8]
    /// The canvas after the last frame drawn, with that frame's disposal applied.
    private var disposed: [UInt8]
    private(set) var framesDrawn = 0
    private var previous: WebPFrame?
    private var previousWasKeyFrame = false

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        canvas = PixelMemory.zeroed(count: width * height * 4)
        disposed = canvas
    }

    private func isFullCanvas(_ frame: WebPFrame) -> Bool {
        frame.width == width && frame.height == height
    }

    /// libwebp's `IsKeyFrame`.
    private func isKeyFrame(_ frame: WebPFrame) -> Bool {
        guard let previous else { return true }
        if (!frame.hasAlpha || !frame.blends) && isFullCanvas(frame) { return true }
        return previous.disposesToBackground && (isFullCanvas(previous) || previousWasKeyFrame)
    }

    /// Draws `frame`, whose decoded pixels (width × height straight RGBA8) are `pixels`.
    mutating func draw(_ frame: WebPFrame, pixels: [UInt8]) {
        let keyFrame = isKeyFrame(frame)
        if keyFrame {
            for i in canvas.indices { canvas[i] = 0 }
        } else {
            canvas = disposed
        }
        let rowBytes = frame.width * 4
        for row in 0..<frame.height {
            let to = ((frame.y + row) * width + frame.x) * 4
            canvas.replaceSubrange(to ..< to + rowBytes, with: pixels[row * rowBytes ..< (row + 1) * rowBytes])
        }
        if let previous, frame.blends, !keyFrame {
            for row in 0..<frame.height {
                let y = frame.y + row
                if previous.disposesToBackground {
                    for (left, count) in Self.blendRanges(frame, previous, y: y) where count > 0 {
                        blendRow(y: y, left: left, count: count)
                    }
                } else {
                    blendRow(y: y, left: frame.x, count: frame.width)
                }
            }
        }
        disposed = canvas
        if frame.disposesToBackground {
            for row in 0..<frame.height {
                let from = ((frame.y + row) * width + frame.x) * 4
                for i in from ..< from + frame.width * 4 { disposed[i] = 0 }
            }
        }
        previous = frame
        previousWasKeyFrame = keyFrame
        framesDrawn += 1
    }

    /// libwebp's `FindBlendRangeAtRow`: the parts of the frame's row `y` outside the previous
    /// frame's (disposed) rectangle, as (left, count) pairs.
    private static func blendRanges(_ frame: WebPFrame, _ previous: WebPFrame, y: Int) -> [(Int, Int)] {
        let frameRight = frame.x + frame.width
        let previousRight = previous.x + previous.width
        if y < previous.y || y >= previous.y + previous.height || frame.x >= previousRight || frameRight <= previous.x {
            return [(frame.x, frame.width)]
        }
        var ranges: [(Int, Int)] = []
        if frame.x < previous.x { ranges.append((frame.x, previous.x - frame.x)) }
        if frameRight > previousRight { ranges.append((previousRight, frameRight - previousRight)) }
        return ranges
    }

    /// Blends `count` canvas pixels of row `y` from `left` over the disposed previous canvas.
    private mutating func blendRow(y: Int, left: Int, count: Int) {
        for x in left ..< left + count {
            let i = (y * width + x) * 4
            let sourceAlpha = Int(canvas[i + 3])
            if sourceAlpha == 255 { continue }
            if sourceAlpha == 0 {
                for c in 0..<4 { canvas[i + c] = disposed[i + c] }
                continue
            }
            let destinationAlpha = Int(disposed[i + 3])
            let destinationFactor = (destinationAlpha * (256 - sourceAlpha)) >> 8
            let alpha = sourceAlpha + destinationFactor
            let scale = (1 << 24) / alpha
            for c in 0..<3 {
                let blended = Int(canvas[i + c]) * sourceAlpha + Int(disposed[i + c]) * destinationFactor
                canvas[i + c] = UInt8((blended * scale) >> 24)
            }
            canvas[i + 3] = UInt8(alpha)
        }
    }
}
