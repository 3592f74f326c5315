/// Variable-width LZW decoding (GIF89a Appendix F; TIFF 6.0 §13 uses the same dictionary).
///
/// ## Bit packing
/// GIF packs codes least significant bit first: the first code occupies the low bits of the
/// first byte and continues into the low bits of the next. With 3-bit codes a, b and a 4-bit c:
///
/// ```
///   bit:    7  6  5  4  3  2  1  0        7  6  5  4  3  2  1  0
///   byte 0: c1 c0 b2 b1 b0 a2 a1 a0       byte 1: …  …  …  …  …  …  c3 c2
/// ```
/// TIFF packs them most significant bit first (a2 a1 a0 b2 … in byte 0) and widens one code
/// *early* ("early change"). The kernel (`LZWKernel.swift`) is generic over an `LZWCodeReader`
/// (the bit order) and takes the early-change offset as a number, so the TIFF variant is a
/// second `Variant` case plus an MSB-first reader; the dictionary and copy logic are shared.
///
/// ## The dictionary without per-code allocation
/// The decoder writes into one output buffer that holds everything decoded so far, so every
/// dictionary string already appears verbatim in that buffer: an entry is just `(start,
/// length)` into the output, and emitting a code is a copy from earlier output (the LZ77 view of
/// LZW). Entry k+1 is "the previous code's string plus the first byte of the current one", which
/// is exactly the output starting where the previous code's string started, one byte longer.
///
/// ## Code width (GIF)
/// After a clear code the width is `minimumCodeSize + 1`. After each code that is not clear or
/// end, the width grows by one when the next free slot reaches `1 << width`, up to 12 bits.
/// A full table (4096 entries) adds nothing more and keeps reading 12-bit codes until a clear
/// code arrives (GIF89a Appendix F: the "deferred clear"; giflib does the same).
/// The first code after clear defines nothing, but is counted like giflib's `RunningCode`, so for
/// minimum code sizes 0 and 1 (which giflib accepts although the spec says ≥ 2) the width grows
/// right after it exactly as in giflib.
struct LZWDecoder {
    enum Variant: Sendable {
        /// GIF: LSB-first packing, no early change.
        case gif
        /// TIFF: MSB-first packing, the width grows one code early (minimum code size 8).
        case tiff
    }

    /// Why `decode` returned.
    enum Stop: Equatable, Sendable {
        /// `output` is full: every pixel asked for was produced (any further codes are ignored).
        case outputFull
        /// The end-of-information code was read; `output` may not be full.
        case endCode
        /// All input was consumed without the end code and before `output` was full; more
        /// input may be passed to a later call.
        case needMoreInput
        /// A code above the next free dictionary slot (or a non-literal first code after a
        /// clear); decoding cannot go on. Bytes already produced stay valid.
        case invalidCode(Int)
        /// `decode(_:into:pausingAt:)` only: the output reached the pause position; decoding
        /// goes on after the window is slid (`slide`), from the input not yet consumed.
        case paused
    }

    static let maxCodeWidth = 12
    static let tableSize = 1 << maxCodeWidth

    let variant: Variant
    let minimumCodeSize: Int
    let clearCode: Int
    let endCode: Int

    // The resumable state (all of it): the bit accumulator, the dictionary, the previous code.
    // `written` and `dictionary` are updated by the kernel in LZWKernel.swift only.
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0
    /// Bytes of output produced so far (the kernel's write position).
    var written = 0
    private(set) var stopped: Stop?
    var dictionary: LZWDictionary

    /// `minimumCodeSize` 0...11, validated by the caller (GIF89a §22 says 2...8; giflib accepts
    /// 0...8, Chromium and Firefox 0...11). Literal codes above 255 (sizes 9–11) decode to their
    /// low byte, as in Chromium and Firefox, whose literal table is bytes.
    init(variant: Variant, minimumCodeSize: Int) {
        precondition((0...11).contains(minimumCodeSize), "caller validates the minimum code size")
        self.variant = variant
        self.minimumCodeSize = minimumCodeSize
        clearCode = 1 << minimumCodeSize
        endCode = clearCode + 1
        dictionary = LZWDictionary(minimumCodeSize: minimumCodeSize)
    }

    /// Makes the decoder ready for a new stream, exactly as a new one would be, keeping the
    /// table's 32 KiB: the state after a clear code, at output position 0. The entries from
    /// `nextFree` on still hold an earlier stream's strings, as they do after any clear code,
    /// and the kernel never uses an entry at or above `nextFree` (each is defined first).
    /// TIFF decodes a page's strips on one decoder: a page of one-row strips allocated and
    /// cleared a table per row.
    mutating func restart() {
        bitBuffer = 0
        bitCount = 0
        written = 0
        stopped = nil
        dictionary.restart(minimumCodeSize: minimumCodeSize)
    }

    /// Decodes codes from `input` into `output[written...]` until the output is full, the end
    /// code, an invalid code, or the end of `input`. May be called again with further input
    /// (the codes continue across calls, bit for bit); `output` must be the same buffer each
    /// time, because dictionary strings are copied from earlier output.
    /// Input bytes are always consumed whole (bits left over stay in the accumulator).
    @discardableResult
    mutating func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>) -> Stop {
        decode(input, into: output, pausingAt: output.count).stop
    }

    /// `decode(_:into:)` that also stops, as `.paused`, once `written` reaches `pausingAt`
    /// (≤ `output.count`) — the streaming decode of a window of the output (`slide`). A pause
    /// leaves input unconsumed: `consumed` is how many bytes of `input` were taken (into the
    /// output or the bit accumulator); the next call passes the rest. Every other stop
    /// consumes `input` whole, as `decode(_:into:)` does.
    mutating func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>,
                         pausingAt: Int) -> (stop: Stop, consumed: Int) {
        if let stopped { return (stopped, input.count) }
        let result: (stop: Stop, consumed: Int)
        switch variant {
        case .gif:
            var reader = LSBFirstCodeReader(accumulator: bitBuffer, count: bitCount)
            result = run(&reader, earlyChange: 0, input, into: output, pauseAt: min(pausingAt, output.count))
            bitBuffer = reader.accumulator
            bitCount = reader.count
        case .tiff:
            var reader = MSBFirstCodeReader(accumulator: bitBuffer, count: bitCount)
            result = run(&reader, earlyChange: 1, input, into: output, pauseAt: min(pausingAt, output.count))
            bitBuffer = reader.accumulator
            bitCount = reader.count
        }
        switch result.stop {
        case .needMoreInput, .paused: return result
        case .outputFull, .endCode, .invalidCode:
            stopped = result.stop
            return (result.stop, input.count)
        }
    }
}

/// The LZW dictionary as `(start, length)` pairs into the decoder's output (see `LZWDecoder`),
/// one 64-bit entry per code: `start << 16 | length` (a string is at most 4 096 bytes, so the
/// length fits 16 bits; the start is an output index). One load per code, 32 KiB of table.
///
/// Every code has an entry, so the kernel treats all codes alike: a literal is a string of
/// length 1 (its bytes come from `LZWDictionary.literals`, not the output), and the clear and
/// end codes have length 0 (the one test that sends them to the slow path).
struct LZWDictionary {
    private var entries: [UInt64]
    /// Current code width in bits, `minimumCodeSize + 1 ... 12`.
    var width: Int
    /// The next slot to define, `endCode + 1 ... 4096`.
    var nextFree: Int
    /// Where the previous code's string starts in the output, and its length; 0 when there is
    /// no previous code (at the start and after a clear code: the next code defines nothing).
    var previousStart = 0
    var previousLength = 0

    init(minimumCodeSize: Int) {
        let literalCount = 1 << minimumCodeSize
        entries = [UInt64](repeating: 0, count: LZWDecoder.tableSize)
        for code in 0 ..< literalCount { entries[code] = Self.entry(start: 0, length: 1) }
        width = minimumCodeSize + 1
        nextFree = literalCount + 2
    }

    /// The state after a clear code (see `LZWDecoder.restart`).
    mutating func restart(minimumCodeSize: Int) {
        width = minimumCodeSize + 1
        nextFree = (1 << minimumCodeSize) + 2
        previousStart = 0
        previousLength = 0
    }

    /// Packs one entry.
    @inline(__always)
    static func entry(start: Int, length: Int) -> UInt64 {
        UInt64(truncatingIfNeeded: start) &<< 16 | UInt64(truncatingIfNeeded: length) & 0xFFFF
    }

    /// Each literal code's string as an 8-byte word whose first byte in memory is the code's low
    /// byte (the rest zero): what the kernel's 8-byte copy stores for a literal. Codes below the
    /// clear code are at most 2^11 − 1 (minimum code size ≤ 11); literals above 255 decode to
    /// their low byte, as in Chromium and Firefox.
    static let literals: [UInt64] = (0 ..< 2048).map { UInt64($0 & 0xFF).littleEndian }

    /// Runs `body` with the table as an unsafe buffer of `LZWDecoder.tableSize` entries.
    mutating func withTable<R>(_ body: (UnsafeMutableBufferPointer<UInt64>) -> R) -> R {
        entries.withUnsafeMutableBufferPointer { body($0) }
    }

    /// The strings of the codes defined since the last clear (`endCode + 1 ..< nextFree`), as
    /// (code, start, length) — what `LZWDecoder.slide` must keep.
    func definedStrings(endCode: Int) -> [(code: Int, start: Int, length: Int)] {
        guard nextFree > endCode + 1 else { return [] }
        return (endCode + 1 ..< min(nextFree, entries.count)).map { code in
            (code, Int(entries[code] >> 16), Int(entries[code] & 0xFFFF))
        }
    }

    /// Points `code` (a defined code) at a string that now starts at `start`.
    mutating func move(_ code: Int, to start: Int) {
        entries[code] = Self.entry(start: start, length: Int(entries[code] & 0xFFFF))
    }

    /// Entries from `nextFree` on are left over from before the last clear and are redefined
    /// before any code reads them; `slide` empties them so that no entry points at dropped output.
    mutating func forgetUndefined() {
        for code in max(0, nextFree) ..< entries.count { entries[code] = 0 }
    }

    /// The dictionary's invariants, for tests (STYLE.md §19): the width and next free slot are in
    /// range, every literal has length 1, the clear and end codes length 0, and every entry
    /// defined since the last clear lies inside the first `written` output bytes, so copying it
    /// reads only decoded pixels.
    func invariantsHold(written: Int, endCode: Int) -> Bool {
        guard width >= 1, width <= LZWDecoder.maxCodeWidth, nextFree > endCode, nextFree <= LZWDecoder.tableSize else { return false }
        for code in 0 ..< endCode - 1 where entries[code] & 0xFFFF != 1 { return false }
        guard entries[endCode - 1] & 0xFFFF == 0, entries[endCode] & 0xFFFF == 0 else { return false }
        for code in endCode + 1 ..< nextFree {
            let start = Int(entries[code] >> 16), length = Int(entries[code] & 0xFFFF)
            if length < 1 || start + length > written { return false }
        }
        return true
    }
}
