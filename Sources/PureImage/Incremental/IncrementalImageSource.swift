/// Decoding while the bytes arrive — the role of `CGImageSourceCreateIncremental` +
/// `CGImageSourceUpdateData`, as SDWebImage's progressive loading uses it.
///
/// ```swift
/// let source = IncrementalImageSource()
/// for each network callback:
///     source.update(data: everythingReceivedSoFar, final: isLastCallback)
///     if let size = source.properties.map({ ($0.width, $0.height) }) { layout(size) }
///     imageView.show(source.partialImage())
/// ```
/// Work is linear in the input: every update hands only the new bytes to the format's resumable
/// decoder, which continues exactly where it stopped (nothing is re-parsed from byte 0); the
/// per-update cost is the new bytes plus, when asked, rendering a partial image.
///
/// When the final data is in, the pixels equal a one-shot `ImageSource` decode of the same
/// bytes, whatever the chunking. Errors are sticky: after `invalidData` every call reports the
/// same `error`. Dropping the source at any point frees everything it holds.
///
/// Single-owner, deliberately not `Sendable`: its answers describe the bytes fed so far, which
/// only the party feeding them knows, so it belongs to that party (the download callback's
/// queue). Hand what it returns — `Bitmap`s, `ImageProperties`, errors, all `Sendable` — to
/// other tasks instead (Docs/ImageSource.md, "Thread safety").
public final class IncrementalImageSource {
    /// The limits and leniencies the decode uses.
    public let options: DecodeOptions
    /// Where the decode stands, after the bytes fed so far.
    public private(set) var status: IncrementalStatus = .unknownType
    /// The format, once the first bytes have decided it; nil until then (and for unknown bytes).
    public private(set) var format: ImageFormat?
    /// The error behind `invalidData` (or the truncation behind `unexpectedEOF`).
    public private(set) var error: DecodeError?

    /// Bytes received so far.
    public private(set) var receivedCount = 0
    private var isFinal = false
    /// Bytes held until the signature decides the format.
    private var prefix: [UInt8] = []
    private var session: DecodeSession?

    /// An empty source, waiting for its first bytes.
    public init(options: DecodeOptions = DecodeOptions()) {
        self.options = options
    }

    // MARK: Feeding

    /// ImageIO's convention: `data` is everything received so far (a prefix-extension of what
    /// was passed before). Only bytes beyond `receivedCount` are new; a shorter `data` adds
    /// nothing. `final` says no more data will come. Any collection of bytes will do — an
    /// array, a slice, Foundation's `Data`, an `UnsafeRawBufferPointer` — without a copy into an
    /// array first (slices whose indices do not start at 0 included).
    public func update<Bytes: Collection>(data: Bytes, final: Bool) where Bytes.Element == UInt8 {
        append(data.dropFirst(receivedCount), final: final)
    }

    /// For callers that hold only the new chunk.
    public func append<C: Collection>(_ chunk: C, final: Bool) where C.Element == UInt8 {
        guard !status.isFinal else { return }   // nothing changes after a final status
        receivedCount += chunk.count
        isFinal = isFinal || final
        if let session {
            session.append(chunk)
            if isFinal { session.close() }
        } else {
            prefix.append(contentsOf: chunk)
            guard identifyFormat() else { return }
        }
        pump()
    }

    /// Decides the format from `prefix`; creates the decoder when it can. False while undecided.
    private func identifyFormat() -> Bool {
        switch FormatSniffer.sniff(prefix) {
        case .needMoreBytes:
            if isFinal {
                fail(DecodeError(.truncated, format: nil, offset: prefix.count, ContainerError.tooShortToIdentify(count: prefix.count)),
                     status: .unexpectedEOF)
            }
            return false
        case .unknown:
            fail(DecodeError(.unknownFormat, format: nil, offset: 0, ContainerError.unknownSignature(firstBytes: Array(prefix.prefix(8)))))
            return false
        case .nearMiss(let format):
            // The same error a one-shot ImageSource gives.
            do { _ = try ImageSource(bytes: prefix, options: options) } catch { fail(error) }
            if error == nil {
                fail(DecodeError(.malformed, format: format, offset: 0, ContainerError.damagedSignature(format, found: Array(prefix.prefix(8)))))
            }
            return false
        case .format(let format):
            self.format = format
            status = .readingHeader
            do {
                let decoder = try DecodeSession.makeDecoder(for: format, options: options)
                session = DecodeSession(format: format, decoder: decoder, input: InputBuffer(prefix, isClosed: isFinal))
                prefix = []
                return true
            } catch {
                fail(error)
                return false
            }
        }
    }

    /// Runs the decoder over what is available and moves the status forward.
    private func pump() {
        guard let session else { return }
        do {
            let progress = try session.pump()
            if progress == .finished {
                if let truncation = session.decoder.truncation {
                    error = truncation
                    advance(to: .unexpectedEOF)
                } else {
                    advance(to: .complete)
                }
            } else if session.decoder.properties != nil {
                advance(to: .incomplete)
            }
            if isFinal && progress == .needMoreInput {
                // A decoder may not ask for more once the input is closed; treat it as truncation.
                fail(DecodeError(.truncated, format: format, offset: receivedCount, ContainerError.tooShortToIdentify(count: receivedCount)),
                     status: .unexpectedEOF)
            }
        } catch {
            fail(error, status: error.kind == .truncated ? .unexpectedEOF : .invalidData)
        }
    }

    private func advance(to next: IncrementalStatus) {
        if next > status { status = next }
    }

    private func fail(_ failure: DecodeError, status next: IncrementalStatus = .invalidData) {
        error = failure
        advance(to: next)
    }

    // MARK: Reading

    /// Width, height, orientation, frames so far…: available once the header is parsed.
    public var properties: ImageProperties? { session?.decoder.properties }

    /// Frames completely decoded so far.
    public var completedFrameCount: Int { session?.decoder.completedFrameCount ?? 0 }

    /// Problems the decoder recovered from so far.
    public var warnings: [DecodeWarning] { session?.decoder.warnings ?? [] }

    /// A completely decoded frame (or, after `unexpectedEOF`, whatever the one-shot decode of
    /// the same bytes would give), in the requested layout.
    public func image(at index: Int = 0, options decoding: ImageDecodingOptions = ImageDecodingOptions()) throws(DecodeError) -> Bitmap {
        guard let session else {
            throw error ?? DecodeError(.truncated, format: format, offset: receivedCount, ContainerError.tooShortToIdentify(count: receivedCount))
        }
        // Invalid data fails every frame, as the one-shot `ImageSource` does, even when the
        // error came after the frame's pixels (e.g. a damaged chunk after PNG's image data).
        if status == .invalidData, let error { throw error }
        let available = status.isFinal ? session.decoder.availableFrameCount : session.decoder.completedFrameCount
        guard index >= 0, index < available else {
            // Nothing decoded: the reason is the error (e.g. a file cut before any pixel data).
            if available == 0, let error { throw error }
            throw DecodeError(.malformed, format: format, offset: nil, ContainerError.frameOutOfRange(index: index, count: available))
        }
        return try ImageSource.deliver(try session.decoder.frame(at: index), decoder: session.decoder, format: session.format, options: decoding)
    }

    /// What can be shown now: the frame being decoded, as far as its data has arrived —
    /// rows so far for sequential images, Adam7 passes so far with each pixel replicated over
    /// its block, the canvas plus the rows so far for animations — or the latest complete frame.
    /// Area not decoded yet is transparent (alpha 0) when the requested layout has alpha, and
    /// zero bytes otherwise. Once the status is final this is the last available frame exactly
    /// as a one-shot decode gives it. Nil before any pixel data.
    public func partialImage(options decoding: ImageDecodingOptions = ImageDecodingOptions()) -> Bitmap? {
        guard let session else { return nil }
        let decoder = session.decoder
        if !status.isFinal, let partial = decoder.partialFrame() {
            guard var bitmap = try? ImageSource.deliver(partial.bitmap, decoder: decoder, format: session.format,
                                                        options: ImageDecodingOptions(output: decoding.output)) else { return nil }
            bitmap.clearRows(from: partial.decodedRows)
            return decoding.applyOrientation ? bitmap.oriented(decoder.properties?.orientation ?? .up) : bitmap
        }
        let available = status.isFinal ? decoder.availableFrameCount : decoder.completedFrameCount
        guard available > 0 else { return nil }
        return try? image(at: available - 1, options: decoding)
    }
}

extension IncrementalImageSource {
    /// `partialImage(options:)`'s rows without that image: `body` gets them top to bottom in
    /// bands of about 1 MiB of the decoder's rows, each converted to `output` as it is handed
    /// over, so the only full-size image is the one the decoder itself renders (a progressive
    /// JPEG's preview, a composed canvas) — not a converted copy beside it. The bands hold the
    /// same bytes as `partialImage(options: .init(output: output))`, not-decoded area included;
    /// orientation is not applied (`properties.orientation` says how to show them). Returns
    /// false, calling `body` never, where `partialImage` gives nil (nothing to show yet, or a
    /// conversion the output format does not allow) — except that the budget check
    /// `partialImage` makes for its converted copy does not apply, there being no such copy.
    /// An error thrown by `body` stops the delivery and is rethrown.
    public func partialImageRows(output: ImageDecodingOptions.Output = .canonicalRGBA, _ body: (RowBand) throws -> Void) throws -> Bool {
        guard let session else { return false }
        let decoder = session.decoder
        let native: Bitmap, decodedRows: Int
        if !status.isFinal, let partial = decoder.partialFrame() {
            (native, decodedRows) = (partial.bitmap, partial.decodedRows)
        } else {
            // As `image(at: available − 1)`, which `partialImage` falls back to.
            if status == .invalidData && error != nil { return false }
            let available = status.isFinal ? decoder.availableFrameCount : decoder.completedFrameCount
            guard available > 0, let frame = try? decoder.frame(at: available - 1) else { return false }
            (native, decodedRows) = (frame, frame.height)
        }
        let hasAlpha = decoder.properties?.hasAlpha ?? true
        // The first band's conversion answers for all (the format is the same in each): a
        // format the conversion refuses calls `body` never, as `partialImage` gives nil.
        var refused = false
        try native.forEachBand(rowsPerBand: (1 << 20) / max(1, native.bytesPerRow)) { (top, band) throws in
            guard !refused else { return }
            guard var rows = try? ImageSource.convert(band, to: output, hasAlpha: hasAlpha, format: session.format) else {
                refused = true
                return
            }
            rows.clearRows(from: decodedRows - top)
            try body(RowBand(firstRow: top, frameHeight: native.height, rows: rows))
        }
        return !refused
    }
}

extension Bitmap {
    /// Rows `from ..< height` become "not decoded": alpha 0 (colour 0) when the format has
    /// alpha, all bytes 0 otherwise. (Used for partial images.)
    mutating func clearRows(from firstRow: Int) {
        guard firstRow < height else { return }
        let start = max(0, firstRow) * bytesPerRow
        bytes.replaceSubrange(start ..< height * bytesPerRow, with: repeatElement(0, count: (height - max(0, firstRow)) * bytesPerRow))
    }
}
