/// What a format's resumable decoder reports after consuming what input it could.
enum DecodeProgress: Equatable {
    /// Stopped because the input has no more bytes yet; call again after appending.
    case needMoreInput
    /// The image (all frames wanted) is decoded, or the input was closed early and what was
    /// there has been decoded (`FormatDecoder.truncation` then says where it ended).
    case finished
}

/// The protocol every format's state machine adopts. Decoders are synchronous and push-based
/// (no I/O inside): `advance` consumes from `InputBuffer` until it must wait or is done, keeping
/// its state between calls, so one-shot decoding is the same machine fed everything at once.
///
/// Decoders need not make errors sticky themselves: `DecodeSession` does that in one place.
protocol FormatDecoder: AnyObject {
    /// Advances as far as the input allows.
    func advance(_ input: inout InputBuffer) throws(DecodeError) -> DecodeProgress

    /// Known once the header has been parsed (then updated as frames arrive); nil before.
    var properties: ImageProperties? { get }

    /// Frames completely decoded so far.
    var completedFrameCount: Int { get }

    /// Frame `index` in the decoder's native pixel format, composed on the canvas for
    /// animations. Frames not completely decoded (after truncation) show what was decoded,
    /// with the rest of the canvas as documented per format.
    func frame(at index: Int) throws(DecodeError) -> Bitmap

    /// Frames that have at least been started (completed ones plus a partial one).
    var availableFrameCount: Int { get }

    /// Set when the input ended early; the error says where (kind `.truncated`).
    var truncation: DecodeError? { get }

    /// Problems recovered from, in the order met.
    var warnings: [DecodeWarning] { get }

    /// Header walk (`propertiesOnly`): the error a decode of frame 0 will give, when the headers
    /// already tell (a process or compression this library does not decode). Nil otherwise.
    var headerRefusal: DecodeError? { get }

    /// The memory this decode holds, checked before each allocation (`DecodeLimits.maxMemoryBytes`).
    var budget: MemoryBudget { get }

    /// The frame being decoded, as far as it has come, for progressive display while data
    /// arrives (`IncrementalImageSource.partialImage`). Nil when the decoder has nothing to show
    /// beyond its completed frames.
    func partialFrame() -> PartialFrame?

    /// Streaming mode (`ImageSource.decodeRows`, the downscaler): set before the first `advance`,
    /// it receives frame 0's rows top to bottom as they are finished, in bands of whole rows in
    /// the frame's native format (what `frame(at: 0)` would hold), and the decoder keeps no
    /// full-size frame where its format allows (each decoder says what it still holds). A file
    /// that ends early delivers the rows it has; the decode then reports the truncation.
    var rowSink: RowSink? { get set }

    /// Inspection (`Inspector.inspect`): set before the first `advance`, it receives every
    /// structure the decoder reads, as it reads it (`StructureLog`).
    var structureLog: StructureLog? { get set }

    /// True while the decoder will never read again a byte before the input's `readIndex`, so
    /// a driver may drop them (`InputBuffer.discard(before:)`, `decodeRows(contentsOfFile:)`).
    /// Asked between `advance` calls; a decoder that reads back (TIFF's strips by offset, a
    /// progressive JPEG's scans again for its bands) answers false while it might.
    var mayDiscardConsumedInput: Bool { get }
}

/// A band of finished rows, full width, in the decoder's native format.
typealias RowSink = (Bitmap) -> Void

/// A frame in progress, in the decoder's native format.
struct PartialFrame {
    /// Full-size frame; rows at and after `decodedRows` hold no decoded data yet.
    var bitmap: Bitmap
    /// Rows `0 ..< decodedRows` show decoded (or, for interlaced images, replicated) pixels.
    var decodedRows: Int
    /// Index of the frame this is (animations).
    var frameIndex: Int
}

extension FormatDecoder {
    /// Decoders without a progressive rendering show their completed frames only.
    func partialFrame() -> PartialFrame? { nil }

    /// Formats whose every header problem stops the walk itself have nothing to add.
    var headerRefusal: DecodeError? { nil }

    /// Decoders read by offset unless they say otherwise.
    var mayDiscardConsumedInput: Bool { false }
}

/// Owns a decoder and its input and makes failure sticky: after the first error every call
/// reports that same error, and no code path can continue on half-updated state (Wuffs'
/// "disabled by previous error", libspng's `decode_err`).
final class DecodeSession {
    let format: ImageFormat
    let decoder: any FormatDecoder
    private(set) var input: InputBuffer
    private(set) var failure: DecodeError?
    private(set) var isFinished = false

    init(format: ImageFormat, decoder: any FormatDecoder, input: InputBuffer) {
        self.format = format
        self.decoder = decoder
        self.input = input
    }

    func append<S: Sequence>(_ bytes: S) where S.Element == UInt8 { input.append(contentsOf: bytes) }
    func close() { input.close() }
    /// See `InputBuffer.reserveCapacity(total:)`.
    func reserveInput(total: Int) { input.reserveCapacity(total: total) }
    /// Drops the input the decoder has consumed (`InputBuffer.discard(before:)`) when the
    /// decoder says it will not read it again (`mayDiscardConsumedInput`); else keeps it.
    func discardConsumedInput() {
        guard decoder.mayDiscardConsumedInput else { return }
        input.discard(before: input.readIndex)
    }

    /// Runs the decoder over the input available now.
    @discardableResult
    func pump() throws(DecodeError) -> DecodeProgress {
        if let failure { throw failure }
        if isFinished { return .finished }
        do {
            let progress = try decoder.advance(&input)
            if progress == .finished { isFinished = true }
            return progress
        } catch {
            failure = error
            throw error
        }
    }

    /// Throws `.unsupported` for a format this library has no decoder for, as `makeDecoder`
    /// does, without making one.
    static func requireDecoder(for format: ImageFormat) throws(DecodeError) {
        switch format {
        case .png, .gif, .jpeg, .tiff, .webp: return
        case .heic, .heif:
            throw DecodeError(.unsupported, format: format, offset: 0, ContainerError.formatNotSupported(format))
        }
    }

    /// Creates the decoder for a decodable format.
    static func makeDecoder(for format: ImageFormat, options: DecodeOptions) throws(DecodeError) -> any FormatDecoder {
        switch format {
        case .png:
            return PNGDecoder(options: options)
        case .gif: return GIFDecoder(options: options)
        case .jpeg: return JPEGDecoder(options: options)
        case .tiff: return TIFFDecoder(options: options)
        case .webp: return WebPDecoder(options: options)
        case .heic, .heif:
            throw DecodeError(.unsupported, format: format, offset: 0, ContainerError.formatNotSupported(format))
        }
    }
}
