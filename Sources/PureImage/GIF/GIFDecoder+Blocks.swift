/// GIFDecoder, the blocks (GIF89a §18–§26): the logical screen, image descriptors and their
/// frames, extensions (graphic control, application, comment) and the frame properties.
extension GIFDecoder {
    /// GIF89a §17 Header, §18 Logical Screen Descriptor: the canvas.
    func acceptScreen(_ parsed: GIFLogicalScreen) throws(DecodeError) {
        if parsed.version != "87a" && parsed.version != "89a" {
            // giflib checks only "GIF"; FormatSniffer admits only 87a and 89a.
            warn(at: 3, "unknown GIF version \"\(parsed.version)\" read as 89a")
        }
        _ = try SizeMath.checkImage(width: parsed.width, height: parsed.height, bytesPerPixel: 4,
                                    limits: options.limits, format: .gif, offset: 6)
        screen = parsed
        var properties = ImageProperties(format: .gif, width: parsed.width, height: parsed.height,
                                         colorModel: .rgb, bitsPerComponent: 8, hasAlpha: false)
        properties.frameCount = 0
        properties.extra = [("gifVersion", parsed.version), ("gifBackgroundIndex", String(parsed.backgroundIndex)),
                            ("gifAspectRatio", String(parsed.aspectRatioByte))]
        self.properties = properties
    }

    /// GIF89a §20 Image Descriptor: limits before anything is allocated for the frame.
    func checkFrame(_ descriptor: GIFImageDescriptor) throws(DecodeError) {
        guard frames.count < options.limits.maxFrames else {
            throw DecodeError(.limitExceeded, format: .gif, offset: descriptor.offset, LimitReason.tooManyFrames(limit: options.limits.maxFrames))
        }
        // The index buffer a frame decodes into is width × height bytes (frames past the
        // canvas are decoded whole, then clipped).
        _ = try SizeMath.checkImage(width: descriptor.width, height: descriptor.height, bytesPerPixel: 1,
                                    limits: options.limits, format: .gif, offset: descriptor.offset + 5)
    }

    /// GIF89a §22 Table Based Image Data begins: the frame becomes available.
    func startFrame(_ descriptor: GIFImageDescriptor, table: GIFColorTable?, minimumCodeSize: Int, dataOffset: Int) {
        let control = pendingControl
        frames.append(GIFFrame(descriptor: descriptor, localTable: table, control: control,
                               minimumCodeSize: minimumCodeSize, codes: codeStreams.count ..< codeStreams.count,
                               dataOffset: dataOffset, isComplete: false))
        controlSeen = false
        pendingControl = nil
        if control?.transparentIndex != nil { sawTransparency = true }
        updateFrameProperties()
    }

    /// A frame of zero width or height has no pixels to wait for: it is complete as soon as its
    /// descriptor is read, so when its table or data is cut or damaged it still counts (drawing
    /// nothing), and the stream ends after it as after any complete frame. This is what
    /// browsers show and what the pygif suite expects (`image-zero-width.gif`, …: one
    /// transparent frame). In streaming mode its stream hands out the canvas, transparent.
    func addEmptyFrame(_ descriptor: GIFImageDescriptor, table: GIFColorTable?, at offset: Int) throws(DecodeError) {
        startFrame(descriptor, table: table, minimumCodeSize: 2, dataOffset: offset)
        try startFirstFrameStream()
        finishFrame()
    }

    /// The Block Terminator of the frame's image data.
    func finishFrame() {
        guard let last = frames.indices.last else { return }
        frames[last].isComplete = true
        completedFrameCount += 1
        updateFrameProperties()
        if options.firstFrameOnly { state = .done } else { state = .blockStart }
    }

    /// One non-empty data sub-block of an extension (GIF89a §23–§26).
    func extensionSubBlock(_ label: UInt8, index: Int, _ block: ArraySlice<UInt8>, offset: Int) {
        switch label {
        case GIFExtensionLabel.graphicControl:
            // §23 Graphic Control Extension. giflib (DGifSavedExtensionToGCB) uses the first
            // GCE since the previous image; a first sub-block not 4 bytes long gives no GCE.
            if index == 0 && !controlSeen {
                controlSeen = true
                pendingControl = GIFGraphicControl(parsing: block)
                if pendingControl == nil { warn(at: offset, "Graphic Control Extension of \(block.count) bytes (must be 4) ignored") }
            }
        case GIFExtensionLabel.application:
            // §26 Application Extension: NETSCAPE2.0 / ANIMEXTS1.0 sub-block 1 = loop count.
            if index == 0 {
                applicationIsLooping = GIFApplication.isLooping(identifier: block)
            } else if applicationIsLooping, properties?.loopCount == nil, let count = GIFApplication.loopCount(subBlock: block) {
                properties?.loopCount = count
            }
        case GIFExtensionLabel.comment:
            // §24 Comment Extension, bounded by maxMetadataBytes.
            metadataBytes += block.count
            if metadataBytes <= options.limits.maxMetadataBytes {
                commentBytes.append(contentsOf: block)
            }
        default:
            // §25 Plain Text Extension and unknown labels: skipped (as browsers do).
            break
        }
    }

    func finishExtension(_ label: UInt8, offset: Int) {
        guard label == GIFExtensionLabel.comment else { return }
        if metadataBytes > options.limits.maxMetadataBytes {
            warn(at: offset, "comments exceed the metadata limit of \(options.limits.maxMetadataBytes) bytes; dropped")
        } else if !commentBytes.isEmpty {
            properties?.text.append(TextEntry(keyword: "Comment", text: GIFComment.text(commentBytes)))
        }
        commentBytes.removeAll()
    }

    /// Keeps `properties` in step with `frames`; called when a frame starts and ends, and
    /// constant-time per call (no pass over all frames), so N frames cost O(N).
    func updateFrameProperties() {
        // Mutated in place (`properties?.…`): copying the struct out would copy its arrays.
        guard properties != nil, let screen, let last = frames.last else { return }
        properties?.frameCount = frames.count
        if let count = properties?.frames.count, count < frames.count {
            let placed = last.descriptor
            let disposal: FrameProperties.Disposal
            switch last.control?.disposal ?? .unspecified {
            case .unspecified, .keep: disposal = .none
            case .background: disposal = .background
            case .previous: disposal = .previous
            }
            properties?.frames.append(FrameProperties(delay: Double(last.control?.delayCentiseconds ?? 0) / 100,
                                                      x: placed.left, y: placed.top, width: placed.width, height: placed.height, disposal: disposal,
                                                      blend: .over, hasAlpha: last.control?.transparentIndex != nil))
        }
        if frames.count == 1 { properties?.isInterlaced = last.descriptor.interlaced }
        // hasAlpha: a transparent index was declared, there is more than one frame, or a frame
        // does not cover the whole canvas (uncovered canvas stays transparent).
        let d = last.descriptor
        if d.left > 0 || d.top > 0 || d.left + d.width < screen.width || d.top + d.height < screen.height {
            someFrameUncovered = true
        }
        properties?.hasAlpha = sawTransparency || frames.count > 1 || someFrameUncovered
    }
}
