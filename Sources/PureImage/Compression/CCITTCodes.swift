/// The code tables of ITU-T T.4 (Group 3 facsimile) §4.1 and §4.2, shared by T.6 (Group 4):
/// run lengths for white and black (terminating codes 0–63, make-up codes 64–1728, the
/// extended make-up codes 1792–2560 common to both colours) and the 2-D mode codes.
///
/// Codes are written as in the recommendation, first transmitted bit on the left. Decoding
/// looks a code up by peeking a fixed number of bits (7 for modes, 12 for white, 13 for black)
/// in a table where every bit pattern starting with a code holds that code — libtiff's
/// decoder uses tables of these sizes, and what a pattern that starts with no code means
/// (an error that consumes nothing, or an EOL that consumes only its 11 zeros) is part of how
/// it recovers from damaged data, so the tables below reproduce that meaning exactly.
enum CCITTCodes {
    /// T.4 Table 2 — terminating codes, white runs 0…63.
    static let whiteTerminating: [String] = [
        "00110101", "000111", "0111", "1000", "1011", "1100", "1110", "1111",                       // 0–7
        "10011", "10100", "00111", "01000", "001000", "000011", "110100", "110101",                 // 8–15
        "101010", "101011", "0100111", "0001100", "0001000", "0010111", "0000011", "0000100",       // 16–23
        "0101000", "0101011", "0010011", "0100100", "0011000", "00000010", "00000011", "00011010",  // 24–31
        "00011011", "00010010", "00010011", "00010100", "00010101", "00010110", "00010111", "00101000", // 32–39
        "00101001", "00101010", "00101011", "00101100", "00101101", "00000100", "00000101", "00001010", // 40–47
        "00001011", "01010010", "01010011", "01010100", "01010101", "00100100", "00100101", "01011000", // 48–55
        "01011001", "01011010", "01011011", "01001010", "01001011", "00110010", "00110011", "00110100", // 56–63
    ]

    /// T.4 Table 2 — terminating codes, black runs 0…63.
    static let blackTerminating: [String] = [
        "0000110111", "010", "11", "10", "011", "0011", "0010", "00011",                            // 0–7
        "000101", "000100", "0000100", "0000101", "0000111", "00000100", "00000111", "000011000",   // 8–15
        "0000010111", "0000011000", "0000001000", "00001100111", "00001101000", "00001101100",      // 16–21
        "00000110111", "00000101000", "00000010111", "00000011000", "000011001010", "000011001011", // 22–27
        "000011001100", "000011001101", "000001101000", "000001101001", "000001101010", "000001101011", // 28–33
        "000011010010", "000011010011", "000011010100", "000011010101", "000011010110", "000011010111", // 34–39
        "000001101100", "000001101101", "000011011010", "000011011011", "000001010100", "000001010101", // 40–45
        "000001010110", "000001010111", "000001100100", "000001100101", "000001010010", "000001010011", // 46–51
        "000000100100", "000000110111", "000000111000", "000000100111", "000000101000", "000001011000", // 52–57
        "000001011001", "000000101011", "000000101100", "000001011010", "000001100110", "000001100111", // 58–63
    ]

    /// T.4 Table 3 — make-up codes, white runs 64, 128, … 1728 (index i is 64 × (i + 1)).
    static let whiteMakeUp: [String] = [
        "11011", "10010", "010111", "0110111", "00110110", "00110111", "01100100", "01100101",      // 64–512
        "01101000", "01100111", "011001100", "011001101", "011010010", "011010011", "011010100",    // 576–960
        "011010101", "011010110", "011010111", "011011000", "011011001", "011011010", "011011011",  // 1024–1408
        "010011000", "010011001", "010011010", "011000", "010011011",                               // 1472–1728
    ]

    /// T.4 Table 3 — make-up codes, black runs 64, 128, … 1728.
    static let blackMakeUp: [String] = [
        "0000001111", "000011001000", "000011001001", "000001011011", "000000110011", "000000110100", // 64–384
        "000000110101", "0000001101100", "0000001101101", "0000001001010", "0000001001011",           // 448–704
        "0000001001100", "0000001001101", "0000001110010", "0000001110011", "0000001110100",          // 768–1024
        "0000001110101", "0000001110110", "0000001110111", "0000001010010", "0000001010011",          // 1088–1344
        "0000001010100", "0000001010101", "0000001011010", "0000001011011", "0000001100100",          // 1408–1664
        "0000001100101",                                                                             // 1728
    ]

    /// T.4 §4.1.2 (Table 3, extended) — make-up codes 1792, 1856, … 2560, the same for both colours.
    static let extendedMakeUp: [String] = [
        "00000001000", "00000001100", "00000001101", "000000010010", "000000010011", "000000010100",
        "000000010101", "000000010110", "000000010111", "000000011100", "000000011101", "000000011110",
        "000000011111",
    ]

    /// T.4 §4.2.1.3 Table 4 — 2-D coding modes: (code, mode, parameter). The parameter is the
    /// distance a1 − b1 for the vertical modes.
    static let modes: [(code: String, kind: CCITTCode.Kind, parameter: Int)] = [
        ("0001", .pass, 0),
        ("001", .horizontal, 0),
        ("1", .vertical0, 0),
        ("011", .verticalRight, 1), ("000011", .verticalRight, 2), ("0000011", .verticalRight, 3),
        ("010", .verticalLeft, 1), ("000010", .verticalLeft, 2), ("0000010", .verticalLeft, 3),
        // 0000001xxx: the extension code (T.4 §4.2.1.3.4, uncompressed mode); libtiff reports it
        // as "Uncompressed data (not supported)".
        ("0000001", .extension, 0),
        // Seven zeros cannot start a mode code: they start an EOL (000000000001).
        ("0000000", .endOfLine, 0),
    ]

    /// Every bit pattern of `width` bits starting with one of `codes` holds that code; the rest
    /// hold `CCITTCode.invalid` (nothing consumed).
    static func lookupTable(width: Int, codes: [(code: String, entry: CCITTCode)]) -> [CCITTCode] {
        var table = [CCITTCode](repeating: .invalid, count: 1 << width)
        for (code, entry) in codes {
            let value = code.reduce(0) { $0 << 1 | ($1 == "1" ? 1 : 0) }
            let free = width - code.count
            for suffix in 0 ..< (1 << free) {
                table[value << free | suffix] = entry
            }
        }
        return table
    }

    /// White runs, looked up 12 bits at a time: terminating, make-up and extended make-up
    /// codes, and 11 zeros (the start of an EOL), which consume those 11 bits.
    static let whiteTable: [CCITTCode] = lookupTable(width: 12, codes: runCodes(terminating: whiteTerminating, makeUp: whiteMakeUp))
    /// Black runs, looked up 13 bits at a time (the longest black code is 13 bits).
    static let blackTable: [CCITTCode] = lookupTable(width: 13, codes: runCodes(terminating: blackTerminating, makeUp: blackMakeUp))
    /// 2-D modes, looked up 7 bits at a time; every pattern holds a mode.
    static let modeTable: [CCITTCode] = lookupTable(width: 7, codes: modes.map { ($0.code, CCITTCode($0.kind, length: $0.code.count, parameter: $0.parameter)) })

    private static func runCodes(terminating: [String], makeUp: [String]) -> [(code: String, entry: CCITTCode)] {
        var codes: [(code: String, entry: CCITTCode)] = []
        for (run, code) in terminating.enumerated() { codes.append((code, CCITTCode(.terminating, length: code.count, parameter: run))) }
        for (index, code) in makeUp.enumerated() { codes.append((code, CCITTCode(.makeUp, length: code.count, parameter: 64 * (index + 1)))) }
        for (index, code) in extendedMakeUp.enumerated() { codes.append((code, CCITTCode(.makeUp, length: code.count, parameter: 1792 + 64 * index))) }
        codes.append(("00000000000", CCITTCode(.endOfLine, length: 11, parameter: 0)))
        return codes
    }
}

/// One table entry, packed in 32 bits: parameter (run length or vertical offset) << 8,
/// code length << 4, kind.
struct CCITTCode: Equatable {
    enum Kind: UInt32 {
        /// No code starts with these bits (nothing is consumed).
        case invalid = 0
        case pass, horizontal, vertical0, verticalRight, verticalLeft, `extension`
        /// A terminating run code (0–63): the run of this colour ends.
        case terminating
        /// A make-up run code (64–2560): the run goes on.
        case makeUp
        case endOfLine
    }

    let packed: UInt32

    init(_ kind: Kind, length: Int, parameter: Int) {
        packed = UInt32(parameter) << 8 | UInt32(length) << 4 | kind.rawValue
    }

    static let invalid = CCITTCode(.invalid, length: 0, parameter: 0)

    var kind: Kind { Kind(rawValue: packed & 15) ?? .invalid }
    /// Bits the code occupies (0 for `invalid`).
    var length: Int { Int(packed >> 4 & 15) }
    var parameter: Int32 { Int32(truncatingIfNeeded: packed >> 8) }
}
