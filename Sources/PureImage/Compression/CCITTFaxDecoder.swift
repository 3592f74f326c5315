/// CCITT bilevel decoding for TIFF: modified Huffman (compression 2, T.4 1-D codes, each row
/// byte-aligned, no EOLs; compression 32771 "CCITT RLEW", each row word-aligned), T.4 Group 3
/// (compression 3: rows after EOL codes, 1-D or, with T4Options bit 0, 1-D or 2-D per row), and
/// T.6 Group 4 (compression 4: every row 2-D against the row above, no EOLs).
///
/// A row is decoded into **runs** — alternate white and black run lengths, starting with white
/// — and the runs are then painted into the row's bits (white 0, black 1, whatever the
/// photometric says: the photometric interprets the bits later, as in libtiff). A 2-D row is
/// coded against the runs of the row above (the *reference* row; above the first row of a
/// strip, one white run). See `Docs/TIFF.md` for a row worked by hand.
///
/// **Exactly libtiff's decoder** (tif_fax3.c / tif_fax3.h), including its recovery from damaged
/// data, since conformance is judged on damaged files too:
/// - a code that is not in the tables ends the row: the runs so far are kept and the rest of the
///   row is made white (`cleanUpRow`), with a warning; Group 3 then looks for the next EOL
///   (11 zeros) before the next row, Group 4 carries on from the next bit;
/// - the end of the data ends the strip (`CCITTBitReader` explains when that is): the row being
///   decoded is painted as far as it got, the rows after it are left as they were (zero);
///   Group 4 counts this as success once at least one row was decoded ("don't error on badly
///   terminated strips"), and stops the same way at an EOL (its end-of-block code);
/// - the run arrays have libtiff's capacity (the width rounded up to 32, twice that for 2-D),
///   and a row with more runs stops the strip ("Buffer overflow") without painting the row;
/// - run arithmetic wraps in 32 bits like libtiff's `int` / `uint32_t` mix, and the arrays
///   persist from strip to strip, so even a damaged stream that reads stale runs reads the same
///   stale runs.
///
/// The decoder keeps its run arrays for a whole page; each strip or tile is decoded by one
/// `decode` call once its bytes are in, band by band like the other TIFF codecs.
struct CCITTFaxDecoder {
    enum Scheme: Equatable {
        /// Compression 2: T.4 1-D codes, no EOLs, each row starting on a byte boundary.
        case modifiedHuffman
        /// Compression 32771: the same codes, each row starting on a 16-bit word boundary — as
        /// libtiff reckons it (`decode`'s `startsAtOddAddress`).
        case modifiedHuffmanWordAligned
        /// Compression 3 without 2-D coding: each row follows an EOL.
        case group3OneDimensional
        /// Compression 3 with T4Options bit 0: each row follows an EOL and a tag bit (1 = 1-D row).
        case group3TwoDimensional
        /// Compression 4: 2-D rows, no EOLs.
        case group4

        var usesReferenceRow: Bool { self == .group3TwoDimensional || self == .group4 }
    }

    /// A problem met while decoding, in libtiff's words (line = row within the strip or tile).
    enum Problem: Equatable, CustomStringConvertible {
        /// "Bad code word": no code starts with the next bits (or a 2-D code is impossible here).
        case badCode(line: Int, x: Int)
        /// The extension code (uncompressed mode, T.4 §4.2.1.3.4), which libtiff does not decode.
        case uncompressedMode(line: Int, x: Int)
        /// The row's runs do not add up to its width ("Premature EOL" / "Line length mismatch").
        case badLength(line: Int, got: Int, expected: Int)
        /// The data ended inside a row.
        case prematureEnd(line: Int, x: Int)
        /// More runs than libtiff's run array holds; the strip stops.
        case runOverflow(line: Int)

        var description: String {
            switch self {
            case .badCode(let line, let x): return "bad code word at line \(line) (x \(x))"
            case .uncompressedMode(let line, let x): return "uncompressed mode (not supported) at line \(line) (x \(x))"
            case .badLength(let line, let got, let expected):
                return "\(got < expected ? "premature EOL" : "line length mismatch") at line \(line) (got \(got), expected \(expected))"
            case .prematureEnd(let line, let x): return "premature end of data at line \(line) (x \(x))"
            case .runOverflow(let line): return "too many runs at line \(line)"
            }
        }
    }

    /// What one strip or tile came to.
    struct ChunkResult {
        /// Rows painted (the last one possibly only in part), of the rows asked for.
        var rowsPainted: Int
        /// False when libtiff's decoder reports failure for the strip (it returns −1).
        var succeeded: Bool
        /// The first problems met (at most `maxProblems`), and how many there were in all.
        var problems: [Problem]
        var problemCount: Int
    }

    static let maxProblems = 8

    let scheme: Scheme
    /// Pixels per row (libtiff's `lastx`: the image width, or the tile width).
    let width: Int32
    /// Entries in each run array (libtiff's `nruns`).
    let capacity: Int
    /// Both run arrays: the current row's and the reference row's, at `current` and `reference`
    /// (0 or `capacity`; they swap after each 2-D-capable row).
    var runs: [UInt32]
    var current = 0
    var reference: Int

    // The row being decoded (libtiff's a0, RunLength, pa, b1, pb, EOLcnt, line).
    var a0: Int32 = 0
    var runLength: Int32 = 0
    /// Index in `runs` of the next run to store.
    var pa = 0
    var b1: Int32 = 0
    /// Index in `runs` of the next reference run to read.
    var pb = 0
    /// Set when an EOL's zeros have been consumed (the next sync then only looks for its 1 bit).
    var eolSeen = false
    var line = 0
    var problems: [Problem] = []
    var problemCount = 0

    /// `width` pixels per row; the run arrays are checked against `limits` before allocating.
    init(scheme: Scheme, width: Int, limits: DecodeLimits) throws(DecodeError) {
        guard width > 0, width < Int(Int32.max) - 64 else {
            throw DecodeError(.limitExceeded, format: .tiff, offset: nil, LimitReason.tooManyPixels(width: width, height: 1, limit: limits.maxPixels))
        }
        self.scheme = scheme
        self.width = Int32(width)
        capacity = (width + 31) / 32 * 32 * (scheme.usesReferenceRow ? 2 : 1)
        let count = try SizeMath.allocationSize(capacity, 2, 4, limits: limits, format: .tiff, offset: nil) / 4
        runs = [UInt32](repeating: 0, count: count)
        reference = capacity
    }

    /// Decodes one strip or tile of `rows` rows from `data`; the first `keptRows` rows are painted
    /// into `output` (`rowBytes` each, zeroed by the caller), the rest decoded and dropped.
    /// `startsAtOddAddress`: the chunk's first byte lies at an odd address in libtiff's memory —
    /// an odd file offset, as libtiff reads the file memory-mapped — which moves RLEW's words.
    mutating func decode(_ data: ArraySlice<UInt8>, rows: Int, rowBytes: Int, keptRows: Int,
                         startsAtOddAddress: Bool = false, into output: inout [UInt8]) -> ChunkResult {
        // libtiff's Fax3PreDecode: a fresh bit reader, the reference row one white run.
        var reader = CCITTBitReader(data)
        eolSeen = false
        line = 0
        problems = []
        problemCount = 0
        current = 0
        if scheme.usesReferenceRow {
            reference = capacity
            runs[reference] = UInt32(bitPattern: width)
            runs[reference + 1] = 0
        }
        var painted = 0
        func paint(_ row: Int) {
            paintRow(into: &output, at: row < keptRows ? row * rowBytes : nil)
            painted = row + 1
        }
        func result(_ succeeded: Bool) -> ChunkResult {
            ChunkResult(rowsPainted: min(painted, keptRows), succeeded: succeeded, problems: problems, problemCount: problemCount)
        }
        for row in 0..<rows {
            a0 = 0
            runLength = 0
            pa = current
            let end: RowEnd
            switch scheme {
            case .modifiedHuffman, .modifiedHuffmanWordAligned:
                end = expandOneDimensional(&reader)
            case .group3OneDimensional, .group3TwoDimensional:
                // libtiff's EOF1D / EOF2D: the data ended before the row's EOL (or tag bit).
                guard synchronise(&reader), scheme == .group3OneDimensional || reader.need(1) else {
                    guard cleanUpRow() else { return result(false) }
                    paint(row)
                    return result(false)
                }
                if scheme == .group3OneDimensional {
                    end = expandOneDimensional(&reader)
                } else {
                    let isOneDimensional = reader.peek(1) == 1
                    reader.skip(1)
                    startReferenceRow()
                    end = isOneDimensional ? expandOneDimensional(&reader) : expandTwoDimensional(&reader)
                }
            case .group4:
                startReferenceRow()
                end = expandTwoDimensional(&reader)
            }
            switch end {
            case .overflow:
                return result(false)
            case .endOfData:
                paint(row)
                // Group 4 accepts a strip that ends early once a row has been decoded.
                return result(scheme == .group4 && line > 0)
            case .complete:
                paint(row)
                switch scheme {
                case .modifiedHuffman:
                    // Each row starts on a byte boundary (libtiff's FAXMODE_BYTEALIGN: the bits it
                    // holds are whole bytes plus the rest of the current one).
                    reader.discard(reader.libtiffHeldBits & 7)
                case .modifiedHuffmanWordAligned:
                    // libtiff's FAXMODE_WORDALIGN: it drops the bits it holds beyond a multiple of
                    // 16 — which, since it may hold up to two bytes ahead, is not always a word of
                    // the data — and when it then holds none and its read pointer is at an odd
                    // address, passes over one byte.
                    reader.discard(reader.libtiffHeldBits & 15)
                    if ((startsAtOddAddress ? 1 : 0) + reader.libtiffLoadedBytes) & 1 == 1 { reader.passOverByteLikeLibtiff() }
                case .group3OneDimensional:
                    break
                case .group3TwoDimensional:
                    // An imaginary change past the row's end closes the reference runs.
                    if pa < current + capacity { _ = storeRun(0) }
                    swap(&current, &reference)
                case .group4:
                    // An EOL in Group 4 is the end-of-block code: the strip ends here.
                    if eolSeen { return result(line > 0) }
                    guard storeRun(0) else { return result(false) }
                    swap(&current, &reference)
                }
                line += 1
            }
        }
        return result(true)
    }

    /// T.4 §4.1.2 — before each Group 3 row: find the EOL (at least 11 zeros, then a 1), unless its
    /// zeros were already consumed; fill bits and damaged data before it are skipped
    /// (libtiff's SYNC_EOL). False at the end of the data.
    private mutating func synchronise(_ reader: inout CCITTBitReader) -> Bool {
        if !eolSeen {
            while true {
                guard reader.need(11) else { return false }
                if reader.peek(11) == 0 { break }
                reader.skip(1)
            }
        }
        while true {
            guard reader.need(8) else { return false }
            if reader.peek(8) != 0 { break }
            reader.skip(8)
        }
        // A 1 is within the 8 bits just peeked.
        while reader.peek(1) == 0 { reader.skip(1) }
        reader.skip(1)
        eolSeen = false
        return true
    }

    /// A 2-D row starts with b1 = the reference row's first change (its first white run).
    private mutating func startReferenceRow() {
        pb = reference
        b1 = Int32(bitPattern: referenceRun(pb))
        pb += 1
    }

    /// A reference run; positions before the arrays (only reachable through wrapped arithmetic
    /// in corrupt data, undefined behaviour in libtiff) read as 0.
    @inline(__always)
    func referenceRun(_ index: Int) -> UInt32 {
        index >= 0 && index < runs.count ? runs[index] : 0
    }

    mutating func report(_ problem: Problem) {
        problemCount += 1
        if problems.count < Self.maxProblems { problems.append(problem) }
    }
}
