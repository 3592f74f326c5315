/// The `libtiffRGBA` output: RGBA8 exactly as libtiff 4.5's `TIFFReadRGBAImageOriented(…,
/// ORIENTATION_TOPLEFT, 0)` computes it (tif_getimage.c), truncations, quirks and refusals
/// included, so the conformance comparison needs no tolerance. PureImage's own rendering
/// (`TIFFRendering`, then `Bitmap.converted(to:)`) rounds where libtiff truncates; this one
/// follows libtiff:
///
/// | case | libtiff's arithmetic |
/// |---|---|
/// | 16-bit gray | the high byte (v >> 8), through the gray map |
/// | WhiteIsZero | (range − v) × 255 / range, truncated (range = 255 for 16 bits) |
/// | 8-bit gray + alpha | colour from the gray map, *not* premultiplied; alpha as stored |
/// | 16-bit gray + alpha | alpha ignored |
/// | gray with separate planes | the samples as stored: no map, so WhiteIsZero is not inverted; 16-bit rounded (v + 128) / 257 |
/// | CMYK 8-bit | R = (255 − K)(255 − C) / 255 truncated; 16-bit CMYK refused |
/// | RGB 16-bit | (v + 128) / 257; unassociated alpha premultiplied as (c × a + 127) / 255 |
/// | clipped right-edge tiles | the row-to-row skip of put16bitbwtile, putgreytile and put8bitcmaptile counts pixels, not sample bytes, so with more than one sample (or 16 bits) the tile's rows shift as libtiff's do |
///
/// Each strip or tile is decoded whole into libtiff's buffer layout
/// (`TIFFPageDecoder.decodeNextBandChunks`) and walked the way gtStripContig / gtTileContig /
/// gtStripSeparate / gtTileSeparate walk it. YCbCr goes through PureImage's own rendering,
/// which already reproduces libtiff's TIFFYCbCrtoRGB and its chroma replication exactly.
/// Orientation flips as libtiff's `setorientation` does for a top-left request.
enum TIFFLibtiffRGBA {
    /// Page `page` rendered; with the page's truncation (strips or tiles past the end of the
    /// input) and the warnings its decode met.
    static func render(_ bytes: [UInt8], page: Int, limits: DecodeLimits) throws(DecodeError)
        -> (bitmap: Bitmap, truncation: DecodeError?, warnings: [DecodeWarning]) {
        let (header, directory) = try TIFFSampleReader.directory(bytes, page: page, limits: limits)
        let reader = RandomAccessReader(bytes)
        let declared = try TIFFImageLayout(directory: directory, reader: reader, limits: limits)
        let rendering = declared.forRendering()
        let layout = rendering.choppedLikeLibtiff(fileSize: bytes.count) ?? rendering
        let total = try SizeMath.allocationSize(layout.width, layout.height, 4, limits: limits, format: .tiff, offset: nil)
        var raster = [UInt8](repeating: 0, count: total)
        let put = try TIFFLibtiffPut(layout: layout, declared: declared)
        let flipVertically = [3, 4, 7, 8].contains(layout.orientation)
        let flipHorizontally = [2, 3, 6, 7].contains(layout.orientation)
        let decoder = TIFFPageDecoder(layout: layout, endianness: header.endianness, limits: limits)

        if case .ownRendering = put.kind {
            // YCbCr: PureImage's rendering is libtiff's here (see the type's comment).
            while !decoder.isComplete { try decoder.decodeNextBand(reader: reader) }
            guard let native = decoder.bitmap,
                  let rgba = try? native.converted(to: .rgba8Premultiplied).tightlyPacked() else {
                throw DecodeError(.malformed, format: .tiff, offset: nil, TIFFError.invalidValue(field: "ImageLength", value: 0))
            }
            raster = rgba.bytes
            if flipVertically { flipRows(&raster, width: layout.width, height: layout.height) }
        } else {
            // libtiff decodes every strip (tile) of a plane into one buffer, zeroed once: a chunk
            // it cannot read leaves the previous chunk's samples there, a chunk that fails half
            // way leaves them after what it wrote. The first chunk must read, or libtiff gives up.
            var buffers = [[UInt8]?](repeating: nil, count: layout.planeCount)
            var top = 0
            while !decoder.isComplete {
                let chunks = try decoder.decodeNextBandChunks(reader: reader)
                let rows = min(layout.chunkHeight, layout.height - top)
                for across in 0..<layout.chunksAcross {
                    for plane in 0..<layout.planeCount {
                        let chunk = chunks[plane * layout.chunksAcross + across]
                        if buffers[plane] == nil {
                            if chunk.rawFailed && plane == 0 {
                                throw DecodeError(.malformed, format: .tiff, offset: layout.offsets[0],
                                                  TIFFError.truncated(inside: "the first strip or tile (libtiff's RGBA interface stops)"))
                            }
                            buffers[plane] = [UInt8](repeating: 0, count: chunk.bytes.count)
                        }
                        if !chunk.rawFailed, chunk.written > 0 {
                            let count = min(chunk.written, chunk.bytes.count, buffers[plane]?.count ?? 0)
                            // What the codec wrote replaces the buffer; its holes keep the
                            // previous chunk's bytes.
                            var from = 0
                            for hole in chunk.unwritten + [count ..< count] where hole.lowerBound >= from {
                                let to = min(hole.lowerBound, count)
                                if from < to { buffers[plane]?.replaceSubrange(from..<to, with: chunk.bytes[from..<to]) }
                                from = max(from, min(hole.upperBound, count))
                            }
                        }
                    }
                    let left = across * layout.chunkWidth
                    let columns = min(layout.chunkWidth, layout.width - left)
                    // A right-edge tile is clipped: libtiff's fromskew is the tile's columns past the image.
                    let skew = layout.isTiled ? layout.chunkWidth - columns : 0
                    put.put(into: &raster, width: layout.width, height: layout.height, left: left, top: top,
                            columns: columns, rows: rows, skew: skew, planes: buffers.map { $0 ?? [] }, flipVertically: flipVertically)
                }
                top += rows
            }
        }
        if flipHorizontally { flipColumns(&raster, width: layout.width, height: layout.height) }
        let bitmap = Bitmap(uncheckedWidth: layout.width, height: layout.height, format: .rgba8Premultiplied,
                            bytesPerRow: layout.width * 4, bytes: raster)
        let truncation = decoder.truncatedAt.map { at in
            DecodeError(.truncated, format: .tiff, offset: at, TIFFError.truncated(inside: "the image data of page \(page)"))
        }
        return (bitmap, truncation, decoder.warnings)
    }

    private static func flipRows(_ raster: inout [UInt8], width: Int, height: Int) {
        let rowBytes = width * 4
        for y in 0 ..< height / 2 {
            let a = y * rowBytes, b = (height - 1 - y) * rowBytes
            for k in 0..<rowBytes { raster.swapAt(a + k, b + k) }
        }
    }

    private static func flipColumns(_ raster: inout [UInt8], width: Int, height: Int) {
        for y in 0..<height {
            for x in 0 ..< width / 2 {
                let a = (y * width + x) * 4, b = (y * width + width - 1 - x) * 4
                for k in 0..<4 { raster.swapAt(a + k, b + k) }
            }
        }
    }
}
