import CReference
import CReferenceJPEG3
import PureImage
import PureImageConformance

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a row measures. Every kind is made by `CaseFactory.cases(…)` (or, for `.downscale`,
/// `CaseFactory.downscale(…)`) for the formats that support it, with the same verify-then-time
/// flow.
enum CaseKind: Equatable {
    /// The whole image (frame 0, or every frame for animations) decoded from memory, one shot.
    case decode
    /// `IncrementalImageSource` fed `chunkBytes` at a time (ImageIO's progressive loading),
    /// timed against PureImage's own one-shot decode of the same file: the "reference" column
    /// of these rows is PureImage one-shot, so the ratio is the cost of decoding incrementally
    /// (issue target: ≤ 1.15 on the large photos).
    case incremental(chunkBytes: Int)
    /// JPEG decoded at 1/`denominator` size in the DCT domain against libjpeg-turbo's
    /// `scale_num = 1, scale_denom = denominator` (the thumbnail / downscale fast path).
    case scaledDecode(denominator: Int)
    /// `ImageSource.decodedAndScaledDown(limitBytes:)` on a huge image, against the reference
    /// library's full decode of the same file, each run in a fresh child process so that its
    /// time and peak resident memory are its own (see Downscale.swift). `limitBytes` 0 is
    /// SDWebImage's default, a 60 MB destination.
    case downscale(limitBytes: Int)
    /// A still decoded to the display format (`.display`: BGRA, premultiplied, as SDWebImage
    /// draws into a `CGBitmapContext`), timed against PureImage's own decode of the same file
    /// to its native layout: the "reference" column of these rows is PureImage native, so the
    /// ratio is what producing the display format costs on top of decoding (issue 18's
    /// target: ≤ 1.05).
    case display
    /// `ImageSource.properties()` (headers only: size, frames and their timing, metadata)
    /// against the reference library's header call: libjpeg-turbo `jpeg_read_header`, libpng
    /// `png_read_info`, giflib's record walk, libtiff's `TIFFReadDirectory` over the chain,
    /// `WebPDemux`.
    case properties

    var label: String {
        switch self {
        case .decode: return "decode"
        case .properties: return "properties"
        case .display: return "display"
        case .scaledDecode(let denominator): return "decode 1/\(denominator)"
        case .incremental(let chunk): return "incremental \(chunk / 1024) KiB"
        case .downscale(let limit):
            return limit == 0 ? "downscale 60 MB" : "downscale \(fixed(Double(limit) / 1_048_576, 2)) MB"
        }
    }

    var isDownscale: Bool {
        if case .downscale = self { return true }
        return false
    }
}

/// A reference point timed beside the two decoders: the work any decoder must at least do.
struct LimitProbe {
    /// Column name: "memcpy" (copy of an output-sized buffer) or "inflate" (zlib over the IDAT
    /// stream alone, the floor for any PNG decoder built on zlib).
    let name: String
    /// Allocates what the probe needs (when the limits are measured, so that only one case's
    /// buffers exist at a time) and returns the timed function, or nil when it does not apply.
    let prepare: () -> (() -> Int)?
}

/// The reference library's pixels for verification (frame 0), or nil with its message.
struct ReferenceOutcome {
    var image: ComparableImage?
    var message: String

    init(image: ComparableImage?, message: String) {
        self.image = image
        self.message = message
    }

    /// Warnings still count as decoded: the pixels are what the library produced.
    init(_ result: ReferenceResult) {
        self.init(image: result.status == .rejected ? nil : result.frames.first, message: result.message)
    }
}

/// One row of the benchmark, prepared and verified, ready to time.
struct BenchCase {
    let file: String
    let format: ImageFormat
    let variant: String
    let kind: CaseKind
    /// The pixel layout both sides produce, e.g. "RGBA8 (canonicalRGBA | libpng expand)".
    var layout = ""
    var width = 0
    var height = 0
    /// The timed PureImage side, present only when its pixels matched the reference.
    var ours: (() -> Int)?
    /// The timed reference side, present whenever the reference library decodes the file.
    var reference: (() -> Int)?
    /// Why `ours` is not timed (unsupported, rejected, pixels differ, …).
    var skipReason: String?
    var limits: [LimitProbe] = []
    /// Further libraries timed in the same rounds (libspng, stb_image), each checked first.
    var others: [OtherDecoder] = []
    /// For `.downscale` rows: the file on disk (the child processes read it themselves) and the
    /// destination size the plan gives, which the child's result must have.
    var path = ""
    var destinationWidth = 0
    var destinationHeight = 0

    init(file: String, format: ImageFormat, variant: String, kind: CaseKind) {
        self.file = file
        self.format = format
        self.variant = variant
        self.kind = kind
    }

    var pixels: Int { width * height }
}

/// Heap memory freed when the last closure using it goes away (limit probes allocate theirs
/// when measured and drop them right after).
final class RawBuffer: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    let count: Int

    /// `count` bytes, written once so that every page is mapped before any timing.
    init(count: Int, fill: UInt8 = 0x5A) {
        self.count = max(count, 1)
        pointer = UnsafeMutableRawPointer.allocate(byteCount: self.count, alignment: 64)
        pointer.initializeMemory(as: UInt8.self, repeating: fill, count: self.count)
    }

    deinit { pointer.deallocate() }
}

enum CaseFactory {
    /// The rows for one file. `bytes` stays alive in the closures (decoding from memory).
    static func cases(file: String, variant: String, bytes: [UInt8], format: ImageFormat) -> [BenchCase] {
        decodeCases(file: file, variant: variant, bytes: bytes, format: format)
            + [display(file: file, variant: variant, bytes: bytes, format: format),
               properties(file: file, variant: variant, bytes: bytes, format: format)].compactMap { $0 }
    }

    private static func decodeCases(file: String, variant: String, bytes: [UInt8], format: ImageFormat) -> [BenchCase] {
        switch format {
        case .png:
            return [png(file: file, variant: variant, bytes: bytes)] + incremental(file: file, variant: variant, bytes: bytes, format: .png)
        case .jpeg:
            return [jpeg(file: file, variant: variant, bytes: bytes), jpeg(file: file, variant: variant, bytes: bytes, scale: 8)]
                + incremental(file: file, variant: variant, bytes: bytes, format: .jpeg)
        case .gif: return [gif(file: file, variant: variant, bytes: bytes)]
        case .tiff: return [tiff(file: file, variant: variant, bytes: bytes)]
        case .webp: return [webp(file: file, variant: variant, bytes: bytes)]
        case .heic, .heif: return []
        }
    }

    // MARK: - Per format

    /// PNG: canonical RGBA (APNG animation off, the still default image as libpng sees it)
    /// against libpng's expanded RGBA; 16-bit files are RGBA16 host order on both sides.
    static func png(file: String, variant: String, bytes: [UInt8]) -> BenchCase {
        var benchCase = BenchCase(file: file, format: .png, variant: variant, kind: .decode)
        var options = DecodeOptions()
        options.decodeAPNGAnimation = false
        let reference = ReferenceOutcome(ReferenceDecoders.png(bytes))
        verifyAndPrepare(&benchCase, bytes: bytes, options: options, output: .canonicalRGBA, timedFrame: { _ in 0 },
                         reference: reference,
                         layoutName: { "\(rgbaName($0)) (canonicalRGBA | libpng expand)" }) {
            var image = PIRefImage()
            bytes.withUnsafeBufferPointer { _ = pi_ref_png_decode($0.baseAddress, $0.count, &image) }
            let size = image.size
            pi_ref_image_free(&image)
            return size
        }
        benchCase.limits.append(inflateProbe(png: bytes))
        if let expected = reference.image {
            benchCase.others = [spng(bytes, expected: expected), stbPNG(bytes, expected: expected)]
        }
        return benchCase
    }

    /// JPEG: the decoder's native output (RGB8 for colour files, Gray8 for grayscale, CMYK8 as
    /// stored) against libjpeg-turbo's default output colour space (islow IDCT, fancy
    /// upsampling): the layouts coincide, so no conversion is timed on either side. 12-bit and
    /// lossless files, which Debian's libjpeg-turbo 2.1.5 cannot decode, are timed against
    /// libjpeg-turbo 3 (its 12- and 16-bit code is plain C on every platform, as ours is
    /// scalar), 16-bit host-order samples on both sides.
    static func jpeg(file: String, variant: String, bytes: [UInt8], scale: Int = 1) -> BenchCase {
        var benchCase = BenchCase(file: file, format: .jpeg, variant: variant, kind: scale == 1 ? .decode : .scaledDecode(denominator: scale))
        var options = DecodeOptions()
        options.jpegScaleDenominator = scale
        var result = ReferenceDecoders.jpeg(bytes, scaleDenominator: scale)
        let version3 = result.status == .rejected && JPEGReference.lacksProcess(result.message) && LibjpegTurbo3.isAvailable
        if version3 { result = LibjpegTurbo3.decode(bytes, scaleDenominator: scale).result }
        let reference = ReferenceOutcome(result)
        verifyAndPrepare(&benchCase, bytes: bytes, options: options, output: .native, timedFrame: { _ in 0 },
                         reference: reference,
                         layoutName: { "\(nativeName($0)) (native\(scale == 1 ? "" : " 1/\(scale)") | libjpeg\(version3 ? "-turbo 3" : "") default)" }) {
            var image = PIRefImage()
            var precision: Int32 = 0
            bytes.withUnsafeBufferPointer {
                if version3 {
                    _ = pi_ref_jpeg3_decode($0.baseAddress, $0.count, Int32(scale), 0, &image, &precision)
                } else {
                    _ = pi_ref_jpeg_decode($0.baseAddress, $0.count, Int32(scale), &image)
                }
            }
            let size = image.size
            pi_ref_image_free(&image)
            return size
        }
        // stb_image has no DCT-domain scaling: it only joins the full-size rows.
        if scale == 1, let expected = reference.image {
            benchCase.others = [stbJPEG(bytes, expected: expected)]
        }
        return benchCase
    }

    /// GIF: both sides decode every frame's LZW data. Ours: canonical RGBA of the last frame
    /// (composition runs through every frame; a still has one). Reference: giflib DGifSlurp of
    /// all frames plus frame 0 turned into RGBA on a transparent canvas by `composeFirstFrame`
    /// (a giflib user must do that step; it is cheap). Verified: frame 0, ours vs giflib.
    static func gif(file: String, variant: String, bytes: [UInt8]) -> BenchCase {
        var benchCase = BenchCase(file: file, format: .gif, variant: variant, kind: .decode)
        let reference = giflibFirstFrame(bytes)
        verifyAndPrepare(&benchCase, bytes: bytes, options: DecodeOptions(), output: .canonicalRGBA,
                         timedFrame: { $0 - 1 }, reference: reference,
                         layoutName: { "\(rgbaName($0)) (all frames | giflib + frame-0 compose)" }) {
            var gif = PIRefGIF()
            bytes.withUnsafeBufferPointer { _ = pi_ref_gif_decode($0.baseAddress, $0.count, &gif) }
            let size = composeFirstFrame(gif)?.count ?? 0
            pi_ref_gif_free(&gif)
            return size
        }
        if let expected = reference.image {
            benchCase.others = [stbGIF(bytes, expected: expected)]
        }
        return benchCase
    }

    /// TIFF: canonical RGBA against libtiff's TIFFReadRGBAImage (8-bit RGBA; libtiff
    /// premultiplies unassociated alpha, the generated corpus has none). A file PureImage
    /// refuses (e.g. a compression it does not support yet) is skipped; libtiff is timed alone.
    static func tiff(file: String, variant: String, bytes: [UInt8]) -> BenchCase {
        var benchCase = BenchCase(file: file, format: .tiff, variant: variant, kind: .decode)
        verifyAndPrepare(&benchCase, bytes: bytes, options: DecodeOptions(), output: .canonicalRGBA, timedFrame: { _ in 0 },
                         reference: ReferenceOutcome(ReferenceDecoders.tiffRGBA(bytes)),
                         layoutName: { "\(rgbaName($0)) (canonicalRGBA | TIFFReadRGBAImage)" }) {
            var image = PIRefImage()
            bytes.withUnsafeBufferPointer { _ = pi_ref_tiff_decode_rgba($0.baseAddress, $0.count, 0, &image) }
            let size = image.size
            pi_ref_image_free(&image)
            return size
        }
        return benchCase
    }

    /// WebP: straight RGBA8 against libwebp. Stills: WebPDecode with MODE_RGBA (what
    /// WebPDecodeRGBA does) into a buffer allocated per call, as ours is. Animations: every
    /// frame through WebPAnimDecoder (the reference copies each composed canvas out, one memcpy
    /// per frame) against ours drawing the last frame (composition runs through every frame).
    /// Verified: frame 0.
    static func webp(file: String, variant: String, bytes: [UInt8]) -> BenchCase {
        var benchCase = BenchCase(file: file, format: .webp, variant: variant, kind: .decode)
        if ReferenceDecoders.webpIsAnimated(bytes) == true {
            let animation = ReferenceDecoders.webpAnimation(bytes).result
            verifyAndPrepare(&benchCase, bytes: bytes, options: DecodeOptions(), output: .canonicalRGBA,
                             timedFrame: { $0 - 1 }, reference: ReferenceOutcome(animation),
                             layoutName: { "\(rgbaName($0)) (all frames | WebPAnimDecoder)" }) {
                var decoded = PIRefWebPAnimation()
                bytes.withUnsafeBufferPointer { _ = pi_ref_webp_animation_decode($0.baseAddress, $0.count, &decoded) }
                let frames = Int(decoded.decoded_frames)
                pi_ref_webp_animation_free(&decoded)
                return frames
            }
            return benchCase
        }
        verifyAndPrepare(&benchCase, bytes: bytes, options: DecodeOptions(), output: .canonicalRGBA, timedFrame: { _ in 0 },
                         reference: ReferenceOutcome(ReferenceDecoders.webp(bytes)),
                         layoutName: { "\(rgbaName($0)) (canonicalRGBA | WebPDecodeRGBA)" }) {
            var image = PIRefImage()
            bytes.withUnsafeBufferPointer { _ = pi_ref_webp_decode($0.baseAddress, $0.count, &image) }
            let size = image.size
            pi_ref_image_free(&image)
            return size
        }
        return benchCase
    }

    /// Incremental rows are made for photos of at least this many pixels (set from the options:
    /// large photos in the default run, a smaller threshold with --quick so the row never rots).
    nonisolated(unsafe) static var incrementalMinimumPixels = 4_000_000

    /// The incremental-vs-one-shot row for a PNG or JPEG: native output of both, verified equal.
    static func incremental(file: String, variant: String, bytes: [UInt8], format: ImageFormat) -> [BenchCase] {
        var options = DecodeOptions()
        options.decodeAPNGAnimation = false
        let native = ImageDecodingOptions(output: .native)
        guard let decoded = try? ImageSource(bytes: bytes, options: options).decode(options: native), decoded.truncation == nil,
              case let oneShot = decoded.bitmap,
              oneShot.width * oneShot.height >= incrementalMinimumPixels else { return [] }
        let chunk = 4096
        var benchCase = BenchCase(file: file, format: format, variant: variant, kind: .incremental(chunkBytes: chunk))
        benchCase.width = oneShot.width
        benchCase.height = oneShot.height
        benchCase.layout = "native (incremental 4 KiB | PureImage one-shot)"
        func feed() -> Bitmap? {
            let loading = IncrementalImageSource(options: options)
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + chunk)
                loading.append(bytes[start..<end], final: end == bytes.count)
                start = end
            }
            return loading.status == .complete ? try? loading.image(options: native) : nil
        }
        guard let incremental = feed(), incremental.bytes == oneShot.bytes else {
            benchCase.skipReason = "incremental result differs from the one-shot decode"
            return [benchCase]
        }
        benchCase.reference = {
            (try? ImageSource(bytes: bytes, options: options).image(options: native))?.bytes.count ?? 0
        }
        benchCase.ours = { feed()?.bytes.count ?? 0 }
        return [benchCase]
    }

    /// Display rows are made for stills of at least this many pixels (set from the options).
    nonisolated(unsafe) static var displayMinimumPixels = 3_000_000

    /// The display-vs-native row for a still (animations compose on a canvas: their output
    /// is RGBA whatever is asked). Verified first: the display decode equals the native
    /// decode converted by `Bitmap.converted(to:)`.
    static func display(file: String, variant: String, bytes: [UInt8], format: ImageFormat) -> BenchCase? {
        var options = DecodeOptions()
        options.decodeAPNGAnimation = false
        let native = ImageDecodingOptions(output: .native)
        let display = ImageDecodingOptions(output: .display)
        guard let source = try? ImageSource(bytes: bytes, options: options), let header = try? source.properties(),
              header.frameCount == 1, header.width * header.height >= displayMinimumPixels,
              let decoded = try? source.decode(options: native), decoded.truncation == nil else { return nil }
        var benchCase = BenchCase(file: file, format: format, variant: variant, kind: .display)
        benchCase.width = decoded.bitmap.width
        benchCase.height = decoded.bitmap.height
        guard let shown = try? ImageSource(bytes: bytes, options: options).image(options: display),
              let expected = try? decoded.bitmap.converted(to: shown.format, bytesPerRow: shown.bytesPerRow),
              expected.bytes == shown.bytes else {
            benchCase.skipReason = "the display decode differs from the native decode converted"
            return benchCase
        }
        benchCase.layout = "display BGRA (display | PureImage native)"
        benchCase.reference = { (try? ImageSource(bytes: bytes, options: options).image(options: native))?.bytes.count ?? 0 }
        benchCase.ours = { (try? ImageSource(bytes: bytes, options: options).image(options: display))?.bytes.count ?? 0 }
        return benchCase
    }

    // MARK: - Headers only

    /// The properties row: what each side's header call answers is checked first (the width
    /// for JPEG and PNG, the frame or page count for GIF, TIFF and WebP), then both are timed.
    static func properties(file: String, variant: String, bytes: [UInt8], format: ImageFormat) -> BenchCase? {
        let reference: (name: String, call: () -> Int)
        let answer: (ImageProperties) -> Int
        switch format {
        case .jpeg: (reference, answer) = (("jpeg_read_header", { headerCall(bytes, pi_ref_jpeg_header_width) }), { $0.width })
        case .png: (reference, answer) = (("png_read_info", { pngInfoWidth(bytes) }), { $0.width })
        case .gif: (reference, answer) = (("giflib record walk", { headerCall(bytes, pi_ref_gif_record_walk_frames) }), { $0.frameCount })
        case .tiff: (reference, answer) = (("TIFFReadDirectory chain", { headerCall(bytes, pi_ref_tiff_page_count) }), { $0.frameCount })
        case .webp: (reference, answer) = (("WebPDemux", { headerCall(bytes, pi_ref_webp_demux_frames) }), { $0.frameCount })
        case .heic, .heif: return nil
        }
        var benchCase = BenchCase(file: file, format: format, variant: variant, kind: .properties)
        benchCase.layout = "headers (properties() | \(reference.name))"
        let theirs = reference.call()
        guard theirs >= 0 else {
            benchCase.skipReason = "\(reference.name) refuses the file"
            return benchCase
        }
        benchCase.reference = reference.call
        let ours: ImageProperties
        do {
            ours = try ImageSource(bytes: bytes).properties()
        } catch {
            benchCase.skipReason = "PureImage: \(error)"
            return benchCase
        }
        benchCase.width = ours.width
        benchCase.height = ours.height
        guard answer(ours) == theirs else {
            benchCase.skipReason = "answers differ: ours \(answer(ours)), \(reference.name) \(theirs)"
            return benchCase
        }
        benchCase.ours = { (try? ImageSource(bytes: bytes).properties()).map(answer) ?? -1 }
        return benchCase
    }

    /// `pi_ref_png_info` (png_read_info): the width, -1 when libpng refuses the header.
    private static func pngInfoWidth(_ bytes: [UInt8]) -> Int {
        var width: Int32 = 0
        let status = bytes.withUnsafeBufferPointer { pi_ref_png_info($0.baseAddress, $0.count, &width, nil, nil, nil, nil) }
        return status == 0 ? Int(width) : -1
    }

    private static func headerCall(_ bytes: [UInt8], _ call: (UnsafePointer<UInt8>?, Int) -> Int32) -> Int {
        Int(bytes.withUnsafeBufferPointer { call($0.baseAddress, $0.count) })
    }

    // MARK: - Verification

    /// Decodes both sides once (this is also the first warm-up), compares every sample, and
    /// fills in the timed closures. A side that fails, or pixels that differ, leave `ours` nil
    /// with the reason in `skipReason`; the reference is still timed alone if it decoded.
    ///   - timedFrame: which frame ours draws in the timed run, given the frame count (the
    ///     verified frame is always 0).
    static func verifyAndPrepare(_ benchCase: inout BenchCase, bytes: [UInt8], options: DecodeOptions,
                                 output: ImageDecodingOptions.Output, timedFrame: @escaping (Int) -> Int,
                                 reference: ReferenceOutcome, layoutName: (ComparableImage) -> String,
                                 timedReference: @escaping () -> Int) {
        guard let theirs = reference.image else {
            benchCase.skipReason = "reference library rejects the file: \(reference.message)"
            return
        }
        benchCase.width = theirs.width
        benchCase.height = theirs.height
        benchCase.layout = layoutName(theirs)
        benchCase.reference = timedReference
        benchCase.limits.append(memcpyProbe(bytes: theirs.samples.count))

        let decoding = ImageDecodingOptions(output: output)
        let frameCount: Int
        do {
            let decoded = try ImageSource(bytes: bytes, options: options).decode(at: 0, options: decoding)
            let bitmap = decoded.bitmap
            if let truncation = decoded.truncation {
                benchCase.skipReason = "PureImage: input truncated (\(truncation))"
                return
            }
            frameCount = decoded.properties.frameCount
            if let difference = ImageComparison.compare(ComparableImage(bitmap), theirs) {
                benchCase.skipReason = difference.x < 0
                    ? "pixels differ: geometry/layout ours \(bitmap.width)x\(bitmap.height) \(bitmap.format), reference \(theirs.width)x\(theirs.height)x\(theirs.channels)@\(theirs.bits)"
                    : "pixels differ: first at (\(difference.x),\(difference.y)) channel \(difference.channel), \(difference.differingSamples) samples, max \(difference.maxDifference)"
                return
            }
        } catch {
            benchCase.skipReason = "PureImage: \(error)"
            return
        }
        let frame = max(0, timedFrame(frameCount))
        benchCase.ours = {
            do {
                let source = try ImageSource(bytes: bytes, options: options)
                return try source.image(at: frame, options: decoding).bytes.count
            } catch {
                // Decoding is deterministic and this exact call succeeded during verification.
                fatalError("pureimage-bench: decode failed while timing after verifying: \(error)")
            }
        }
    }

    // MARK: - giflib frame 0

    /// giflib's frame 0 as RGBA8 on the logical screen: transparent canvas, frame 0 drawn at its
    /// offset (clipped to the screen), colour-table lookup, the transparent index left at alpha
    /// 0, indices beyond the table drawn opaque black. nil when giflib gave no frame.
    static func composeFirstFrame(_ gif: PIRefGIF) -> [UInt8]? {
        guard gif.frame_count > 0, let frames = gif.frames else { return nil }
        let screenWidth = Int(gif.width), screenHeight = Int(gif.height)
        // Zeroed after the huge-page advice PureImage's canvas gets (pi_ref_advise_huge_pages).
        let count = screenWidth * screenHeight * 4
        var canvas = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            pi_ref_advise_huge_pages(buffer.baseAddress, count)
            buffer.baseAddress?.initialize(repeating: 0, count: count)
            initialized = count
        }
        let frame = frames[0]
        guard let indices = frame.indices else { return canvas }
        let left = Int(frame.left), top = Int(frame.top), width = Int(frame.width), height = Int(frame.height)
        let transparent = Int(frame.transparent_index), paletteCount = Int(frame.palette_count)
        // Table as RGBA words, so the inner loop is one lookup and one 4-byte store.
        var table = [UInt32](repeating: 0xFF00_0000, count: 256)  // opaque black (little-endian RGBA)
        withUnsafeBytes(of: frame.palette) { palette in
            for entry in 0..<min(paletteCount, 256) {
                table[entry] = UInt32(palette[3 * entry]) | UInt32(palette[3 * entry + 1]) << 8
                    | UInt32(palette[3 * entry + 2]) << 16 | 0xFF00_0000
            }
        }
        if transparent >= 0, transparent < 256 { table[transparent] = 0 }
        let x0 = max(0, left), x1 = min(screenWidth, left + width)
        let y0 = max(0, top), y1 = min(screenHeight, top + height)
        guard x0 < x1, y0 < y1 else { return canvas }
        canvas.withUnsafeMutableBytes { raw in
            let words = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
            table.withUnsafeBufferPointer { lookup in
                for y in y0..<y1 {
                    let sourceRow = indices + (y - top) * width
                    let targetRow = words + y * screenWidth
                    for x in x0..<x1 {
                        let value = lookup[Int(sourceRow[x - left])]
                        // Transparent pixels keep the canvas (all zero) either way.
                        targetRow[x] = value
                    }
                }
            }
        }
        return canvas
    }

    /// giflib through CReference, frame 0 composed, for verification.
    static func giflibFirstFrame(_ bytes: [UInt8]) -> ReferenceOutcome {
        var gif = PIRefGIF()
        bytes.withUnsafeBufferPointer { _ = pi_ref_gif_decode($0.baseAddress, $0.count, &gif) }
        defer { pi_ref_gif_free(&gif) }
        let message = withUnsafeBytes(of: gif.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard gif.status >= 0, let canvas = composeFirstFrame(gif) else {
            return ReferenceOutcome(image: nil, message: message)
        }
        let image = ComparableImage(width: Int(gif.width), height: Int(gif.height), channels: 4, bits: 8, samples: canvas)
        return ReferenceOutcome(image: image, message: message)
    }

    // MARK: - Layout names

    static func rgbaName(_ image: ComparableImage) -> String {
        image.bits == 16 ? "RGBA16" : "RGBA8"
    }

    static func nativeName(_ image: ComparableImage) -> String {
        switch image.channels {
        case 1: return "Gray\(image.bits)"
        case 3: return "RGB\(image.bits)"
        case 4: return "CMYK\(image.bits)"
        default: return "\(image.channels)ch\(image.bits)"
        }
    }
}
