import Testing
import PureImageConformance
@testable import PureImage

/// Builds small TIFF files entry by entry, in either byte order, classic or BigTIFF, for
/// hand-made tests.
struct TIFFBuilder {
    enum Order { case little, big }
    let order: Order
    /// BigTIFF: 16-byte header, 8-byte entry count, 20-byte entries, 8-byte offsets.
    var bigTIFF = false
    /// (tag, type, count, value bytes) — values longer than 4 bytes go after the IFD.
    var entries: [(tag: UInt16, type: UInt16, count: UInt32, value: [UInt8])] = []
    var nextIFD: UInt32 = 0
    /// Bytes placed right after the 8-byte header (image data); IFD follows them.
    var data: [UInt8] = []

    init(_ order: Order) { self.order = order }

    func u16(_ v: UInt16) -> [UInt8] { order == .little ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
    func u32(_ v: UInt32) -> [UInt8] {
        let be: [UInt8] = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
        return order == .little ? be.reversed() : be
    }

    func u64(_ v: UInt64) -> [UInt8] {
        let be: [UInt8] = (0..<8).map { UInt8((v >> (56 - 8 * UInt64($0))) & 0xFF) }
        return order == .little ? be.reversed() : be
    }
    /// An offset or entry count in the file's width (4 bytes classic, 8 BigTIFF).
    func offsetBytes(_ v: Int) -> [UInt8] { bigTIFF ? u64(UInt64(v)) : u32(UInt32(v)) }

    mutating func long8(_ tag: UInt16, _ values: UInt64...) { entries.append((tag, 16, UInt32(values.count), values.flatMap { u64($0) })) }
    mutating func short(_ tag: UInt16, _ values: UInt16...) { entries.append((tag, 3, UInt32(values.count), values.flatMap { u16($0) })) }
    mutating func long(_ tag: UInt16, _ values: UInt32...) { entries.append((tag, 4, UInt32(values.count), values.flatMap { u32($0) })) }
    mutating func byte(_ tag: UInt16, _ values: UInt8...) { entries.append((tag, 1, UInt32(values.count), values)) }
    mutating func raw(_ tag: UInt16, type: UInt16, count: UInt32, value: [UInt8]) { entries.append((tag, type, count, value)) }

    /// Appends each strip to `data` and records them: StripOffsets (273) and StripByteCounts (279)
    /// as LONGs. Sort `entries` before `build()`.
    mutating func appendStrips(_ strips: [[UInt8]]) {
        var offsets: [UInt32] = [], counts: [UInt32] = []
        for strip in strips {
            offsets.append(dataOffset + UInt32(data.count))
            counts.append(UInt32(strip.count))
            data += strip
        }
        entries.append((273, 4, UInt32(offsets.count), offsets.flatMap { u32($0) }))
        entries.append((279, 4, UInt32(counts.count), counts.flatMap { u32($0) }))
    }

    /// Offset the data will have (after the 8-byte header, or BigTIFF's 16).
    var dataOffset: UInt32 { bigTIFF ? 16 : 8 }

    /// Header, data, IFD (entries sorted as written), then out-of-line values.
    func build() -> [UInt8] {
        var out: [UInt8] = order == .little ? [0x49, 0x49] : [0x4D, 0x4D]
        let fieldSize = bigTIFF ? 8 : 4
        let ifdOffset = Int(dataOffset) + data.count + (data.count % 2)
        if bigTIFF {
            out += u16(43) + u16(8) + u16(0) + u64(UInt64(ifdOffset))
        } else {
            out += u16(42) + u32(UInt32(ifdOffset))
        }
        out += data
        if data.count % 2 == 1 { out.append(0) }
        var extra: [UInt8] = []
        let extraStart = ifdOffset + (bigTIFF ? 8 + 20 * entries.count + 8 : 2 + 12 * entries.count + 4)
        var ifd: [UInt8] = bigTIFF ? u64(UInt64(entries.count)) : u16(UInt16(entries.count))
        for entry in entries {
            ifd += u16(entry.tag) + u16(entry.type) + (bigTIFF ? u64(UInt64(entry.count)) : u32(entry.count))
            if entry.value.count <= fieldSize {
                ifd += entry.value + [UInt8](repeating: 0, count: fieldSize - entry.value.count)
            } else {
                ifd += offsetBytes(extraStart + extra.count)
                extra += entry.value
            }
        }
        ifd += bigTIFF ? u64(UInt64(nextIFD)) : u32(nextIFD)
        return out + ifd + extra
    }

    /// A w×h 8-bit gray image, one strip, uncompressed, pixels as given.
    static func gray8(_ order: Order, width: Int, height: Int, pixels: [UInt8], bigTIFF: Bool = false) -> TIFFBuilder {
        var b = TIFFBuilder(order)
        b.bigTIFF = bigTIFF
        b.data = pixels
        b.short(256, UInt16(width))            // ImageWidth, SHORT
        b.short(257, UInt16(height))           // ImageLength, SHORT
        b.short(258, 8)                        // BitsPerSample 8
        b.short(259, 1)                        // Compression none
        b.short(262, 1)                        // BlackIsZero
        b.long(273, b.dataOffset)              // StripOffsets: right after the header
        b.short(277, 1)                        // SamplesPerPixel 1
        b.short(278, UInt16(height))           // RowsPerStrip: one strip
        b.long(279, UInt32(pixels.count))      // StripByteCounts
        return b
    }
}

/// Decodes with the TIFF state machine; one-shot.
func decodeTIFF(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> (bitmaps: [Bitmap], decoder: TIFFDecoder) {
    let decoder = TIFFDecoder(options: options)
    var input = InputBuffer(bytes, isClosed: true)
    _ = try decoder.advance(&input)
    return ((0..<decoder.completedFrameCount).compactMap { try? decoder.frame(at: $0) }, decoder)
}

/// MSB-first packing of codes of the given widths (for LZW tests).
func packMSB(_ codes: [(code: Int, width: Int)]) -> [UInt8] {
    var out: [UInt8] = []
    var buffer = 0, count = 0
    for (code, width) in codes {
        buffer = buffer << width | code
        count += width
        while count >= 8 {
            out.append(UInt8((buffer >> (count - 8)) & 0xFF))
            count -= 8
        }
        buffer &= (1 << count) - 1
    }
    if count > 0 { out.append(UInt8((buffer << (8 - count)) & 0xFF)) }
    return out
}

/// Comparisons of a whole file with libtiff (its decoded samples and its RGBA interface).
enum TIFFReference {
    /// PureImage's decoded samples and libtiff-exact RGBA equal libtiff's; returns the samples.
    @discardableResult
    static func expectMatchesLibtiff(_ bytes: [UInt8], _ what: String, failedStrip: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let source = try ImageSource(bytes: bytes)
        let samples = ReferenceDecoders.tiffSamples(bytes)
        let ours = try source.decodedSamples()
        // libtiff's samples interface refuses the page when a strip fails; its RGBA interface
        // goes on, so a failed strip is compared there.
        if samples.status != .rejected || !failedStrip {
            #expect(SampleComparison.difference(ours, samples) == nil, "\(what) samples: \(samples.message)", sourceLocation: sourceLocation)
        }
        let reference = ReferenceDecoders.tiffRGBA(bytes)
        #expect(reference.frames.first != nil, "\(what): libtiff's RGBA interface refused: \(reference.message)", sourceLocation: sourceLocation)
        if let theirs = reference.frames.first {
            #expect(try source.image(options: ImageDecodingOptions(output: .libtiffRGBA)).tightBytes == theirs.samples,
                    "\(what) RGBA", sourceLocation: sourceLocation)
        }
        return ours.bytes
    }
}
