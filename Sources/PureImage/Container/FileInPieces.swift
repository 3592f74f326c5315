/// Decoding a file while it is read, a window at a time (`ImageSource.decodeRows(contentsOfFile:)`,
/// `decodeScaledDownRows(contentsOfFile:)`): the source holds the start of the file — enough for
/// its header walk — and the decoder is fed the rest in pieces, its consumed input dropped
/// whenever it says it will not read it again (`FormatDecoder.mayDiscardConsumedInput`).
/// Docs/ImageSource.md, "From a file, in pieces".

/// The rest of a file whose start an `ImageSource` holds, and the size of the pieces it is
/// read in (also how much consumed input may gather before it is dropped).
struct FileRest {
    let file: FileStream
    let window: Int
}

/// What `ImageSource.openInPieces` found.
enum OpenedFile {
    /// A regular file of one of the formats asked for: a source holding its start (its header
    /// walk complete, or failed on all the bytes it may read), and the rest.
    case inPieces(ImageSource, FileRest)
    /// A regular TIFF file, when TIFF is asked for: a source holding its first piece, and the
    /// file to read at offsets (`TIFFDecoder.file`) — a TIFF's IFDs and strips may lie anywhere.
    case atOffsets(ImageSource, RandomAccessFile)
    /// Any other file, read whole as `ImageSource(contentsOfFile:)` reads it; a FIFO, whose
    /// rest follows the piece already read (it cannot be read again).
    case whole(ImageSource)
}

extension ImageSource {
    /// Opens `path` (typed I/O errors as `init(contentsOfFile:)`'s) and reads its first piece.
    ///
    /// A JPEG's header walk needs every segment before the first scan (EXIF, XMP and ICC
    /// segments can be large): more is read (as much again each time) while the walk fails or
    /// runs out of bytes, up to `largestDescribedPrefix` (16 MiB) — then the walk is the whole
    /// file's, which ends at the first SOS too. A PNG or GIF walk gives the header's fields
    /// from any prefix that holds them (IHDR; the logical screen and global colour table): more
    /// is read while it fails. A walk that still fails at 16 MiB has the whole file read. A TIFF
    /// (when asked for) is not read in order but at offsets (`atOffsets`). This is also how
    /// `describe(contentsOfFile:)` reads a file.
    ///
    /// `walkingWhole`: the formats (PNG, GIF) whose source must describe the whole file, not
    /// its start — a PNG's late chunks, a later GIF frame's transparency, the truncation of a
    /// file that ends early: the container walk is run over the whole file in pieces first (it
    /// skips the image data and drops what it consumed), the source remembers it, and the rest
    /// is then read again from the end of the start.
    static func openInPieces(_ path: String, options: DecodeOptions, window: Int, formats: Set<ImageFormat>,
                             walkingWhole: Set<ImageFormat> = []) throws(DecodeError) -> OpenedFile {
        let window = max(1, window)
        let file = try FileStream(path: path)
        // (At least the bytes any signature takes: WebP's RIFF header is the longest, 12.)
        var prefix = try file.next(upTo: max(window, 16))
        if file.isRegularFile && !file.isAtEnd && formats.contains(.tiff) && FormatSniffer.sniff(prefix) == .format(.tiff),
           let atOffsets = try RandomAccessFile(path: path, blockSize: min(window, 1 << 16)) {
            return .atOffsets(try ImageSource(bytes: prefix, format: .tiff, options: options), atOffsets)
        }
        if file.isRegularFile && !file.isAtEnd, case .format(let format) = FormatSniffer.sniff(prefix), formats.contains(format) {
            var source = try ImageSource(bytes: prefix, format: format, options: options)
            func walked() -> Bool { format == .jpeg ? source.headerWalkEndsInside : (try? source.describe()) != nil }
            while !walkingWhole.contains(format) && !file.isAtEnd && prefix.count < largestDescribedPrefix && !walked() {
                prefix.append(contentsOf: try file.next(upTo: max(window, prefix.count)))
                source = try ImageSource(bytes: prefix, format: format, options: options)
            }
            if walkingWhole.contains(format) && !file.isAtEnd {
                let rest = FileRest(file: file, window: window)
                source.remember(Result { () throws(DecodeError) in
                    try walkContainer(format: format, options: options, bytes: prefix, reading: rest)
                })
                try file.seek(to: prefix.count)
                return .inPieces(source, rest)
            }
            // A walk that still fails where the file goes on is the whole file's to judge (the
            // end of the bytes held may be why it failed).
            if file.isAtEnd || walked() { return .inPieces(source, FileRest(file: file, window: window)) }
            return .whole(try ImageSource(contentsOfFile: path, options: options))
        }
        if file.isRegularFile && !file.isAtEnd {
            // Read whole as `init(contentsOfFile:)` reads it: one array of the file's size.
            return .whole(try ImageSource(contentsOfFile: path, options: options))
        }
        while !file.isAtEnd { prefix.append(contentsOf: try file.next(upTo: window)) }
        return .whole(try ImageSource(bytes: prefix, options: options))
    }

    /// Whether the header walk ended inside these bytes (a JPEG's at its first scan), so more
    /// of the file would not change what it found.
    var headerWalkEndsInside: Bool {
        guard let description = try? describe() else { return false }
        return description.truncation == nil
    }
}

extension DecodeSession {
    /// Runs the decoder; while it needs more input and `goOn()` holds, feeds it the next piece
    /// of `rest`, first dropping what it consumed once a piece's worth has gathered (if it will
    /// not read it again), and closes the input at the end of the file. Returns the last
    /// progress and the most input bytes held at once. Without `rest`, one `pump()`.
    func pump(reading rest: FileRest?, while goOn: () -> Bool) throws(DecodeError) -> (progress: DecodeProgress, largestHeld: Int) {
        var progress = try pump()
        var largestHeld = input.bytes.count
        // Room for the whole file, so that a decoder that keeps its input (a banded JPEG
        // decode reads its scans again) never has it copied as it grows — that held up to
        // twice the file at once. What is never written is never touched: a decoder that
        // drops its input uses the first few pieces' worth.
        if progress == .needMoreInput, let size = rest?.file.size { reserveInput(total: size) }
        while progress == .needMoreInput, let rest, goOn() {
            if input.readIndex - input.origin >= rest.window { discardConsumedInput() }
            let piece = try rest.file.next(upTo: rest.window)
            if piece.isEmpty { close() } else { append(piece) }
            largestHeld = max(largestHeld, input.bytes.count)
            progress = try pump()
        }
        return (progress, largestHeld)
    }
}
