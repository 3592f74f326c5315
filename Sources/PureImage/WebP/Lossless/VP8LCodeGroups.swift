/// RFC 9649 §3.7.2.2 — the prefix code groups of one image stream, and which group codes which
/// pixel (the meta prefix codes: an "entropy image" of group indices, one per block).
///
/// Every group holds five codes, in bitstream order: green + length + cache (alphabet 256 + 24
/// + cache size), red, blue, alpha (256 each) and distance (40). All tables live in one array;
/// `offsets[5 * group + k]` is where code k of the group starts.
struct VP8LCodeGroups {
    static let lengthCodes = 24
    static let distanceCodes = 40

    var tables: [UInt32] = []
    var offsets: [Int] = []
    /// Per group: the four literal codes each have a single symbol, so a literal reads no bits
    /// and is `trivialLiteral` (green included).
    var trivialLiteral: [UInt32?] = []
    /// Group index per entropy-image pixel (already remapped to stored groups); nil when one
    /// group codes the whole image.
    var entropyImage: [UInt16]?
    var entropyBits = 0
    var entropyWidth = 0
    var colorCacheBits = 0

    var groupCount: Int { offsets.count / 5 }

    /// §3.7.2.2 "Decoding of Meta Prefix Codes", then §3.7.2.1 for every group.
    /// `allowMeta` is true only for the ARGB image itself (role "ARGB image", level 0).
    static func read(_ reader: inout VP8LBitReader, width: Int, height: Int, colorCacheBits: Int,
                     allowMeta: Bool, limits: DecodeLimits) throws(VP8LStop) -> VP8LCodeGroups {
        var groups = VP8LCodeGroups()
        groups.colorCacheBits = colorCacheBits
        var groupCount = 1
        var storedIndex: [Int] = [0]   // declared group -> stored group, -1 when no pixel uses it
        if allowMeta && reader.readBits(1) == 1 {
            let start = reader.bitPosition
            let bits = reader.readBits(3) + 2
            let entropyWidth = VP8LImage.subsampledSize(width, bits)
            let entropyHeight = VP8LImage.subsampledSize(height, bits)
            let image = try VP8LImage.decodeSubImage(&reader, width: entropyWidth, height: entropyHeight, limits: limits)
            var declared = [UInt16](repeating: 0, count: image.count)
            var largest = 0
            for (i, pixel) in image.enumerated() {
                let group = Int((pixel >> 8) & 0xFFFF)
                declared[i] = UInt16(group)
                largest = max(largest, group)
            }
            groupCount = largest + 1
            // Only groups some block uses get tables (libwebp does the same); the others are
            // still read and checked.
            // Stored groups keep their declared order (tables are appended as groups are read).
            var used = [Bool](repeating: false, count: groupCount)
            for group in declared { used[Int(group)] = true }
            storedIndex = [Int](repeating: -1, count: groupCount)
            var stored = 0
            for group in 0..<groupCount where used[group] {
                storedIndex[group] = stored
                stored += 1
            }
            for i in declared.indices { declared[i] = UInt16(storedIndex[Int(declared[i])]) }
            // A group's tables take at most about 5 000 entries of 4 bytes.
            do {
                _ = try SizeMath.allocationSize(stored, 5_000, 4, limits: limits, format: .webp, offset: nil)
            } catch {
                throw .invalid(.invalidPrefixCode("\(stored) prefix code groups exceed the allocation limit"), bitPosition: start)
            }
            groups.entropyImage = declared
            groups.entropyBits = bits
            groups.entropyWidth = entropyWidth
        }
        let cacheSize = colorCacheBits > 0 ? 1 << colorCacheBits : 0
        let alphabets = [256 + lengthCodes + cacheSize, 256, 256, 256, distanceCodes]
        let names = ["green", "red", "blue", "alpha", "distance"]
        for group in 0..<groupCount {
            var codes: [VP8LPrefixCode] = []
            for k in 0..<5 {
                codes.append(try VP8LCodeLengths.readCode(&reader, alphabetSize: alphabets[k], what: names[k]))
            }
            guard storedIndex[group] >= 0 else { continue }
            for code in codes {
                groups.offsets.append(groups.tables.count)
                groups.tables.append(contentsOf: code.table)
            }
            if let g = codes[0].singleSymbol, g < 256, let r = codes[1].singleSymbol,
               let b = codes[2].singleSymbol, let a = codes[3].singleSymbol {
                groups.trivialLiteral.append(UInt32(a) << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b))
            } else {
                groups.trivialLiteral.append(nil)
            }
        }
        return groups
    }
}
