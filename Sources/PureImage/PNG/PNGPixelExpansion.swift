/// From unfiltered scanlines to the decoder's native `Bitmap` (PNG §13.12 sample handling).
///
/// | colour type        | native format                                           |
/// |--------------------|---------------------------------------------------------|
/// | 0 gray             | gray, the file's bit depth (1/2/4 packed, 16 big-endian) |
/// | 0 gray + tRNS      | gray + alpha (last), max(8, depth) bits; low depths scaled by bit replication; alpha 0 where the raw sample equals the key, else max |
/// | 2 RGB (+ tRNS)     | RGB (RGBA when tRNS: alpha 0 where all three samples equal the key) |
/// | 3 indexed          | indexed with the palette; tRNS entries become palette alphas (missing ones 255) |
/// | 4 gray + alpha     | gray + alpha (last)                                     |
/// | 6 RGBA             | RGB + alpha (last)                                      |
///
/// 16-bit samples stay big-endian as stored (`ByteOrder.default`), so most images need no
/// pass over the pixels here at all.
enum PNGPixelExpansion {
    static func nativeBitmap(header: PNGHeader, rows: [UInt8], palette: Palette?, transparency: PNGTransparency?) -> Bitmap {
        let rowBytes = (header.width * header.bitsPerPixel + 7) / 8
        if let format = storedRowFormat(header: header, palette: palette, transparency: transparency) {
            return Bitmap(uncheckedWidth: header.width, height: header.height, format: format, bytesPerRow: rowBytes, bytes: rows)
        }
        // Only gray and RGB with a colour key have no stored-row format.
        let model: ColorModel = header.colorType == .grayscale ? .gray : .rgb
        guard case .key(let key)? = transparency else {
            let format = PixelFormat(colorModel: model, bitsPerComponent: header.bitDepth, alphaInfo: .none)
            return Bitmap(uncheckedWidth: header.width, height: header.height, format: format, bytesPerRow: rowBytes, bytes: rows)
        }
        return keyedToAlpha(header: header, rows: rows, rowBytes: rowBytes, key: key, model: model)
    }

    /// The native format when it is the stored scanlines' own, as unfiltered (every image but a
    /// gray or RGB one with a tRNS colour key, whose alpha is made by `keyedToAlpha`: nil).
    static func storedRowFormat(header: PNGHeader, palette: Palette?, transparency: PNGTransparency?) -> PixelFormat? {
        let depth = header.bitDepth
        switch header.colorType {
        case .indexed:
            let basePalette = palette ?? Palette(rgba: [0, 0, 0, 255])!
            return PixelFormat(colorModel: .indexed(applying(transparency, to: basePalette)), bitsPerComponent: depth, alphaInfo: .none)
        case .grayscaleAlpha:
            return PixelFormat(colorModel: .gray, bitsPerComponent: depth, alphaInfo: .last)
        case .truecolorAlpha:
            return PixelFormat(colorModel: .rgb, bitsPerComponent: depth, alphaInfo: .last)
        case .grayscale, .truecolor:
            if case .key? = transparency { return nil }
            return PixelFormat(colorModel: header.colorType == .grayscale ? .gray : .rgb, bitsPerComponent: depth, alphaInfo: .none)
        }
    }

    /// tRNS alphas applied to palette entries; entries beyond the tRNS list stay opaque.
    static func applying(_ transparency: PNGTransparency?, to palette: Palette) -> Palette {
        guard case .paletteAlpha(let alphas)? = transparency else { return palette }
        var rgba = palette.rgba
        for (index, alpha) in alphas.enumerated() where index < palette.count {
            rgba[index * 4 + 3] = alpha
        }
        return Palette(rgba: rgba) ?? palette
    }

    /// Gray or RGB with a tRNS colour key → the same colours plus an alpha component.
    private static func keyedToAlpha(header: PNGHeader, rows: [UInt8], rowBytes: Int, key: [UInt16], model: ColorModel) -> Bitmap {
        let depth = header.bitDepth
        let colors = model.colorComponentCount
        let outDepth = max(8, depth)
        let outComponentBytes = outDepth / 8
        let outPixelBytes = (colors + 1) * outComponentBytes
        let width = header.width, height = header.height
        var out = [UInt8](repeating: 0, count: width * height * outPixelBytes)
        rows.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { destination in
                for y in 0..<height {
                    let inRow = y * rowBytes
                    for x in 0..<width {
                        let to = (y * width + x) * outPixelBytes
                        var matches = true
                        for c in 0..<colors {
                            let raw: UInt16
                            switch depth {
                            case 16:
                                let at = inRow + (x * colors + c) * 2
                                raw = UInt16(source[at]) << 8 | UInt16(source[at + 1])
                            case 8:
                                raw = UInt16(source[inRow + x * colors + c])
                            default:  // 1, 2, 4: gray only (§11.2.2)
                                raw = UInt16(GeneralConversion.packedSample(source, row: inRow, x: x, bits: depth))
                            }
                            if raw != key[c] { matches = false }
                            if outComponentBytes == 2 {
                                destination[to + c * 2] = UInt8(raw >> 8)
                                destination[to + c * 2 + 1] = UInt8(raw & 0xFF)
                            } else {
                                // Bit replication to 8 bits: exact multiple of 255 / (2^depth − 1).
                                destination[to + c] = UInt8(UInt32(raw) * 255 / ((1 << UInt32(depth)) - 1))
                            }
                        }
                        let alpha: UInt8 = matches ? 0 : 0xFF
                        for k in 0..<outComponentBytes { destination[to + colors * outComponentBytes + k] = alpha }
                    }
                }
            }
        }
        let format = PixelFormat(colorModel: model, bitsPerComponent: outDepth, alphaInfo: .last)
        return Bitmap(uncheckedWidth: width, height: height, format: format, bytesPerRow: width * outPixelBytes, bytes: out)
    }
}

/// PNG §11.3.2.1 tRNS, by colour type.
enum PNGTransparency: Equatable {
    /// Colour types 0 and 2: the raw sample value(s) that mean "transparent" (1 or 3 values).
    case key([UInt16])
    /// Colour type 3: alpha for the first `count` palette entries.
    case paletteAlpha([UInt8])
}
