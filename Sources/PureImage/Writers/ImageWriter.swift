/// Encoders for the command-line tool and the conformance suite: PAM (Netpbm P7), PPM/PGM
/// (P6/P5) and PNG. They write a bitmap's components in logical order — gray, R G B, or C M Y K,
/// then alpha — whatever its byte order in memory, keeping premultiplied values premultiplied
/// (the file then holds exactly the samples that were asked for) and dropping skip components.
/// 16-bit samples are written big-endian, as all three formats require.
public enum ImageWriter {
    public enum Container: String, CaseIterable, Sendable {
        case pam, ppm, pgm, png

        /// The container named by a file's extension (`.pam`, `.ppm`, `.pgm`, `.png`).
        public init?(pathExtension path: String) {
            guard let dot = path.lastIndex(of: ".") else { return nil }
            self.init(rawValue: path[path.index(after: dot)...].lowercased())
        }
    }

    public enum WriteError: Error, CustomStringConvertible {
        case unsupported(String)
        public var description: String {
            switch self { case .unsupported(let what): return what }
        }
    }

    /// Encodes `bitmap` in `container`.
    public static func encode(_ bitmap: Bitmap, as container: Container) throws(WriteError) -> [UInt8] {
        let samples = try logicalSamples(bitmap, dropAlpha: container == .ppm || container == .pgm)
        switch container {
        case .pam:
            return PAMEncoding.encode(samples)
        case .ppm, .pgm:
            return try PNMEncoding.encode(samples, gray: container == .pgm)
        case .png:
            return try PNGEncoding.encode(samples)
        }
    }

    /// A bitmap's samples in logical order, tightly packed, 16-bit big-endian.
    struct LogicalSamples {
        let width: Int
        let height: Int
        let colorModel: ColorModel
        let hasAlpha: Bool
        let bitsPerComponent: Int
        let bytes: [UInt8]
        var channels: Int { colorModel.colorComponentCount + (hasAlpha ? 1 : 0) }
    }

    /// Converts to a format with the default (big-endian) byte order and the alpha last, keeping
    /// premultiplication as it is; indexed and packed sources expand to 8-bit RGB(A) / gray.
    static func logicalSamples(_ bitmap: Bitmap, dropAlpha: Bool) throws(WriteError) -> LogicalSamples {
        let source = bitmap.format
        var model = source.colorModel
        var alpha: AlphaInfo = source.alphaInfo
        var bits = max(8, source.bitsPerComponent)
        switch source.alphaInfo {
        case .first, .last: alpha = .last
        case .premultipliedFirst, .premultipliedLast: alpha = .premultipliedLast
        case .noneSkipFirst, .noneSkipLast, .none: alpha = .none
        case .alphaOnly: model = .gray; alpha = .last
        }
        if case .indexed(let palette) = source.colorModel {
            let opaque = stride(from: 3, to: palette.rgba.count, by: 4).allSatisfy { palette.rgba[$0] == 255 }
            model = .rgb
            alpha = opaque ? .none : .last
            bits = 8
        }
        if dropAlpha { alpha = .none }
        let target = PixelFormat(colorModel: model, bitsPerComponent: bits, alphaInfo: alpha)
        do {
            let converted = try bitmap.converted(to: target).tightlyPacked()
            return LogicalSamples(width: converted.width, height: converted.height, colorModel: model,
                                  hasAlpha: alpha != .none, bitsPerComponent: bits, bytes: converted.bytes)
        } catch {
            throw .unsupported(error.description)
        }
    }
}

/// Netpbm PAM (P7): a text header, then samples row by row.
enum PAMEncoding {
    static func encode(_ samples: ImageWriter.LogicalSamples) -> [UInt8] {
        let tuple: String
        switch (samples.colorModel, samples.hasAlpha) {
        case (.gray, false): tuple = "GRAYSCALE"
        case (.gray, true): tuple = "GRAYSCALE_ALPHA"
        case (.cmyk, false): tuple = "CMYK"
        case (.cmyk, true): tuple = "CMYK_ALPHA"
        case (_, false): tuple = "RGB"
        case (_, true): tuple = "RGB_ALPHA"
        }
        let maxValue = samples.bitsPerComponent == 16 ? 65535 : 255
        let header = "P7\nWIDTH \(samples.width)\nHEIGHT \(samples.height)\nDEPTH \(samples.channels)\nMAXVAL \(maxValue)\nTUPLTYPE \(tuple)\nENDHDR\n"
        return Array(header.utf8) + samples.bytes
    }
}

/// Netpbm PPM (P6) and PGM (P5). Colour goes to PPM, gray to PGM; asking for the other one
/// converts (gray replicated, or Rec. 601 luma).
enum PNMEncoding {
    static func encode(_ samples: ImageWriter.LogicalSamples, gray: Bool) throws(ImageWriter.WriteError) -> [UInt8] {
        var samples = samples
        let wantModel: ColorModel = gray ? .gray : .rgb
        if samples.colorModel != wantModel {
            let format = PixelFormat(colorModel: samples.colorModel, bitsPerComponent: samples.bitsPerComponent, alphaInfo: .none)
            do {
                let bitmap = try Bitmap(width: samples.width, height: samples.height, format: format, bytes: samples.bytes)
                let converted = try bitmap.converted(to: PixelFormat(colorModel: wantModel, bitsPerComponent: samples.bitsPerComponent, alphaInfo: .none)).tightlyPacked()
                samples = ImageWriter.LogicalSamples(width: samples.width, height: samples.height, colorModel: wantModel,
                                                     hasAlpha: false, bitsPerComponent: samples.bitsPerComponent, bytes: converted.bytes)
            } catch {
                throw .unsupported(error.description)
            }
        }
        let maxValue = samples.bitsPerComponent == 16 ? 65535 : 255
        return Array("\(gray ? "P5" : "P6")\n\(samples.width) \(samples.height)\n\(maxValue)\n".utf8) + samples.bytes
    }
}

/// PNG: colour type 0, 2, 4 or 6 at 8 or 16 bits, filter type 0 on every row, one zlib
/// stream split into IDAT chunks of at most 1 MiB. CMYK is converted to RGB first.
enum PNGEncoding {
    static func encode(_ samples: ImageWriter.LogicalSamples) throws(ImageWriter.WriteError) -> [UInt8] {
        var samples = samples
        if samples.colorModel == .cmyk {
            let alpha: AlphaInfo = samples.hasAlpha ? .last : .none
            do {
                let bitmap = try Bitmap(width: samples.width, height: samples.height,
                                        format: PixelFormat(colorModel: .cmyk, bitsPerComponent: samples.bitsPerComponent, alphaInfo: alpha),
                                        bytes: samples.bytes)
                let rgb = try bitmap.converted(to: PixelFormat(colorModel: .rgb, bitsPerComponent: samples.bitsPerComponent, alphaInfo: alpha)).tightlyPacked()
                samples = ImageWriter.LogicalSamples(width: samples.width, height: samples.height, colorModel: .rgb,
                                                     hasAlpha: samples.hasAlpha, bitsPerComponent: samples.bitsPerComponent, bytes: rgb.bytes)
            } catch {
                throw .unsupported(error.description)
            }
        }
        guard samples.width > 0, samples.height > 0 else { throw .unsupported("PNG cannot hold an empty image") }
        let colorType: UInt8 = (samples.colorModel == .gray ? 0 : 2) | (samples.hasAlpha ? 4 : 0)
        let rowBytes = samples.width * samples.channels * samples.bitsPerComponent / 8
        var filtered = [UInt8]()
        filtered.reserveCapacity((rowBytes + 1) * samples.height)
        for y in 0..<samples.height {
            filtered.append(0)
            filtered.append(contentsOf: samples.bytes[y * rowBytes ..< (y + 1) * rowBytes])
        }
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr = [UInt8]()
        ihdr.append(contentsOf: bigEndian(UInt32(samples.width)))
        ihdr.append(contentsOf: bigEndian(UInt32(samples.height)))
        ihdr.append(contentsOf: [UInt8(samples.bitsPerComponent), colorType, 0, 0, 0])
        appendChunk("IHDR", ihdr, to: &out)
        let compressed = ZlibDeflater.deflate(filtered)
        var start = 0
        repeat {
            let end = min(compressed.count, start + (1 << 20))
            appendChunk("IDAT", Array(compressed[start..<end]), to: &out)
            start = end
        } while start < compressed.count
        appendChunk("IEND", [], to: &out)
        return out
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// §5.3: length, type, data, CRC of type + data.
    static func appendChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        out.append(contentsOf: bigEndian(UInt32(data.count)))
        out.append(contentsOf: typeBytes)
        out.append(contentsOf: data)
        out.append(contentsOf: bigEndian(CRC32.checksum(data, initial: CRC32.checksum(typeBytes))))
    }
}
