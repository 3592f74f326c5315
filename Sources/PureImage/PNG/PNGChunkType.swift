/// A chunk type: four bytes restricted to ASCII letters (PNG §5.3), whose case bits carry the
/// chunk's properties (§5.4).
struct PNGChunkType: Hashable, CustomStringConvertible {
    let bytes: (UInt8, UInt8, UInt8, UInt8)
    let code: UInt32

    init(code: UInt32) {
        self.code = code
        bytes = (UInt8(code >> 24), UInt8((code >> 16) & 0xFF), UInt8((code >> 8) & 0xFF), UInt8(code & 0xFF))
    }

    init(_ name: StaticString) {
        precondition(name.utf8CodeUnitCount == 4)
        let p = name.utf8Start
        self.init(code: UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3]))
    }

    static func == (a: PNGChunkType, b: PNGChunkType) -> Bool { a.code == b.code }
    func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// §5.3: each byte is A–Z (65–90) or a–z (97–122).
    var isValid: Bool {
        [bytes.0, bytes.1, bytes.2, bytes.3].allSatisfy { (65...90).contains($0) || (97...122).contains($0) }
    }

    /// §5.4: bit 5 of the first byte clear means critical.
    var isCritical: Bool { bytes.0 & 0x20 == 0 }

    var description: String {
        String(decoding: [bytes.0, bytes.1, bytes.2, bytes.3], as: UTF8.self)
    }

    static let IHDR = PNGChunkType("IHDR"), PLTE = PNGChunkType("PLTE"), IDAT = PNGChunkType("IDAT")
    static let IEND = PNGChunkType("IEND"), tRNS = PNGChunkType("tRNS"), gAMA = PNGChunkType("gAMA")
    static let cHRM = PNGChunkType("cHRM"), sRGB = PNGChunkType("sRGB"), iCCP = PNGChunkType("iCCP")
    static let sBIT = PNGChunkType("sBIT"), bKGD = PNGChunkType("bKGD"), pHYs = PNGChunkType("pHYs")
    static let tIME = PNGChunkType("tIME"), tEXt = PNGChunkType("tEXt"), zTXt = PNGChunkType("zTXt")
    static let iTXt = PNGChunkType("iTXt"), eXIf = PNGChunkType("eXIf"), hIST = PNGChunkType("hIST")
    static let sPLT = PNGChunkType("sPLT"), cICP = PNGChunkType("cICP"), mDCV = PNGChunkType("mDCV")
    static let cLLI = PNGChunkType("cLLI"), acTL = PNGChunkType("acTL"), fcTL = PNGChunkType("fcTL")
    static let fdAT = PNGChunkType("fdAT")
}
