/// Turns one strip or tile's stored bytes into its samples (§8 Compression, §9 PackBits,
/// §13 LZW, Adobe Deflate; FillOrder §8; byte order §2), ready for the predictor.
enum TIFFDecompressor {
    /// What became of one chunk.
    struct Outcome {
        var bytes: [UInt8]
        /// Bytes actually decoded (the rest of `bytes` is zero).
        var decoded: Int
        /// A recoverable problem (short data, corrupt tail), for a warning.
        var problem: String?
        /// Byte ranges inside `0 ..< decoded` that libtiff's codec leaves untouched (zero in
        /// `bytes`): its RGBA interface, which reuses one buffer for every strip, shows the
        /// previous strip's bytes there (`TIFFLibtiffRGBA`). Only ThunderScan and WebP have any.
        var unwritten: [Range<Int>] = []
        /// How many leading bytes of `bytes` may be non-zero once the chunk is finished (byte
        /// order normalised, predictor undone): what must be cleared before the buffer is reused
        /// (`TIFFPageDecoder`'s scratch buffer). For the codecs that write a prefix (none,
        /// PackBits, LZW, Deflate) `decoded` plus the 16 bytes of slack within which a codec or
        /// the sample swap may have touched and re-zeroed bytes; for the others, all of them.
        var dirty: Int = .max
    }

    /// §8 FillOrder 2: bit 0 of each byte is the first bit. Reverses each byte's bits.
    static let reversedBits: [UInt8] = (0..<256).map { value in
        var input = UInt8(value), output: UInt8 = 0
        for _ in 0..<8 { output = output << 1 | (input & 1); input >>= 1 }
        return output
    }

    /// Decodes `stored` (the chunk's bytes as found in the file) into `expected` bytes.
    /// `codecs` holds the decoders a page keeps from chunk to chunk; CCITT chunks need its
    /// `ccitt` decoder (made by the caller) and `storedRows`, the rows the chunk holds (a tile's
    /// rows below the image are decoded too, then dropped).
    /// `zeroed`, when it holds `expected` bytes, is the buffer to decode into (a reused one, taken
    /// over: the caller keeps no reference, so it is written in place): zeros, except that its
    /// first `stale` bytes may hold anything when the codec writes a prefix (`writesPrefix`),
    /// which then clears what it did not write of them.
    static func decode(_ stored: ArraySlice<UInt8>, expected: Int, layout: TIFFImageLayout, offset: Int,
                       limits: DecodeLimits = .default, codecs: inout TIFFChunkCodecs, storedRows: Int = 0,
                       chunkIndex: Int = 0, zeroed: consuming [UInt8] = [], stale: Int = 0) throws(DecodeError) -> Outcome {
        var input = stored
        if layout.reversedBits {
            input = ArraySlice(stored.map { reversedBits[Int($0)] })
        }
        var output = consume zeroed
        var stale = stale
        if output.count != expected {
            output = [UInt8](repeating: 0, count: expected)
            stale = 0
        }
        let writesPrefix = writesPrefix(layout.compression)
        if !writesPrefix && stale > 0 {
            output.withUnsafeMutableBytes { _ = $0[0 ..< min(stale, expected)].initializeMemory(as: UInt8.self, repeating: 0) }
        }
        var decoded = 0
        var problem: String?
        var unwritten: [Range<Int>] = []
        switch layout.compression {
        case 1:
            decoded = min(expected, input.count)
            output.replaceSubrange(0..<decoded, with: input.prefix(decoded))
        case 32773:
            decoded = PackBits.decode(input, into: &output)
        case 5:
            let result = TIFFLZWDecoder.decode(input, oldStyle: TIFFLZWDecoder.isOldStyle(input), into: &output,
                                               reusing: &codecs.lzw)
            decoded = result.written
            if case .corrupt(let message) = result.outcome { problem = "LZW: \(message)" }
        case 8, 32946:
            let result = inflate(input, into: &output)
            decoded = result.written
            problem = result.problem
        case 2, 3, 4, 32771:
            guard var fax = codecs.ccitt.take() else {
                throw DecodeError(.unsupported, format: .tiff, offset: offset,
                                  TIFFError.unsupportedCompression(code: layout.compression, name: TIFFTag.compressionName(layout.compression)))
            }
            let rowBytes = max(1, layout.chunkRowBytes)
            // libtiff reads the chunk where the memory-mapped file has it (its fax codec does its
            // own bit reversal, so no copy is made): the address's parity is the offset's.
            let result = fax.decode(input, rows: max(storedRows, expected / rowBytes), rowBytes: rowBytes,
                                    keptRows: expected / rowBytes, startsAtOddAddress: offset & 1 == 1, into: &output)
            codecs.ccitt = fax
            // The rows painted are what the strip holds; libtiff leaves the others as they were,
            // whether it reports failure or (a Group 4 strip ending early) success.
            decoded = result.rowsPainted * rowBytes
            if let first = result.problems.first {
                problem = "CCITT: \(first)" + (result.problemCount > 1 ? " (\(result.problemCount) problems in this strip or tile)" : "")
            } else if !result.succeeded {
                problem = "CCITT: the strip or tile could not be decoded"
            }
        case 32809:
            // libtiff decodes ThunderScan strips only (no tile decoder is installed).
            guard !layout.isTiled else {
                throw DecodeError(.unsupported, format: .tiff, offset: offset, TIFFError.unsupportedLayout("ThunderScan compression in tiles"))
            }
            let rowBytes = max(1, layout.chunkRowBytes)
            let result = ThunderScan.decode(input, width: layout.chunkWidth, rows: expected / rowBytes, rowBytes: rowBytes, into: &output)
            decoded = result.written
            problem = result.problem.map { "ThunderScan: \($0)" }
            unwritten = result.unwritten
        case 34676, 34677:
            guard let sgiLog = layout.sgiLog else {
                throw DecodeError(.unsupported, format: .tiff, offset: offset,
                                  TIFFError.unsupportedCompression(code: layout.compression, name: TIFFTag.compressionName(layout.compression)))
            }
            let rowBytes = max(1, layout.chunkRowBytes)
            let result = sgiLog.decode(input, width: layout.chunkWidth, rows: expected / rowBytes, into: &output)
            decoded = result.written
            if !result.succeeded { problem = "SGILog: not enough data at row \(result.written / rowBytes)" }
        case 6:
            guard let oldJPEG = layout.oldJPEG else {
                throw DecodeError(.unsupported, format: .tiff, offset: offset,
                                  TIFFError.unsupportedCompression(code: layout.compression, name: TIFFTag.compressionName(layout.compression)))
            }
            let result = try oldJPEG.decode(input, index: chunkIndex, chunkCount: layout.offsets.count, width: layout.chunkWidth,
                                            rows: storedRows > 0 ? storedRows : layout.chunkHeight, expected: expected, limits: limits, offset: offset)
            output = result.bytes
            decoded = result.written
            problem = result.problem
        case 32908, 32909:
            guard let pixarLog = layout.pixarLog else {
                throw DecodeError(.unsupported, format: .tiff, offset: offset,
                                  TIFFError.unsupportedCompression(code: layout.compression, name: TIFFTag.compressionName(layout.compression)))
            }
            // The tokens take 2 bytes a sample, twice the output for 8-bit data.
            _ = try SizeMath.allocationSize(expected / pixarLog.format.bytesPerSample, 2, limits: limits, format: .tiff, offset: offset)
            let result = pixarLog.decode(input, into: &output)
            decoded = result.written
            problem = result.problem
        case 32766:
            // libtiff decodes the whole chunk (a tile's rows below the image too) into a buffer it
            // first makes white; a failure leaves that buffer as it got, so all of it counts as
            // written (libtiff's RGBA interface shows it).
            let rowBytes = max(1, layout.chunkRowBytes)
            let rows = max(storedRows, expected / rowBytes)
            _ = try SizeMath.allocationSize(rows, rowBytes, limits: limits, format: .tiff, offset: offset)
            var chunk: [UInt8] = []
            let failure = NeXTDecoder.decode(input, rows: rows, rowBytes: rowBytes, pixelsPerRow: layout.chunkWidth, into: &chunk)
            output = Array(chunk.prefix(expected))
            decoded = output.count
            problem = failure.map { "NeXT: \($0)" }
        case 50001:
            let result = try TIFFWebP.decode(input, rows: storedRows > 0 ? storedRows : expected / max(1, layout.chunkRowBytes),
                                             into: &output, layout: layout, offset: offset, limits: limits)
            decoded = result.written
            problem = result.problem
            unwritten = result.unwritten
        case 7:
            let result = try decodeJPEG(input, tables: layout.jpegTables, into: &output, layout: layout, offset: offset, limits: limits)
            decoded = result.written
            problem = result.problem
        default:
            throw DecodeError(.unsupported, format: .tiff, offset: offset,
                              TIFFError.unsupportedCompression(code: layout.compression, name: TIFFTag.compressionName(layout.compression)))
        }
        if decoded < expected && problem == nil {
            problem = "strip or tile at \(offset) decodes to \(decoded) of \(expected) bytes"
        }
        // A short chunk: what the codec did not write of the earlier chunk's bytes becomes zeros.
        // (LZW's 8-byte copies may also have left up to 7 scratch bytes past `decoded`; it
        // clears those itself.)
        if writesPrefix && decoded < min(stale, expected) {
            output.withUnsafeMutableBytes { _ = $0[decoded ..< min(stale, expected)].initializeMemory(as: UInt8.self, repeating: 0) }
        }
        return Outcome(bytes: output, decoded: decoded, problem: problem, unwritten: unwritten,
                       dirty: writesPrefix ? min(output.count, decoded + 16) : output.count)
    }

    /// Codecs that write their output as one prefix of the chunk, from byte 0 on, and nothing past
    /// it (LZW's scratch bytes aside, which it clears): none, PackBits, LZW, Deflate. A reused
    /// buffer need not be cleared before them, only after, from where they stopped.
    static func writesPrefix(_ compression: Int) -> Bool {
        [1, 32773, 5, 8, 32946].contains(compression)
    }

    /// Technical Note 2 JPEG: the chunk's stream, completed with the JPEGTables stream (its
    /// tables spliced in before the chunk's frame: tables minus EOI + chunk minus SOI), decoded
    /// by PureImage's JPEG decoder; its rows (chunk width × rows × samples, 8-bit) are copied
    /// into `output`.
    private static func decodeJPEG(_ input: ArraySlice<UInt8>, tables: [UInt8]?, into output: inout [UInt8],
                                   layout: TIFFImageLayout, offset: Int, limits: DecodeLimits) throws(DecodeError) -> (written: Int, problem: String?) {
        // libtiff (tif_jpeg.c JPEGSetupDecode): JPEGTables must be a tables-only stream, SOI … EOI.
        if let tables, tables.count < 4 || tables[0] != 0xFF || tables[1] != 0xD8 || tables[tables.count - 2] != 0xFF || tables[tables.count - 1] != 0xD9 {
            throw DecodeError(.malformed, format: .tiff, offset: offset, TIFFError.invalidField(tag: TIFFTag.jpegTables, "JPEGTables is not a tables-only JPEG stream"))
        }
        var stream: [UInt8]
        if let tables, tables.count >= 4, input.count >= 2, input[input.startIndex] == 0xFF, input[input.startIndex + 1] == 0xD8 {
            stream = Array(tables.prefix(tables.count - 2))
            stream += input.dropFirst(2)
        } else {
            stream = Array(input)
        }
        // The page's limits bound the JPEG decoder too (a strip claiming a huge frame fails
        // there). libtiff (tif_jpeg.c JPEGPreDecode) converts YCbCr to RGB for contiguous
        // YCbCr pages (JPEGCOLORMODE_RGB) and otherwise has libjpeg pass the components through.
        var options = DecodeOptions(limits: limits)
        options.jpegColorHandling = layout.photometric == .ycbcr && !layout.isPlanar ? .yccToRGB : .asStored
        let channels = layout.samplesPerPlane
        let model: ColorModel = channels == 1 ? .gray : (channels == 3 ? .rgb : .cmyk)
        // libtiff: "Improper JPEG component count".
        func mismatch(_ format: PixelFormat) -> String? {
            format.bitsPerComponent == 8 && format.componentsPerPixel == channels && format.colorModel == model
                ? nil : "JPEG: \(format.componentsPerPixel) components where the page has \(channels)"
        }
        // Rows of the JPEG image inside the chunk (the JPEG may be narrower or shorter), copied
        // straight from the decoder's rows as they are finished (no strip-sized bitmap between).
        let rowBytes = layout.chunkRowBytes
        let chunkRows = output.count / max(rowBytes, 1)
        var rowsCopied = 0
        var problem: String?
        // Decoded as JPEG, never sniffed: a strip holding another format (a TIFF holding
        // itself, found by the fuzzer) would otherwise recurse until the stack overflows.
        let decoder = JPEGDecoder(options: options)
        let failure: DecodeError? = output.withUnsafeMutableBytes { chunk -> DecodeError? in
            decoder.rowSink = { band in
                guard problem == nil else { return }
                if let wrong = mismatch(band.format) { problem = wrong; return }
                let copyBytes = min(rowBytes, band.width * channels)
                // Bounds: rowsCopied < chunkRows, so the row's copyBytes ≤ rowBytes lie inside
                // the chunk; the band's rows hold width × channels ≥ copyBytes bytes each.
                band.bytes.withUnsafeBytes { rows in
                    guard let from = rows.baseAddress, let to = chunk.baseAddress else { return }
                    for r in 0..<band.height where rowsCopied < chunkRows {
                        (to + rowsCopied * rowBytes).copyMemory(from: from + r * band.bytesPerRow, byteCount: copyBytes)
                        rowsCopied += 1
                    }
                }
            }
            defer { decoder.rowSink = nil }
            // As `ImageSource.decode(at: 0)` would: the input is whole, so a decoder asking for
            // more is truncated, and one that never reached a frame has no frame 0.
            let session = DecodeSession(format: .jpeg, decoder: decoder, input: InputBuffer(stream, isClosed: true))
            do throws(DecodeError) {
                if try session.pump() == .needMoreInput {
                    return DecodeError(.truncated, format: .jpeg, offset: session.input.readIndex,
                                       ContainerError.tooShortToIdentify(count: session.input.writeIndex))
                }
            } catch {
                return error
            }
            return decoder.availableFrameCount > 0 ? nil
                : DecodeError(.malformed, format: .jpeg, offset: nil, ContainerError.frameOutOfRange(index: 0, count: 0))
        }
        if let failure {
            if failure.kind == .unsupported { throw DecodeError(.unsupported, format: .tiff, offset: offset, failure.reason) }
            problem = "JPEG: \(failure)"
        } else if problem == nil, rowsCopied == 0, let format = decoder.nativeFormat {
            // No row came (the data ended first): the frame's format still decides.
            problem = mismatch(format)
        }
        if let problem {
            // A strip that fails is all zero, whatever rows came before the failure.
            output.withUnsafeMutableBytes { chunk in _ = chunk.initializeMemory(as: UInt8.self, repeating: 0) }
            return (0, problem)
        }
        // Rows the data did not reach stay zero; they count as written, as the one-shot
        // frame's zero rows did.
        let height = decoder.geometry?.outputHeight ?? rowsCopied
        return (min(chunkRows, height) * rowBytes, nil)
    }

    /// zlib into a fixed-size buffer, stopping once it is full (libtiff's Deflate decoder also
    /// ignores data after the bytes it wants, e.g. a last strip with extra data).
    static func inflate(_ input: ArraySlice<UInt8>, into output: inout [UInt8]) -> (written: Int, problem: String?) {
        let inflater = ZlibInflater()
        var consumed = 0
        var written = 0
        let total = output.count
        while written < total {
            let step = input.withUnsafeBytes { source in
                output.withUnsafeMutableBytes { destination in
                    inflater.inflate(input: UnsafeRawBufferPointer(rebasing: source[consumed...]),
                                     output: UnsafeMutableRawBufferPointer(rebasing: destination[written...]))
                }
            }
            consumed += step.consumed
            written += step.produced
            switch step.status {
            case .streamEnd: return (written, nil)
            case .corrupt(let message): return (written, "Deflate: \(message)")
            case .ok: if step.consumed == 0 && step.produced == 0 { return (written, nil) }
            }
        }
        return (written, nil)
    }

    /// 16-, 24-, 32- and 64-bit samples in a little-endian file become big-endian (`PixelFormat`
    /// `.default` order), so the predictor and rendering never branch on the file's byte order.
    /// Other depths are bit-packed and have no byte order (libtiff swaps exactly these four).
    /// Only the first `decoded` bytes (rounded up to a whole sample) are swapped: the rest is
    /// zero (`Outcome.decoded`), the same either way — a strip that decodes to nothing costs
    /// nothing, however large it is declared.
    static func normaliseByteOrder(_ bytes: inout [UInt8], decoded: Int, layout: TIFFImageLayout, endianness: Endianness) {
        guard endianness == .littleEndian else { return }
        reverseWideSamples(&bytes, bitsPerSample: layout.bitsPerSample, prefix: decoded)
    }

    /// Reverses the bytes of each 16-, 24-, 32- or 64-bit sample in place among the first
    /// `prefix` bytes rounded up to a whole sample (a trailing partial sample of the buffer
    /// stays); other depths are left as they are.
    static func reverseWideSamples(_ bytes: inout [UInt8], bitsPerSample: Int, prefix: Int = .max) {
        switch bitsPerSample { case 16, 24, 32, 64: break; default: return }
        let size = bitsPerSample / 8
        let count = prefix >= bytes.count ? bytes.count : min(bytes.count, (max(0, prefix) + size - 1) / size * size)
        bytes.withUnsafeMutableBytes { TIFFByteSwapKernels.reverseSamples($0, count: count, size: size) }
    }

    /// §14 Differencing Predictor 2: "each sample … is the difference from the previous sample
    /// in the same row" (per component, modulo 2^bits). Undoes it row by row in place, for 8-,
    /// 16-, 32- and 64-bit samples (the depths libtiff takes); wider samples are big-endian here.
    static func undoPredictor(_ bytes: inout [UInt8], rowBytes: Int, rows: Int, samplesPerPixel: Int, bitsPerSample: Int) {
        let stride = samplesPerPixel
        let size = bitsPerSample / 8
        for row in 0..<rows {
            let start = row * rowBytes
            guard start + rowBytes <= bytes.count else { return }
            if size == 1 {
                var index = start + stride
                while index < start + rowBytes {
                    bytes[index] = bytes[index] &+ bytes[index - stride]
                    index += 1
                }
                continue
            }
            func word(_ at: Int) -> UInt64 {
                var value: UInt64 = 0
                for k in 0..<size { value = value << 8 | UInt64(bytes[at + k]) }
                return value
            }
            let samples = rowBytes / size
            var sample = stride
            while sample < samples {
                let here = start + size * sample
                // Wrapping 64-bit addition keeps the low `8 × size` bits right.
                let value = word(here) &+ word(here - size * stride)
                for k in 0..<size { bytes[here + k] = UInt8(truncatingIfNeeded: value >> UInt64(8 * (size - 1 - k))) }
                sample += 1
            }
        }
    }

    /// Predictor 3, floating point (Adobe Photoshop TIFF Technical Note 3): each row stores its
    /// samples' bytes as byte planes — all most significant bytes, then all next bytes, … — with
    /// each byte the difference from the byte `samplesPerPixel` before it. Undoes both, in place,
    /// leaving big-endian samples (the planes are big-endian whatever the file's byte order, so
    /// nothing else is swapped; libtiff's fpAcc).
    static func undoFloatingPointPredictor(_ bytes: inout [UInt8], rowBytes: Int, rows: Int, samplesPerPixel: Int, bitsPerSample: Int) {
        let stride = samplesPerPixel
        let size = bitsPerSample / 8
        let samples = rowBytes / size
        var planes = [UInt8](repeating: 0, count: rowBytes)
        for row in 0..<rows {
            let start = row * rowBytes
            guard start + rowBytes <= bytes.count else { return }
            var index = start + stride
            while index < start + rowBytes {
                bytes[index] = bytes[index] &+ bytes[index - stride]
                index += 1
            }
            planes.replaceSubrange(0..<rowBytes, with: bytes[start ..< start + rowBytes])
            for sample in 0..<samples {
                for k in 0..<size { bytes[start + sample * size + k] = planes[k * samples + sample] }
            }
        }
    }
}

/// The decoders a TIFF page keeps from chunk to chunk: the CCITT decoder, whose run arrays carry
/// over (libtiff's do), and the LZW decoder, whose 32 KiB table a page of one-row strips would
/// otherwise allocate and clear for every row.
struct TIFFChunkCodecs {
    var ccitt: CCITTFaxDecoder?
    var lzw: LZWDecoder?
}
