/// Old-style JPEG (TIFF 6.0 §22, compression 6 — withdrawn by Technical Note 2, still found in
/// archives), read the way libtiff 4.5's tif_ojpeg.c reads it, which is what every other reader
/// is measured against:
///
/// 1. **The logical stream** is the JPEGInterchangeFormat bytes (tag 513; a missing length or
///    one past the end of the file runs to the end of the file), then every strip or tile.
/// 2. **The header** is found by walking markers from the start of that stream until the first
///    byte that is not a marker: SOI, APPn and COM are skipped, DQT/DHT/DRI kept, SOF0/SOF1
///    gives the frame, SOS the table selectors (its Ss/Se/Ah/Al are ignored — writers got them
///    wrong). It may run from the interchange bytes into the first strip.
/// 3. **Without a SOF**, the header comes from the tags: JPEGQTables (519, 64 bytes each, zigzag
///    order), JPEGDCTables / JPEGACTables (520/521, 16 counts then the values), one table per
///    component (a component whose offset repeats the previous one's shares its table); the frame
///    has component ids 0, 1, 2, luma sampling from YCbCrSubsampling, chroma 1 × 1.
/// 4. **Subsampling**: the SOF's luma sampling wins over the YCbCrSubsampling tag; 2 × 2 when
///    neither says.
/// 5. **Strips are restart intervals.** With more than one strip or tile, libtiff forces the
///    restart interval to the MCUs of one and inserts a restart marker between them, so each
///    strip is an entropy-coded segment of its own (predictors reset, byte-aligned start). Each
///    strip is therefore decoded here as a JPEG of its own: SOI, the tables, a frame the strip's
///    size, the scan header, the strip's bytes (for the first, what follows the header), EOI.
/// 6. **Raw samples**: libjpeg's `raw_data_out` — each component's IDCT output (islow), no
///    upsampling, no colour conversion — packed as TIFF's subsampled YCbCr data units (h × v
///    luma samples, then Cb, then Cr), which is what `TIFFReadEncodedStrip` returns. The RGBA
///    output then treats them as any subsampled YCbCr strip (chroma replicated over the unit,
///    TIFFYCbCrtoRGB), as libtiff's RGBA interface does: OJPEG has no JPEGCOLORMODE.
struct TIFFOldJPEG: Sendable {
    /// DQT, DHT and DRI segments, in stream order (markers included).
    let tables: [UInt8]
    /// From the SOF when there is one: its width and height, and per component (id, HV, Tq).
    let frameWidth: Int?
    let frameHeight: Int?
    let components: [(id: UInt8, sampling: UInt8, table: UInt8)]
    /// Per scan component: (id, Td << 4 | Ta).
    let selectors: [(id: UInt8, tables: UInt8)]
    /// Entropy-coded bytes before the first strip's (the interchange bytes after the header).
    let entropyPrefix: [UInt8]
    /// Bytes at the start of the first strip that belong to the header.
    let firstStripHeaderBytes: Int
    /// Luma sampling (h, v): the SOF's, else the tag's, else 2 × 2.
    let subsampling: (Int, Int)

    /// Reads the header (steps 1–4). `firstStrip` is the first strip or tile's (offset, count).
    init(directory: TIFFDirectory, reader: RandomAccessReader, tagSubsampling: [Int]?, firstStrip: (offset: Int, count: Int)?,
         samples: Int, at: Int) throws(DecodeError) {
        func fail(_ message: String) -> DecodeError {
            DecodeError(.malformed, format: .tiff, offset: at, TIFFError.invalidField(tag: 513, message))
        }
        let fileSize = reader.size
        var stream: [UInt8] = []
        var interchangeCount = 0
        if let start = try directory.integer(513, reader: reader), start > 0, start < fileSize {
            var count = try directory.integer(514, reader: reader) ?? 0
            if count <= 0 || count > fileSize - start { count = fileSize - start }
            stream += (try? reader.getBytes(at: start, count: count)) ?? []
            interchangeCount = stream.count
        }
        if let firstStrip, firstStrip.offset > 0, firstStrip.offset < fileSize {
            let count = firstStrip.count <= 0 ? fileSize - firstStrip.offset : min(firstStrip.count, fileSize - firstStrip.offset)
            stream += (try? reader.getBytes(at: firstStrip.offset, count: count)) ?? []
        }

        var tables: [UInt8] = []
        var frame: (width: Int, height: Int, components: [(id: UInt8, sampling: UInt8, table: UInt8)])?
        var selectors: [(id: UInt8, tables: UInt8)] = []
        var position = 0
        walk: while position + 1 < stream.count, stream[position] == 0xFF {
            var marker = stream[position + 1]
            position += 2
            while marker == 0xFF, position < stream.count { marker = stream[position]; position += 1 }
            switch marker {
            case 0xD8: continue
            case 0xD9: break walk
            default: break
            }
            guard position + 2 <= stream.count else { throw fail("old-style JPEG header ends inside marker 0x\(String(marker, radix: 16))") }
            let length = Int(stream[position]) << 8 | Int(stream[position + 1])
            guard length >= 2, position + length <= stream.count else { throw fail("old-style JPEG marker 0x\(String(marker, radix: 16)) has length \(length)") }
            let body = Array(stream[position + 2 ..< position + length])
            switch marker {
            case 0xE0...0xEF, 0xFE: break
            case 0xDB, 0xC4, 0xDD:
                tables += [0xFF, marker] + stream[position ..< position + length]
            case 0xC0, 0xC1:
                guard body.count >= 6, body[0] == 8 else { throw fail("old-style JPEG frame is not 8-bit baseline") }
                let count = Int(body[5])
                guard count == samples, body.count >= 6 + 3 * count else { throw fail("old-style JPEG frame has \(count) components for \(samples) samples") }
                frame = (Int(body[3]) << 8 | Int(body[4]), Int(body[1]) << 8 | Int(body[2]),
                         (0..<count).map { (body[6 + 3 * $0], body[7 + 3 * $0], body[8 + 3 * $0]) })
            case 0xDA:
                let count = body.first.map(Int.init) ?? 0
                guard count >= 1, body.count >= 1 + 2 * count else { throw fail("old-style JPEG scan header is too short") }
                selectors = (0..<count).map { (body[1 + 2 * $0], body[2 + 2 * $0]) }
                position += length
                break walk
            default:
                throw DecodeError(.unsupported, format: .tiff, offset: at,
                                  TIFFError.unsupportedLayout("old-style JPEG marker 0x\(String(marker, radix: 16))"))
            }
            position += length
        }
        if position < interchangeCount {
            entropyPrefix = Array(stream[position ..< interchangeCount])
            firstStripHeaderBytes = 0
        } else {
            entropyPrefix = []
            firstStripHeaderBytes = position - interchangeCount
        }

        if let frame {
            guard !selectors.isEmpty else { throw fail("old-style JPEG stream has a frame but no scan header") }
            let luma = frame.components.first?.sampling ?? 0x22
            subsampling = (Int(luma >> 4), Int(luma & 15))
            self.tables = tables
            frameWidth = frame.width
            frameHeight = frame.height
            components = frame.components
            self.selectors = selectors
            return
        }
        // Step 3: the tables from the tags.
        let luma = tagSubsampling ?? [2, 2]
        subsampling = (luma.first ?? 2, luma.count > 1 ? luma[1] : 2)
        // The frame header built below holds each factor in 4 bits (T.81 B.2.2: 1–4); TIFF 6.0
        // allows 1, 2 and 4 (found by the fuzzer: a larger value trapped converting to UInt8).
        guard [1, 2, 4].contains(subsampling.0), [1, 2, 4].contains(subsampling.1) else {
            throw fail("old-style JPEG YCbCrSubSampling \(subsampling.0)×\(subsampling.1) is not made of 1, 2 or 4")
        }
        guard let qOffsets = try directory.integers(519, reader: reader, maxCount: 4), qOffsets.count >= samples,
              let dcOffsets = try directory.integers(520, reader: reader, maxCount: 4), dcOffsets.count >= samples,
              let acOffsets = try directory.integers(521, reader: reader, maxCount: 4), acOffsets.count >= samples else {
            throw fail("old-style JPEG without a frame header needs JPEGQTables, JPEGDCTables and JPEGACTables")
        }
        func tableIDs(_ offsets: [Int]) -> [UInt8] {
            var ids: [UInt8] = []
            for c in 0..<samples { ids.append(c > 0 && offsets[c] == offsets[c - 1] ? ids[c - 1] : UInt8(c)) }
            return ids
        }
        let qIDs = tableIDs(qOffsets), dcIDs = tableIDs(dcOffsets), acIDs = tableIDs(acOffsets)
        func read(_ offset: Int, _ count: Int) throws(DecodeError) -> ArraySlice<UInt8> {
            guard offset > 0, let bytes = try? reader.getBytes(at: offset, count: count) else { throw fail("old-style JPEG table at \(offset) is outside the file") }
            return bytes
        }
        for c in 0..<samples where c == 0 || qIDs[c] != qIDs[c - 1] {
            tables += [0xFF, 0xDB, 0, 67, qIDs[c]] + (try read(qOffsets[c], 64))
        }
        for (offsets, ids, tableClass) in [(dcOffsets, dcIDs, UInt8(0)), (acOffsets, acIDs, UInt8(1))] {
            for c in 0..<samples where c == 0 || ids[c] != ids[c - 1] {
                let counts = try read(offsets[c], 16)
                let total = counts.reduce(0) { $0 + Int($1) }
                guard total <= 256 else { throw fail("old-style JPEG Huffman table at \(offsets[c]) has \(total) values") }
                let values = try read(offsets[c] + 16, total)
                let length = 2 + 1 + 16 + total
                tables += [0xFF, 0xC4, UInt8(length >> 8), UInt8(length & 0xFF), tableClass << 4 | ids[c]] + counts + values
            }
        }
        self.tables = tables
        frameWidth = nil
        frameHeight = nil
        let sampling = UInt8(subsampling.0 << 4 | subsampling.1)
        components = (0..<samples).map { (UInt8($0), $0 == 0 ? sampling : 0x11, qIDs[$0]) }
        self.selectors = (0..<samples).map { (UInt8($0), dcIDs[$0] << 4 | acIDs[$0]) }
    }

    /// Decodes strip or tile `index` (its bytes `data`, `rows` rows of `width` pixels, one of
    /// `chunkCount`) into `expected` bytes of subsampled YCbCr data units (step 5–6).
    func decode(_ data: ArraySlice<UInt8>, index: Int, chunkCount: Int, width: Int, rows: Int, expected: Int,
                limits: DecodeLimits, offset: Int) throws(DecodeError) -> (bytes: [UInt8], written: Int, problem: String?) {
        var entropy: [UInt8] = []
        if index == 0 {
            entropy = entropyPrefix
            entropy += data.dropFirst(firstStripHeaderBytes)
        } else {
            entropy = Array(data)
        }
        // One strip: the frame as the stream says (its MCUs, whatever follows); several: one
        // restart interval each, so a frame the strip's size.
        let frameWidth = self.frameWidth ?? width
        let frameHeight = chunkCount == 1 ? (self.frameHeight ?? rows) : rows
        guard frameWidth > 0, frameHeight > 0, frameWidth < 65536, frameHeight < 65536 else {
            throw DecodeError(.malformed, format: .tiff, offset: offset, TIFFError.invalidField(tag: 513, "old-style JPEG frame of \(frameWidth) × \(frameHeight)"))
        }
        var stream: [UInt8] = [0xFF, 0xD8] + tables
        let sof = 8 + 3 * components.count
        stream += [0xFF, 0xC0, UInt8(sof >> 8), UInt8(sof & 0xFF), 8, UInt8(frameHeight >> 8), UInt8(frameHeight & 0xFF),
                   UInt8(frameWidth >> 8), UInt8(frameWidth & 0xFF), UInt8(components.count)]
        for component in components { stream += [component.id, component.sampling, component.table] }
        let sos = 6 + 2 * selectors.count
        stream += [0xFF, 0xDA, UInt8(sos >> 8), UInt8(sos & 0xFF), UInt8(selectors.count)]
        for selector in selectors { stream += [selector.id, selector.tables] }
        stream += [0, 63, 0]
        stream += entropy
        stream += [0xFF, 0xD9]

        // Each component's sample rows, as the IDCT leaves them.
        var planes = [[[UInt8]]](repeating: [], count: components.count)
        var options = DecodeOptions(limits: limits)
        options.jpegColorHandling = .asStored
        let decoder = JPEGDecoder(options: options)
        decoder.rawRowSink = { component, row, samples in
            guard component < planes.count, row == planes[component].count else { return }
            planes[component].append(Array(samples))
        }
        var input = InputBuffer(stream, isClosed: true)
        var problem: String?
        do throws(DecodeError) {
            _ = try decoder.advance(&input)
            if let warning = decoder.warnings.first { problem = "old-style JPEG: \(warning.message)" }
            if let truncation = decoder.truncation { problem = "old-style JPEG: \(truncation)" }
        } catch {
            if error.kind == .unsupported { throw DecodeError(.unsupported, format: .tiff, offset: offset, error.reason) }
            problem = "old-style JPEG: \(error)"
        }

        // Pack data units: h × v luma samples, then Cb, then Cr (§21).
        let (h, v) = subsampling
        let unitsAcross = (width + h - 1) / h
        let unitBytes = h * v + 2
        let lineBytes = unitsAcross * unitBytes
        var output = [UInt8](repeating: 0, count: expected)
        guard components.count == 3, lineBytes > 0 else { return (output, 0, problem ?? "old-style JPEG: not three components") }
        let lines = expected / lineBytes
        var written = 0
        for line in 0..<lines {
            let lumaRows = (0..<v).map { line * v + $0 }
            guard lumaRows.allSatisfy({ $0 < planes[0].count }), line < planes[1].count, line < planes[2].count else { break }
            var o = line * lineBytes
            for unit in 0..<unitsAcross {
                for row in lumaRows {
                    for x in unit * h ..< unit * h + h {
                        output[o] = x < planes[0][row].count ? planes[0][row][x] : 0
                        o += 1
                    }
                }
                output[o] = unit < planes[1][line].count ? planes[1][line][unit] : 0
                output[o + 1] = unit < planes[2][line].count ? planes[2][line][unit] : 0
                o += 2
            }
            written = o
        }
        return (output, written, problem)
    }
}
