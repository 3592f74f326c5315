/// The MSB-first bit reader for entropy-coded segments (T.81 F.1.2.3, F.2.2.5).
///
/// ```
///  bytes:      … 1010_0011  1111_1111 0000_0000  0110_1…   FF D0 (RST0)
///                 │            └─ stuffed FF00 = one data byte 0xFF
///  accumulator: [a b c d … valid bits, most significant first …|0 0 0 … 0]  (64 bits)
///                └──────────── bitCount ─────────────┘
/// ```
/// Fill bytes before a marker are skipped, `FF 00` becomes `FF` (libjpeg also accepts
/// `FF FF … 00` as one `FF`), and any other `FF xx` is a marker: the reader stops there, keeps
/// the code in `marker`, and supplies zero bits from then on. `realBits` counts the bits that
/// came from the file; it goes negative when zero padding was consumed, which is libjpeg-turbo's
/// "insufficient data" condition ("Corrupt JPEG data: premature end of data segment").
///
/// At the end of the available bytes the reader stops; the caller then suspends unless the
/// input is closed, in which case the end acts as the EOI marker libjpeg-turbo's memory source
/// inserts ("Premature end of JPEG file"). A fill always runs to a full accumulator (or a
/// marker) before any of its bits are used, however the input was chunked: see `fill`.
struct EntropyBitReader {
    /// Next byte to read (an index into the scan's bytes; see `MarkerCursor.position`).
    var position: Int
    var accumulator: UInt64 = 0
    var bitCount = 0
    /// Zero bits supplied past a marker or the end of the data and still counted in
    /// `bitCount`'s history: `realBits` = `bitCount` − `paddingBits` counts the bits that
    /// came from the file, without a second count to update on every symbol.
    var paddingBits = 0
    var realBits: Int { bitCount &- paddingBits }
    /// The marker code that ended the data, −1 while none was met.
    var marker = -1
    /// Offset of the 0xFF that started `marker` (the end of the input for a synthetic EOI).
    var markerOffset = 0
    /// True when `marker` is the EOI implied by the end of a closed input.
    var endOfInput = false
    /// libjpeg-turbo's fast path (`decode_mcu_fast`) reads `FF FF` as a marker even where the
    /// run of FFs ends in 00 (which its slow path, like T.81's fill-byte rule, reads as one FF
    /// data byte). With this set, such a run stops the data like a marker and sets
    /// `fastPathMarker`; see `BaselineScan.decodeMCU` for why that matters.
    var fastPathSemantics = false
    var fastPathMarker = false
    /// The scan header itself was completed from libjpeg's end-of-input filler (FF D9 …) and
    /// ended after an FF: the data then starts with the filler's D9, read as a data byte.
    var fillerStartsWithD9 = false

    init(position: Int) { self.position = position }

    /// Tops the accumulator up to more than 56 bits (jdhuff.c `jpeg_fill_bit_buffer`'s
    /// `MIN_GET_BITS`), or to a marker. Returns false when the bytes received so far ran out
    /// first (input still open): the caller must then suspend and retry the MCU later, even if
    /// the bits it needs right now are in. A fill cut short would load fewer bytes than the
    /// same fill over the whole input, so later fills would happen at other points and the
    /// scan would end at another byte — the place the search for the next marker (a restart
    /// or the next segment) starts from, past whatever garbage the accumulator swallowed.
    /// libjpeg's own fill suspends the same way when its source has no more bytes yet.
    /// Bound: every `bytes[i]` read has `i < end ≤ bytes.count`.
    @inline(__always)
    mutating func fill(_ bytes: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Bool {
        // Fast path: with 8 bytes in hand and no 0xFF among them, the loop below would take
        // n = (56 − bitCount) / 8 + 1 plain data bytes one by one; take them as one word.
        // Bound: position + 8 ≤ end ≤ bytes.count for the 8-byte load.
        if marker < 0 && bitCount <= 56 && position + 8 <= end {
            let word = UInt64(bigEndian: UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt64.self))
            let inverted = ~word  // a 0xFF byte of `word` is a zero byte here
            if (inverted &- 0x0101_0101_0101_0101) & word & 0x8080_8080_8080_8080 == 0 {
                let count = (56 - bitCount) / 8 + 1
                // The first `count` bytes, placed right below the bits already held
                // (bitCount + 8 · count is 57…64, so the shift is 0…7).
                accumulator |= (word >> UInt64(64 - 8 * count)) << UInt64(64 - bitCount - 8 * count)
                bitCount += 8 * count
                position += count
                return true
            }
        }
        while bitCount <= 56 {
            if marker >= 0 {
                paddingBits += 64 - bitCount  // zero bits: the accumulator's low bits are already 0
                bitCount = 64
                return true
            }
            guard position < end else {
                if closed && fillerStartsWithD9 {
                    fillerStartsWithD9 = false
                    accumulator |= UInt64(JPEGMarker.eoi) << UInt64(56 - bitCount)
                    bitCount += 8
                    continue
                }
                if closed { endAtInput(end); continue }
                return false
            }
            let byte = bytes[position]
            if byte != 0xFF {
                accumulator |= UInt64(byte) << UInt64(56 - bitCount)
                bitCount += 8
                position += 1
                continue
            }
            var next = position + 1
            while next < end && bytes[next] == 0xFF { next += 1 }
            guard next < end else {
                if closed { endAtInput(end); continue }
                return false
            }
            if bytes[next] == 0 && fastPathSemantics && next > position + 1 {
                marker = 0xFF
                markerOffset = position
                fastPathMarker = true
            } else if bytes[next] == 0 {
                accumulator |= UInt64(0xFF) << UInt64(56 - bitCount)
                bitCount += 8
                position = next + 1
            } else {
                marker = Int(bytes[next])
                markerOffset = position
                position = next + 1
            }
        }
        return true
    }

    private mutating func endAtInput(_ end: Int) {
        marker = Int(JPEGMarker.eoi)
        markerOffset = end
        endOfInput = true
        position = end
    }

    @inline(__always) func peek(_ count: Int) -> Int { Int(truncatingIfNeeded: accumulator >> UInt64(64 - count)) }

    /// `count` ≤ 17 ≤ `bitCount` (the callers ensure the bits first), so the masking shift and
    /// the wrapping subtraction are exact.
    @inline(__always) mutating func consume(_ count: Int) {
        accumulator &<<= UInt64(truncatingIfNeeded: count)
        bitCount &-= count
    }

    /// Drops buffered bits (F.2.1.3.1: a restart marker starts a byte-aligned segment).
    mutating func discardBits() {
        accumulator = 0
        bitCount = 0
        paddingBits = 0
    }
}

/// Huffman decoding on the bit reader (T.81 F.2.2), shared by the sequential and progressive
/// scans (`BaselineScan`) and the lossless ones (`LosslessScan`).
extension EntropyBitReader {
    /// `decodeSymbol`'s answer for a bit string that is no code of ≤ 16 bits.
    static let noCode = -2

    /// At least `count ≤ 17` bits in the accumulator; false means "suspend". A fill that the
    /// end of the bytes so far cut short suspends too (see `fill`), so that every fill loads
    /// what it loads in a one-shot decode; a complete one leaves > 56 bits.
    @inline(__always)
    mutating func ensure(_ count: Int, _ base: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Bool {
        bitCount >= count || fill(base, end: end, closed: closed)
    }

    /// F.2.2.3 DECODE (Figure F.16) with the lookahead table: the symbol, −1 for "suspend", or
    /// `noCode` when no code of ≤ 16 bits matches — libjpeg then consumes 17 bits and decodes 0.
    @inline(__always)
    mutating func decodeSymbol(_ table: HuffmanTable.Pointers, _ base: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Int {
        guard ensure(17, base, end: end, closed: closed) else { return -1 }
        let entry = table.lookup[peek(HuffmanTable.lookaheadBits)]
        if entry != 0 {
            consume(Int(entry >> 8))
            return Int(entry & 0xFF)
        }
        var length = HuffmanTable.lookaheadBits + 1
        while length <= 16 {
            let code = Int32(peek(length))
            if code <= table.maxCode[length] {
                consume(length)
                return Int(table.symbols[Int((code + table.valueOffset[length]) & 0xFF)])
            }
            length += 1
        }
        consume(17)
        return Self.noCode
    }

    /// F.2.2.1 RECEIVE(s) + EXTEND (Figure F.12); nil means "suspend". `1 ≤ s ≤ 16`.
    @inline(__always)
    mutating func receiveExtend(_ s: Int, _ base: UnsafePointer<UInt8>, end: Int, closed: Bool) -> Int? {
        guard ensure(s, base, end: end, closed: closed) else { return nil }
        let bits = peek(s)
        consume(s)
        return bits < 1 << (s - 1) ? bits - (1 << s) + 1 : bits
    }
}
