/// GIF89a §20 Image Descriptor (9 bytes after the 0x2C Image Separator).
///
/// ```
///   0 left (LE16)   2 top (LE16)   4 width (LE16)   6 height (LE16)
///   8 packed: L I S RR TTT — L local table flag, I interlace, S sort, RR reserved,
///             TTT local table size: 2^(TTT+1) entries
/// ```
struct GIFImageDescriptor: Hashable, Sendable {
    static let byteCount = 9

    /// 0...65535 each; the rectangle may reach past the logical screen (it is clipped when drawn).
    var left: Int
    var top: Int
    var width: Int
    var height: Int
    var interlaced: Bool
    /// Entries of the local colour table (2...256), nil when the flag is clear.
    var localTableEntries: Int?
    var sorted: Bool
    /// Offset of the 0x2C separator.
    var offset: Int

    /// GIF89a §20 Image Descriptor. `bytes` holds exactly 9 bytes; nothing in them can be
    /// invalid (every value of every field has a meaning).
    /// Zero width or zero height: the frame covers no pixel.
    var isEmpty: Bool { width == 0 || height == 0 }

    init(parsing bytes: ArraySlice<UInt8>, separatorOffset: Int) {
        let b = Array(bytes)
        func le16(_ at: Int) -> Int { at + 1 < b.count ? Int(b[at]) | Int(b[at + 1]) << 8 : 0 }
        left = le16(0)
        top = le16(2)
        width = le16(4)
        height = le16(6)
        let packed = b.count > 8 ? b[8] : 0
        localTableEntries = packed & 0x80 != 0 ? 2 << Int(packed & 0x07) : nil
        interlaced = packed & 0x40 != 0
        sorted = packed & 0x20 != 0
        offset = separatorOffset
    }

    init(left: Int, top: Int, width: Int, height: Int, interlaced: Bool, offset: Int = 0) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.interlaced = interlaced
        self.localTableEntries = nil
        self.sorted = false
        self.offset = offset
    }
}

/// GIF89a Appendix E Interlaced Images: rows are stored in four passes.
///
/// | pass | first row | every |
/// |------|-----------|-------|
/// | 1    | 0         | 8     |
/// | 2    | 4         | 8     |
/// | 3    | 2         | 4     |
/// | 4    | 1         | 2     |
enum GIFInterlace {
    static let passes: [(start: Int, step: Int)] = [(0, 8), (4, 8), (2, 4), (1, 2)]

    /// Display row of each stored row, for a frame `height` rows tall: `map[stored] = display`.
    static func displayRows(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<max(0, height)) }
        var rows: [Int] = []
        rows.reserveCapacity(max(0, height))
        for pass in passes where pass.start < height {
            rows.append(contentsOf: stride(from: pass.start, to: height, by: pass.step))
        }
        return rows
    }
}
