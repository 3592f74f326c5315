/// RFC 9649 §3.7.2.1 — a canonical prefix code built from code lengths, as a two-level lookup
/// table for an LSB-first reader.
///
/// Canonical codes (§3.7.2.1, "the same as DEFLATE"): symbols are ordered by code length, then
/// by symbol value; the first code of each length is the previous length's last code plus one,
/// shifted left. Code bits are stored most significant first, so a reader that takes bits least
/// significant first indexes the table with the code bit-reversed.
///
/// Table entries are `symbol << 16 | length`. The root table has `1 << rootBits` entries; a code
/// longer than `rootBits` puts a link in its root slot instead: `offset << 16 | (rootBits +
/// subBits)`, pointing at a sub-table of `1 << subBits` entries (relative to the table start)
/// indexed by the bits after the first `rootBits`, whose entries hold the remaining length.
///
/// Validity is libwebp's (`VP8LBuildHuffmanTable`): lengths must form a complete code — the
/// Kraft sum is exactly 1 — except that exactly one symbol with a non-zero length is a code of
/// zero bits (nothing is read for it). No symbol at all, or an over- or under-full code, is an
/// error.
struct VP8LPrefixCode {
    static let rootBits = 8
    static let rootMask: UInt32 = (1 << 8) - 1
    static let maxLength = 15

    /// Root table followed by the sub-tables.
    private(set) var table: [UInt32]
    /// The symbol when the code has a single symbol (read with zero bits).
    private(set) var singleSymbol: Int?
    /// The longest code length (0 for a single-symbol code).
    private(set) var longest: Int

    /// Builds the code for `lengths` (index = symbol). Returns nil when the lengths are not a
    /// valid code.
    init?(lengths: [UInt8]) {
        let rootBits = Self.rootBits
        var countPerLength = [Int](repeating: 0, count: Self.maxLength + 1)
        var symbolCount = 0
        var lastSymbol = 0
        for (symbol, length) in lengths.enumerated() where length > 0 {
            guard Int(length) <= Self.maxLength else { return nil }
            countPerLength[Int(length)] += 1
            symbolCount += 1
            lastSymbol = symbol
        }
        guard symbolCount > 0 else { return nil }
        if symbolCount == 1 {
            // Zero bits per symbol: every root entry decodes to it with length 0.
            singleSymbol = lastSymbol
            longest = 0
            table = [UInt32](repeating: UInt32(lastSymbol) << 16, count: 1 << rootBits)
            return
        }
        // Kraft: the code is complete when the lengths use up exactly the whole code space.
        var open = 1
        for length in 1...Self.maxLength {
            open = open * 2 - countPerLength[length]
            if open < 0 { return nil }
        }
        guard open == 0 else { return nil }

        // First canonical code of each length.
        var nextCode = [Int](repeating: 0, count: Self.maxLength + 1)
        var code = 0
        for length in 1...Self.maxLength {
            nextCode[length] = code
            code = (code + countPerLength[length]) << 1
        }

        // Each symbol's code, bit-reversed for LSB-first reading.
        var reversedCodes = [Int](repeating: 0, count: lengths.count)
        var maxLength = 0
        for (symbol, length) in lengths.enumerated() where length > 0 {
            let l = Int(length)
            reversedCodes[symbol] = Self.reverse(nextCode[l], bits: l)
            nextCode[l] += 1
            maxLength = max(maxLength, l)
        }
        longest = maxLength
        singleSymbol = nil

        // Sub-table size per root slot: enough bits for the longest code through that slot.
        let rootSize = 1 << rootBits
        var subBits = [Int](repeating: 0, count: rootSize)
        for (symbol, length) in lengths.enumerated() where Int(length) > rootBits {
            let slot = reversedCodes[symbol] & (rootSize - 1)
            subBits[slot] = max(subBits[slot], Int(length) - rootBits)
        }
        var entries = [UInt32](repeating: 0, count: rootSize)
        var subOffset = [Int](repeating: 0, count: rootSize)
        for slot in 0..<rootSize where subBits[slot] > 0 {
            subOffset[slot] = entries.count
            entries[slot] = UInt32(entries.count) << 16 | UInt32(rootBits + subBits[slot])
            entries.append(contentsOf: repeatElement(0, count: 1 << subBits[slot]))
        }
        for (symbol, length) in lengths.enumerated() where length > 0 {
            let l = Int(length)
            let reversed = reversedCodes[symbol]
            if l <= rootBits {
                // Replicate over every root index whose low `l` bits are the code.
                var index = reversed
                while index < rootSize {
                    entries[index] = UInt32(symbol) << 16 | UInt32(l)
                    index += 1 << l
                }
            } else {
                let slot = reversed & (rootSize - 1)
                let size = 1 << subBits[slot]
                var index = reversed >> rootBits
                let step = 1 << (l - rootBits)
                while index < size {
                    entries[subOffset[slot] + index] = UInt32(symbol) << 16 | UInt32(l - rootBits)
                    index += step
                }
            }
        }
        table = entries
    }

    private static func reverse(_ value: Int, bits: Int) -> Int {
        var result = 0
        var v = value
        for _ in 0..<bits {
            result = result << 1 | (v & 1)
            v >>= 1
        }
        return result
    }
}
