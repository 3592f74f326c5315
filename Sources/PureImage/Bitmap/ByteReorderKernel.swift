/// A conversion that only moves bytes: the same colour model, the same component depth (8 or
/// 16 bits) and the same kind of alpha (none, straight or premultiplied), in another order —
/// alpha first or last, or another 16-bit byte order. The commonest is host-order RGBA16 (the
/// canonical 16-bit output) to the big-endian samples PAM and PNG files store, which the
/// general route did pixel by pixel through its working pixel (55 ns a pixel; a 268 M-pixel
/// 16-bit decode written as PAM spent 6 s there). Every target byte is one source byte, at a
/// position computed once from the two `ComponentLayout`s. `ConversionKernelTests` compares it
/// with `GeneralConversion` for every pair it takes.
///
/// Safety: x runs over 0..<width on rows that hold `width × bytesPerPixel` bytes at
/// `y × bytesPerRow` in each buffer (`PixelConverter.convert`'s guarantee); `sourceOffset`
/// holds offsets inside the source pixel, one per target byte (both pixels the same size).
struct ByteReorderKernel {
    /// For each byte of a target pixel, the byte of the source pixel it copies.
    let sourceOffset: [Int]

    init?(from source: PixelFormat, to target: PixelFormat) {
        guard source != target, source.bitsPerComponent == target.bitsPerComponent,
              source.bitsPerComponent == 8 || source.bitsPerComponent == 16,
              source.componentType == .unsignedInteger, target.componentType == .unsignedInteger,
              source.colorModel == target.colorModel, source.bitsPerPixel == target.bitsPerPixel else { return nil }
        if case .indexed = source.colorModel { return nil }
        // The same kind of fourth component: none, straight alpha, or premultiplied alpha (a
        // skip component's value is the general route's to choose; not taken here).
        func kind(_ alpha: AlphaInfo) -> Int? {
            switch alpha {
            case .none: return 0
            case .first, .last: return 1
            case .premultipliedFirst, .premultipliedLast: return 2
            case .noneSkipFirst, .noneSkipLast, .alphaOnly: return nil
            }
        }
        guard let sourceKind = kind(source.alphaInfo), sourceKind == kind(target.alphaInfo) else { return nil }
        let from = ComponentLayout(source), to = ComponentLayout(target)
        var offsets = [Int](repeating: 0, count: target.bitsPerPixel / 8)
        for component in 0..<to.colorHigh.count {
            offsets[to.colorHigh[component]] = from.colorHigh[component]
            offsets[to.colorLow[component]] = from.colorLow[component]
        }
        if let high = to.extraHigh, let low = to.extraLow, let sourceHigh = from.extraHigh, let sourceLow = from.extraLow {
            offsets[high] = sourceHigh
            offsets[low] = sourceLow
        }
        sourceOffset = offsets
    }

    /// Each pixel is read whole before any of its bytes is written, so the rows may be
    /// converted in place (`WebPRaster` converts its rows so).
    func run(width: Int, height: Int, from source: PixelRows, into target: MutablePixelRows) {
        let sourceRowBytes = source.bytesPerRow, targetRowBytes = target.bytesPerRow
        let pixelBytes = sourceOffset.count
        if pixelBytes == 8 || pixelBytes == 4 {
            // One word a pixel: the target's byte j is the source word's byte offset[j].
            let shifts = (sourceOffset + [Int](repeating: 0, count: 8 - pixelBytes)).map { UInt64(8 * $0) }
            let (s0, s1, s2, s3, s4, s5, s6, s7) = (shifts[0], shifts[1], shifts[2], shifts[3], shifts[4], shifts[5], shifts[6], shifts[7])
            for y in 0 ..< height {
                let s = source.base + y &* sourceRowBytes
                let d = target.base + y &* targetRowBytes
                for x in 0 ..< width {
                    let p = pixelBytes == 8 ? UInt64(littleEndian: s.loadUnaligned(fromByteOffset: 8 &* x, as: UInt64.self))
                                            : UInt64(UInt32(littleEndian: s.loadUnaligned(fromByteOffset: 4 &* x, as: UInt32.self)))
                    @inline(__always) func byte(_ shift: UInt64) -> UInt64 { (p &>> shift) & 0xFF }
                    let low = byte(s0) | byte(s1) &<< 8 | byte(s2) &<< 16 | byte(s3) &<< 24
                    if pixelBytes == 4 {
                        d.storeBytes(of: UInt32(truncatingIfNeeded: low).littleEndian, toByteOffset: 4 &* x, as: UInt32.self)
                    } else {
                        let word = low | byte(s4) &<< 32 | byte(s5) &<< 40 | byte(s6) &<< 48 | byte(s7) &<< 56
                        d.storeBytes(of: word.littleEndian, toByteOffset: 8 &* x, as: UInt64.self)
                    }
                }
            }
            return
        }
        // Other sizes (at most five 16-bit components, 10 bytes): each pixel copied aside first.
        var pixel: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &pixel) { local in
            guard let held = local.baseAddress, pixelBytes <= local.count else { return }
            sourceOffset.withUnsafeBufferPointer { offsets in
                for y in 0 ..< height {
                    let s = source.base + y &* sourceRowBytes
                    let d = target.base + y &* targetRowBytes
                    for x in 0 ..< width {
                        held.copyMemory(from: s + x &* pixelBytes, byteCount: pixelBytes)
                        let q = d + x &* pixelBytes
                        for j in 0 ..< pixelBytes {
                            q.storeBytes(of: held.load(fromByteOffset: offsets[j], as: UInt8.self), toByteOffset: j, as: UInt8.self)
                        }
                    }
                }
            }
        }
    }
}
