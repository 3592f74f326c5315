/// WebP compression (50001, a GDAL/libtiff extension; no TIFF 6.0 section): each strip or tile
/// is a whole WebP file whose image is the chunk — width × rows of 8-bit RGB or RGBA — decoded
/// by PureImage's WebP decoder.
///
/// Follows libtiff 4.5's codec (tif_webp.c), which hands libwebp the chunk's buffer as the
/// output (rows of chunk width × samples bytes) and checks nothing else itself:
/// - the page has 3 or 4 contiguous 8-bit samples; no predictor is attached (the Predictor tag
///   is ignored, `TIFFImageLayout`);
/// - the page's sample count alone chooses the output, RGB or RGBA: a WebP with alpha in a
///   3-sample page loses its alpha, one without gets an opaque one (later libtiff versions
///   compare the WebP's bands with the page and refuse alpha in a 3-sample page);
/// - libwebp takes any image that fits the buffer: a *narrower* one fills the left columns of
///   every row and succeeds; a *shorter* one fills its rows and libtiff then fails the chunk
///   ("less lines than expected"). The bytes it does not write keep what the buffer held (zero in
///   the samples; the previous chunk's in libtiff's RGBA interface, which reuses one buffer:
///   `Outcome.unwritten`). A wider or taller image, a corrupt bitstream or an animation fails
///   with nothing written;
/// - one known difference: when the bitstream is cut off inside the image, libwebp's
///   incremental decoder has already written the rows it finished, which libtiff leaves in the
///   buffer; PureImage writes none of that chunk (its partial rows are not libwebp's).
enum TIFFWebP {
    /// libtiff's TWebPPreDecode limit (WebP's own maximum for lossy images).
    static let maxChunkSide = 16383

    /// Decodes one chunk of `rows` stored rows into `output` (`layout.chunkRowBytes` per row, its
    /// first rows kept): the bytes counted as written, the problem, and the byte ranges inside
    /// them that libwebp leaves alone.
    static func decode(_ input: ArraySlice<UInt8>, rows: Int, into output: inout [UInt8], layout: TIFFImageLayout,
                       offset: Int, limits: DecodeLimits) throws(DecodeError) -> (written: Int, problem: String?, unwritten: [Range<Int>]) {
        let width = layout.chunkWidth
        let samples = layout.samplesPerPixel
        let rowBytes = layout.chunkRowBytes
        // TWebPPreDecode: "WEBP maximum image dimensions are 16383 x 16383".
        guard width <= maxChunkSide, rows <= maxChunkSide else {
            return (0, "WebP: chunk of \(width) × \(rows) pixels is larger than WebP's 16383 × 16383", [])
        }
        let bitmap: Bitmap
        do throws(DecodeError) {
            // Decoded as WebP, never sniffed (a chunk holding a TIFF must not recurse).
            let source = try ImageSource(bytes: Array(input), format: .webp, options: DecodeOptions(limits: limits))
            let properties = try source.properties()
            // libwebp's CheckDecBuffer: the image's rows must fit the buffer's stride and size.
            guard properties.width <= width, properties.height <= rows else {
                return (0, "WebP: the image is \(properties.width) × \(properties.height), the chunk \(width) × \(rows)", [])
            }
            guard properties.frameCount == 1 else { return (0, "WebP: an animation, not one image", []) }
            let decoded = try source.decode(options: ImageDecodingOptions(output: .format(.rgba8)))
            if let truncation = decoded.truncation { return (0, "WebP: \(truncation)", []) }
            bitmap = decoded.bitmap
        } catch {
            return (0, "WebP: \(error)", [])
        }
        guard bitmap.format == .rgba8, rowBytes == width * samples, bitmap.width <= width, bitmap.height <= rows else {
            return (0, "WebP: the decoded image does not fit the chunk", [])
        }
        let keptRows = min(rows, output.count / max(rowBytes, 1))
        let imageRowBytes = bitmap.width * samples
        var unwritten: [Range<Int>] = []
        // RGBA rows → the page's RGB or RGBA samples (libwebp's MODE_RGB drops alpha).
        let rgba = bitmap.bytes
        for row in 0..<keptRows {
            let start = row * rowBytes
            guard row < bitmap.height else {
                unwritten.append(start ..< start + rowBytes)
                continue
            }
            var from = row * bitmap.bytesPerRow
            var to = start
            for _ in 0..<bitmap.width {
                for sample in 0..<samples { output[to + sample] = rgba[from + sample] }
                from += 4
                to += samples
            }
            if imageRowBytes < rowBytes { unwritten.append(start + imageRowBytes ..< start + rowBytes) }
        }
        let problem = bitmap.height < rows ? "WebP: the image has \(bitmap.height) of the chunk's \(rows) rows" : nil
        return (keptRows * rowBytes, problem, unwritten)
    }
}
