/// The put routines of tif_getimage.c on one strip or tile: `columns` × `rows` pixels from the
/// chunk buffers (one per plane), each row followed by libtiff's skip to the next (`skew`, the
/// clipped tile's columns past the image) — in the unit each routine uses, mistakes included.
extension TIFFLibtiffPut {
    func put(into raster: inout [UInt8], width: Int, height: Int, left: Int, top: Int, columns: Int, rows: Int,
             skew: Int, planes: [[UInt8]], flipVertically: Bool) {
        let spp = samplesPerPixel
        func read(_ plane: Int, _ index: Int) -> UInt32 {
            guard plane < planes.count, index >= 0, index < planes[plane].count else { return 0 }
            return UInt32(planes[plane][index])
        }
        // libtiff reads 16-bit samples from its buffer in host order (little-endian here); the
        // decoder's buffers are big-endian, so host byte i is buffer byte i ^ 1 — which keeps a
        // read at an odd offset (put16bitbwtile's shifted rows) the bytes libtiff reads.
        func read16(_ plane: Int, _ index: Int) -> UInt32 { read(plane, index ^ 1) | read(plane, (index + 1) ^ 1) << 8 }
        func write(_ row: Int, _ column: Int, _ pixel: UInt32) {
            let y = top + row
            let target = ((flipVertically ? height - 1 - y : y) * width + left + column) * 4
            raster[target] = UInt8(pixel & 0xFF)
            raster[target + 1] = UInt8(pixel >> 8 & 0xFF)
            raster[target + 2] = UInt8(pixel >> 16 & 0xFF)
            raster[target + 3] = UInt8(pixel >> 24)
        }
        func to8(_ v: UInt32) -> UInt32 { (v + 128) / 257 }              // Bitdepth16To8
        func premultiply(_ c: UInt32, _ a: UInt32) -> UInt32 { (c * a + 127) / 255 }   // UaToAa

        var p = 0
        switch kind {
        case .ownRendering:
            return
        case .packed(let bits, let table):
            let perByte = 8 / bits, mask = UInt32((1 << bits) - 1)
            for row in 0..<rows {
                var x = 0
                while x < columns {
                    let byte = read(0, p)
                    p += 1
                    for k in 0 ..< min(perByte, columns - x) {
                        write(row, x + k, table[Int(byte >> UInt32(8 - bits * (k + 1)) & mask)])
                    }
                    x += perByte
                }
                p += skew / perByte
            }
        case .bytes(let table):
            // putgreytile, put8bitcmaptile: the skip is in pixels, not spp-sample pixels.
            for row in 0..<rows {
                for x in 0..<columns { write(row, x, table[Int(read(0, p))]); p += spp }
                p += skew
            }
        case .grayAlpha8(let table):
            for row in 0..<rows {
                for x in 0..<columns { write(row, x, table[Int(read(0, p))] & (read(0, p + 1) << 24 | 0x00FF_FFFF)); p += spp }
                p += skew
            }
        case .gray16(let table):
            // put16bitbwtile: 2 × spp bytes per pixel, but the skip counts pixels as bytes.
            for row in 0..<rows {
                for x in 0..<columns { write(row, x, table[Int(read16(0, p) >> 8)]); p += 2 * spp }
                p += skew
            }
        case .rgb8(let alpha):
            for row in 0..<rows {
                for x in 0..<columns {
                    var r = read(0, p), g = read(0, p + 1), b = read(0, p + 2), a: UInt32 = 255
                    if alpha != .none { a = read(0, p + 3) }
                    if alpha == .unassociated { r = premultiply(r, a); g = premultiply(g, a); b = premultiply(b, a) }
                    write(row, x, Self.pack(r, g, b, a))
                    p += spp
                }
                p += skew * spp
            }
        case .rgb16(let alpha):
            for row in 0..<rows {
                for x in 0..<columns {
                    var r = to8(read16(0, p)), g = to8(read16(0, p + 2)), b = to8(read16(0, p + 4)), a: UInt32 = 255
                    if alpha != .none { a = to8(read16(0, p + 6)) }
                    if alpha == .unassociated { r = premultiply(r, a); g = premultiply(g, a); b = premultiply(b, a) }
                    write(row, x, Self.pack(r, g, b, a))
                    p += 2 * spp
                }
                p += 2 * skew * spp
            }
        case .cmyk8:
            // "The conversion of CMYK->RGB is *very* crude": truncated.
            for row in 0..<rows {
                for x in 0..<columns {
                    let k = 255 - read(0, p + 3)
                    write(row, x, Self.pack(k * (255 - read(0, p)) / 255, k * (255 - read(0, p + 1)) / 255, k * (255 - read(0, p + 2)) / 255))
                    p += spp
                }
                p += skew * spp
            }
        case .separate8(let colorPlanes, let alpha):
            let (rp, gp, bp) = colorPlanes == 1 ? (0, 0, 0) : (0, 1, 2)
            for row in 0..<rows {
                for x in 0..<columns {
                    var r = read(rp, p), g = read(gp, p), b = read(bp, p), a: UInt32 = 255
                    if alpha != .none { a = read(colorPlanes, p) }
                    if alpha == .unassociated { r = premultiply(r, a); g = premultiply(g, a); b = premultiply(b, a) }
                    write(row, x, Self.pack(r, g, b, a))
                    p += 1
                }
                p += skew
            }
        case .separate16(let colorPlanes, let alpha):
            let (rp, gp, bp) = colorPlanes == 1 ? (0, 0, 0) : (0, 1, 2)
            for row in 0..<rows {
                for x in 0..<columns {
                    var r = to8(read16(rp, p)), g = to8(read16(gp, p)), b = to8(read16(bp, p)), a: UInt32 = 255
                    if alpha != .none { a = to8(read16(colorPlanes, p)) }
                    if alpha == .unassociated { r = premultiply(r, a); g = premultiply(g, a); b = premultiply(b, a) }
                    write(row, x, Self.pack(r, g, b, a))
                    p += 2
                }
                p += 2 * skew
            }
        case .separateCMYK8:
            for row in 0..<rows {
                for x in 0..<columns {
                    let k = 255 - read(3, p)
                    write(row, x, Self.pack(k * (255 - read(0, p)) / 255, k * (255 - read(1, p)) / 255, k * (255 - read(2, p)) / 255))
                    p += 1
                }
                p += skew
            }
        }
    }
}
