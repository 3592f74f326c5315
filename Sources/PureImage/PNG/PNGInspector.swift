/// What the PNG decoder records for `pureimage inspect` (`StructureLog`): each chunk (PNG §5.3
/// layout: length, type, data, CRC) at its offset with its CRC status and the decoded fields
/// of the chunks that matter for decoding.
enum PNGInspector {
    static func crcStatus(stored: UInt32, computed: UInt32) -> String {
        stored == computed ? "crc ok" : "CRC BAD (stored \(hex32(stored)), computed \(hex32(computed)))"
    }

    /// The fields of a chunk's data `d`; `colorType` is the IHDR's (tRNS depends on it).
    static func describe(_ type: PNGChunkType, _ d: [UInt8], colorType: UInt8?) -> String {
        func u32(_ at: Int) -> UInt32 { UInt32(d[at]) << 24 | UInt32(d[at + 1]) << 16 | UInt32(d[at + 2]) << 8 | UInt32(d[at + 3]) }
        func u16(_ at: Int) -> UInt16 { UInt16(d[at]) << 8 | UInt16(d[at + 1]) }
        switch type {
        case .IHDR where d.count == 13:
            return "width=\(u32(0)) height=\(u32(4)) depth=\(d[8]) colour=\(d[9]) compression=\(d[10]) filter=\(d[11]) interlace=\(d[12])"
        case .PLTE:
            return "\(d.count / 3) entries" + (d.count % 3 == 0 ? "" : " (length not a multiple of 3)")
        case .tRNS:
            switch colorType {
            case 0 where d.count == 2: return "gray key \(u16(0))"
            case 2 where d.count == 6: return "rgb key \(u16(0)),\(u16(2)),\(u16(4))"
            case 3: return "\(d.count) palette alphas"
            default: return "\(d.count) bytes"
            }
        case .gAMA where d.count == 4: return "gamma \(Double(u32(0)) / 100000)"
        case .sRGB where d.count == 1: return "intent \(d[0])"
        case .pHYs where d.count == 9: return "\(u32(0))x\(u32(4)) unit \(d[8])"
        case .acTL where d.count == 8: return "frames=\(u32(0)) plays=\(u32(4))"
        case .fcTL where d.count == 26:
            return "seq=\(u32(0)) \(u32(4))x\(u32(8)) at (\(u32(12)),\(u32(16))) delay=\(u16(20))/\(u16(22)) dispose=\(d[24]) blend=\(d[25])"
        case .fdAT where d.count >= 4: return "seq=\(u32(0))"
        case .tEXt, .zTXt, .iTXt, .iCCP:
            if let nul = d.firstIndex(of: 0) { return "keyword \"\(PNGMetadata.latin1(d[0..<nul]))\"" }
            return ""
        default: return ""
        }
    }
}
