@_spi(Reference) import PureImage

/// The outcome of comparing one file with its reference library.
public enum Verdict: String, Sendable, CaseIterable, Codable {
    /// Every sample of every compared frame is equal.
    case identical
    /// Samples differ by no more than the tolerance its expectation states.
    case withinTolerance = "within-tolerance"
    /// Samples differ.
    case mismatched
    /// Both decoders refuse the file.
    case rejectedByBoth = "rejected-by-both"
    /// The file ends early: PureImage decodes what is there (marked truncated) where the
    /// reference fails or warns. This is the library's policy for truncated input.
    case partial
    /// PureImage refuses a file the reference decodes.
    case oursRejected = "rejected-by-us-only"
    /// PureImage decodes a file the reference refuses.
    case referenceRejected = "rejected-by-reference-only"
    /// PureImage reports a typed "unsupported" error (arithmetic JPEG, BigTIFF, …).
    case unsupported
    /// No reference library for this format (HEIC, unknown files).
    case noReference = "no-reference"
    /// The decoding child process died (only with `--isolate`).
    case crashed
}

/// One file's comparison.
public struct FileReport: Sendable {
    public var path: String
    /// Path relative to the corpus root it was found under.
    public var relativePath: String
    /// The corpus root's name plus the first folder below it, e.g. `corpus/pngsuite`.
    public var suite: String
    public var format: String
    public var verdict: Verdict
    public var detail: String
    public var frames: Int
    public var difference: PixelDifference?
    public var differingFrame: Int?
    /// Kept for the HTML report when the images are not identical.
    public var ours: ComparableImage?
    public var reference: ComparableImage?
    /// Whether the verdict is what the expectations allow, and why (when listed).
    public var expected = true
    public var expectation: String?
    /// CRC-32s of every image each side produced for the comparison (`OutputDigest`), for the
    /// golden-digest manifest; nil for a side that produced none.
    public var oursDigest: UInt32?
    public var referenceDigest: UInt32?
    /// The corpus root given to the run, and the file's position in the run's walk over all its
    /// roots (shards keep it, so merged shards come back in the order of one run).
    public var root = ""
    public var index = 0

    public init(path: String, relativePath: String, suite: String, format: String, verdict: Verdict, detail: String, frames: Int) {
        self.path = path
        self.relativePath = relativePath
        self.suite = suite
        self.format = format
        self.verdict = verdict
        self.detail = detail
        self.frames = frames
    }
}

/// Test-only hook: change our decoded samples before comparison (the conformance runner's own
/// test plants a wrong pixel this way to prove a difference is reported exactly).
public typealias OutputTamper = @Sendable (_ relativePath: String, _ image: inout ComparableImage) -> Void

public enum FileComparison {
    /// Compares one file, dispatching on its signature.
    public static func compare(bytes: [UInt8], path: String, relativePath: String, suite: String, tamper: OutputTamper? = nil) -> FileReport {
        var report = FileReport(path: path, relativePath: relativePath, suite: suite, format: "unknown",
                                verdict: .noReference, detail: "", frames: 0)
        guard case .format(let format) = FormatSniffer.sniff(bytes) else {
            report.detail = "not an image of a known format"
            if case .nearMiss(let format) = FormatSniffer.sniff(bytes) {
                report.format = format.rawValue
                report.verdict = .rejectedByBoth
                report.detail = "damaged signature"
            }
            return report
        }
        report.format = format.rawValue
        switch format {
        case .png:
            comparePNG(bytes, into: &report, tamper: tamper)
        case .gif:
            compareGIF(bytes, into: &report, tamper: tamper)
        case .jpeg:
            compareJPEG(bytes, into: &report, tamper: tamper)
        case .tiff:
            compareTIFF(bytes, into: &report, tamper: tamper)
        case .webp:
            compareWebP(bytes, into: &report, tamper: tamper)
        case .heic, .heif:
            compareWithoutReference(bytes, format: format, into: &report)
        }
        return report
    }

    /// PNG: the still default image (APNG chunks skipped, as libpng without the APNG patch
    /// does) as canonical RGBA against libpng's expanded RGBA.
    static func comparePNG(_ bytes: [UInt8], into report: inout FileReport, tamper: OutputTamper?) {
        let reference = ReferenceDecoders.png(bytes)
        var options = DecodeOptions()
        options.decodeAPNGAnimation = false
        let ours: (image: ComparableImage, truncated: Bool)
        do {
            let decoded = try ImageSource(bytes: bytes, options: options).decode(options: ImageDecodingOptions(output: .canonicalRGBA))
            ours = (ComparableImage(decoded.bitmap), decoded.truncation != nil)
        } catch {
            classifyRejection(error, reference: reference, into: &report)
            return
        }
        report.frames = 1
        judge(ours: ours.image, truncated: ours.truncated, reference: reference, frame: 0, into: &report, tamper: tamper)
    }

    /// GIF: every composed frame (canonical RGBA8) against giflib's frames composed by the
    /// reference rules; frame count, delays and loop count against giflib's parse. Where giflib
    /// stops early (status 1) only the frames it completed are compared.
    static func compareGIF(_ bytes: [UInt8], into report: inout FileReport, tamper: OutputTamper?) {
        let (reference, delays, loopCount) = ReferenceDecoders.gif(bytes)
        let source: ImageSource
        let first: DecodedFrame
        do {
            source = try ImageSource(bytes: bytes)
            first = try source.decode(at: 0, options: ImageDecodingOptions(output: .format(.rgba8)))
        } catch {
            classifyRejection(error, reference: reference, into: &report)
            return
        }
        // The frames as decoded (the headers' count is checked against them in the tests).
        let properties = first.properties
        let truncated = first.truncation != nil
        report.frames = properties.frameCount
        if reference.status == .ok {
            if properties.frameCount != reference.frames.count {
                report.verdict = .mismatched
                report.detail = "\(properties.frameCount) frames, giflib \(reference.frames.count)"
                return
            }
            let ourDelays = properties.frames.map { Int(($0.delay * 100).rounded()) }
            if properties.frameCount > 1 && ourDelays != delays {
                report.verdict = .mismatched
                report.detail = "delays \(ourDelays.prefix(8)) vs giflib \(delays.prefix(8))"
                return
            }
            if properties.frameCount > 1 && properties.loopCount != loopCount {
                report.verdict = .mismatched
                report.detail = "loop count \(String(describing: properties.loopCount)) vs giflib \(String(describing: loopCount))"
                return
            }
        }
        let count = reference.status == .rejected ? 0 : min(reference.frames.count, properties.frameCount)
        if reference.status != .rejected && properties.frameCount < reference.frames.count {
            report.verdict = .mismatched
            report.detail = "\(properties.frameCount) frames, giflib completed \(reference.frames.count)"
            return
        }
        for index in 0..<max(count, 1) {
            let ours: ComparableImage
            do {
                ours = ComparableImage(try source.image(at: index, options: ImageDecodingOptions(output: .format(.rgba8))))
            } catch {
                classifyRejection(error, reference: reference, into: &report)
                return
            }
            judge(ours: ours, truncated: truncated && reference.status != .ok, reference: reference, frame: index, into: &report, tamper: tamper)
            if report.verdict != .identical { return }
        }
        if report.verdict == .identical && reference.status == .warning && !truncated {
            report.detail = "giflib warned: \(reference.message)"
        }
    }

    /// WebP: a still (libwebp's WebPGetFeatures sees no animation) as straight RGBA8 against
    /// WebPDecodeRGBA; an animation frame by frame (composed canvases, straight RGBA8) against
    /// WebPAnimDecoder, with the frame count, durations (ms) and loop count. Where
    /// WebPAnimDecoder stops early (status 1) only the frames it completed are compared.
    static func compareWebP(_ bytes: [UInt8], into report: inout FileReport, tamper: OutputTamper?) {
        guard ReferenceDecoders.webpIsAnimated(bytes) == true else {
            let reference = ReferenceDecoders.webp(bytes)
            let ours: (image: ComparableImage, truncated: Bool)
            do {
                let decoded = try ImageSource(bytes: bytes).decode(options: ImageDecodingOptions(output: .format(.rgba8)))
                ours = (ComparableImage(decoded.bitmap), decoded.truncation != nil)
            } catch {
                classifyRejection(error, reference: reference, into: &report)
                return
            }
            report.frames = 1
            judge(ours: ours.image, truncated: ours.truncated, reference: reference, frame: 0, into: &report, tamper: tamper)
            return
        }
        let (reference, referenceFrames, durations, loopCount, _) = ReferenceDecoders.webpAnimation(bytes)
        let source: ImageSource
        let first: DecodedFrame
        do {
            source = try ImageSource(bytes: bytes)
            first = try source.decode(at: 0, options: ImageDecodingOptions(output: .format(.rgba8)))
        } catch {
            classifyRejection(error, reference: reference, into: &report)
            return
        }
        let properties = first.properties
        let truncated = first.truncation != nil
        report.frames = properties.frameCount
        if reference.status != .rejected {
            if properties.frameCount != referenceFrames {
                report.verdict = .mismatched
                report.detail = "\(properties.frameCount) frames, libwebp \(referenceFrames)"
                return
            }
            let ourDurations = properties.frames.prefix(durations.count).map { Int(($0.delay * 1000).rounded()) }
            if ourDurations != durations {
                report.verdict = .mismatched
                report.detail = "durations \(ourDurations.prefix(8)) vs libwebp \(durations.prefix(8))"
                return
            }
            if properties.loopCount != loopCount {
                report.verdict = .mismatched
                report.detail = "loop count \(String(describing: properties.loopCount)) vs libwebp \(loopCount)"
                return
            }
        }
        let count = reference.status == .rejected ? 1 : reference.frames.count
        for index in 0..<count {
            let ours: ComparableImage
            do {
                ours = ComparableImage(try source.image(at: index, options: ImageDecodingOptions(output: .format(.rgba8))))
            } catch {
                classifyRejection(error, reference: reference, into: &report)
                return
            }
            judge(ours: ours, truncated: truncated && reference.status != .ok, reference: reference, frame: index, into: &report, tamper: tamper)
            if report.verdict != .identical { return }
        }
        if report.verdict == .identical && reference.status == .warning {
            // WebPAnimDecoder failed on a later frame: ours must fail there too.
            let failing = reference.frames.count
            if failing < properties.frameCount, (try? source.image(at: failing)) != nil {
                report.verdict = .referenceRejected
                report.detail = "libwebp stopped at frame \(failing) (\(reference.message)); PureImage decodes it"
            } else {
                report.detail = "libwebp: \(reference.message)"
            }
        }
    }

    /// JPEG: the native output (gray, RGB or CMYK) against libjpeg-turbo's default decode.
    /// Adobe CMYK/YCCK files store inverted ink values and libjpeg outputs them as stored;
    /// PureImage's CMYK means 0 = no ink, so the reference is compared as 255 − x there.
    ///
    /// What libjpeg-turbo 2.1.5 refuses as a precision or process it lacks (12-bit, lossless)
    /// is compared with libjpeg-turbo 3 (`LibjpegTurbo3`) — lossless YCbCr files in their
    /// stored components, the only way libjpeg-turbo hands them out (it converts no lossless
    /// colours). Lossless arithmetic coding (SOF11) has no reference: no-reference.
    static func compareJPEG(_ bytes: [UInt8], into report: inout FileReport, tamper: OutputTamper?) {
        var reference = ReferenceDecoders.jpeg(bytes)
        var options = DecodeOptions()
        if reference.status == .rejected && JPEGReference.lacksProcess(reference.message) {
            reference = LibjpegTurbo3.decode(bytes).result
            if reference.message == "Unsupported color conversion request" {
                reference = LibjpegTurbo3.decode(bytes, asStored: true).result
                options.jpegColorHandling = .asStored
            }
            reference.message = "libjpeg-turbo 3: " + reference.message
        }
        if reference.status == .rejected && JPEGReference.noneExists(reference.message) {
            compareWithoutReference(bytes, format: .jpeg, into: &report)
            report.detail += " (\(reference.message))"
            return
        }
        let ours: (image: ComparableImage, truncated: Bool)
        do {
            let decoded = try ImageSource(bytes: bytes, options: options).decode(options: ImageDecodingOptions(output: .native))
            let native = decoded.bitmap
            ours = (ComparableImage(native), decoded.truncation != nil)
            let adobe = decoded.properties.extra.contains { $0.key == "adobeTransform" }
            if native.format.colorModel == .cmyk && adobe {
                for index in reference.frames.indices {
                    reference.frames[index].invert(maximum: (1 << native.significantBitsPerComponent) - 1)
                }
            }
        } catch {
            classifyRejection(error, reference: reference, into: &report)
            return
        }
        report.frames = 1
        judge(ours: ours.image, truncated: ours.truncated, reference: reference, frame: 0, into: &report, tamper: tamper)
    }

    /// TIFF: page 0 in the `libtiffRGBA` output (RGBA8 exactly as libtiff's RGBA interface
    /// computes it, orientation flips included) against libtiff's `TIFFReadRGBAImageOriented`
    /// (top-left), then the decoded samples (`compareTIFFSamples`).
    static func compareTIFF(_ bytes: [UInt8], into report: inout FileReport, tamper: OutputTamper?) {
        let reference = ReferenceDecoders.tiffRGBA(bytes)
        let ours: (image: ComparableImage, truncated: Bool)
        do {
            let source = try ImageSource(bytes: bytes)
            // The pages the headers describe (a failing walk is reported by the decode below).
            report.frames = (try? source.properties().frameCount) ?? 1
            let decoded = try source.decode(options: ImageDecodingOptions(output: .libtiffRGBA))
            ours = (ComparableImage(decoded.bitmap), decoded.truncation != nil)
        } catch {
            classifyRejection(error, reference: reference, into: &report)
            compareTIFFSamples(bytes, into: &report)
            return
        }
        judge(ours: ours.image, truncated: ours.truncated, reference: reference, frame: 0, into: &report, tamper: tamper)
        // Later pages (IFDs), where both decode them: the same comparison, page by page.
        if report.verdict == .identical, report.frames > 1, let source = try? ImageSource(bytes: bytes) {
            for page in 1..<report.frames {
                let theirs = ReferenceDecoders.tiffRGBA(bytes, page: page)
                guard theirs.status != .rejected,
                      let bitmap = try? source.image(at: page, options: ImageDecodingOptions(output: .libtiffRGBA)) else { continue }
                judge(ours: ComparableImage(bitmap), truncated: false, reference: theirs, frame: 0, into: &report, tamper: nil)
                if report.verdict != .identical {
                    report.differingFrame = page
                    report.detail = "page \(page): " + report.detail
                    return
                }
            }
        }
        if report.verdict == .identical && reference.status == .warning {
            report.detail = "libtiff warned: \(reference.message)"
        }
        compareTIFFSamples(bytes, into: &report)
    }

    /// TIFF below the photometric interpretation (SampleComparison.swift): page 0's decoded
    /// samples against libtiff's. Samples that differ make the file mismatched whatever the
    /// RGBA comparison said; equal samples make a file whose RGBA one side cannot render
    /// (12-bit, float, Lab, … which libtiff's RGBA interface refuses) identical.
    static func compareTIFFSamples(_ bytes: [UInt8], into report: inout FileReport) {
        let comparable: Set<Verdict> = [.identical, .withinTolerance, .referenceRejected, .unsupported, .oursRejected]
        guard comparable.contains(report.verdict) else { return }
        let theirs = ReferenceDecoders.tiffSamples(bytes)
        guard theirs.status != .rejected,
              let ours = try? ImageSource(bytes: bytes).decodedSamples() else { return }
        report.oursDigest = OutputDigest.adding(header: [ours.width, ours.height, ours.samplesPerPixel, ours.bitsPerSample],
                                                samples: ours.bytes, to: report.oursDigest)
        report.referenceDigest = OutputDigest.adding(header: [theirs.width, theirs.height, theirs.samplesPerPixel, theirs.bitsPerSample],
                                                     samples: theirs.bytes, to: report.referenceDigest)
        if let difference = SampleComparison.difference(ours, theirs) {
            report.verdict = .mismatched
            report.detail = difference + (report.detail.isEmpty ? "" : "; RGBA: " + report.detail)
        } else if report.verdict != .identical && report.verdict != .withinTolerance {
            report.verdict = .identical
            report.detail = "decoded samples identical; RGBA not compared: " + report.detail
        }
    }

    /// Sets the verdict for one frame decoded by both (or by us only).
    static func judge(ours: ComparableImage, truncated: Bool, reference: ReferenceResult, frame: Int,
                      into report: inout FileReport, tamper: OutputTamper?) {
        var ours = ours
        tamper?(report.relativePath, &ours)
        report.oursDigest = OutputDigest.adding(ours, to: report.oursDigest)
        guard reference.status != .rejected, frame < reference.frames.count else {
            report.verdict = truncated ? .partial : .referenceRejected
            report.detail = "reference: \(reference.message)"
            if report.ours == nil { report.ours = ours }   // the report shows what we made of it
            return
        }
        let theirs = reference.frames[frame]
        report.referenceDigest = OutputDigest.adding(theirs, to: report.referenceDigest)
        if let difference = ImageComparison.compare(ours, theirs) {
            report.verdict = .mismatched
            report.difference = difference
            report.differingFrame = frame
            report.ours = ours
            report.reference = theirs
            report.detail = difference.x < 0
                ? "geometry differs: ours \(ours.width)×\(ours.height)×\(ours.channels)@\(ours.bits), reference \(theirs.width)×\(theirs.height)×\(theirs.channels)@\(theirs.bits)"
                : "frame \(frame): first difference at (\(difference.x), \(difference.y)) channel \(difference.channel): \(difference.ours) vs \(difference.reference); max difference \(difference.maxDifference) over \(difference.differingSamples) samples"
        } else if truncated {
            // Equal pixels but we saw the input end early: the reference warned or filled in.
            report.verdict = reference.status == .warning ? .partial : .mismatched
            report.detail = reference.status == .warning ? "truncated; reference warned: \(reference.message)" : "we report truncation, the reference decoded cleanly"
            if report.ours == nil { report.ours = ours; report.reference = theirs }
        } else if report.verdict != .mismatched {
            report.verdict = .identical
        }
    }

    static func classifyRejection(_ error: DecodeError, reference: ReferenceResult, into report: inout FileReport) {
        report.detail = "ours: \(error)" + (reference.status == .rejected ? "; reference: \(reference.message)" : "")
        if reference.status != .rejected { report.reference = reference.frames.first }   // for the report
        if error.kind == .unsupported {
            report.verdict = .unsupported
        } else if reference.status == .rejected {
            report.verdict = .rejectedByBoth
        } else {
            report.verdict = .oursRejected
        }
    }

    /// Formats whose comparison has not landed (or that have no reference library): decode
    /// ours anyway so crashes and hangs still show, and say so.
    static func compareWithoutReference(_ bytes: [UInt8], format: ImageFormat, into report: inout FileReport) {
        do {
            let source = try ImageSource(bytes: bytes)
            let first = try source.decode(at: 0)
            let properties = first.properties
            // Ours still gets a digest, so the golden manifest notices when this output moves.
            report.oursDigest = OutputDigest.adding(ComparableImage(first.bitmap), to: nil)
            for index in 1..<max(1, properties.frameCount) {
                if let bitmap = try? source.image(at: index) {
                    report.oursDigest = OutputDigest.adding(ComparableImage(bitmap), to: report.oursDigest)
                }
            }
            report.frames = properties.frameCount
            report.verdict = .noReference
            report.detail = "decoded \(properties.width)×\(properties.height); no reference comparison for \(format.rawValue)"
        } catch {
            report.verdict = error.kind == .unsupported ? .unsupported : .noReference
            report.detail = "ours: \(error)"
        }
    }
}

/// Which libjpeg-turbo answers for which JPEG (shared with the tests).
public enum JPEGReference {
    /// libjpeg-turbo 2.1.5's refusals of processes libjpeg-turbo 3 decodes: 12-bit and
    /// lossless (SOF3) frames.
    public static func lacksProcess(_ message: String) -> Bool {
        message.hasPrefix("Unsupported JPEG data precision") || message.hasPrefix("Unsupported JPEG process: SOF type 0xc3")
    }

    /// libjpeg-turbo's refusal of a frame whose height a DNL segment defines (T.81 B.2.5),
    /// which PureImage decodes: the tests check such files against a rewritten twin.
    public static func refusesDNL(_ message: String) -> Bool { message.hasPrefix("Empty JPEG image (DNL not supported)") }

    /// Refusals of a process no libjpeg-turbo implements: lossless arithmetic coding (SOF11).
    public static func noneExists(_ message: String) -> Bool {
        message.contains("Requested feature was omitted") || message.contains("Sorry, arithmetic coding is not implemented")
            || message.hasPrefix("Unsupported JPEG process: SOF type 0xcb")
    }
}
