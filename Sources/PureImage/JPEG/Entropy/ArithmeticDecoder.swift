/// The binary arithmetic decoder of T.81 Annex D (the "QM-coder"), as libjpeg-turbo's
/// jdarith.c `arith_decode` runs it.
///
/// Every decision is decoded against one *statistics bin*: a byte whose high bit is the
/// current more probable symbol (MPS) and whose low 7 bits index the probability-estimation
/// state machine of Table D.2 (`QMStates`). The decoder keeps two registers:
///
/// ```
///  A: the size of the current interval, kept ≥ 0x8000 by renormalisation (D.2.6)
///  C: the code value — 16 bits of interval base with the not-yet-used input bits below it;
///     `ct` counts those spare bits (libjpeg floats the cut point instead of shifting C on
///     every renormalisation, so only new bytes are shifted in)
/// ```
///
/// One decision (D.2.4–D.2.5): with Qe the LPS probability of the bin's state, the interval
/// splits into an MPS part of size A − Qe and an LPS part of size Qe. If C lies at or above
/// the split, the LPS part is taken (unless it is the larger one: "conditional exchange"),
/// C drops by the split, and the bin moves to its next-LPS state (flipping its MPS where
/// Table D.2 says SWITCH). Otherwise the MPS is taken, and the bin only moves on when A
/// needs renormalising. Docs/JPEG.md works one decision through by hand.
///
/// Input (D.2.7): bytes are read only when renormalisation needs them. `FF 00` is a data
/// byte 0xFF; `FF` followed by a marker code ends the data — the decoder then reads zero bytes
/// until the scan's last decision ("a marker … is legal in arithmetic coding", jdarith.c), and
/// the marker waits in `marker`. The end of a closed input is the EOI libjpeg-turbo's memory
/// source inserts. The end of the bytes received so far, with more to come, sets `starved`
/// and supplies zeros: the caller then discards the whole MCU and retries it later.
struct ArithmeticDecoder: MarkerCursor {
    var position: Int
    var marker = -1
    var markerOffset = 0
    var endOfInput = false
    /// Set when a byte was needed beyond the bytes received so far (input still open).
    var starved = false
    /// See `EntropyBitReader.fillerStartsWithD9`: the scan header was completed from libjpeg's
    /// end-of-input filler, whose next byte (D9) is then read as data.
    var fillerStartsWithD9 = false

    /// The C register (libjpeg's `c`); it holds at most 16 + 7 + 8 significant bits.
    private var c = 0
    /// The A register; 0 until the first two bytes are in.
    private var a = 0
    /// Spare input bits below the interval base in C: −16 before the first two bytes (each
    /// byte counts 8, and the first two land the count on 0), 0…7 while decoding, −1 after a
    /// decoding error (jdarith.c's convention: the rest of the restart interval is skipped).
    var ct = -16

    init(position: Int) { self.position = position }

    /// T.81 F.1.4.4.1.4 / D.1: a new entropy-coded segment starts with C and A cleared and two
    /// bytes to read (at the start of a scan and after each restart marker).
    mutating func restart() {
        c = 0
        a = 0
        ct = -16
    }

    /// One decision against `bin`; returns 0 or 1. Bound: reads `bytes[i]` only for
    /// `position ≤ i < end`, where `end ≤` the bytes' count is the caller's promise.
    @inline(__always)
    mutating func decode(_ bin: UnsafeMutablePointer<UInt8>, _ bytes: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Int {
        // D.2.6 renormalisation: double A until it is ≥ 0x8000, taking a byte into C every
        // 8 doublings.
        while a < 0x8000 {
            ct -= 1
            if ct < 0 {
                c = (c << 8) | nextByte(bytes, end: end, closed: closed)
                ct += 8
                if ct < 0 {
                    // One of the two initial bytes: after the second, ct is 0 and A restarts
                    // at 0x10000 (0x8000 doubled once below).
                    ct += 1
                    if ct == 0 { a = 0x8000 }
                }
            }
            a <<= 1
        }
        let state = Int(bin.pointee)
        let entry = QMStates.table[state & 0x7F]
        let qe = Int(entry.qe)
        var symbol = state >> 7
        a -= qe
        let split = a << ct
        if c >= split {
            // The LPS sub-interval, or the MPS after a conditional exchange (D.2.5).
            c -= split
            if a < qe {
                a = qe
                bin.pointee = UInt8(state & 0x80) | entry.nextMPS
            } else {
                a = qe
                bin.pointee = UInt8(state & 0x80) ^ entry.nextLPS
                symbol ^= 1
            }
        } else if a < 0x8000 {
            // The MPS sub-interval, too small now: renormalisation follows, so the estimate
            // moves on — to the LPS side after a conditional exchange.
            if a < qe {
                bin.pointee = UInt8(state & 0x80) ^ entry.nextLPS
                symbol ^= 1
            } else {
                bin.pointee = UInt8(state & 0x80) | entry.nextMPS
            }
        }
        return symbol
    }

    /// D.2.7 byte input with libjpeg's marker rule (see the type's comment).
    private mutating func nextByte(_ bytes: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Int {
        if marker >= 0 { return 0 }
        guard let byte = take(bytes, end: end, closed: closed) else { return 0 }
        guard byte == 0xFF else { return byte }
        var code = 0xFF
        while code == 0xFF {
            guard let next = take(bytes, end: end, closed: closed) else { return 0 }
            code = next
        }
        if code == 0 { return 0xFF }
        marker = code
        markerOffset = position - 2
        return 0
    }

    /// The next byte, or nil at the end of the bytes so far: a closed input then ends in EOI
    /// (after the filler's D9 data byte, when the scan header was completed from filler); an
    /// open one starves.
    @inline(__always)
    private mutating func take(_ bytes: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Int? {
        if position < end {
            position += 1
            return Int(bytes[position - 1])
        }
        if !closed {
            starved = true
            return nil
        }
        if fillerStartsWithD9 {
            fillerStartsWithD9 = false
            return Int(JPEGMarker.eoi)
        }
        marker = Int(JPEGMarker.eoi)
        markerOffset = end
        endOfInput = true
        return nil
    }
}

/// T.81 Table D.2, the probability-estimation state machine: for each of its 113 states the
/// LPS sub-interval Qe (on the scale of the A register, which renormalisation keeps in
/// 0x8000…0xFFFF), the next state after
/// an MPS and after an LPS, and whether an LPS there swaps the bin's MPS (SWITCH, kept as
/// bit 7 of `nextLPS` so that XOR-ing it into a bin flips the MPS). State 113 is the fixed
/// probability ½ that T.851 (Table 5) recommends for sign and refinement bits, which never
/// adapts.
enum QMStates {
    struct Entry {
        let qe: UInt16
        let nextMPS: UInt8
        /// Next state after an LPS, with 0x80 set when the MPS switches.
        let nextLPS: UInt8
    }

    /// (Qe, next index after LPS, next index after MPS, SWITCH) per Table D.2 row.
    private static let rows: [(UInt16, UInt8, UInt8, Bool)] = [
        (0x5A1D, 1, 1, true), (0x2586, 14, 2, false), (0x1114, 16, 3, false), (0x080B, 18, 4, false),
        (0x03D8, 20, 5, false), (0x01DA, 23, 6, false), (0x00E5, 25, 7, false), (0x006F, 28, 8, false),
        (0x0036, 30, 9, false), (0x001A, 33, 10, false), (0x000D, 35, 11, false), (0x0006, 9, 12, false),
        (0x0003, 10, 13, false), (0x0001, 12, 13, false), (0x5A7F, 15, 15, true), (0x3F25, 36, 16, false),
        (0x2CF2, 38, 17, false), (0x207C, 39, 18, false), (0x17B9, 40, 19, false), (0x1182, 42, 20, false),
        (0x0CEF, 43, 21, false), (0x09A1, 45, 22, false), (0x072F, 46, 23, false), (0x055C, 48, 24, false),
        (0x0406, 49, 25, false), (0x0303, 51, 26, false), (0x0240, 52, 27, false), (0x01B1, 54, 28, false),
        (0x0144, 56, 29, false), (0x00F5, 57, 30, false), (0x00B7, 59, 31, false), (0x008A, 60, 32, false),
        (0x0068, 62, 33, false), (0x004E, 63, 34, false), (0x003B, 32, 35, false), (0x002C, 33, 9, false),
        (0x5AE1, 37, 37, true), (0x484C, 64, 38, false), (0x3A0D, 65, 39, false), (0x2EF1, 67, 40, false),
        (0x261F, 68, 41, false), (0x1F33, 69, 42, false), (0x19A8, 70, 43, false), (0x1518, 72, 44, false),
        (0x1177, 73, 45, false), (0x0E74, 74, 46, false), (0x0BFB, 75, 47, false), (0x09F8, 77, 48, false),
        (0x0861, 78, 49, false), (0x0706, 79, 50, false), (0x05CD, 48, 51, false), (0x04DE, 50, 52, false),
        (0x040F, 50, 53, false), (0x0363, 51, 54, false), (0x02D4, 52, 55, false), (0x025C, 53, 56, false),
        (0x01F8, 54, 57, false), (0x01A4, 55, 58, false), (0x0160, 56, 59, false), (0x0125, 57, 60, false),
        (0x00F6, 58, 61, false), (0x00CB, 59, 62, false), (0x00AB, 61, 63, false), (0x008F, 61, 32, false),
        (0x5B12, 65, 65, true), (0x4D04, 80, 66, false), (0x412C, 81, 67, false), (0x37D8, 82, 68, false),
        (0x2FE8, 83, 69, false), (0x293C, 84, 70, false), (0x2379, 86, 71, false), (0x1EDF, 87, 72, false),
        (0x1AA9, 87, 73, false), (0x174E, 72, 74, false), (0x1424, 72, 75, false), (0x119C, 74, 76, false),
        (0x0F6B, 74, 77, false), (0x0D51, 75, 78, false), (0x0BB6, 77, 79, false), (0x0A40, 77, 48, false),
        (0x5832, 80, 81, true), (0x4D1C, 88, 82, false), (0x438E, 89, 83, false), (0x3BDD, 90, 84, false),
        (0x34EE, 91, 85, false), (0x2EAE, 92, 86, false), (0x299A, 93, 87, false), (0x2516, 86, 71, false),
        (0x5570, 88, 89, true), (0x4CA9, 95, 90, false), (0x44D9, 96, 91, false), (0x3E22, 97, 92, false),
        (0x3824, 99, 93, false), (0x32B4, 99, 94, false), (0x2E17, 93, 86, false), (0x56A8, 95, 96, true),
        (0x4F46, 101, 97, false), (0x47E5, 102, 98, false), (0x41CF, 103, 99, false), (0x3C3D, 104, 100, false),
        (0x375E, 99, 93, false), (0x5231, 105, 102, false), (0x4C0F, 106, 103, false), (0x4639, 107, 104, false),
        (0x415E, 103, 99, false), (0x5627, 105, 106, true), (0x50E7, 108, 107, false), (0x4B85, 109, 103, false),
        (0x5597, 110, 109, false), (0x504F, 111, 107, false), (0x5A10, 110, 111, true), (0x5522, 112, 109, false),
        (0x59EB, 112, 111, true),
        // T.851's fixed ½ estimate: it never leaves its own state.
        (0x5A1D, 113, 113, false),
    ]

    /// All 128 indexable states (a corrupt bin can only reach 0…113, but the table covers
    /// every 7-bit index so that no lookup can go out of bounds).
    static let table: [Entry] = (0..<128).map { index in
        guard index < rows.count else { return Entry(qe: 0x5A1D, nextMPS: UInt8(index), nextLPS: UInt8(index)) }
        let (qe, lps, mps, switches) = rows[index]
        return Entry(qe: qe, nextMPS: mps, nextLPS: lps | (switches ? 0x80 : 0))
    }

    /// The fixed-probability bin's initial value (state 113, MPS 0).
    static let fixedBin: UInt8 = 113
}
