/// A TIFF page's samples as the codec and the predictor leave them — before any photometric
/// interpretation, so palette indices, WhiteIsZero gray, YCbCr, CIELab, CMYK and every extra
/// sample are as stored, at any depth from 1 to 64 bits. This is what libtiff's
/// `TIFFReadEncodedStrip` / `TIFFReadEncodedTile` return, and `pureimage conform` compares the
/// two byte for byte (Docs/TIFF.md, "Decoded samples").
///
/// Layout (`isDataUnits == false`): `height` rows of `rowBytes` bytes, samples interleaved in
/// file order (separate planes are interleaved here), packed most significant bit first, the
/// padding bits at the end of a row zero; 16-, 24-, 32- and 64-bit samples little-endian.
/// JPEG-compressed YCbCr comes as RGB (libtiff's `JPEGCOLORMODE_RGB`).
///
/// Chroma-subsampled YCbCr (`isDataUnits == true`) has no per-pixel layout: the bytes are each
/// strip's or tile's data units (h × v luma samples, Cb, Cr), chunk after chunk.
public struct DecodedSamples: Hashable, Sendable {
    /// The page's width in pixels (ImageWidth).
    public let width: Int
    /// The page's height in pixels (ImageLength).
    public let height: Int
    /// Samples per pixel, extra samples included (SamplesPerPixel).
    public let samplesPerPixel: Int
    /// Bits per sample, 1 to 64 (BitsPerSample).
    public let bitsPerSample: Int
    /// §19 SampleFormat: 1 unsigned, 2 signed (two's complement), 3 IEEE float, 4 undefined,
    /// 5 and 6 complex.
    public let sampleFormat: Int
    /// True for chroma-subsampled YCbCr, whose bytes are data units rather than pixels.
    public let isDataUnits: Bool
    /// The samples, in the layout described on the type.
    public let bytes: [UInt8]

    /// Bytes per row in the per-pixel layout.
    public var rowBytes: Int { (width * samplesPerPixel * bitsPerSample + 7) / 8 }
}

extension ImageSource {
    /// The decoded samples of TIFF page `index` (see `DecodedSamples`). Other formats throw
    /// `unsupported`; so does a page whose compression PureImage does not decode.
    public func decodedSamples(at index: Int = 0) throws(DecodeError) -> DecodedSamples {
        guard format == .tiff else {
            throw DecodeError(.unsupported, format: format, offset: nil, ContainerError.formatNotSupported(format))
        }
        return try TIFFSampleReader.decode(bytes, page: index, limits: options.limits)
    }
}

/// Decodes one page's samples with the page decoder's own bands (no rendering).
enum TIFFSampleReader {
    /// The header and page `page`'s IFD, walking the chain (loops and the frame limit end it).
    static func directory(_ bytes: [UInt8], page: Int, limits: DecodeLimits) throws(DecodeError) -> (TIFFHeader, TIFFDirectory) {
        let reader = RandomAccessReader(bytes)
        guard bytes.count >= 8 else {
            throw DecodeError(.truncated, format: .tiff, offset: bytes.count, TIFFError.truncated(inside: "the header"))
        }
        let header = try TIFFHeader(parsing: reader)
        var offset = header.firstIFD
        var visited: Set<Int> = []
        var directory: TIFFDirectory?
        for index in 0...max(0, page) {
            guard offset != 0, visited.insert(offset).inserted, index < limits.maxFrames else {
                throw DecodeError(.malformed, format: .tiff, offset: nil, ContainerError.frameOutOfRange(index: page, count: index))
            }
            directory = try TIFFDirectory.parse(at: offset, reader: reader, endianness: header.endianness,
                                                variant: header.variant, isClosed: true)
            offset = directory?.nextOffset ?? 0
        }
        guard let directory else {
            throw DecodeError(.malformed, format: .tiff, offset: nil, ContainerError.frameOutOfRange(index: page, count: 0))
        }
        return (header, directory)
    }

    static func decode(_ bytes: [UInt8], page: Int, limits: DecodeLimits) throws(DecodeError) -> DecodedSamples {
        let (header, directory) = try directory(bytes, page: page, limits: limits)
        let reader = RandomAccessReader(bytes)
        let layout = try TIFFImageLayout(directory: directory, reader: reader, limits: limits)
        let decoder = TIFFPageDecoder(layout: layout, endianness: header.endianness, limits: limits)
        let spp = layout.samplesPerPixel, bps = layout.bitsPerSample
        if layout.isSubsampledYCbCr {
            var units: [UInt8] = []
            while !decoder.isComplete {
                for chunk in try decoder.decodeNextBandSamples(reader: reader) { units += chunk }
            }
            return DecodedSamples(width: layout.width, height: layout.height, samplesPerPixel: spp, bitsPerSample: bps,
                                  sampleFormat: layout.sampleFormat, isDataUnits: true, bytes: units)
        }
        let rowBytes = (layout.width * spp * bps + 7) / 8
        let total = try SizeMath.allocationSize(rowBytes, layout.height, limits: limits, format: .tiff, offset: nil)
        var out = [UInt8](repeating: 0, count: total)
        var top = 0
        while !decoder.isComplete {
            let planes = try decoder.decodeNextBandSamples(reader: reader)
            let rows = min(layout.chunkHeight, layout.height - top)
            for row in 0..<rows {
                interleave(planes, row: row, into: &out, at: (top + row) * rowBytes, layout: layout)
            }
            top += rows
        }
        // Inside the decoder wide samples are big-endian; libtiff hands them out in host order.
        TIFFDecompressor.reverseWideSamples(&out, bitsPerSample: bps)
        return DecodedSamples(width: layout.width, height: layout.height, samplesPerPixel: spp, bitsPerSample: bps,
                              sampleFormat: layout.sampleFormat, isDataUnits: false, bytes: out)
    }

    /// One row of the planes into interleaved packed samples; the padding bits stay zero.
    private static func interleave(_ planes: [[UInt8]], row: Int, into out: inout [UInt8], at start: Int, layout: TIFFImageLayout) {
        let bps = layout.bitsPerSample, spp = layout.samplesPerPixel
        let usedBits = layout.width * spp * bps
        if !layout.isPlanar {
            let from = row * layout.planeRowBytes
            let count = (usedBits + 7) / 8
            out.replaceSubrange(start ..< start + count, with: planes[0][from ..< from + count])
            if usedBits % 8 != 0 { out[start + count - 1] &= UInt8(truncatingIfNeeded: 0xFF << (8 - usedBits % 8)) }
            return
        }
        let planeRow = row * layout.planeRowBytes
        if bps % 8 == 0 {
            let size = bps / 8
            for x in 0..<layout.width {
                for plane in 0..<spp {
                    let from = planeRow + x * size, to = start + (x * spp + plane) * size
                    for k in 0..<size { out[to + k] = planes[plane][from + k] }
                }
            }
            return
        }
        for x in 0..<layout.width {
            for plane in 0..<spp {
                for bit in 0..<bps {
                    let source = x * bps + bit
                    guard planes[plane][planeRow + source / 8] >> (7 - source % 8) & 1 == 1 else { continue }
                    let target = (x * spp + plane) * bps + bit
                    out[start + target / 8] |= 0x80 >> UInt8(target % 8)
                }
            }
        }
    }
}
