/// GIFDecoder, errors and the end: structural errors (thrown before the first frame, ending the
/// stream after it), the end of input, warnings.
extension GIFDecoder {
    /// A structural error: thrown before the first frame, afterwards the end of the stream.
    func stop(_ error: GIFError, at offset: Int) throws(DecodeError) {
        let failure = DecodeError(.malformed, format: .gif, offset: offset, error)
        guard !frames.isEmpty else { throw failure }
        stopError = failure
        warn(at: offset, "\(error); the stream is read as ending here")
        state = .done
    }

    /// The input is closed and ended inside `part`. Frames complete so far stay; a frame whose
    /// data was cut is available as a partial frame (with the bytes of a cut sub-block too).
    func endOfInput(_ input: inout InputBuffer, inside part: String) throws(DecodeError) -> DecodeProgress {
        let error = DecodeError(.truncated, format: .gif, offset: input.writeIndex, GIFError.truncated(inside: part))
        if case .imageData = state, let last = frames.indices.last, input.readIndex < input.writeIndex {
            // A sub-block cut short: keep the bytes that did arrive.
            let start = input.readIndex + 1
            if start < input.writeIndex && firstFrameStream != nil {
                try streamCodes(input.slice(start ..< input.writeIndex))
            } else if start < input.writeIndex && !options.propertiesOnly {
                codeStreams.append(contentsOf: input.slice(start ..< input.writeIndex))
                frames[last].codes = frames[last].codes.lowerBound ..< codeStreams.count
            }
            input.readIndex = input.writeIndex
        }
        guard !frames.isEmpty else { throw error }
        truncation = error
        warnings.append(DecodeWarning(offset: input.writeIndex, error.description))
        state = .done
        return .finished
    }

    func warn(at offset: Int?, _ message: String) {
        warnings.append(DecodeWarning(offset: offset, message))
        structureLog?.warning(offset, message)
    }

    /// The bytes of a reader made by `InputBuffer.consume` after `demand` said `.ready`.
    func bytes(_ reader: ByteReader) -> ArraySlice<UInt8> {
        var reader = reader
        return (try? reader.readBytes(count: reader.remaining)) ?? []
    }
}
