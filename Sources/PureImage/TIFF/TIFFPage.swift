/// One page (IFD) decoded: its chunks decompressed and assembled into full-size sample planes
/// (§8 strips, §15 tiles, edge tiles clipped), then rendered into a native `Bitmap`.
struct TIFFPage {
    var bitmap: Bitmap
    var warnings: [DecodeWarning]
    /// Set when a chunk's bytes run past the end of the input and it decoded short.
    var truncatedAt: Int?

    /// Decodes the page described by `layout` from `bytes` (the whole input so far).
    init(layout: TIFFImageLayout, bytes: [UInt8], endianness: Endianness, limits: DecodeLimits) throws(DecodeError) {
        warnings = []
        truncatedAt = nil
        if layout.isSubsampledYCbCr {
            bitmap = try Self.decodeSubsampledYCbCr(layout: layout, bytes: bytes, limits: limits, warnings: &warnings, truncatedAt: &truncatedAt)
            return
        }
        let planeRowBytes = layout.planeRowBytes
        let planeBytes = try SizeMath.allocationSize(planeRowBytes, layout.height, layout.planeCount,
                                                     limits: limits, format: .tiff, offset: nil) / layout.planeCount
        var planes = [[UInt8]](repeating: [], count: layout.planeCount)
        for plane in 0..<layout.planeCount {
            planes[plane] = [UInt8](repeating: 0, count: planeBytes)
        }
        let chunkRowBytes = layout.chunkRowBytes
        let bitsPerPixel = layout.bitsPerSample * layout.samplesPerPlane
        for plane in 0..<layout.planeCount {
            for down in 0..<layout.chunksDown {
                for across in 0..<layout.chunksAcross {
                    let index = plane * layout.chunksPerPlane + down * layout.chunksAcross + across
                    let top = down * layout.chunkHeight
                    let left = across * layout.chunkWidth
                    // Strips hold only the rows left in the image; tiles are stored whole, but
                    // rows below the image are never shown, so only the rows inside it are
                    // decoded (a tiny file declaring a 40000 × 40000 tile costs one row).
                    let rows = min(layout.chunkHeight, layout.height - top)
                    let expected = try SizeMath.allocationSize(rows, chunkRowBytes, limits: limits, format: .tiff, offset: nil)
                    let offset = layout.offsets[index]
                    let count = max(0, layout.byteCounts[index])
                    let available = offset >= 0 && offset < bytes.count ? min(count, bytes.count - offset) : 0
                    if available == 0 {
                        warnings.append(DecodeWarning(offset: offset, "strip or tile \(index) has no data in the file"))
                        if count > 0 && offset >= bytes.count && truncatedAt == nil { truncatedAt = bytes.count }
                        continue
                    }
                    var outcome = try TIFFDecompressor.decode(bytes[offset ..< offset + available], expected: expected,
                                                              layout: layout, offset: offset, limits: limits)
                    if let problem = outcome.problem {
                        warnings.append(DecodeWarning(offset: offset, problem))
                        if available < count && outcome.decoded < expected && truncatedAt == nil { truncatedAt = bytes.count }
                    }
                    TIFFDecompressor.normaliseByteOrder(&outcome.bytes, layout: layout, endianness: endianness)
                    // libtiff (tif_predict.c) undoes the predictor only when the codec reports
                    // success; a chunk that decoded short keeps its differences, and so do we.
                    if layout.predictor == 2 && outcome.decoded == expected {
                        TIFFDecompressor.undoPredictor(&outcome.bytes, rowBytes: chunkRowBytes, rows: rows,
                                                       samplesPerPixel: layout.samplesPerPlane, bitsPerSample: layout.bitsPerSample)
                    }
                    // Place the chunk: byte column of its left edge (tiles are 16-pixel multiples
                    // by §15, so the edge is byte-aligned for every depth; others are refused).
                    let leftBits = left * bitsPerPixel
                    guard leftBits % 8 == 0 else {
                        throw DecodeError(.unsupported, format: .tiff, offset: offset,
                                          TIFFError.unsupportedLayout("tile width \(layout.chunkWidth) with \(bitsPerPixel)-bit pixels"))
                    }
                    let leftByte = leftBits / 8
                    let copyBytes = min(chunkRowBytes, planeRowBytes - leftByte)
                    let copyRows = min(rows, layout.height - top)
                    guard copyBytes > 0 else { continue }
                    outcome.bytes.withUnsafeBufferPointer { source in
                        planes[plane].withUnsafeMutableBufferPointer { destination in
                            for row in 0..<copyRows {
                                // row < rows, so row × chunkRowBytes + copyBytes ≤ expected; and
                                // top + row < height, leftByte + copyBytes ≤ planeRowBytes.
                                let from = row * chunkRowBytes
                                let to = (top + row) * planeRowBytes + leftByte
                                for i in 0..<copyBytes { destination[to + i] = source[from + i] }
                            }
                        }
                    }
                }
            }
        }
        bitmap = try TIFFRendering.render(layout: layout, planes: planes, planeRowBytes: planeRowBytes, limits: limits)
    }

    /// §21 subsampled YCbCr (contiguous): each data unit holds h × v luma samples (row by row)
    /// then one Cb and one Cr shared by those pixels — libtiff's RGBA interface replicates the
    /// chroma over the unit (no interpolation), and so do we. Data units past the image's right
    /// or bottom edge are decoded and dropped.
    private static func decodeSubsampledYCbCr(layout: TIFFImageLayout, bytes: [UInt8], limits: DecodeLimits,
                                              warnings: inout [DecodeWarning], truncatedAt: inout Int?) throws(DecodeError) -> Bitmap {
        let width = layout.width, height = layout.height
        let (h, v) = layout.ycbcrSubsampling
        let unitBytes = h * v + 2
        let converter = TIFFYCbCrConverter(coefficients: layout.ycbcrCoefficients, referenceBlackWhite: layout.referenceBlackWhite)
        let total = try SizeMath.allocationSize(width, height, 3, limits: limits, format: .tiff, offset: nil)
        var rgb = [UInt8](repeating: 0, count: total)
        let unitsAcross = (layout.chunkWidth + h - 1) / h
        for down in 0..<layout.chunksDown {
            for across in 0..<layout.chunksAcross {
                let index = down * layout.chunksAcross + across
                let top = down * layout.chunkHeight
                let left = across * layout.chunkWidth
                let rows = layout.isTiled ? layout.chunkHeight : min(layout.chunkHeight, height - top)
                let expected = layout.subsampledChunkBytes(rows: rows)
                _ = try SizeMath.allocationSize(expected, limits: limits, format: .tiff, offset: nil)
                let offset = layout.offsets[index]
                let count = max(0, layout.byteCounts[index])
                let available = offset >= 0 && offset < bytes.count ? min(count, bytes.count - offset) : 0
                guard available > 0 else {
                    warnings.append(DecodeWarning(offset: offset, "strip or tile \(index) has no data in the file"))
                    if count > 0 && offset >= bytes.count && truncatedAt == nil { truncatedAt = bytes.count }
                    continue
                }
                let outcome = try TIFFDecompressor.decode(bytes[offset ..< offset + available], expected: expected, layout: layout, offset: offset, limits: limits)
                if let problem = outcome.problem {
                    warnings.append(DecodeWarning(offset: offset, problem))
                    if available < count && truncatedAt == nil { truncatedAt = bytes.count }
                }
                let data = outcome.bytes
                let unitRows = (rows + v - 1) / v
                for unitRow in 0..<unitRows {
                    for unit in 0..<unitsAcross {
                        let base = (unitRow * unitsAcross + unit) * unitBytes
                        guard base + unitBytes <= data.count else { continue }
                        let cb = Int(data[base + h * v]), cr = Int(data[base + h * v + 1])
                        for dy in 0..<v {
                            let y = top + unitRow * v + dy
                            guard y < height, unitRow * v + dy < rows else { continue }
                            for dx in 0..<h {
                                let x = left + unit * h + dx
                                guard x < width, unit * h + dx < layout.chunkWidth else { continue }
                                let (r, g, b) = converter.rgb(y: Int(data[base + dy * h + dx]), cb: cb, cr: cr)
                                let o = (y * width + x) * 3
                                rgb[o] = r; rgb[o + 1] = g; rgb[o + 2] = b
                            }
                        }
                    }
                }
            }
        }
        do throws(BitmapError) {
            return try Bitmap(width: width, height: height, format: .rgb8, bytes: rgb)
        } catch {
            throw DecodeError(.malformed, format: .tiff, offset: nil, ContainerError.outputConversion("\(error)"))
        }
    }
}
