/// PNGDecoder, properties and the end: header properties, animation properties, IEND and
/// end of input, warnings and the byte-reader helpers.
extension PNGDecoder {
    func finishHeaderProperties() {
        guard let header, var properties else { return }
        properties.hasAlpha = header.colorType.hasAlphaChannel || transparency != nil
        if header.colorType == .indexed, let palette {
            properties.colorModel = .indexed(PNGPixelExpansion.applying(transparency, to: palette))
        }
        self.properties = properties
        updateAnimationProperties()
    }

    /// Keeps `properties` in step with the frames; called for every frame, in constant time per
    /// new frame: properties are mutated in place (`properties?.…`, a copy of the struct would
    /// copy its arrays) and only frames not yet listed are appended, so N frames cost O(N).
    func updateAnimationProperties() {
        guard properties != nil else { return }
        properties?.extra.removeAll { $0.key == "apngFrames" || $0.key == "apngDefaultImageIsFrame" }
        guard let animation, !frameControls.isEmpty || currentFrame != nil || frameAwaitingData != nil || pendingControl != nil else {
            properties?.frameCount = 1
            properties?.loopCount = nil
            properties?.frames = []
            return
        }
        properties?.frameCount = max(1, frameControls.count)
        properties?.loopCount = animation.playCount
        let frameAlpha = properties?.hasAlpha ?? false
        if let listed = properties?.frames, listed.count > frameControls.count || listed.first.map({ $0.hasAlpha != frameAlpha }) ?? false {
            properties?.frames = []   // frames dropped, or the colour type's alpha learnt late: list them again
        }
        while let listed = properties?.frames.count, listed < frameControls.count {
            let control = frameControls[listed]
            properties?.frames.append(FrameProperties(delay: control.delaySeconds, x: control.x, y: control.y, width: control.width, height: control.height,
                                                      disposal: control.dispose == .none ? .none : control.dispose == .background ? .background : .previous,
                                                      blend: control.blend == .source ? .source : .over, hasAlpha: frameAlpha))
        }
        properties?.extra.append(("apngFrames", String(animation.frameCount)))
        properties?.extra.append(("apngDefaultImageIsFrame", String(defaultImageIsFrame)))
    }

    /// IEND, or first-frame-only completion: check that the image is all there.
    func finish() throws(DecodeError) {
        guard imageDataStarted else {
            throw DecodeError(.malformed, format: .png, offset: nil, PNGError.missingImageData)
        }
        if let mainImage, !mainImage.isComplete {
            throw DecodeError(.malformed, format: .png, offset: nil, PNGError.notEnoughImageData(rowsMissing: mainImage.scanlinesMissing))
        }
        if let animation, frameControls.count != animation.frameCount, !options.firstFrameOnly {
            // Fewer frames than announced: keep the ones that arrived (browsers play them).
            warn(at: nil, "APNG: acTL announced \(animation.frameCount) frames, \(frameControls.count) decoded")
            if frameControls.isEmpty { dropAnimation("no complete frame", at: nil) }
        }
        updateAnimationProperties()
    }

    /// The input ended at `offset` inside the named part. With at least some decoded rows the
    /// image is finished as truncated (rows never received are zero, see Docs/PNG.md); before
    /// that there is no image and the error is thrown.
    func endOfInput(inside part: String, at offset: Int) throws(DecodeError) -> DecodeProgress {
        let error = DecodeError(.truncated, format: .png, offset: offset, PNGError.truncated(inside: part))
        if options.propertiesOnly {
            // What the header described stands; a decode will say how much of the image is there.
            guard properties != nil else { throw error }
        } else if mainImageBitmap == nil && !mainImageStreamed {
            if rowSink != nil {
                // Streaming: the rows that arrived have been handed over already; the rest follow
                // as the one-shot image shows them.
                guard let mainImage, mainImage.rowsStored > 0 else { throw error }
                mainImage.sendMissingRowsAsZero()
            } else if let directImage {
                guard directImage.rowsWritten > 0 else { throw error }
                mainImageBitmap = directImage.finish()
            } else {
                guard let mainImage, mainImage.pixels.count > 0 else { throw error }
                mainImageBitmap = try keptNativeBitmap(of: mainImage)
            }
        }
        if let frame = currentFrame, frame.data.pixels.count > 0 {
            appendFrame(frame.data, control: frame.control)
            currentFrame = nil
        }
        if animation != nil, frameControls.isEmpty {
            dropAnimation("input ended before the first frame", at: offset)
        }
        truncation = error
        warnings.append(DecodeWarning(offset: offset, error.description))
        updateAnimationProperties()
        state = .done
        return .finished
    }

    func warn(at offset: Int?, _ message: String) {
        warnings.append(DecodeWarning(offset: offset, message))
        structureLog?.warning(offset, message)
    }

    // MARK: - Small helpers

    /// Reads through a `ByteReader` whose window was already checked by `demand`; a failure
    /// would be a bug in this file, reported as malformed rather than trapping.
    func read<T>(_ body: () throws(ByteReaderError) -> T) throws(DecodeError) -> T {
        do { return try body() } catch {
            throw DecodeError(.malformed, format: .png, offset: error.offset, PNGError.truncated(inside: "a field"))
        }
    }

    func bytes(_ reader: ByteReader, count: Int) throws(DecodeError) -> ArraySlice<UInt8> {
        var reader = reader
        return try read { () throws(ByteReaderError) in try reader.readBytes(count: count) }
    }
}
