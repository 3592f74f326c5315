/// PNG §5.6 chunk ordering, as a table rather than scattered checks.
///
/// Critical-chunk violations are errors (libpng `png_chunk_error`). Ancillary chunks that are
/// out of place or repeated are ignored with a warning, as libpng does (`png_chunk_benign_error`
/// "out of place" / "duplicate", which is a warning when reading).
struct PNGChunkOrder {
    /// Where an ancillary chunk may appear.
    struct Rule {
        /// Must come before PLTE (and so before IDAT).
        var beforePLTE = false
        /// Must come before the first IDAT.
        var beforeIDAT = false
        /// Must come after PLTE (only checked for indexed images, where PLTE is required).
        var afterPLTE = false
        /// At most one per file.
        var single = true
    }

    static let ancillaryRules: [PNGChunkType: Rule] = [
        .cHRM: Rule(beforePLTE: true, beforeIDAT: true),
        .gAMA: Rule(beforePLTE: true, beforeIDAT: true),
        .iCCP: Rule(beforePLTE: true, beforeIDAT: true),
        .sBIT: Rule(beforePLTE: true, beforeIDAT: true),
        .sRGB: Rule(beforePLTE: true, beforeIDAT: true),
        .cICP: Rule(beforePLTE: true, beforeIDAT: true),
        .mDCV: Rule(beforePLTE: true, beforeIDAT: true),
        .cLLI: Rule(beforePLTE: true, beforeIDAT: true),
        .bKGD: Rule(beforeIDAT: true, afterPLTE: true),
        .hIST: Rule(beforeIDAT: true, afterPLTE: true),
        .tRNS: Rule(beforeIDAT: true, afterPLTE: true),
        .pHYs: Rule(beforeIDAT: true),
        .sPLT: Rule(beforeIDAT: true, single: false),
        .eXIf: Rule(beforeIDAT: false),
        .tIME: Rule(),
        .tEXt: Rule(single: false),
        .zTXt: Rule(single: false),
        .iTXt: Rule(single: false),
        .acTL: Rule(beforeIDAT: true),
    ]

    private(set) var seenPLTE = false
    private(set) var seenIDAT = false
    private var seen: Set<PNGChunkType> = []

    /// Checks an ancillary chunk; returns a warning (and the chunk is to be ignored) when it is
    /// out of place or a duplicate. Records it as seen otherwise.
    mutating func admitAncillary(_ type: PNGChunkType, indexed: Bool) -> String? {
        guard let rule = PNGChunkOrder.ancillaryRules[type] else { return nil }
        if rule.single && seen.contains(type) { return "duplicate \(type) ignored" }
        if rule.beforePLTE && seenPLTE { return "\(type) after PLTE ignored" }
        if rule.beforeIDAT && seenIDAT { return "\(type) after IDAT ignored" }
        if rule.afterPLTE && indexed && !seenPLTE { return "\(type) before PLTE ignored" }
        seen.insert(type)
        return nil
    }

    mutating func notePLTE() { seenPLTE = true }
    mutating func noteIDAT() { seenIDAT = true }
}
