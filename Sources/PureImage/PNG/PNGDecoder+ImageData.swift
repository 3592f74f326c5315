/// PNGDecoder, the image data: IDAT and fdAT bytes streamed into `PNGImageData`, APNG frames
/// kept and composed, and the sequence-number checks that can drop an animation.
extension PNGDecoder {
    func feedImageData(_ type: PNGChunkType, _ piece: UnsafeRawBufferPointer, fileOffset: Int) throws(DecodeError) {
        if type == .IDAT {
            guard let mainImage else { return }
            try mainImage.feed(piece, fileOffset: fileOffset)
            return
        }
        // fdAT: errors in a frame's data drop the animation, never the default image.
        guard let frame = currentFrame else { return }
        do {
            try frame.data.feed(piece, fileOffset: fileOffset)
            currentFrameStream.append(contentsOf: piece)
        } catch {
            dropAnimation(error.description, at: fileOffset)
        }
    }

    func finishImageDataChunk(_ chunk: Chunk) throws(DecodeError) {
        if chunk.type == .IDAT {
            guard let mainImage, mainImage.isComplete, mainImageBitmap == nil, !mainImageStreamed else { return }
            if mainImage.sawExtraData { warn(at: chunk.offset, "extra compressed data after the image") }
            if rowSink != nil {
                mainImageStreamed = true
                return
            }
            if let directImage {
                mainImageBitmap = directImage.finish()
            } else {
                mainImageBitmap = try keptNativeBitmap(of: mainImage)
            }
            if defaultImageIsFrame, let control = pendingControl, animation != nil {
                appendFrame(mainImage, control: control)
            }
            pendingControl = nil
            // The bitmap holds the image now; the stored rows (and their reservation) go.
            mainImage.releaseRows()
            return
        }
        if let frame = currentFrame, frame.data.isComplete {
            appendFrame(frame.data, control: frame.control)
            currentFrame = nil
        }
    }

    /// A frame whose data has been decoded (all of it, or what a truncated file holds): its
    /// compressed stream is kept, its pixels are not (`frameImage` inflates them again).
    func appendFrame(_ data: PNGImageData, control: APNGFrameControl) {
        let stream = currentFrame?.data === data ? currentFrameStream : []
        currentFrameStream = []
        // Every kept stream counts against the decode's memory; past the limit the animation
        // is dropped (the default image stays, as with any broken APNG), with a warning.
        do {
            try budget.reserve(stream.count, format: .png, offset: nil)
        } catch {
            dropAnimation("\(error.reason)", at: nil)
            return
        }
        frameStreamBytes += stream.count
        frameControls.append(control)
        frameStreams.append(stream)
        updateAnimationProperties()
    }

    /// Frame `index`'s own pixels in the compositor's format, tight rows (the compositor indexes
    /// with `bytesPerRow`): the default image, or the kept stream inflated again — the bytes
    /// the decode already read without an error, so this gives the same rows.
    func frameImage(_ index: Int) throws(DecodeError) -> Bitmap {
        guard let header, index < frameStreams.count else {
            throw DecodeError(.malformed, format: .png, offset: nil, ContainerError.frameOutOfRange(index: index, count: frameStreams.count))
        }
        let native: Bitmap
        if index == 0 && defaultImageIsFrame, let mainImageBitmap {
            native = mainImageBitmap
        } else {
            let control = frameControls[index]
            let frameHeader = PNGHeader(width: control.width, height: control.height, bitDepth: header.bitDepth,
                                        colorType: header.colorType, interlaced: header.interlaced)
            let data = try PNGImageData(header: frameHeader, budget: budget, offsetBase: 0)
            let failure = frameStreams[index].withUnsafeBytes { stream -> DecodeError? in
                do throws(DecodeError) { try data.feed(stream, fileOffset: 0) } catch { return error }
                return nil
            }
            if let failure { throw failure }
            native = nativeBitmap(of: data)
        }
        do {
            return try native.converted(to: APNGCompositor.canvasFormat(sixteenBit: header.bitDepth == 16)).tightlyPacked()
        } catch {
            throw DecodeError(.malformed, format: .png, offset: nil, ContainerError.outputConversion(error.description))
        }
    }

    /// Properties only: a frame whose data has begun counts, as `appendFrame` counts a decoded one.
    func describeFrame(_ control: APNGFrameControl) {
        frameControls.append(control)
        updateAnimationProperties()
    }

    /// The main image in native layout, counted in `budget` for as long as the decoder keeps it
    /// (expanding 1-, 2- and 4-bit samples makes a new buffer up to 8 times the stored rows).
    func keptNativeBitmap(of data: PNGImageData) throws(DecodeError) -> Bitmap {
        let bitmap = nativeBitmap(of: data)
        try budget.reserve(bitmap.bytes.count, format: .png, offset: nil)
        return bitmap
    }

    func nativeBitmap(of data: PNGImageData) -> Bitmap {
        PNGPixelExpansion.nativeBitmap(header: data.header, rows: data.paddedPixels(), palette: palette, transparency: transparency)
    }

    /// APNG: sequence numbers start at 0 and increase by one over fcTL and fdAT chunks.
    func checkSequence(_ sequence: UInt32, at offset: Int) -> Bool {
        guard sequence == nextSequenceNumber else {
            dropAnimation("sequence number \(sequence), expected \(nextSequenceNumber)", at: offset)
            return false
        }
        nextSequenceNumber &+= 1
        return true
    }

    /// An invalid animation leaves the default image as a still (what browsers do with a broken APNG).
    func dropAnimation(_ why: String, at offset: Int?) {
        guard !animationInvalid else { return }
        animationInvalid = true
        if animation != nil || pendingControl != nil || !frameControls.isEmpty {
            warn(at: offset, "APNG: \(why); the file is shown as a still image")
        }
        animation = nil
        frameControls = []
        frameStreams = []
        currentFrameStream = []
        budget.release(frameStreamBytes)
        frameStreamBytes = 0
        currentFrame = nil
        frameAwaitingData = nil
        pendingControl = nil
        compositorCache = nil
        updateAnimationProperties()
    }

    /// First frame only: frame 0 is the default image, which has been decoded (or streamed).
    /// While an animation whose frames exclude the default image stands, frame 0 is its first
    /// frame and the decoder reads on (a streaming decode too: it only gets here with an
    /// animation the file goes on to drop, and must read as far as the one-shot decode does).
    var shouldStopEarly: Bool {
        guard mainImageStreamed || options.firstFrameOnly && mainImageBitmap != nil else { return false }
        return animation == nil || defaultImageIsFrame
    }
}
