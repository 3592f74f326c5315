/// GIF89a §17 Header and §18 Logical Screen Descriptor (13 bytes together).
///
/// ```
///   0  "GIF"  signature            6  width  (LE16)      10  packed: G CCC S TTT
///   3  "89a"  version              8  height (LE16)      11  background colour index
///                                                       12  pixel aspect ratio
///   G global colour table flag, CCC colour resolution − 1, S sort flag, TTT size: 2^(TTT+1) entries
/// ```
struct GIFLogicalScreen: Hashable, Sendable {
    static let byteCount = 13

    /// "87a", "89a", or whatever else the file says (giflib checks only "GIF").
    var version: String
    /// 0...65535 each.
    var width: Int
    var height: Int
    /// Entries of the global colour table (2...256), nil when the flag is clear.
    var globalTableEntries: Int?
    /// 1...8.
    var colorResolution: Int
    var sorted: Bool
    var backgroundIndex: Int
    var aspectRatioByte: Int

    /// GIF89a §17 Header, §18 Logical Screen Descriptor. `bytes` holds exactly 13 bytes.
    init(parsing bytes: ArraySlice<UInt8>) throws(GIFError) {
        let b = Array(bytes)
        guard b.count == GIFLogicalScreen.byteCount else { throw .truncated(inside: "the header") }
        // §17: "Signature: Identifies the GIF Data Stream. This field contains the fixed value 'GIF'."
        guard b[0] == 0x47, b[1] == 0x49, b[2] == 0x46 else { throw .badSignature(found: Array(b[0..<6])) }
        version = String(decoding: b[3..<6], as: UTF8.self)
        width = Int(b[6]) | Int(b[7]) << 8
        height = Int(b[8]) | Int(b[9]) << 8
        let packed = b[10]
        globalTableEntries = packed & 0x80 != 0 ? 2 << Int(packed & 0x07) : nil
        colorResolution = Int((packed >> 4) & 0x07) + 1
        sorted = packed & 0x08 != 0
        backgroundIndex = Int(b[11])
        aspectRatioByte = Int(b[12])
    }
}

/// GIF89a §19 Global Color Table / §21 Local Color Table: 3 × 2^(N+1) bytes of R, G, B.
///
/// `rgba` is the table as 256 packed entries for rendering: the file's colours (alpha 255),
/// then opaque black up to 256 — "a palette index beyond the active table draws opaque black"
/// (the table is treated as padded with black, as browsers do; giflib returns the index as is).
struct GIFColorTable: Hashable, Sendable {
    /// R, G, B triples as stored; count is 2...256 entries.
    let rgb: [UInt8]
    var count: Int { rgb.count / 3 }

    init(rgb: [UInt8]) { self.rgb = rgb }

    /// 256 R, G, B, A quadruples, padded with opaque black.
    func paddedRGBA() -> [UInt8] {
        var table = [UInt8](repeating: 0, count: 1024)
        for entry in 0..<256 {
            let base = entry * 3
            if base + 2 < rgb.count {
                table[entry * 4] = rgb[base]
                table[entry * 4 + 1] = rgb[base + 1]
                table[entry * 4 + 2] = rgb[base + 2]
            }
            table[entry * 4 + 3] = 255
        }
        return table
    }

    var palette: Palette? { Palette(rgb: rgb) }
}
