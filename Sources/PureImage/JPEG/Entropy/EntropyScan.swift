/// Where a scan's MCU walk stands after `EntropyScan.run`.
enum ScanProgress: Equatable {
    case needMoreInput
    /// MCU row `row` is complete.
    case rowDone(Int)
    case finished
}

/// What `JPEGDecoder` needs of a scan's entropy decoder, Huffman (`BaselineScan`, T.81 Annex
/// F.2.2 / G.1.2) or arithmetic (`ArithmeticScan`, Annex F.2.4 / G.1.3): MCUs decoded into the
/// coefficient store row by row, resumable, with recovered problems as warnings and, at the
/// end, the marker the data stopped at.
protocol EntropyScan {
    /// Decodes MCUs until an MCU row completes, the scan ends, or the bytes run out (then
    /// nothing of the unfinished MCU is kept). `end ≤ bytes.count`.
    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>, end: Int, closed: Bool) -> ScanProgress
    /// Recovered problems, drained by the decoder: (offset, message).
    var warnings: [(Int, String)] { get set }
    /// jdcoefct.c `last_good_iMCU_row` (block smoothing).
    var lastGoodIMCURow: Int { get }
    /// A fatal DC overflow (jdphuff.c `JERR_BAD_DCT_COEF`).
    var dcOverflow: Bool { get }
    /// The next byte the entropy decoder would read.
    var position: Int { get }
    /// True when the data ran out at the end of a closed input (the image is truncated).
    var ranOutOfInput: Bool { get }
    /// The marker the data stopped at (code −1: none yet), where its 0xFF is, and whether it
    /// is the EOI implied by the end of the input.
    var endMarker: (code: Int, offset: Int, endOfInput: Bool) { get }
    /// Several components per MCU (A.2.3), else one block per MCU.
    var interleaved: Bool { get }
    /// The frame index of the scan's first component.
    var firstComponent: Int { get }
    /// The scan header was completed from libjpeg's end-of-input filler; see
    /// `EntropyBitReader.fillerStartsWithD9`.
    mutating func markFillerPhase(oddBytesUsed: Bool)
    /// Between `run` calls: the bytes now start `delta` bytes later than before (the decoder
    /// dropped consumed input; every position kept moves down by `delta`, none below the
    /// reader's position is read again).
    mutating func rebase(by delta: Int)
}
