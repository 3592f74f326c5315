/// The sample copies `TIFFRendering.render` builds its bitmaps from: chosen samples of every
/// pixel out of chunky or planar rows (8 or 16 bits, optionally transformed), the first sample
/// packed at 1, 2 or 4 bits, and the row padding of packed rows cleared.
///
/// `planes` hold `height` rows of `planeRowBytes` each (one plane when chunky, one per sample
/// when planar), as `TIFFPageDecoder` assembles them.
struct TIFFSampleGatherer {
    let layout: TIFFImageLayout
    let planes: [[UInt8]]
    let planeRowBytes: Int
    let width: Int
    let height: Int
    let limits: DecodeLimits

    private var bytesPerSample: Int { layout.bitsPerSample == 16 ? 2 : 1 }

    /// A bitmap of this page's size; a size mismatch is reported as a conversion failure.
    func bitmap(_ format: PixelFormat, _ bytes: [UInt8]) throws(DecodeError) -> Bitmap {
        do throws(BitmapError) {
            return try Bitmap(width: width, height: height, format: format, bytes: bytes)
        } catch {
            throw DecodeError(.malformed, format: .tiff, offset: nil, ContainerError.outputConversion("\(error)"))
        }
    }

    /// Copies `sources.count` samples per pixel (sample indices `sources`) at 8 or 16 bits.
    func gather(_ sources: [Int], transform: ((Int, UInt16) -> UInt16)? = nil) throws(DecodeError) -> [UInt8] {
        let spp = layout.samplesPerPixel, bytesPerSample = bytesPerSample
        let outBytes = sources.count * bytesPerSample
        let total = try SizeMath.allocationSize(width, height, outBytes, limits: limits, format: .tiff, offset: nil)
        let rowBytes = width * outBytes
        // Chunky rows that hold exactly the wanted samples (RGB, RGBA, gray): row copies —
        // or, without padding, the plane is the output already.
        // (Compared without building 0..<spp: a page may declare 65 535 samples per pixel, and
        // this runs once per band — the fuzzer found a 535-byte file that spent 1.5 s here.)
        let rowsAreTheSamples = !layout.isPlanar && transform == nil && sources.count == spp && sources.elementsEqual(0 ..< spp)
        if rowsAreTheSamples && planeRowBytes == rowBytes && planes[0].count == total { return planes[0] }
        var out = [UInt8](repeating: 0, count: total)
        let height = height, width = width, planeRowBytes = planeRowBytes
        if rowsAreTheSamples {
            out.withUnsafeMutableBufferPointer { o in
                planes[0].withUnsafeBufferPointer { data in
                    guard let to = o.baseAddress, let from = data.baseAddress else { return }
                    // Each plane row holds planeRowBytes ≥ rowBytes bytes, `height` rows.
                    for y in 0..<height {
                        (to + y * rowBytes).update(from: from + y * planeRowBytes, count: rowBytes)
                    }
                }
            }
            return out
        }
        // One channel at a time, so each pass reads a single plane.
        for (channel, s) in sources.enumerated() {
            let plane = layout.isPlanar ? s : 0
            let step = layout.isPlanar ? bytesPerSample : spp * bytesPerSample
            let first = layout.isPlanar ? 0 : s * bytesPerSample
            out.withUnsafeMutableBufferPointer { o in
                planes[plane].withUnsafeBufferPointer { data in
                    // Bounds: sample x of row y is at y × planeRowBytes + first + x × step,
                    // inside the plane's `height` rows of planeRowBytes; writes stay in row y
                    // of `out` (x × outBytes + channel × bytesPerSample < rowBytes).
                    for y in 0..<height {
                        var i = y * planeRowBytes + first
                        var w = y * rowBytes + channel * bytesPerSample
                        for _ in 0..<width {
                            if bytesPerSample == 1 {
                                let v = UInt16(data[i])
                                o[w] = UInt8(truncatingIfNeeded: transform?(channel, v) ?? v)
                            } else {
                                var v = UInt16(data[i]) << 8 | UInt16(data[i + 1])
                                if let transform { v = transform(channel, v) }
                                o[w] = UInt8(v >> 8); o[w + 1] = UInt8(v & 0xFF)
                            }
                            i += step
                            w += outBytes
                        }
                    }
                }
            }
        }
        return out
    }

    /// Sample 0 of every pixel at 1/2/4/8 bits, packed MSB-first into tight rows.
    func packedFirstSample() -> [UInt8] {
        let bps = layout.bitsPerSample
        let rowBytes = (width * bps + 7) / 8
        if layout.samplesPerPlane == 1 && rowBytes == planeRowBytes { return planes[0] }
        var out = [UInt8](repeating: 0, count: rowBytes * height)
        let mask = (1 << bps) - 1
        for y in 0..<height {
            for x in 0..<width {
                let bit = x * layout.samplesPerPlane * bps
                let byte = planes[0][y * planeRowBytes + bit / 8]
                let value = (Int(byte) >> (8 - bps - bit % 8)) & mask
                let outBit = x * bps
                out[y * rowBytes + outBit / 8] |= UInt8(value << (8 - bps - outBit % 8))
            }
        }
        return out
    }

    /// Sets the unused low bits of each packed row's last byte to 0, so equal images have
    /// equal bytes whatever the file left there (or inverted there).
    func clearRowPadding(_ bytes: inout [UInt8], bitsPerPixel: Int) {
        let rowBytes = (width * bitsPerPixel + 7) / 8
        let usedBits = (width * bitsPerPixel) % 8
        guard usedBits != 0, rowBytes > 0 else { return }
        let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - usedBits))
        for y in 0..<height { bytes[y * rowBytes + rowBytes - 1] &= mask }
    }
}
