/// Writers for the command-line tool and the conformance suite: PAM (Netpbm P7), PPM/PGM
/// (P6/P5) and PNG (colour type 0, 2, 4 or 6 at 8 or 16 bits, filter type 0 on every row, the
/// zlib stream in IDAT chunks of at most 1 MiB). They write a bitmap's components in logical order — gray, R G B, or C M Y K,
/// then alpha — whatever its byte order in memory, keeping premultiplied values premultiplied
/// (the file then holds exactly the samples that were asked for) and dropping skip components.
/// 16-bit samples are written big-endian, as all three formats require.
public enum ImageWriter {
    /// An output file format; the raw value is its file extension.
    public enum Container: String, CaseIterable, Sendable {
        /// Netpbm PAM (P7): gray, RGB or CMYK, with or without alpha.
        case pam
        /// Netpbm PPM (P6): RGB, alpha dropped.
        case ppm
        /// Netpbm PGM (P5): gray, alpha dropped.
        case pgm
        /// PNG: gray or RGB (CMYK converted to RGB), with or without alpha.
        case png

        /// The container named by a file's extension (`.pam`, `.ppm`, `.pgm`, `.png`).
        public init?(pathExtension path: String) {
            guard let dot = path.lastIndex(of: ".") else { return nil }
            self.init(rawValue: path[path.index(after: dot)...].lowercased())
        }
    }

    /// Why a file could not be written.
    public enum WriteError: Error, CustomStringConvertible {
        /// The image or the call cannot be written as asked; the string says why.
        case unsupported(String)
        public var description: String {
            switch self { case .unsupported(let what): return what }
        }
    }

    /// Encodes `bitmap` in `container` (the whole file in memory; `write` streams it).
    public static func encode(_ bitmap: Bitmap, as container: Container) throws(WriteError) -> [UInt8] {
        var out: [UInt8] = []
        do {
            try write(bitmap, as: container) { out.append(contentsOf: $0) }
        } catch let error as WriteError {
            throw error
        } catch {
            throw .unsupported("\(error)")
        }
        return out
    }

    /// Writes `bitmap` in `container`, handing the file to `output` piece by piece: the header,
    /// then the samples of a slice of rows at a time (about 1 MiB), each converted as it goes,
    /// so no second full-size copy of the image exists. With `as requested`, each slice is
    /// first converted to that pixel format — the file then holds exactly those samples, as if
    /// the whole bitmap had been converted first (conversions work pixel by pixel).
    public static func write(_ bitmap: Bitmap, as container: Container, convertingTo requested: PixelFormat? = nil,
                             to output: (ArraySlice<UInt8>) throws -> Void) throws {
        try withoutActuallyEscaping(output) { output in
            let writer = try RowWriter(as: container, width: bitmap.width, height: bitmap.height, format: bitmap.format,
                                       significantBits: bitmap.significantBitsPerComponent, convertingTo: requested, to: output)
            try writer.append(bitmap)
            try writer.finish()
        }
    }

    /// A file written as its rows arrive (`ImageSource.decodeRows` → `pureimage decode`): the
    /// header first, then each band of rows converted and encoded — PNG rows filtered (type 0)
    /// and deflated into IDAT chunks of at most 1 MiB — so what is held is a slice of rows and
    /// the deflater's window, whatever the image's size.
    public final class RowWriter {
        private let layout: LogicalLayout
        private let requested: PixelFormat?
        private let width: Int, height: Int
        private let output: (ArraySlice<UInt8>) throws -> Void
        private let deflater: ZlibStreamDeflater?
        private var pendingIDAT: [UInt8] = []
        /// Rows appended so far.
        public private(set) var rowsWritten = 0

        /// Writes the header for a `width × height` image whose rows will come in `format`
        /// (converted to `requested` first when given), their samples using the low
        /// `significantBits` of each component (`Bitmap.significantBitsPerComponent`; nil: all).
        public init(as container: Container, width: Int, height: Int, format: PixelFormat, significantBits: Int? = nil,
                    convertingTo requested: PixelFormat? = nil, to output: @escaping (ArraySlice<UInt8>) throws -> Void) throws {
            let source = requested ?? format
            layout = try LogicalLayout(source: source, container: container,
                                       significantBits: requested == nil || requested == format ? significantBits : nil)
            guard container != .png || (width > 0 && height > 0) else { throw WriteError.unsupported("PNG cannot hold an empty image") }
            self.requested = requested
            self.width = width
            self.height = height
            self.output = output
            deflater = container == .png ? ZlibStreamDeflater() : nil
            try output(layout.header(width: width, height: height)[...])
        }

        /// The next rows, full width, top to bottom.
        public func append(_ rows: Bitmap) throws {
            guard rows.width == width, rowsWritten + rows.height <= height else {
                throw WriteError.unsupported("rows \(rowsWritten)..<\(rowsWritten + rows.height) of width \(rows.width) do not fit a \(width)×\(height) image")
            }
            // Slices of about 1 MiB in the largest form a row takes (8 bytes a pixel at most).
            try rows.forEachBand(rowsPerBand: (1 << 20) / max(1, rows.bytesPerRow, rows.width * 8)) { (_, band) throws in
                var slice = band
                let count = band.height
                do {
                    if let requested {
                        slice = try slice.converted(to: requested, bytesPerRow: requested.minimumBytesPerRow(width: slice.width) ?? 0)
                    }
                    let samples = try layout.samples(of: slice)
                    if let deflater {
                        let rowBytes = samples.count / count
                        var filtered = [UInt8]()
                        filtered.reserveCapacity(samples.count + count)
                        for y in 0..<count {
                            filtered.append(0)   // filter type 0 (None) on every row
                            filtered.append(contentsOf: samples[y * rowBytes ..< (y + 1) * rowBytes])
                        }
                        try filtered.withUnsafeBytes { bytes in try deflater.write(bytes) { try emitIDAT($0, force: false) } }
                    } else {
                        try output(samples[...])
                    }
                } catch let error as BitmapError {
                    throw WriteError.unsupported(error.description)
                }
            }
            rowsWritten += rows.height
        }

        /// Ends the file; every row must have been appended.
        public func finish() throws {
            guard rowsWritten == height else { throw WriteError.unsupported("\(rowsWritten) of \(height) rows written") }
            guard let deflater else { return }
            try deflater.finish { try emitIDAT($0, force: false) }
            try emitIDAT([], force: true)
            var end: [UInt8] = []
            PNGEncoding.appendChunk("IEND", [], to: &end)
            try output(end[...])
        }

        /// PNG's IDAT chunks of at most 1 MiB of the zlib stream.
        private func emitIDAT(_ bytes: [UInt8], force: Bool) throws {
            pendingIDAT.append(contentsOf: bytes)
            while pendingIDAT.count >= 1 << 20 || (force && !pendingIDAT.isEmpty) {
                let piece = Array(pendingIDAT.prefix(1 << 20))
                pendingIDAT.removeFirst(piece.count)
                var framed: [UInt8] = []
                PNGEncoding.appendChunk("IDAT", piece, to: &framed)
                try output(framed[...])
            }
        }
    }

    /// What a container stores for a source format: components in logical order (gray, R G B
    /// or C M Y K, then alpha), 8 or 16 bits big-endian, premultiplication kept, skip components
    /// dropped; indexed and packed sources expand to 8-bit RGB(A) or gray. PPM/PGM drop alpha
    /// and convert to RGB or gray (Rec. 601 luma); PNG converts CMYK to RGB.
    struct LogicalLayout {
        let container: Container
        /// The format each slice is converted to.
        let target: PixelFormat
        /// PAM, PGM and PPM of a source whose samples use fewer bits than their components
        /// (12-bit JPEG, lossless JPEG) hold those samples as they are, with MAXVAL 2^bits − 1
        /// (as djpeg writes 12-bit files), when the container keeps the colour model; nil when
        /// the samples are scaled to the full range instead.
        let keptBits: Int?

        init(source: PixelFormat, container: Container, significantBits: Int? = nil) throws(WriteError) {
            self.container = container
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
            switch container {
            case .ppm: model = .rgb; alpha = .none
            case .pgm: model = .gray; alpha = .none
            case .png: if model == .cmyk { model = .rgb }
            case .pam: break
            }
            target = PixelFormat(colorModel: model, bitsPerComponent: bits, alphaInfo: alpha)
            if let problem = target.validate() { throw .unsupported(problem) }
            if let significantBits, significantBits < bits, container != .png, model == source.colorModel,
               bits == source.bitsPerComponent, alpha == .none, source.alphaInfo == .none {
                keptBits = significantBits
            } else {
                keptBits = nil
            }
        }

        var channels: Int { target.colorModel.colorComponentCount + (target.alphaInfo == .none ? 0 : 1) }

        func header(width: Int, height: Int) -> [UInt8] {
            let maxValue = keptBits.map { (1 << $0) - 1 } ?? (target.bitsPerComponent == 16 ? 65535 : 255)
            let hasAlpha = target.alphaInfo != .none
            switch container {
            case .pam:
                let tuple: String
                switch (target.colorModel, hasAlpha) {
                case (.gray, false): tuple = "GRAYSCALE"
                case (.gray, true): tuple = "GRAYSCALE_ALPHA"
                case (.cmyk, false): tuple = "CMYK"
                case (.cmyk, true): tuple = "CMYK_ALPHA"
                case (_, false): tuple = "RGB"
                case (_, true): tuple = "RGB_ALPHA"
                }
                return Array("P7\nWIDTH \(width)\nHEIGHT \(height)\nDEPTH \(channels)\nMAXVAL \(maxValue)\nTUPLTYPE \(tuple)\nENDHDR\n".utf8)
            case .ppm, .pgm:
                return Array("\(container == .pgm ? "P5" : "P6")\n\(width) \(height)\n\(maxValue)\n".utf8)
            case .png:
                let colorType: UInt8 = (target.colorModel == .gray ? 0 : 2) | (hasAlpha ? 4 : 0)
                var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
                var ihdr = PNGEncoding.bigEndian(UInt32(width)) + PNGEncoding.bigEndian(UInt32(height))
                ihdr += [UInt8(target.bitsPerComponent), colorType, 0, 0, 0]
                PNGEncoding.appendChunk("IHDR", ihdr, to: &out)
                return out
            }
        }

        /// A slice's samples in the container's order, tightly packed.
        func samples(of slice: Bitmap) throws(BitmapError) -> [UInt8] {
            // Tight rows straight from the conversion (no padded copy to repack). Kept samples
            // change only their byte order (the colour model and depth are the source's).
            let source = keptBits == nil ? slice : slice.withSignificantBits(slice.format.bitsPerComponent)
            return try source.converted(to: target, bytesPerRow: target.minimumBytesPerRow(width: slice.width) ?? 0).bytes
        }
    }
}

/// PNG chunk framing for the writer.
enum PNGEncoding {
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
