/// TIFFImageLayout, the parts of reading an IFD that stand on their own: the codec and the
/// sample layouts it accepts (§3), the chunk grid (§15 tiles, §8 strips) and where each chunk's
/// bytes are (the offsets and byte counts, as libtiff reads and repairs them).
extension TIFFImageLayout {
    /// The chunk grid: tiles when any tile field is there, else strips of RowsPerStrip rows.
    struct ChunkGrid {
        let isTiled: Bool
        /// One chunk's size in pixels.
        let width: Int
        let height: Int
        let across: Int
        let down: Int
        /// The tags that hold the chunks' offsets and byte counts, and the offsets' name for errors.
        let offsetTag: Int
        let countTag: Int
        let fieldName: String
    }

    /// §3 Compression (and §11 T4Options for CCITT): the codec, with the sample layouts each
    /// codec's libtiff setup accepts.
    static func codec(directory: TIFFDirectory, reader: RandomAccessReader, samples: Int, bitsPerSample bps: Int,
                      sampleFormat: Int, at: Int) throws(DecodeError) -> (Int, CCITTFaxDecoder.Scheme?) {
        func fail(_ kind: DecodeError.Kind, _ reason: TIFFError) -> DecodeError {
            DecodeError(kind, format: .tiff, offset: at, reason)
        }
        let compression = try directory.integer(TIFFTag.compression, reader: reader, default: 1) ?? 1
        let ccittScheme: CCITTFaxDecoder.Scheme?
        switch compression {
        case 1, 5, 6, 7, 8, 32946, 32773, 34676, 34677: ccittScheme = nil
        case 2: ccittScheme = .modifiedHuffman
        case 32771: ccittScheme = .modifiedHuffmanWordAligned
        case 3:
            // T4Options (§11 / T.4): bit 0 = 2-D coding, bit 1 = uncompressed mode (met as an
            // extension code, which libtiff reports and does not decode), bit 2 = fill bits
            // before EOLs (skipped by the EOL synchronisation anyway).
            let options = try directory.integer(TIFFTag.t4Options, reader: reader, default: 0) ?? 0
            ccittScheme = options & 1 == 1 ? .group3TwoDimensional : .group3OneDimensional
        case 4: ccittScheme = .group4
        case 50001:
            // tif_webp.c TWebPSetupDecode / TWebPFixupTags: 3 (RGB) or 4 (RGBA) contiguous 8-bit
            // samples (libtiff fails every chunk otherwise; its bits check lets 16-bit unsigned
            // through, whose chunks then never fit). See TIFFWebP.
            let planarValue = try directory.integer(TIFFTag.planarConfiguration, reader: reader, default: 1) ?? 1
            guard samples == 3 || samples == 4, bps == 8, planarValue == 1 else {
                throw fail(.unsupported, .unsupportedLayout("WebP compression with \(samples) samples of \(bps) bits, planar \(planarValue)"))
            }
            ccittScheme = nil
        case 32908, 32909:
            // tif_pixarlog.c PixarLogGuessDataFmt: 32-bit float, 16- or 8-bit unsigned (or
            // void), and 12-bit signed / 11-bit log values, which PureImage has no samples for.
            let unsignedOrVoid = sampleFormat == 1 || sampleFormat == 4
            guard bps != 11 && bps != 12 else {
                throw fail(.unsupported, .unsupportedLayout("PixarLog with \(bps)-bit samples"))
            }
            guard (bps == 32 && sampleFormat == 3) || ((bps == 16 || bps == 8) && unsignedOrVoid) else {
                // "PixarLog compression can't handle bits depth/data format combination".
                throw fail(.malformed, .unsupportedLayout("PixarLog with \(bps)-bit samples of format \(sampleFormat)"))
            }
            ccittScheme = nil
        case 32766:
            // libtiff tif_next.c NeXTPreDecode: "Unsupported BitsPerSample" unless 2.
            guard bps == 2 else { throw fail(.malformed, .invalidValue(field: "BitsPerSample (NeXT)", value: bps)) }
            ccittScheme = nil
        case 32809:
            // libtiff tif_thunder.c ThunderSetupDecode: ThunderScan codes 4-bit samples only.
            guard bps == 4 else { throw fail(.malformed, .invalidValue(field: "BitsPerSample (ThunderScan)", value: bps)) }
            ccittScheme = nil
        default:
            throw fail(.unsupported, .unsupportedCompression(code: compression, name: TIFFTag.compressionName(compression)))
        }
        if ccittScheme != nil {
            // libtiff's Fax3SetupState: "Bits/sample must be 1 for Group 3/4 encoding/decoding".
            guard bps == 1 else { throw fail(.malformed, .invalidValue(field: "BitsPerSample (CCITT)", value: bps)) }
            guard samples == 1 else { throw fail(.unsupported, .unsupportedLayout("CCITT compression with \(samples) samples per pixel")) }
        }
        return (compression, ccittScheme)
    }

    /// §15 TileWidth / TileLength, else §8 RowsPerStrip.
    static func chunkGrid(directory: TIFFDirectory, reader: RandomAccessReader, width: Int, height: Int, samples: Int,
                          bitsPerSample bps: Int, limits: DecodeLimits, at: Int) throws(DecodeError) -> ChunkGrid {
        func fail(_ kind: DecodeError.Kind, _ reason: TIFFError) -> DecodeError {
            DecodeError(kind, format: .tiff, offset: at, reason)
        }
        let tileWidth = try directory.integer(TIFFTag.tileWidth, reader: reader)
        let tileLength = try directory.integer(TIFFTag.tileLength, reader: reader)
        if tileWidth != nil || tileLength != nil || directory.entry(TIFFTag.tileOffsets) != nil {
            guard let tileWidth, let tileLength else { throw fail(.malformed, .missingField(tileWidth == nil ? "TileWidth" : "TileLength")) }
            // §15: "TileWidth must be a multiple of 16"; libtiff accepts others with a warning,
            // but a zero size is refused.
            guard tileWidth > 0 else { throw fail(.malformed, .invalidValue(field: "TileWidth", value: tileWidth)) }
            guard tileLength > 0 else { throw fail(.malformed, .invalidValue(field: "TileLength", value: tileLength)) }
            _ = try SizeMath.allocationSize(tileWidth, tileLength, samples, (bps + 7) / 8, limits: limits, format: .tiff, offset: at)
            return ChunkGrid(isTiled: true, width: tileWidth, height: tileLength,
                             across: (width + tileWidth - 1) / tileWidth, down: (height + tileLength - 1) / tileLength,
                             offsetTag: TIFFTag.tileOffsets, countTag: TIFFTag.tileByteCounts, fieldName: "TileOffsets")
        } else {
            // §8 RowsPerStrip: default 2^32 − 1, i.e. one strip; 0 is treated the same (libtiff).
            var rows = try directory.integer(TIFFTag.rowsPerStrip, reader: reader, default: height) ?? height
            // A LONG8 value beyond 32 bits: libtiff refuses the IFD ("Incorrect value for
            // RowsPerStrip"), as it reads the field as a 32-bit number.
            guard rows <= Int(UInt32.max) else { throw fail(.malformed, .invalidValue(field: "RowsPerStrip", value: rows)) }
            if rows <= 0 || rows > height { rows = height }
            return ChunkGrid(isTiled: false, width: width, height: rows, across: 1, down: (height + rows - 1) / rows,
                             offsetTag: TIFFTag.stripOffsets, countTag: TIFFTag.stripByteCounts, fieldName: "StripOffsets")
        }
    }

    /// §8 StripOffsets / StripByteCounts, §15 TileOffsets / TileByteCounts: one entry per chunk
    /// of each plane, short arrays padded and byte counts estimated or repaired as libtiff does.
    /// Also whether the counts depend on the file's size (an estimate that a longer file changes).
    static func chunkLocations(directory: TIFFDirectory, reader: RandomAccessReader, grid: ChunkGrid, planes: Int, compression: Int,
                               planarConfiguration planar: Int, samples: Int, bitsPerSample bps: Int,
                               photometric: Photometric, ycbcrSubsampling: (Int, Int),
                               width: Int, height: Int, at: Int) throws(DecodeError) -> ([Int], [Int], Bool) {
        func fail(_ kind: DecodeError.Kind, _ reason: TIFFError) -> DecodeError {
            DecodeError(kind, format: .tiff, offset: at, reason)
        }
        let needed = grid.across * grid.down * planes
        let offsetTag = grid.offsetTag, countTag = grid.countTag, fieldName = grid.fieldName
        // libtiff (tif_dirread.c TIFFFetchStripThing) refuses more than 1 000 000 chunks when
        // their arrays are short; we refuse that many in any case, before reading the arrays.
        guard needed <= 1_000_000 else {
            throw fail(.limitExceeded, .chunkCountMismatch(field: fieldName, expected: needed, found: 0))
        }
        // libtiff stores StripOffsets and TileOffsets (and the byte counts) in one field, so a
        // tiled image whose offsets sit in the strip tags (or the reverse) still decodes.
        let alternateOffsets = offsetTag == TIFFTag.tileOffsets ? TIFFTag.stripOffsets : TIFFTag.tileOffsets
        let alternateCounts = countTag == TIFFTag.tileByteCounts ? TIFFTag.stripByteCounts : TIFFTag.tileByteCounts
        let offsetSource = directory.entry(offsetTag) != nil ? offsetTag : alternateOffsets
        let countSource = directory.entry(countTag) != nil ? countTag : alternateCounts
        guard var offsets = try directory.integers(offsetSource, reader: reader, maxCount: needed, readingAtMost: needed) else {
            throw fail(.malformed, .missingField(fieldName))
        }
        // libtiff: a short array is an error it recovers from, the missing entries being 0
        // (strips at offset 0 with no bytes, which then decode as missing).
        if offsets.count < needed { offsets += [Int](repeating: 0, count: needed - offsets.count) }
        offsets = Array(offsets.prefix(needed))
        // libtiff's TIFFScanlineSize64: contiguous 3-sample YCbCr counts whole subsampling blocks.
        var scanlineBytes = (width * bps * (planes > 1 ? 1 : samples) + 7) / 8
        if planar == 1 && photometric == .ycbcr && samples == 3 {
            let (h, v) = ycbcrSubsampling
            if h > 0 && v > 0 {
                scanlineBytes = ((width + h - 1) / h * (h * v + 2) * bps + 7) / 8 / v
            }
        }
        let stored = try directory.integers(countSource, reader: reader, maxCount: needed, readingAtMost: needed)
        // The file size enters only through comparisons and an estimate that grow with it, so
        // if a far larger file gives the same counts, no later byte can change them.
        var countsForSizes: [[Int]] = []
        for fileSize in [reader.size, Int.max / 4] {
            countsForSizes.append(try Self.libtiffByteCounts(stored: stored, directory: directory, offsets: offsets, compression: compression,
                                                             planarConfiguration: planar, samples: samples, isTiled: grid.isTiled,
                                                             rowBytes: (grid.width * bps * (planes > 1 ? 1 : samples) + 7) / 8,
                                                             chunkRows: grid.height, stripsPerImage: grid.down, height: height,
                                                             scanline: scanlineBytes, fileSize: fileSize, at: at))
        }
        return (offsets, countsForSizes[0], countsForSizes[0] != countsForSizes[1])
    }
}
