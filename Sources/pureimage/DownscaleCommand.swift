import CommandLineSupport
import PureImage
#if canImport(Glibc)
import Glibc
#endif

/// `pureimage downscale FILE -o OUT [--limit-bytes N] [--plan]` and
/// `pureimage thumbnail FILE -o OUT --max-pixel-size N [--apply-orientation]`
enum DownscaleCommand {
    static let help = """
    usage: pureimage downscale FILE -o OUT [--limit-bytes N] [--plan]

    SDWebImage's decodedAndScaledDownImage(limitBytes:): the first frame, scaled so that it
    fits in N bytes at 4 bytes per pixel (0 or absent: the 60 MB iOS default), with a
    Lanczos-3 filter fed row by row from the decoder (the full-size image is never held),
    and OUT written while the filter finishes rows (the scaled image is not held either).
    A JPEG file is read in pieces as it decodes (the file is not held whole either).
    Exit status 3: the input was truncated; what it holds was written.
    --plan   print the plan (destination size, bands, seam overlap) and write nothing
             unless -o is given too
    --no-dct-scaling  JPEG: resample from the full-size decode instead of first reducing
             1/2, 1/4 or 1/8 in the DCT domain (to measure what that reduction costs)
    --stats  print the time and the process's peak resident memory after the downscale
             (and the write, with -o); -o is then optional
    OUT: .pam, .png, .ppm or .pgm (RGBA, straight alpha).
    """

    static let thumbnailHelp = """
    usage: pureimage thumbnail FILE -o OUT --max-pixel-size N [--apply-orientation]
                               [--from image|embedded|embedded-if-large-enough]

    ImageIO's thumbnail: the longest side at most N pixels, the aspect ratio kept, never
    enlarged; --apply-orientation turns it upright per the EXIF orientation.
    --from   image (default): from the image itself; embedded: the EXIF thumbnail whenever the
             file has one (ImageIO's FromImageIfAbsent); embedded-if-large-enough: the EXIF
             thumbnail when its longer side reaches N, else the image.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, valued: ["-o", "--output", "--limit-bytes"], allowedFlags: ["--plan", "--no-dct-scaling", "--stats", "--help", "-h"])
        if parsed.has("--help") || parsed.has("-h") { print(help); return ExitStatus.success }
        guard parsed.positional.count == 1, let path = parsed.positional.first else { throw UsageError(message: "downscale takes exactly one FILE") }
        let output = parsed.value("-o") ?? parsed.value("--output")
        guard output != nil || parsed.has("--plan") || parsed.has("--stats") else {
            throw UsageError(message: "downscale needs -o OUT (or --plan, --stats)")
        }
        var limit = 0
        if let text = parsed.value("--limit-bytes") {
            guard let value = Int(text), value >= 0 else { throw UsageError(message: "--limit-bytes takes a byte count ≥ 0") }
            limit = value
        }
        do {
            if parsed.has("--plan") {
                // From the headers (a JPEG's first kilobytes), as the decode plans.
                let header = try ImageSource.describe(contentsOfFile: path).properties
                print(DownscalePlan(sourceWidth: header.width, sourceHeight: header.height, limitBytes: limit).description)
            }
            guard output != nil || parsed.has("--stats") else { return ExitStatus.success }
            let started = ContinuousClock.now
            let dctScaling = !parsed.has("--no-dct-scaling")
            // Written while the resampler finishes rows: the destination is never whole in memory.
            var size = (width: 0, height: 0)
            let status: Int32
            if let output {
                guard let container = ImageWriter.Container(pathExtension: output) else { throw unknownContainer(output) }
                // A missing or unreadable input leaves an existing output untouched.
                try ImageFiles.checkReadable(path)
                status = try DecodeCommand.stream(path: path, output: output, container: container) { body in
                    try ImageSource.decodeScaledDownRows(contentsOfFile: path, limitBytes: limit, output: .canonicalRGBA,
                                                         jpegDCTScaling: dctScaling) { band in
                        size = (band.rows.width, band.frameHeight)
                        try body(band)
                    }
                }
            } else {
                let bitmap = try ImageSource(contentsOfFile: path).decodedAndScaledDown(limitBytes: limit, output: .canonicalRGBA,
                                                                                        jpegDCTScaling: dctScaling)
                size = (bitmap.width, bitmap.height)
                status = ExitStatus.success
            }
            if parsed.has("--stats") {
                let elapsed = ContinuousClock.now - started
                var usage = rusage()
                getrusage(RUSAGE_SELF.rawValue, &usage)   // ru_maxrss: kilobytes on Linux
                var info = stat()
                let inputBytes = stat(path, &info) == 0 ? Int(info.st_size) : 0
                print("downscaled to \(size.width) x \(size.height) in \(elapsed); peak resident memory \(usage.ru_maxrss / 1024) MB (input file \(inputBytes / 1_048_576) MB)")
            }
            return status
        } catch let error as DecodeError {
            return CLI.report(path, error)
        }
    }

    static func unknownContainer(_ output: String) -> UsageError {
        UsageError(message: "cannot tell the output format from '\(output)' (use .pam, .png, .ppm or .pgm)")
    }

    static func runThumbnail(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, valued: ["-o", "--output", "--max-pixel-size", "--from"], allowedFlags: ["--apply-orientation", "--help", "-h"])
        if parsed.has("--help") || parsed.has("-h") { print(thumbnailHelp); return ExitStatus.success }
        guard parsed.positional.count == 1, let path = parsed.positional.first else { throw UsageError(message: "thumbnail takes exactly one FILE") }
        guard let output = parsed.value("-o") ?? parsed.value("--output") else { throw UsageError(message: "thumbnail needs -o OUT") }
        guard let text = parsed.value("--max-pixel-size"), let size = Int(text), size > 0 else {
            throw UsageError(message: "thumbnail needs --max-pixel-size N (N > 0)")
        }
        let sources: [String: ThumbnailSource] = ["image": .image, "embedded": .embeddedIfPresent, "embedded-if-large-enough": .embeddedIfLargeEnough]
        guard let thumbnailSource = sources[parsed.value("--from") ?? "image"] else {
            throw UsageError(message: "--from takes image, embedded or embedded-if-large-enough")
        }
        do {
            // (The file is read in pieces, never whole, when the thumbnail scales it down.)
            let bitmap = try ImageSource.thumbnail(contentsOfFile: path, maxPixelSize: size, applyOrientation: parsed.has("--apply-orientation"),
                                                   output: .canonicalRGBA, from: thumbnailSource)
            return try write(bitmap, to: output)
        } catch let error as DecodeError {
            return CLI.report(path, error)
        }
    }

    static func write(_ bitmap: Bitmap, to output: String) throws -> Int32 {
        guard let container = ImageWriter.Container(pathExtension: output) else { throw unknownContainer(output) }
        do {
            try FileIO.writeStreaming(to: output) { sink in try ImageWriter.write(bitmap, as: container, to: sink) }
        } catch {
            printError("pureimage: \(output): cannot write: \(error)")
            return ExitStatus.invalidInput
        }
        return ExitStatus.success
    }
}
