/// The state of an entropy-coded image while its pixels are being decoded (RFC 9649 §3.7.2.3):
/// where the bits are, how many pixels are done, and the colour cache.
struct VP8LPixelCursor {
    /// Bit reader state (see `VP8LBitReader`): next byte, window, valid bits.
    var next: Int
    var window: UInt64
    var count: Int
    /// Pixels decoded so far (the next pixel's index, row-major).
    var position = 0
    /// RFC 9649 §3.6.2.5 colour cache: `1 << bits` ARGB entries, all zero at the start.
    var cache: [UInt32]
    var cacheBits: Int

    init(reader: VP8LBitReader, cacheBits: Int) {
        next = reader.next
        window = reader.window
        count = reader.count
        self.cacheBits = cacheBits
        cache = [UInt32](repeating: 0, count: cacheBits > 0 ? 1 << cacheBits : 0)
    }

    func reader(over bytes: [UInt8], end: Int) -> VP8LBitReader {
        var reader = VP8LBitReader(bytes, start: next, end: end)
        reader.window = window
        reader.count = count
        return reader
    }
}

/// Why `VP8LPixelKernels.decode` returned.
enum VP8LPixelResult: Equatable {
    /// `position` reached the target (or the end of the image).
    case reachedTarget
    /// The bits ran out: the pixels before `cursor.position` are valid, its bit state is not.
    case exhausted
    /// A backward reference outside the image.
    case badReference(position: Int, distance: Int, length: Int)
}

/// RFC 9649 §3.7.2.3 — "Decoding of Entropy-Coded Image Data": the pixel loop.
///
/// Each symbol of the group's green code is a literal (< 256: then red, blue and alpha follow),
/// a backward reference (256 …< 280: a length prefix, then a distance symbol; §3.6.2.2) or a
/// colour cache index (≥ 280). Every produced pixel is inserted into the colour cache, in
/// order (§3.6.2.5).
///
/// Unsafe for speed. Bounds: table indices come from tables built by `VP8LPrefixCode` (a root
/// index is at most 255, a sub-table index below the sub-table's size, both by construction);
/// group offsets and entropy-image indices are below their arrays' counts by construction
/// (x < width, y < height); every pixel write is at `position < total`, a copy is checked to
/// stay inside `0 ..< total` before it runs; cache indices are below `1 << cacheBits` (symbol −
/// 280 < cache size by the alphabet, hashes by the shift); byte reads stay below `end` (the
/// 8-byte load only when `next + 8 ≤ end`).
enum VP8LPixelKernels {
    /// RFC 9649 §3.6.2.2 distance map: codes 1…120 as (xi, yi), dist = xi + yi × width.
    static let distanceMap: [(Int8, Int8)] = [
        (0, 1), (1, 0), (1, 1), (-1, 1), (0, 2), (2, 0), (1, 2), (-1, 2),
        (2, 1), (-2, 1), (2, 2), (-2, 2), (0, 3), (3, 0), (1, 3), (-1, 3),
        (3, 1), (-3, 1), (2, 3), (-2, 3), (3, 2), (-3, 2), (0, 4), (4, 0),
        (1, 4), (-1, 4), (4, 1), (-4, 1), (3, 3), (-3, 3), (2, 4), (-2, 4),
        (4, 2), (-4, 2), (0, 5), (3, 4), (-3, 4), (4, 3), (-4, 3), (5, 0),
        (1, 5), (-1, 5), (5, 1), (-5, 1), (2, 5), (-2, 5), (5, 2), (-5, 2),
        (4, 4), (-4, 4), (3, 5), (-3, 5), (5, 3), (-5, 3), (0, 6), (6, 0),
        (1, 6), (-1, 6), (6, 1), (-6, 1), (2, 6), (-2, 6), (6, 2), (-6, 2),
        (4, 5), (-4, 5), (5, 4), (-5, 4), (3, 6), (-3, 6), (6, 3), (-6, 3),
        (0, 7), (7, 0), (1, 7), (-1, 7), (5, 5), (-5, 5), (7, 1), (-7, 1),
        (4, 6), (-4, 6), (6, 4), (-6, 4), (2, 7), (-2, 7), (7, 2), (-7, 2),
        (3, 7), (-3, 7), (7, 3), (-7, 3), (5, 6), (-5, 6), (6, 5), (-6, 5),
        (8, 0), (4, 7), (-4, 7), (7, 4), (-7, 4), (8, 1), (8, 2), (6, 6),
        (-6, 6), (8, 3), (5, 7), (-5, 7), (7, 5), (-7, 5), (8, 4), (6, 7),
        (-6, 7), (7, 6), (-7, 6), (8, 5), (7, 7), (-7, 7), (8, 6), (8, 7),
    ]

    /// The bit reader of the pixel loop: `VP8LBitReader`'s state over a raw pointer, in a local
    /// struct so that every access is statically exclusive (closures capturing the state as
    /// variables would make Swift check exclusivity at run time on every bit read).
    struct FastReader {
        let input: UnsafeBufferPointer<UInt8>
        let end: Int
        var next: Int
        var window: UInt64
        var count: Int
        var exhausted = false

        /// Tops the window up to at least 56 bits. With 8 bytes left it loads them as one
        /// little-endian word: the whole bytes that fit are counted, and the bits of the next,
        /// partial byte that land above `count` are that byte's own bits — reloading it later
        /// ORs the same bits into the same places.
        @inline(__always)
        mutating func refill() {
            if next &+ 8 <= end, let base = input.baseAddress {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + next).loadUnaligned(as: UInt64.self))
                window |= word &<< UInt64(count)
                let bytes = (63 &- count) &>> 3
                next &+= bytes
                count &+= bytes &<< 3
                return
            }
            while count <= 56 && next < end {
                window |= UInt64(input[next]) &<< UInt64(count)
                next &+= 1
                count &+= 8
            }
        }

        @inline(__always)
        mutating func consume(_ n: Int) {
            if n > count { exhausted = true; window = 0; count = 0 } else { window &>>= UInt64(n); count &-= n }
        }

        @inline(__always)
        mutating func readBits(_ n: Int) -> Int {
            if count < n { refill() }
            let value = Int(truncatingIfNeeded: window & ((1 &<< UInt64(n)) &- 1))
            consume(n)
            return value
        }

        /// One symbol of the two-level table at `tables[base...]` (see `VP8LPrefixCode`).
        @inline(__always)
        mutating func readSymbol(_ tables: UnsafeBufferPointer<UInt32>, _ base: Int) -> Int {
            if count < 15 { refill() }
            let entry = tables[base &+ Int(truncatingIfNeeded: window & 0xFF)]
            let length = Int(entry & 0xFF)
            if length <= 8 {
                consume(length)
                return Int(entry &>> 16)
            }
            let subBits = UInt64(length &- 8)
            let index = Int(truncatingIfNeeded: (window &>> 8) & ((1 &<< subBits) &- 1))
            let leaf = tables[base &+ Int(entry &>> 16) &+ index]
            consume(8 &+ Int(leaf & 0xFF))
            return Int(leaf &>> 16)
        }

        /// §3.6.2.2: a length or distance from its prefix symbol and extra bits.
        @inline(__always)
        mutating func prefixValue(_ symbol: Int) -> Int {
            if symbol < 4 { return symbol &+ 1 }
            let extraBits = (symbol &- 2) &>> 1
            let offset = (2 &+ (symbol & 1)) &<< extraBits
            return offset &+ readBits(extraBits) &+ 1
        }
    }

    /// Decodes pixels into `pixels` (width × height, row-major) from `cursor.position` until
    /// `target` (or the end of the image). `bytes[..<end]` is the readable data.
    static func decode(_ cursor: inout VP8LPixelCursor, bytes: [UInt8], end: Int, groups: VP8LCodeGroups,
                       width: Int, height: Int, pixels: inout [UInt32], target: Int) -> VP8LPixelResult {
        precondition(VP8LPrefixCode.rootBits == 8)
        let total = width * height
        let stop = min(target, total)
        let cacheShift = UInt32(32 - cursor.cacheBits)
        let hasCache = cursor.cacheBits > 0
        let cacheLimit = 256 + VP8LCodeGroups.lengthCodes
        let entropyBits = groups.entropyBits
        let entropyWidth = groups.entropyWidth
        let blockMask = (1 << entropyBits) - 1
        var position = cursor.position
        var result = VP8LPixelResult.reachedTarget
        var finalReader: FastReader?

        bytes.withUnsafeBufferPointer { input in
        groups.tables.withUnsafeBufferPointer { tables in
        groups.offsets.withUnsafeBufferPointer { offsets in
        groups.trivialLiteral.withUnsafeBufferPointer { trivial in
        pixels.withUnsafeMutableBufferPointer { out in
        cursor.cache.withUnsafeMutableBufferPointer { cache in
        distanceMap.withUnsafeBufferPointer { distanceMap in
            var reader = FastReader(input: input, end: min(end, input.count), next: cursor.next, window: cursor.window, count: cursor.count)
            var x = position % max(width, 1)
            var y = position / max(width, 1)
            let entropy = groups.entropyImage
            @inline(__always) func groupAt(_ x: Int, _ y: Int) -> Int {
                guard let entropy else { return 0 }
                return Int(entropy[(y &>> entropyBits) &* entropyWidth &+ (x &>> entropyBits)])
            }
            var group = groupAt(x, y)
            while position < stop {
                if let literal = trivial[group] {
                    out[position] = literal
                    if hasCache { cache[Int((literal &* 0x1E35_A7BD) &>> cacheShift)] = literal }
                    position &+= 1
                    x &+= 1
                    if x == width { x = 0; y &+= 1 }
                    if entropy != nil && (x & blockMask) == 0 && position < total { group = groupAt(x, y) }
                    continue
                }
                let base = group &* 5
                let green = reader.readSymbol(tables, offsets[base])
                if green < 256 {
                    let red = reader.readSymbol(tables, offsets[base &+ 1])
                    let blue = reader.readSymbol(tables, offsets[base &+ 2])
                    let alpha = reader.readSymbol(tables, offsets[base &+ 3])
                    if reader.exhausted { break }
                    let argb = UInt32(truncatingIfNeeded: alpha &<< 24 | red &<< 16 | green &<< 8 | blue)
                    out[position] = argb
                    if hasCache { cache[Int((argb &* 0x1E35_A7BD) &>> cacheShift)] = argb }
                    position &+= 1
                    x &+= 1
                    if x == width {
                        x = 0; y &+= 1
                        if entropy != nil && position < total { group = groupAt(x, y) }
                    } else if entropy != nil && (x & blockMask) == 0 {
                        group = groupAt(x, y)
                    }
                } else if green < cacheLimit {
                    let length = reader.prefixValue(green &- 256)
                    let distanceSymbol = reader.readSymbol(tables, offsets[base &+ 4])
                    let distanceCode = reader.prefixValue(distanceSymbol)
                    if reader.exhausted { break }
                    var distance: Int
                    if distanceCode > 120 {
                        distance = distanceCode &- 120
                    } else {
                        let (dx, dy) = distanceMap[distanceCode &- 1]
                        distance = Int(dx) &+ Int(dy) &* width
                        if distance < 1 { distance = 1 }
                    }
                    guard distance <= position, length <= total &- position else {
                        result = .badReference(position: position, distance: distance, length: length)
                        break
                    }
                    var from = position &- distance
                    let end = position &+ length
                    if hasCache {
                        while position < end {
                            let argb = out[from]
                            out[position] = argb
                            cache[Int((argb &* 0x1E35_A7BD) &>> cacheShift)] = argb
                            position &+= 1; from &+= 1
                        }
                    } else {
                        while position < end {
                            out[position] = out[from]
                            position &+= 1; from &+= 1
                        }
                    }
                    x &+= length
                    while x >= width { x &-= width; y &+= 1 }
                    if entropy != nil && position < total { group = groupAt(x, y) }
                } else {
                    if reader.exhausted { break }
                    let argb = cache[green &- cacheLimit]
                    out[position] = argb
                    if hasCache { cache[Int((argb &* 0x1E35_A7BD) &>> cacheShift)] = argb }
                    position &+= 1
                    x &+= 1
                    if x == width {
                        x = 0; y &+= 1
                        if entropy != nil && position < total { group = groupAt(x, y) }
                    } else if entropy != nil && (x & blockMask) == 0 {
                        group = groupAt(x, y)
                    }
                }
            }
            finalReader = reader
        }
        }
        }
        }
        }
        }
        }

        // After exhaustion the pixels before `position` stay valid; the bit state does not.
        cursor.position = position
        guard let reader = finalReader, !reader.exhausted else { return .exhausted }
        cursor.next = reader.next
        cursor.window = reader.window
        cursor.count = reader.count
        return result
    }
}
