/// A Huffman table ready for decoding: T.81 Annex C (code lengths → codes, Figures C.1–C.3),
/// the F.2.2.3 DECODE tables (MAXCODE, VALPTR as an offset), plus a 9-bit lookahead table.
///
/// Decoding reads the next 9 bits: if they start with a code of ≤ 9 bits, `lookup` gives its
/// length and symbol at once; otherwise F.16 continues from length 10 with `maxCode`. A
/// sequence that is no code of ≤ 16 bits consumes 17 bits and decodes as 0, which is what
/// libjpeg-turbo's `jpeg_huff_decode` does (with the warning "Corrupt JPEG data: bad Huffman
/// code").
final class HuffmanTable {
    static let lookaheadBits = 9
    /// Bits indexing the combined code-and-value tables (`fastAC`, `sequentialAC`, `fastDC`).
    static let fastBits = 10

    /// The tables as plain pointers, for the MCU loop (no reference counting there). Valid
    /// while the `HuffmanTable` lives; `BaselineScan` keeps its tables alive.
    struct Pointers {
        let lookup: UnsafePointer<UInt16>
        let maxCode: UnsafePointer<Int32>
        let valueOffset: UnsafePointer<Int32>
        let symbols: UnsafePointer<UInt8>
        let fastAC: UnsafePointer<Int32>
        let sequentialAC: UnsafePointer<Int32>
        let fastDC: UnsafePointer<Int32>
    }

    var pointers: Pointers {
        Pointers(lookup: lookup, maxCode: maxCode, valueOffset: valueOffset, symbols: symbols, fastAC: fastAC,
                 sequentialAC: sequentialAC, fastDC: fastDC)
    }

    /// `lookup[next 9 bits] = length << 8 | symbol`, 0 when the code is longer than 9 bits.
    let lookup: UnsafeMutablePointer<UInt16>
    /// MAXCODE[l] for l = 0…17; −1 when there are no codes of length l; MAXCODE[17] is a
    /// sentinel larger than any 17-bit value so the search always ends.
    let maxCode: UnsafeMutablePointer<Int32>
    /// symbol index = code + valueOffset[l].
    let valueOffset: UnsafeMutablePointer<Int32>
    /// 256 symbols (zero beyond those defined), indexed `& 0xFF` as libjpeg does.
    let symbols: UnsafeMutablePointer<UInt8>
    /// AC fast path (the stb_image idea): when the next `fastBits` bits hold a whole code *and*
    /// its appended bits, `value << 16 | run << 8 | bits used`; 0 otherwise. Same bits consumed,
    /// same coefficient as DECODE + RECEIVE + EXTEND.
    let fastAC: UnsafeMutablePointer<Int32>
    /// `fastAC` plus entries for the two symbols with no value bits, for a sequential scan
    /// into a block that starts zeroed: EOB as run 63 (k moves past 63, which ends the
    /// block) and ZRL as run 15, each storing the value 0. The stored 0 lands on a position
    /// at or after k (natural order maps k ≥ 64 to 63), which no earlier symbol of the block
    /// wrote and which is therefore still 0: the block is the same as after the careful path,
    /// with no second look-up to tell EOB from a miss. Not for progressive scans (a band's
    /// stray store could reach another band's coefficient) nor for a block that holds
    /// earlier values (libjpeg-turbo's slow-path replay, a second scan of a component).
    let sequentialAC: UnsafeMutablePointer<Int32>
    /// The same idea for a DC table (F.2.2.1): when the next bits hold the code of SSSS and
    /// the SSSS bits after it, `DIFF << 16 | bits used` (DIFF is 0 for SSSS = 0, so an entry
    /// is never 0 when it is a hit); 0 otherwise.
    let fastDC: UnsafeMutablePointer<Int32>

    /// Builds the tables, with the checks of libjpeg-turbo's `jpeg_make_d_derived_tbl`: at most
    /// 256 codes, codes that fit their lengths (C.2 never produces an all-ones code), and DC
    /// symbols 0…15 (0…16 in a lossless scan, whose SSSS 16 is the difference 32768, H.1.2.2).
    init(_ spec: HuffmanTables.Specification, lossless: Bool = false) throws(JPEGError) {
        // The checks first, so that nothing is allocated when one fails. Figures C.1 and C.2
        // give the codes of each length consecutive values, the first one the previous
        // length's next code doubled: after the codes of length L the next code must still
        // fit L bits.
        let total = spec.counts.reduce(0, +)
        guard total <= 256, total <= spec.symbols.count else { throw .badHuffmanTable("\(total) codes") }
        var next = 0
        for length in 1...16 {
            next += spec.counts[length - 1]
            guard next < 1 << length else { throw .badHuffmanTable("code lengths overflow at length \(length)") }
            next <<= 1
        }
        if spec.isDC, let bad = spec.symbols.prefix(total).first(where: { $0 > (lossless ? 16 : 15) }) {
            throw .badHuffmanTable("DC symbol \(bad)")
        }
        // One allocation for every table (a table is built once per DHT definition and kept:
        // `JPEGDecoder.huffmanTable`); 16-byte alignment suits each part's element type.
        let fastCount = 1 << HuffmanTable.fastBits, lookupCount = 1 << HuffmanTable.lookaheadBits
        let memory = UnsafeMutableRawPointer.allocate(byteCount: HuffmanTable.byteCount, alignment: 16)
        self.memory = memory
        // Zero is "no entry" in every combined and lookahead table (set before the parts are
        // bound to their types).
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: HuffmanTable.byteCount)
        fastAC = memory.bindMemory(to: Int32.self, capacity: fastCount)
        sequentialAC = (memory + 4 * fastCount).bindMemory(to: Int32.self, capacity: fastCount)
        fastDC = (memory + 8 * fastCount).bindMemory(to: Int32.self, capacity: fastCount)
        maxCode = (memory + 12 * fastCount).bindMemory(to: Int32.self, capacity: 18)
        valueOffset = (memory + 12 * fastCount + 72).bindMemory(to: Int32.self, capacity: 18)
        lookup = (memory + 12 * fastCount + 144).bindMemory(to: UInt16.self, capacity: lookupCount)
        symbols = (memory + 12 * fastCount + 144 + 2 * lookupCount).bindMemory(to: UInt8.self, capacity: 256)
        maxCode.initialize(repeating: -1, count: 18)
        maxCode[17] = 0xFFFFF
        // One pass over the codes in order (C.1, C.2), filling for each: F.15's MAXCODE and
        // VALPTR (as an offset), the lookahead entries of a code of ≤ 9 bits, and the combined
        // entries (`fill`) of a code of ≤ `fastBits` bits.
        var code = 0, position = 0
        for length in 1...16 {
            let count = spec.counts[length - 1]
            if count > 0 {
                valueOffset[length] = Int32(position - code)
                maxCode[length] = Int32(code + count - 1)
            }
            for _ in 0..<count {
                let symbol = spec.symbols[position]
                symbols[position] = symbol
                if length <= HuffmanTable.lookaheadBits {
                    let shift = HuffmanTable.lookaheadBits - length
                    (lookup + code << shift).initialize(repeating: UInt16(length << 8) | UInt16(symbol), count: 1 << shift)
                }
                if length <= HuffmanTable.fastBits { fill(code: code, length: length, symbol: Int(symbol), isDC: spec.isDC) }
                code += 1
                position += 1
            }
            code <<= 1
        }
    }

    /// The combined entries of one code of `length` ≤ `fastBits` bits: each value its `size`
    /// bits can hold fills the 2^(fastBits − length − size) entries that start with the code
    /// and those bits. Only the tables of the table's class are filled (a DC table's AC tables
    /// stay empty, and the other way round): the scans read only those.
    private func fill(code: Int, length: Int, symbol: Int, isDC: Bool) {
        let fast = HuffmanTable.fastBits
        let first = code << (fast - length)
        if isDC {
            guard length + symbol <= fast else { return }   // symbol is SSSS ≤ 15 (checked)
            let span = 1 << (fast - length - symbol)
            for bits in 0..<(1 << symbol) {
                let entry = Int32(HuffmanTable.extend(bits, size: symbol)) << 16 | Int32(length + symbol)
                (fastDC + first + bits * span).initialize(repeating: entry, count: span)
            }
            return
        }
        let run = symbol >> 4, size = symbol & 15
        if size == 0 {
            // EOB and ZRL (other run/size 0 symbols are not codes T.81 defines: they stay
            // misses and take the careful path, which treats them as libjpeg does).
            if symbol == 0x00 || symbol == 0xF0 {
                let entry = Int32((symbol == 0 ? 63 : 15) << 8 | length)
                (sequentialAC + first).initialize(repeating: entry, count: 1 << (fast - length))
            }
            return
        }
        guard length + size <= fast else { return }
        let span = 1 << (fast - length - size)
        for bits in 0..<(1 << size) {
            let entry = Int32(HuffmanTable.extend(bits, size: size)) << 16 | Int32(run << 8) | Int32(length + size)
            (fastAC + first + bits * span).initialize(repeating: entry, count: span)
            (sequentialAC + first + bits * span).initialize(repeating: entry, count: span)
        }
    }

    /// F.2.2.1 EXTEND: `size` received bits as a signed value.
    private static func extend(_ bits: Int, size: Int) -> Int {
        size == 0 ? 0 : bits < 1 << (size - 1) ? bits - (1 << size) + 1 : bits
    }

    /// Bytes of the one allocation: three combined tables, MAXCODE, VALPTR, lookahead, symbols.
    private static let byteCount = 12 << fastBits + 144 + 2 << lookaheadBits + 256

    private let memory: UnsafeMutableRawPointer

    deinit {
        memory.deallocate()
    }
}
