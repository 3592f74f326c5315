/// StripByteCounts / TileByteCounts as libtiff's TIFFReadDirectory settles them (tif_dirread.c),
/// since which bytes a strip is read from decides what every decoder shows for a damaged file:
///
/// - absent: refused when there is more than one strip per plane (MissingRequired), else
///   estimated;
/// - one strip whose count "looks bad" (ByteCountLooksBad: 0, past the end of the file, or —
///   uncompressed — shorter than the image): estimated ("Bogus StripByteCounts");
/// - more than two contiguous uncompressed strips whose first two counts differ (and neither is
///   0): estimated ("Wrong StripByteCounts", written by vendors that store offsets there).
///
/// The estimate (EstimateStripByteCounts): uncompressed strips hold rows × scanline bytes, tiles a
/// whole tile; compressed data is everything in the file but the header and the IFD with its
/// out-of-line values (divided among the planes), the last chunk cut at the end of the file.
extension TIFFImageLayout {
    static func libtiffByteCounts(stored: [Int]?, directory: TIFFDirectory, offsets: [Int], compression: Int,
                                  planarConfiguration: Int, samples: Int, isTiled: Bool, rowBytes: Int, chunkRows: Int,
                                  stripsPerImage: Int, height: Int, scanline: Int, fileSize: Int, at: Int) throws(DecodeError) -> [Int] {
        let needed = offsets.count
        let contiguous = planarConfiguration == 1
        func estimate() throws(DecodeError) -> [Int] {
            if compression != 1 {
                let variant = directory.variant
                var space = variant.headerSize + variant.countSize + directory.entries.count * variant.entrySize + variant.offsetSize
                for entry in directory.entries {
                    guard entry.type != nil else {
                        throw DecodeError(.malformed, format: .tiff, offset: entry.entryOffset,
                                          TIFFError.invalidField(tag: entry.tag, "type \(entry.rawType) of unknown size (libtiff: cannot estimate StripByteCounts)"))
                    }
                    if !entry.isInline {
                        let (sum, overflow) = space.addingReportingOverflow(entry.byteCount)
                        space = overflow ? Int.max : sum
                    }
                }
                space = fileSize < space ? fileSize : fileSize - space
                if !contiguous { space /= max(1, samples) }
                var counts = [Int](repeating: space, count: needed)
                if let last = offsets.last, needed > 0 {
                    let (end, overflow) = last.addingReportingOverflow(space)
                    if overflow || end > fileSize { counts[needed - 1] = last >= fileSize ? 0 : fileSize - last }
                }
                return counts
            }
            if isTiled { return [Int](repeating: rowBytes * chunkRows, count: needed) }
            let rows = height / max(1, stripsPerImage)
            return [Int](repeating: scanline * rows, count: needed)
        }

        guard var counts = stored, !counts.isEmpty else {
            if (contiguous && needed > 1) || (!contiguous && needed != samples) {
                throw DecodeError(.malformed, format: .tiff, offset: at, TIFFError.missingField(isTiled ? "TileByteCounts" : "StripByteCounts"))
            }
            return try estimate()
        }
        // A short array is an error libtiff recovers from, the missing entries being 0.
        if counts.count < needed { counts += [Int](repeating: 0, count: needed - counts.count) }
        counts = Array(counts.prefix(needed))
        if needed == 1 && !isTiled {
            let offset = offsets[0], count = counts[0]
            let looksBad = offset != 0 && (count == 0 || (compression == 1 &&
                ((offset <= fileSize && count > fileSize - offset) || count < scanline * height)))
            if looksBad { return try estimate() }
        } else if contiguous && needed > 2 && compression == 1 && counts[0] != counts[1] && counts[0] != 0 && counts[1] != 0 {
            return try estimate()
        }
        return counts
    }
}

extension TIFFImageLayout {
    /// libtiff's strip chopping (ChopUpSingleUncompressedStrip, on by default): one contiguous
    /// uncompressed strip is read as strips of about 8 KiB (STRIP_SIZE_DEFAULT), so a file cut
    /// short loses only the strips past its end — the others show, and libtiff's buffer keeps the
    /// last strip it could read. The layout libtiff reads, or nil when it does not chop.
    /// `choppedLikeLibtiff` where chopping changes nothing but where the rows come from: the one
    /// strip lies wholly inside the input and holds every row (so no chopped strip is short),
    /// and it is not subsampled YCbCr. For streaming decodes (`TIFFDecoder.rowSink`), which then
    /// hold an 8 KiB strip at a time rather than the page.
    func choppedWhereComplete(inputSize: Int) -> TIFFImageLayout? {
        guard offsets.count == 1, byteCounts.count == 1, !isSubsampledYCbCr else { return nil }
        let (needed, overflow) = height.multipliedReportingOverflow(by: planeRowBytes)
        let offset = offsets[0], count = byteCounts[0]
        guard !overflow, count >= needed, offset >= 0, count <= inputSize, offset <= inputSize - count else { return nil }
        return choppedLikeLibtiff(fileSize: inputSize)
    }

    func choppedLikeLibtiff(fileSize: Int) -> TIFFImageLayout? {
        guard !isTiled, !isPlanar, planarConfigurationTag == 1, compression == 1, offsets.count == 1 else { return nil }
        let rowBlock = photometric == .ycbcr ? max(1, ycbcrSubsampling.1) : 1
        let rowBlockBytes = photometric == .ycbcr && samplesPerPixel == 3 && ycbcrSubsampling != (1, 1)
            ? subsampledChunkBytes(rows: rowBlock) : rowBlock * planeRowBytes
        let stripSizeDefault = 8192
        var rowsPerStrip: Int, stripBytes: Int
        if rowBlockBytes > stripSizeDefault {
            (rowsPerStrip, stripBytes) = (rowBlock, rowBlockBytes)
        } else if rowBlockBytes > 0 {
            let blocks = stripSizeDefault / rowBlockBytes
            (rowsPerStrip, stripBytes) = (blocks * rowBlock, blocks * rowBlockBytes)
        } else {
            return nil
        }
        guard rowsPerStrip < chunkHeight else { return nil }   // never more rows per strip
        let strips = (height + rowsPerStrip - 1) / rowsPerStrip
        // libtiff compares against the strip's byte count here (its variable is named offset).
        let first = byteCounts[0]
        if strips > 1_000_000 && (first >= fileSize || stripBytes > (fileSize - first) / (strips - 1)) { return nil }
        var remaining = byteCounts[0]
        var offset = offsets[0]
        var newOffsets: [Int] = [], newCounts: [Int] = []
        for _ in 0..<strips {
            let count = min(stripBytes, remaining)
            newCounts.append(count)
            newOffsets.append(count > 0 ? offset : 0)
            offset += count
            remaining -= count
        }
        var chopped = self
        chopped.chunkHeight = rowsPerStrip
        chopped.chunksDown = strips
        chopped.offsets = newOffsets
        chopped.byteCounts = newCounts
        return chopped
    }
}
