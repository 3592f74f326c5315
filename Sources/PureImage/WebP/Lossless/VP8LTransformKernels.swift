/// RFC 9649 §3.5 — the inverse transforms, applied to a band of rows in place (colour indexing
/// expands into a wider buffer).
///
/// Pixels are ARGB in a `UInt32` (alpha in bits 24–31, blue in 0–7). Arithmetic is per 8-bit
/// channel, modulo 256, exactly as the RFC's pseudocode and libwebp do it.
///
/// Unsafe for speed. Bounds: every loop runs `x < width` over rows of exactly `width` pixels in
/// buffers of `width × rows` (checked by the callers' preconditions); block indices are
/// `(x >> bits) < DIV_ROUND_UP(width, 1 << bits)` and `(y >> bits) < DIV_ROUND_UP(height, …)`,
/// the sizes the transform data was decoded with; palette indices are masked to the palette's
/// `1 << (8 >> bits)` entries (256 when bits = 0, green is 8 bits).
enum VP8LTransformKernels {
    /// Per-channel sum modulo 256.
    @inline(__always)
    static func addPixels(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let alphaGreen = (a & 0xFF00_FF00) &+ (b & 0xFF00_FF00)
        let redBlue = (a & 0x00FF_00FF) &+ (b & 0x00FF_00FF)
        return (alphaGreen & 0xFF00_FF00) | (redBlue & 0x00FF_00FF)
    }

    /// §3.5.1 `Average2`: per-channel (a + b) / 2, rounded down.
    @inline(__always)
    static func average2(_ a: UInt32, _ b: UInt32) -> UInt32 {
        (((a ^ b) & 0xFEFE_FEFE) >> 1) &+ (a & b)
    }

    @inline(__always)
    private static func channel(_ pixel: UInt32, _ shift: UInt32) -> Int { Int((pixel &>> shift) & 0xFF) }

    /// §3.5.1 `Select(L, T, TL)`: the neighbour whose Manhattan distance to the gradient
    /// estimate L + T − TL is smaller; T on ties.
    @inline(__always)
    static func select(left: UInt32, top: UInt32, topLeft: UInt32) -> UInt32 {
        // Σ|T − TL| is L's distance to the estimate, Σ|L − TL| is T's.
        let toLeft = abs(channel(top, 24) &- channel(topLeft, 24)) &+ abs(channel(top, 16) &- channel(topLeft, 16))
            &+ abs(channel(top, 8) &- channel(topLeft, 8)) &+ abs(channel(top, 0) &- channel(topLeft, 0))
        let toTop = abs(channel(left, 24) &- channel(topLeft, 24)) &+ abs(channel(left, 16) &- channel(topLeft, 16))
            &+ abs(channel(left, 8) &- channel(topLeft, 8)) &+ abs(channel(left, 0) &- channel(topLeft, 0))
        return toLeft < toTop ? left : top
    }

    @inline(__always)
    private static func clamp255(_ v: Int) -> UInt32 { UInt32(truncatingIfNeeded: v < 0 ? 0 : v > 255 ? 255 : v) }

    /// §3.5.1 `ClampAddSubtractFull(L, T, TL)`: per channel clamp(L + T − TL).
    @inline(__always)
    static func clampAddSubtractFull(_ a: UInt32, _ b: UInt32, _ c: UInt32) -> UInt32 {
        @inline(__always) func one(_ shift: UInt32) -> UInt32 {
            clamp255(channel(a, shift) &+ channel(b, shift) &- channel(c, shift)) &<< shift
        }
        return one(24) | one(16) | one(8) | one(0)
    }

    /// §3.5.1 `ClampAddSubtractHalf(Average2(L, T), TL)`: per channel clamp(a + (a − b) / 2),
    /// the division truncating toward zero (C semantics).
    @inline(__always)
    static func clampAddSubtractHalf(_ a: UInt32, _ b: UInt32) -> UInt32 {
        @inline(__always) func one(_ shift: UInt32) -> UInt32 {
            let ca = channel(a, shift), cb = channel(b, shift)
            return clamp255(ca &+ (ca &- cb) / 2) &<< shift
        }
        return one(24) | one(16) | one(8) | one(0)
    }

    /// §3.5.1 — the 14 predictor modes (14 and 15 act as mode 0, as in libwebp).
    @inline(__always)
    static func predict(mode: UInt32, left: UInt32, top: UInt32, topRight: UInt32, topLeft: UInt32) -> UInt32 {
        switch mode {
        case 1: return left
        case 2: return top
        case 3: return topRight
        case 4: return topLeft
        case 5: return average2(average2(left, topRight), top)
        case 6: return average2(left, topLeft)
        case 7: return average2(left, top)
        case 8: return average2(topLeft, top)
        case 9: return average2(top, topRight)
        case 10: return average2(average2(left, topLeft), average2(top, topRight))
        case 11: return select(left: left, top: top, topLeft: topLeft)
        case 12: return clampAddSubtractFull(left, top, topLeft)
        case 13: return clampAddSubtractHalf(average2(left, top), topLeft)
        default: return 0xFF00_0000
        }
    }

    /// §3.5.1 inverse predictor over `rows` rows starting at image row `firstRow`, in place.
    /// `above` (width + 1 entries) holds the predictor's output of row `firstRow − 1` (unused
    /// when `firstRow` is 0); on return it holds the output of the band's last row.
    ///
    /// The top-right neighbour of a row's last pixel is the first pixel of its own row: the rows
    /// are contiguous, so `top[width]` is exactly that pixel (for the band's first row,
    /// `above[width]` is set to it before the row is predicted).
    static func inversePredictor(_ pixels: inout [UInt32], width: Int, rows: Int, firstRow: Int,
                                 bits: Int, modes: [UInt32], above: inout [UInt32]) {
        precondition(pixels.count >= width * rows && above.count == width + 1 && width > 0)
        let blocksPerRow = VP8LImage.subsampledSize(width, bits)
        let blockSize = 1 << bits
        pixels.withUnsafeMutableBufferPointer { buffer in
        above.withUnsafeMutableBufferPointer { aboveRow in
        modes.withUnsafeBufferPointer { modes in
            guard let base = buffer.baseAddress, let aboveBase = aboveRow.baseAddress else { return }
            for r in 0..<rows {
                let y = firstRow + r
                let out = base + r * width
                if y == 0 {
                    // Top-left pixel: mode 0 (black); the rest of the first row: mode 1 (L).
                    out[0] = addPixels(out[0], 0xFF00_0000)
                    var x = 1
                    while x < width { out[x] = addPixels(out[x], out[x - 1]); x += 1 }
                    continue
                }
                let top = r == 0 ? aboveBase : out - width
                // Leftmost pixel: mode 2 (T).
                out[0] = addPixels(out[0], top[0])
                if r == 0 { top[width] = out[0] }
                let modeRow = (y >> bits) * blocksPerRow
                var x = 1
                while x < width {
                    let mode = (modes[modeRow + (x >> bits)] >> 8) & 0xF
                    let runEnd = min(width, (x & ~(blockSize - 1)) + blockSize)
                    predictRun(mode: mode, out: out, top: top, from: x, to: runEnd)
                    x = runEnd
                }
            }
            if rows > 0 {
                let last = base + (rows - 1) * width
                for x in 0..<width { aboveBase[x] = last[x] }
            }
        }
        }
        }
    }

    /// Pixels `from ..< to` of one row with one predictor mode; `top` is the row above (with
    /// `top[width]` the row's own first pixel).
    @inline(__always)
    private static func predictRun(mode: UInt32, out: UnsafeMutablePointer<UInt32>, top: UnsafeMutablePointer<UInt32>, from: Int, to: Int) {
        var x = from
        switch mode {
        case 1: while x < to { out[x] = addPixels(out[x], out[x &- 1]); x &+= 1 }
        case 2: while x < to { out[x] = addPixels(out[x], top[x]); x &+= 1 }
        case 3: while x < to { out[x] = addPixels(out[x], top[x &+ 1]); x &+= 1 }
        case 4: while x < to { out[x] = addPixels(out[x], top[x &- 1]); x &+= 1 }
        case 5: while x < to { out[x] = addPixels(out[x], average2(average2(out[x &- 1], top[x &+ 1]), top[x])); x &+= 1 }
        case 6: while x < to { out[x] = addPixels(out[x], average2(out[x &- 1], top[x &- 1])); x &+= 1 }
        case 7: while x < to { out[x] = addPixels(out[x], average2(out[x &- 1], top[x])); x &+= 1 }
        case 8: while x < to { out[x] = addPixels(out[x], average2(top[x &- 1], top[x])); x &+= 1 }
        case 9: while x < to { out[x] = addPixels(out[x], average2(top[x], top[x &+ 1])); x &+= 1 }
        case 10:
            while x < to {
                out[x] = addPixels(out[x], average2(average2(out[x &- 1], top[x &- 1]), average2(top[x], top[x &+ 1])))
                x &+= 1
            }
        case 11: while x < to { out[x] = addPixels(out[x], select(left: out[x &- 1], top: top[x], topLeft: top[x &- 1])); x &+= 1 }
        case 12: while x < to { out[x] = addPixels(out[x], clampAddSubtractFull(out[x &- 1], top[x], top[x &- 1])); x &+= 1 }
        case 13:
            while x < to {
                out[x] = addPixels(out[x], clampAddSubtractHalf(average2(out[x &- 1], top[x]), top[x &- 1]))
                x &+= 1
            }
        default: while x < to { out[x] = addPixels(out[x], 0xFF00_0000); x &+= 1 }
        }
    }

    /// §3.5.2 `ColorTransformDelta`: (int8 t × int8 c) >> 5.
    @inline(__always)
    static func colorTransformDelta(_ t: UInt32, _ c: UInt32) -> Int {
        (Int(Int8(truncatingIfNeeded: t)) * Int(Int8(truncatingIfNeeded: c))) >> 5
    }

    /// §3.5.2 inverse colour transform, in place. Red is restored first; blue uses the restored
    /// red (libwebp: "new_blue += ColorTransformDelta(red_to_blue, new_red)").
    static func inverseCrossColor(_ pixels: inout [UInt32], width: Int, rows: Int, firstRow: Int,
                                  bits: Int, multipliers: [UInt32]) {
        precondition(pixels.count >= width * rows)
        let blocksPerRow = VP8LImage.subsampledSize(width, bits)
        let blockSize = 1 << bits
        pixels.withUnsafeMutableBufferPointer { buffer in
        multipliers.withUnsafeBufferPointer { multipliers in
            for r in 0..<rows {
                let blockRow = ((firstRow + r) >> bits) * blocksPerRow
                var x = 0
                while x < width {
                    let m = multipliers[blockRow + (x >> bits)]
                    // int8 × int8 products fit in 16 bits, so the arithmetic is done in Int16,
                    // which the compiler vectorises eight pixels wide.
                    let greenToRed = Int16(Int8(truncatingIfNeeded: m))
                    let greenToBlue = Int16(Int8(truncatingIfNeeded: m >> 8))
                    let redToBlue = Int16(Int8(truncatingIfNeeded: m >> 16))
                    let runEnd = min(width, x + blockSize)
                    var i = r * width + x
                    let end = r * width + runEnd
                    while i < end {
                        let argb = buffer[i]
                        let green = Int16(Int8(truncatingIfNeeded: argb >> 8))
                        var red = Int16(truncatingIfNeeded: argb >> 16) & 0xFF
                        var blue = Int16(truncatingIfNeeded: argb) & 0xFF
                        red = (red &+ ((greenToRed &* green) &>> 5)) & 0xFF
                        blue = blue &+ ((greenToBlue &* green) &>> 5)
                        blue = (blue &+ ((redToBlue &* Int16(Int8(truncatingIfNeeded: red))) &>> 5)) & 0xFF
                        buffer[i] = (argb & 0xFF00_FF00) | UInt32(truncatingIfNeeded: red) << 16 | UInt32(truncatingIfNeeded: blue)
                        i &+= 1
                    }
                    x = runEnd
                }
            }
        }
        }
    }

    /// §3.5.3 inverse subtract-green: red += green, blue += green (modulo 256), in place.
    static func addGreen(_ pixels: inout [UInt32], count: Int) {
        precondition(pixels.count >= count)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for i in 0..<count {
                let argb = buffer[i]
                let green = (argb >> 8) & 0xFF
                let redBlue = ((argb & 0x00FF_00FF) &+ (green << 16 | green)) & 0x00FF_00FF
                buffer[i] = (argb & 0xFF00_FF00) | redBlue
            }
        }
    }

    /// §3.5.4 inverse colour indexing: `input` rows of `codedWidth` pixels whose green holds
    /// `1 << bits` packed indices (least significant first) become `width` palette colours.
    static func inverseColorIndexing(_ input: [UInt32], codedWidth: Int, width: Int, rows: Int,
                                     bits: Int, palette: [UInt32]) -> [UInt32] {
        precondition(input.count >= codedWidth * rows && palette.count == 1 << (8 >> bits))
        var output = [UInt32](repeating: 0, count: width * rows)
        let bitsPerIndex = UInt32(8 >> bits)
        let indexMask = UInt32((1 << (8 >> bits)) - 1)
        let perPixelMask = (1 << bits) - 1
        output.withUnsafeMutableBufferPointer { out in
        input.withUnsafeBufferPointer { input in
        palette.withUnsafeBufferPointer { palette in
            for r in 0..<rows {
                var packed: UInt32 = 0
                var source = r * codedWidth
                for x in 0..<width {
                    if x & perPixelMask == 0 {
                        packed = (input[source] >> 8) & 0xFF
                        source += 1
                    }
                    out[r * width + x] = palette[Int(packed & indexMask)]
                    packed >>= bitsPerIndex
                }
            }
        }
        }
        }
        return output
    }
}
