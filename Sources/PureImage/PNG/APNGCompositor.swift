/// APNG frame composition on a straight-RGBA canvas (8-bit, or 16-bit little-endian for 16-bit
/// files: `canvasFormat`), following the APNG spec's dispose and blend operations.
///
/// - The canvas starts fully transparent black.
/// - Frame k is drawn into its fcTL region with its blend op: `source` replaces the region,
///   `over` composites it with the "over" operator below.
/// - Before frame k + 1 is drawn, frame k's dispose op is applied: `none` leaves the canvas,
///   `background` clears the region to transparent black, `previous` restores the region to
///   what it was before frame k was drawn. A `previous` on the first frame acts as `background`
///   (spec: "If the first fcTL chunk uses a dispose_op of APNG_DISPOSE_OP_PREVIOUS it should be
///   treated as APNG_DISPOSE_OP_BACKGROUND").
///
/// "Over" with straight alpha, for source (s, sa) onto destination (d, da), m = 255 or 65535:
/// sa = m → s; sa = 0 → d unchanged; otherwise u = sa·m, v = (m − sa)·da, w = u + v,
/// colour = round((s·u + d·v) / w), alpha = round(w / m). The APNG spec's sample code truncates
/// instead of rounding; other decoders differ by ±1 in blended pixels (see Docs/PNG.md).
struct APNGCompositor {
    private(set) var canvas: Bitmap
    private let max: UInt64
    private var pendingDispose: (APNGFrameControl.Dispose, x: Int, y: Int, width: Int, height: Int)?
    private var savedRegion: [UInt8] = []

    /// The canvas (and frame) format: straight RGBA, 8-bit or 16-bit little-endian components.
    static func canvasFormat(sixteenBit: Bool) -> PixelFormat {
        sixteenBit ? PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .last, byteOrder: .order16Little) : .rgba8
    }

    init(width: Int, height: Int, sixteenBit: Bool) {
        let format = APNGCompositor.canvasFormat(sixteenBit: sixteenBit)
        let rowBytes = width * format.bitsPerPixel / 8
        canvas = Bitmap(uncheckedWidth: width, height: height, format: format, bytesPerRow: rowBytes,
                        bytes: PixelMemory.zeroed(count: rowBytes * height))
        max = sixteenBit ? 65535 : 255
    }

    /// Applies the previous frame's dispose op, then draws `frame` (already in the canvas's
    /// format) per `control`.
    mutating func draw(_ frame: Bitmap, control: APNGFrameControl, isFirst: Bool) {
        applyPendingDispose()
        var dispose = control.dispose
        if isFirst && dispose == .previous { dispose = .background }
        let pixelBytes = canvas.format.bitsPerPixel / 8
        let rowBytes = canvas.bytesPerRow
        let regionRowBytes = control.width * pixelBytes
        if dispose == .previous {
            savedRegion = []
            savedRegion.reserveCapacity(regionRowBytes * control.height)
            for row in 0..<control.height {
                let start = (control.y + row) * rowBytes + control.x * pixelBytes
                savedRegion.append(contentsOf: canvas.bytes[start ..< start + regionRowBytes])
            }
        }
        let wide = pixelBytes == 8
        let m = max
        frame.bytes.withUnsafeBufferPointer { source in
            canvas.bytes.withUnsafeMutableBufferPointer { destination in
                // The fcTL region lies inside the canvas (checked when parsed) and `frame` is
                // exactly control.width × control.height, so all offsets below are in bounds.
                for row in 0..<control.height {
                    let sourceRow = row * frame.bytesPerRow
                    let destinationRow = (control.y + row) * rowBytes + control.x * pixelBytes
                    if control.blend == .source {
                        for i in 0..<regionRowBytes { destination[destinationRow + i] = source[sourceRow + i] }
                        continue
                    }
                    for column in 0..<control.width {
                        let s = sourceRow + column * pixelBytes
                        let d = destinationRow + column * pixelBytes
                        func load(_ p: UnsafeBufferPointer<UInt8>, _ at: Int, _ c: Int) -> UInt64 {
                            wide ? UInt64(UInt16(p[at + 2 * c]) | UInt16(p[at + 2 * c + 1]) << 8) : UInt64(p[at + c])
                        }
                        func store(_ value: UInt64, _ at: Int, _ c: Int) {
                            if wide {
                                destination[at + 2 * c] = UInt8(truncatingIfNeeded: value)
                                destination[at + 2 * c + 1] = UInt8(truncatingIfNeeded: value >> 8)
                            } else {
                                destination[at + c] = UInt8(truncatingIfNeeded: value)
                            }
                        }
                        let sa = load(source, s, 3)
                        if sa == 0 { continue }
                        let current = UnsafeBufferPointer(destination)
                        let da = load(current, d, 3)
                        if sa == m || da == 0 {
                            for c in 0..<4 { store(load(source, s, c), d, c) }
                            continue
                        }
                        let u = sa * m, v = (m - sa) * da, w = u + v
                        for c in 0..<3 {
                            store((load(source, s, c) * u + load(current, d, c) * v + w / 2) / w, d, c)
                        }
                        store((w + m / 2) / m, d, 3)
                    }
                }
            }
        }
        pendingDispose = (dispose, control.x, control.y, control.width, control.height)
    }

    private mutating func applyPendingDispose() {
        guard let (dispose, x, y, width, height) = pendingDispose else { return }
        pendingDispose = nil
        let pixelBytes = canvas.format.bitsPerPixel / 8
        let regionRowBytes = width * pixelBytes
        switch dispose {
        case .none:
            return
        case .background:
            for row in 0..<height {
                let start = (y + row) * canvas.bytesPerRow + x * pixelBytes
                canvas.bytes.replaceSubrange(start ..< start + regionRowBytes, with: repeatElement(0, count: regionRowBytes))
            }
        case .previous:
            for row in 0..<height {
                let start = (y + row) * canvas.bytesPerRow + x * pixelBytes
                canvas.bytes.replaceSubrange(start ..< start + regionRowBytes,
                                             with: savedRegion[row * regionRowBytes ..< (row + 1) * regionRowBytes])
            }
        }
    }
}
