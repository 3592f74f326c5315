/// One of the four transforms of RFC 9649 §3.5, as read from the bitstream, with the width of
/// the image it produces when inverted.
struct VP8LTransform {
    enum Kind {
        /// §3.5.1: 14 predictor modes chosen per block (mode = green & 0xF of the block's pixel).
        case predictor(bits: Int, modes: [UInt32])
        /// §3.5.2: per-block multipliers (green_to_red in blue, green_to_blue in green,
        /// red_to_blue in red).
        case crossColor(bits: Int, multipliers: [UInt32])
        /// §3.5.3.
        case subtractGreen
        /// §3.5.4: a palette of `1 << (8 >> bits)` entries (zeros past the stored colours) and
        /// `8 >> bits` bits per index, `1 << bits` indices packed in each coded pixel's green.
        case colorIndexing(bits: Int, palette: [UInt32])
    }
    var kind: Kind
    /// The image width this transform produces (the `xsize` when it was read).
    var width: Int
}

/// What precedes the pixels of the ARGB image (RFC 9649 §3.4–§3.7): transforms, colour cache
/// and prefix codes.
struct VP8LStreamHeader {
    var transforms: [VP8LTransform] = []
    /// The width of the entropy-coded pixels (smaller than the image after colour indexing with
    /// pixel bundling).
    var codedWidth: Int
    var groups = VP8LCodeGroups()
    var colorCacheBits = 0
}

/// RFC 9649 §3 — the structure of a lossless image stream.
enum VP8LImage {
    /// `DIV_ROUND_UP(size, 1 << bits)` (§3.5.1).
    static func subsampledSize(_ size: Int, _ bits: Int) -> Int {
        (size + (1 << bits) - 1) >> bits
    }

    /// §3.6.2.5: "int color_cache_code_bits = ReadBits(4)" after a 1 bit; 1…11.
    static func readColorCacheBits(_ reader: inout VP8LBitReader) throws(VP8LStop) -> Int {
        guard reader.readBits(1) == 1 else { return 0 }
        let start = reader.bitPosition
        let bits = reader.readBits(4)
        if reader.isExhausted { throw .exhausted }
        guard bits >= 1 && bits <= 11 else { throw .invalid(.colorCacheBits(bits), bitPosition: start) }
        return bits
    }

    /// §3.4 + §3.7 for the ARGB image (role "ARGB image", level 0): the transforms, the colour
    /// cache size and the prefix codes, stopping where the pixels start.
    static func readStreamHeader(_ reader: inout VP8LBitReader, width: Int, height: Int,
                                 limits: DecodeLimits) throws(VP8LStop) -> VP8LStreamHeader {
        var header = VP8LStreamHeader(codedWidth: width)
        var seen = Set<Int>()
        // §3.5: "while (ReadBits(1)) { // Transform present. ... }"
        while reader.readBits(1) == 1 {
            let start = reader.bitPosition
            let type = reader.readBits(2)
            if reader.isExhausted { throw .exhausted }
            guard seen.insert(type).inserted else { throw .invalid(.transformRepeated(type), bitPosition: start) }
            header.transforms.append(try readTransform(&reader, type: type, width: &header.codedWidth, height: height, limits: limits))
        }
        if reader.isExhausted { throw .exhausted }
        header.colorCacheBits = try readColorCacheBits(&reader)
        header.groups = try VP8LCodeGroups.read(&reader, width: header.codedWidth, height: height,
                                                colorCacheBits: header.colorCacheBits, allowMeta: true, limits: limits)
        return header
    }

    /// §3.5 — one transform. Transform types: 0 predictor, 1 colour (cross-colour), 2 subtract
    /// green, 3 colour indexing. `width` is the current image width, reduced by colour indexing.
    private static func readTransform(_ reader: inout VP8LBitReader, type: Int, width: inout Int, height: Int,
                                      limits: DecodeLimits) throws(VP8LStop) -> VP8LTransform {
        let outputWidth = width
        switch type {
        case 0, 1:
            // §3.5.1 / §3.5.2: "int size_bits = ReadBits(3) + 2;" then the sub-image.
            let bits = reader.readBits(3) + 2
            let data = try decodeSubImage(&reader, width: subsampledSize(width, bits), height: subsampledSize(height, bits), limits: limits)
            return VP8LTransform(kind: type == 0 ? .predictor(bits: bits, modes: data) : .crossColor(bits: bits, multipliers: data),
                                 width: outputWidth)
        case 2:
            return VP8LTransform(kind: .subtractGreen, width: outputWidth)
        default:
            // §3.5.4: "int color_table_size = ReadBits(8) + 1;", the table as a
            // color_table_size × 1 image, each entry stored as the difference from the previous.
            let colorCount = reader.readBits(8) + 1
            let bits = colorCount > 16 ? 0 : colorCount > 4 ? 1 : colorCount > 2 ? 2 : 3
            let stored = try decodeSubImage(&reader, width: colorCount, height: 1, limits: limits)
            var palette = [UInt32](repeating: 0, count: 1 << (8 >> bits))
            var previous: UInt32 = 0
            for (i, delta) in stored.enumerated() {
                previous = VP8LTransformKernels.addPixels(previous, delta)
                palette[i] = previous
            }
            width = subsampledSize(width, bits)
            return VP8LTransform(kind: .colorIndexing(bits: bits, palette: palette), width: outputWidth)
        }
    }

    /// §3.6.1 roles other than the ARGB image (transform data, entropy image, palette): no
    /// transforms, an optional colour cache, one prefix code group, then the pixels.
    static func decodeSubImage(_ reader: inout VP8LBitReader, width: Int, height: Int,
                               limits: DecodeLimits) throws(VP8LStop) -> [UInt32] {
        let start = reader.bitPosition
        let cacheBits = try readColorCacheBits(&reader)
        let groups = try VP8LCodeGroups.read(&reader, width: width, height: height, colorCacheBits: cacheBits,
                                             allowMeta: false, limits: limits)
        do {
            _ = try SizeMath.checkImage(width: width, height: height, bytesPerPixel: 4, limits: limits, format: .webp, offset: nil)
        } catch {
            throw .invalid(.invalidPrefixCode("sub-image of \(width)×\(height) exceeds the limits"), bitPosition: start)
        }
        var pixels = [UInt32](repeating: 0, count: width * height)
        var cursor = VP8LPixelCursor(reader: reader, cacheBits: cacheBits)
        switch VP8LPixelKernels.decode(&cursor, bytes: reader.bytes, end: reader.end, groups: groups,
                                       width: width, height: height, pixels: &pixels, target: width * height) {
        case .reachedTarget:
            break
        case .exhausted:
            throw .exhausted
        case .badReference(let position, let distance, let length):
            throw .invalid(.backwardReference(position: position, distance: distance, length: length), bitPosition: cursor.next * 8)
        }
        reader = cursor.reader(over: reader.bytes, end: reader.end)
        return pixels
    }
}
