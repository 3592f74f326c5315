/// The byte layout the colour kernels write a row of pixels in.
enum VP8PixelLayout: Equatable {
    /// R, G, B, A, straight alpha: libwebp's RGBA.
    case rgba
    /// B, G, R, A with the colour premultiplied by alpha (`ConversionKernel.premultiplyByShifts`):
    /// `PixelFormat.display(hasAlpha: true)`, and for opaque pixels `display(hasAlpha: false)`
    /// as well — what converting the RGBA row to either gives.
    case bgraPremultiplied
}

/// YUV 4:2:0 → RGBA, exactly as libwebp's default output path does it (`WebPDecodeRGBA`:
/// "fancy" upsampling, `UpsampleRgbaLinePair`, and `VP8YuvToRgba`).
///
/// **Fancy upsampling.** Each chroma sample sits between four luma samples. An output row is the
/// upper or lower row of a pair of luma rows around the boundary between chroma rows `top` and
/// `current`; a pixel takes 9/16 of the nearest chroma sample, 3/16 of the two next and 1/16 of
/// the far one, computed in two rounding steps (per channel; libwebp packs U and V in one word,
/// which changes nothing):
///
/// ```
///   tl t           avg = tl + t + l + c + 8
///   l  c           diag12 = (avg + 2(t + l)) >> 3,  diag03 = (avg + 2(tl + c)) >> 3
///   upper row, pixels 2x−1, 2x:   (diag12 + tl) >> 1,  (diag03 + t) >> 1
///   lower row, pixels 2x−1, 2x:   (diag03 + l) >> 1,   (diag12 + c) >> 1
///   first pixel (and last, for even widths): upper (3tl + l + 2) >> 2, lower (3l + tl + 2) >> 2
/// ```
/// Row 0 is an upper row with `top = current =` chroma row 0; row y > 0 belongs to the pair of
/// chroma rows (y − 1) / 2 and (y − 1) / 2 + 1 (upper when y is odd), the second clamped to the
/// last chroma row (the last row of an even-height image).
///
/// **Colour conversion** (BT.601 limited range, 14-bit fixed point as libwebp's `yuv.h`):
/// `MultHi(v, c) = (v × c) >> 8`, then
/// R = clip(MultHi(y, 19077) + MultHi(v, 26149) − 14234),
/// G = clip(MultHi(y, 19077) − MultHi(u, 6419) − MultHi(v, 13320) + 8708),
/// B = clip(MultHi(y, 19077) + MultHi(u, 33050) − 17685), with clip(x) = x >> 6 clamped to
/// 0…255. Alpha is 255, or the alpha plane's value when there is one (`convertRows`), in the
/// layout asked for (`VP8PixelLayout`: RGBA, or premultiplied BGRA for the display format).
///
/// Unsafe for speed. Bounds: a row reads `y[yStart ..< yStart + width]` and chroma
/// `[cStart ..< cStart + (width + 1) / 2]` of rows inside the planes (the caller passes row
/// starts of existing rows), and writes `out[0 ..< 4 × width]`.
enum VP8ColorKernels {
    @inline(__always) private static func multHi(_ v: Int, _ c: Int) -> Int { (v &* c) &>> 8 }
    @inline(__always) private static func clip(_ v: Int) -> UInt32 {
        (v & ~16383) == 0 ? UInt32(truncatingIfNeeded: v &>> 6) : (v < 0 ? 0 : 255)
    }

    /// One pixel, stored as the little-endian word of R, G, B, 255 at byte offset `o`.
    @inline(__always)
    static func yuvToRGBA(_ y: Int, _ u: Int, _ v: Int, _ out: UnsafeMutableBufferPointer<UInt8>, _ o: Int) {
        let luma = multHi(y, 19077)
        let r = clip(luma &+ multHi(v, 26149) &- 14234)
        let g = clip(luma &- multHi(u, 6419) &- multHi(v, 13320) &+ 8708)
        let b = clip(luma &+ multHi(u, 33050) &- 17685)
        let word = r | g &<< 8 | b &<< 16 | 0xFF00_0000
        UnsafeMutableRawPointer(out.baseAddress.unsafelyUnwrapped).storeBytes(of: word.littleEndian, toByteOffset: o, as: UInt32.self)
    }

    /// Pixel `o` (written as RGBA, alpha 255, by `yuvToRGBA`) given its `alpha` and put in
    /// `layout`.
    @inline(__always)
    static func finish(_ out: UnsafeMutableBufferPointer<UInt8>, _ o: Int, alpha: UInt8?, layout: VP8PixelLayout) {
        guard let alpha else {
            if layout == .bgraPremultiplied { out.swapAt(o, o + 2) }
            return
        }
        out[o + 3] = alpha
        guard layout == .bgraPremultiplied else { return }
        let red = out[o]
        out[o] = ConversionKernel.premultiplyByShifts(out[o + 2], alpha)
        out[o + 1] = ConversionKernel.premultiplyByShifts(out[o + 1], alpha)
        out[o + 2] = ConversionKernel.premultiplyByShifts(red, alpha)
    }

    /// One output row. `lower`: the lower row of its pair. Chroma rows `top` and `current` start
    /// at `topStart` and `currentStart` in `u` and `v`.
    static func row(width: Int, lower: Bool, y: UnsafeBufferPointer<UInt8>, yStart: Int,
                    u: UnsafeBufferPointer<UInt8>, v: UnsafeBufferPointer<UInt8>, topStart: Int, currentStart: Int,
                    out: UnsafeMutableBufferPointer<UInt8>) {
        var tlU = Int(u[topStart]), tlV = Int(v[topStart])
        var lU = Int(u[currentStart]), lV = Int(v[currentStart])
        @inline(__always) func edge(_ tl: Int, _ l: Int) -> Int { lower ? (3 * l + tl + 2) >> 2 : (3 * tl + l + 2) >> 2 }
        yuvToRGBA(Int(y[yStart]), edge(tlU, lU), edge(tlV, lV), out, 0)
        let pairs = (width - 1) >> 1
        var x = 1
        while x <= pairs {
            let tU = Int(u[topStart &+ x]), tV = Int(v[topStart &+ x])
            let cU = Int(u[currentStart &+ x]), cV = Int(v[currentStart &+ x])
            let avgU = tlU &+ tU &+ lU &+ cU &+ 8, avgV = tlV &+ tV &+ lV &+ cV &+ 8
            let d12U = (avgU &+ 2 &* (tU &+ lU)) &>> 3, d12V = (avgV &+ 2 &* (tV &+ lV)) &>> 3
            let d03U = (avgU &+ 2 &* (tlU &+ cU)) &>> 3, d03V = (avgV &+ 2 &* (tlV &+ cV)) &>> 3
            let first = 2 &* x &- 1
            if lower {
                yuvToRGBA(Int(y[yStart &+ first]), (d03U &+ lU) &>> 1, (d03V &+ lV) &>> 1, out, first &* 4)
                yuvToRGBA(Int(y[yStart &+ first &+ 1]), (d12U &+ cU) &>> 1, (d12V &+ cV) &>> 1, out, first &* 4 &+ 4)
            } else {
                yuvToRGBA(Int(y[yStart &+ first]), (d12U &+ tlU) &>> 1, (d12V &+ tlV) &>> 1, out, first &* 4)
                yuvToRGBA(Int(y[yStart &+ first &+ 1]), (d03U &+ tU) &>> 1, (d03V &+ tV) &>> 1, out, first &* 4 &+ 4)
            }
            tlU = tU; tlV = tV; lU = cU; lV = cV
            x &+= 1
        }
        if width & 1 == 0 {
            yuvToRGBA(Int(y[yStart + width - 1]), edge(tlU, lU), edge(tlV, lV), out, (width - 1) * 4)
        }
    }

    /// Output rows `rows` (of a `width × height` image) from the plane window, into `out` (the
    /// rows' RGBA bytes, back to back), with the alpha plane when there is one. Rows go through
    /// `VP8ColorLaneKernels` (the same values, eight pixels at a time).
    static func convertRows(_ rows: Range<Int>, width: Int, height: Int, planes: VP8PlaneWindow,
                            alpha: [UInt8]?, layout: VP8PixelLayout = .rgba, into out: UnsafeMutableBufferPointer<UInt8>) {
        let chromaHeight = (height + 1) >> 1
        let yStride = planes.lumaStride, cStride = planes.chromaStride
        // The luma rows and the chroma rows they upsample from (row y reads (y − 1) / 2 and
        // the one below, clamped to the plane) must be in the window.
        let firstChroma = rows.lowerBound == 0 ? 0 : (rows.lowerBound - 1) >> 1
        let lastChroma = min(rows.upperBound >> 1, chromaHeight - 1)
        precondition(out.count == rows.count * width * 4 && width > 0 && width <= yStride && cStride * 2 == yStride)
        precondition(rows.isEmpty || (rows.upperBound <= height
                                      && rows.lowerBound >= planes.firstLumaRow
                                      && rows.upperBound - planes.firstLumaRow <= VP8PlaneWindow.lumaRows
                                      && firstChroma >= planes.firstChromaRow
                                      && lastChroma - planes.firstChromaRow < VP8PlaneWindow.chromaRows
                                      && planes.y.count == yStride * VP8PlaneWindow.lumaRows
                                      && min(planes.u.count, planes.v.count) == cStride * VP8PlaneWindow.chromaRows
                                      && (alpha?.count ?? width * height) >= width * height))
        let y = planes.y, u = planes.u, v = planes.v
        let lumaOrigin = planes.firstLumaRow, chromaOrigin = planes.firstChromaRow
        // The upsampled chroma of one row.
        var upsampled = [UInt8](repeating: 0, count: 2 * width)
        let noAlpha: [UInt8] = []
        y.withUnsafeBufferPointer { y in
        u.withUnsafeBufferPointer { u in
        v.withUnsafeBufferPointer { v in
        (alpha ?? noAlpha).withUnsafeBufferPointer { alphaPlane in
        upsampled.withUnsafeMutableBufferPointer { upsampled in
            guard let yBase = y.baseAddress, let uBase = u.baseAddress, let vBase = v.baseAddress,
                  let rowU = upsampled.baseAddress, let outBase = out.baseAddress else { return }
            // Row `row` of the alpha plane (width × height bytes, checked above).
            let alphaBase = alpha == nil ? nil : alphaPlane.baseAddress
            let rowV = rowU + width
            for row in rows {
                let top = row == 0 ? 0 : (row - 1) >> 1
                let current = row == 0 ? 0 : min(top + 1, chromaHeight - 1)
                let lower = row > 0 && row & 1 == 0
                let o = (row - rows.lowerBound) * width * 4
                let lumaRow = (row - lumaOrigin) * yStride
                let topRow = (top - chromaOrigin) * cStride, currentRow = (current - chromaOrigin) * cStride
                if VP8ColorLaneKernels.available {
                    let near = lower ? currentRow : topRow, far = lower ? topRow : currentRow
                    VP8ColorLaneKernels.upsample(width: width, near: uBase + near, far: uBase + far, out: rowU)
                    VP8ColorLaneKernels.upsample(width: width, near: vBase + near, far: vBase + far, out: rowV)
                    VP8ColorLaneKernels.convert(width: width, y: yBase + lumaRow, u: rowU, v: rowV,
                                                alpha: alphaBase.map { $0 + row * width }, out: outBase + o, layout: layout)
                } else {
                    Self.row(width: width, lower: lower, y: y, yStart: lumaRow,
                             u: u, v: v, topStart: topRow, currentStart: currentRow,
                             out: UnsafeMutableBufferPointer(rebasing: out[o ..< o + width * 4]))
                    let start = row * width
                    for x in 0..<width {
                        Self.finish(out, o + x * 4, alpha: alpha == nil ? nil : alphaPlane[start + x], layout: layout)
                    }
                }
            }
        }
        }
        }
        }
        }
    }
}
