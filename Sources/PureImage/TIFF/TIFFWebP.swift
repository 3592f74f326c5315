/// WebP compression (50001, a GDAL/libtiff extension; no TIFF 6.0 section): each strip or tile
/// is a whole WebP file whose image is the chunk — width × rows of 8-bit RGB or RGBA — decoded
/// by PureImage's WebP decoder.
///
/// Follows libtiff's codec (tif_webp.c, libtiff 4.5) in what it accepts and how it fails:
/// - the page has 3 or 4 contiguous 8-bit samples; no predictor is attached (the Predictor tag
///   is ignored, `TIFFImageLayout`);
/// - the WebP image must be exactly the chunk's size (a strip's rows: the rows left in the
///   image, at most RowsPerStrip; a tile: the whole tile), at most 16383 each way;
/// - the page's sample count alone chooses the output, RGB or RGBA: a WebP with alpha in a
///   3-sample page loses its alpha, one without gets an opaque one (libtiff 4.5 does not
///   compare the WebP's bands with the page; later versions refuse alpha in a 3-sample page);
/// - any failure — a bad header, other dimensions, a truncated or corrupt bitstream, an
///   animation — leaves the whole chunk zero: libtiff decodes the chunk at once into the
///   caller's buffer and clears it on error, so there are no partial rows.
enum TIFFWebP {
    /// libtiff's TWebPPreDecode limit (WebP's own maximum for lossy images).
    static let maxChunkSide = 16383

    /// Decodes one chunk of `rows` stored rows into `output` (`layout.chunkRowBytes` per row, its
    /// first rows kept). Returns the bytes written (0 or all of `output`) and the problem.
    static func decode(_ input: ArraySlice<UInt8>, rows: Int, into output: inout [UInt8],
                       layout: TIFFImageLayout, offset: Int, limits: DecodeLimits) throws(DecodeError) -> (written: Int, problem: String?) {
        let width = layout.chunkWidth
        let samples = layout.samplesPerPixel
        guard width <= maxChunkSide, rows <= maxChunkSide else {
            return (0, "WebP: chunk of \(width) × \(rows) pixels is larger than WebP's 16383 × 16383")
        }
        let bitmap: Bitmap
        do throws(DecodeError) {
            // Decoded as WebP, never sniffed (a chunk holding a TIFF must not recurse).
            let source = try ImageSource(bytes: Array(input), format: .webp, options: DecodeOptions(limits: limits))
            let properties = try source.properties()
            guard properties.width == width, properties.height == rows else {
                return (0, "WebP: the image is \(properties.width) × \(properties.height), the chunk \(width) × \(rows)")
            }
            guard properties.frameCount == 1 else { return (0, "WebP: an animation, not one image") }
            let decoded = try source.decode(options: ImageDecodingOptions(output: .format(.rgba8)))
            if let truncation = decoded.truncation { return (0, "WebP: \(truncation)") }
            bitmap = decoded.bitmap
        } catch {
            return (0, "WebP: \(error)")
        }
        let rowBytes = layout.chunkRowBytes
        let keptRows = min(rows, output.count / max(rowBytes, 1))
        guard bitmap.width == width, bitmap.height == rows, bitmap.format == .rgba8, rowBytes == width * samples else {
            return (0, "WebP: the decoded image does not fit the chunk")
        }
        // RGBA rows → the page's RGB or RGBA samples (libwebp's MODE_RGB drops alpha).
        let rgba = bitmap.bytes
        for row in 0..<keptRows {
            var from = row * bitmap.bytesPerRow
            var to = row * rowBytes
            for _ in 0..<width {
                for sample in 0..<samples { output[to + sample] = rgba[from + sample] }
                from += 4
                to += samples
            }
        }
        return (keptRows * rowBytes, nil)
    }
}
