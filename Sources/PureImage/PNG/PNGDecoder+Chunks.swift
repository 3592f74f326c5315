/// PNGDecoder, the chunks (PNG §5, §11): beginning each chunk (order, size and CRC rules), the
/// main image's first IDAT, and the whole-chunk parsers (IHDR, PLTE, tRNS, acTL, fcTL, metadata).
extension PNGDecoder {
    func typeBytes(_ type: PNGChunkType) -> [UInt8] {
        [type.bytes.0, type.bytes.1, type.bytes.2, type.bytes.3]
    }

    /// Decides what to do with a chunk from its header alone.
    func beginChunk(_ chunk: Chunk) throws(DecodeError) -> State {
        let type = chunk.type
        if !options.decodeAPNGAnimation && (type == .acTL || type == .fcTL || type == .fdAT) {
            lastChunkWasNotIDAT = true
            return .chunkBody(chunk)   // read, CRC-checked, then ignored like any unknown ancillary chunk
        }
        if header == nil && type != .IHDR {
            throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.chunkOrder("first chunk is \(type), not IHDR"))
        }
        // A chunk other than IDAT ends the IDAT sequence. Every scanline must be in and the
        // zlib stream must have reached its end (libpng reads on to the stream end after the
        // last row and fails with "Not enough image data" when the IDATs run out first).
        if type != .IDAT, order.seenIDAT, let mainImage {
            if !mainImage.isComplete {
                throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.notEnoughImageData(rowsMissing: mainImage.scanlinesMissing))
            }
            if !mainImage.streamEnded {
                throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.unterminatedImageData)
            }
        }
        switch type {
        case .IDAT:
            if options.propertiesOnly {
                if !mainImageSeen { try beginMainImage(chunk) }
                lastChunkWasNotIDAT = false
                return .skippedData(chunk, remaining: chunk.length + 4)
            }
            if mainImage == nil {
                guard let header else { throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.chunkOrder("IDAT before IHDR")) }
                try beginMainImage(chunk)
                let direct = directFormats(header)
                mainImage = try PNGImageData(header: header, budget: budget, offsetBase: chunk.dataOffset,
                                             streaming: rowSink != nil || direct != nil)
                if let direct {
                    let converter: PixelConverter
                    do {
                        converter = try PixelConverter(from: direct.native, significantBits: direct.native.bitsPerComponent, to: direct.target,
                                                       pixels: header.width * header.height)
                    } catch {
                        throw DecodeError(.unsupported, format: .png, offset: nil, ContainerError.outputConversion(error.description))
                    }
                    directImage = try DirectImage(width: header.width, height: header.height, converter: converter,
                                                  budget: budget, format: .png, offset: chunk.dataOffset)
                }
                if let rowSink {
                    let rowHeader = PNGHeader(width: header.width, height: 1, bitDepth: header.bitDepth,
                                              colorType: header.colorType, interlaced: false)
                    mainImage?.rowSink = { [unowned self] _, row in
                        rowSink(PNGPixelExpansion.nativeBitmap(header: rowHeader, rows: Array(row), palette: self.palette, transparency: self.transparency))
                    }
                } else if let directImage {
                    mainImage?.rowSink = { _, row in row.withUnsafeBytes { directImage.append($0) } }
                }
                finishHeaderProperties()
            } else if let mainImage, mainImage.isComplete, lastChunkWasNotIDAT {
                // libpng: "Too many IDATs found" is a benign error (a warning when reading).
                warn(at: chunk.offset, "IDAT after the image data ended; ignored")
                return .chunkBody(chunk)
            }
            lastChunkWasNotIDAT = false
            return .imageData(chunk, remaining: chunk.length, crc: CRC32.checksum(typeBytes(type)))
        case .fdAT:
            lastChunkWasNotIDAT = true
            guard chunk.length >= 4 else {
                dropAnimation("fdAT shorter than its sequence number", at: chunk.offset)
                return .chunkBody(chunk)
            }
            return .fdATSequence(chunk)
        default:
            lastChunkWasNotIDAT = true
            return .chunkBody(chunk)
        }
    }
    /// The first IDAT: the checks it makes, and whether the default image is APNG frame 0.
    func beginMainImage(_ chunk: Chunk) throws(DecodeError) {
        guard let header else { throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.chunkOrder("IDAT before IHDR")) }
        if header.colorType == .indexed && palette == nil {
            throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.missingPalette)
        }
        if animation != nil, let control = pendingControl {
            // An fcTL before the first IDAT makes the default image frame 0; it must
            // cover the whole canvas at (0, 0).
            if control.x != 0 || control.y != 0 || control.width != header.width || control.height != header.height {
                dropAnimation("the first fcTL must cover the canvas", at: chunk.offset)
            } else {
                defaultImageIsFrame = true
            }
        }
        order.noteIDAT()
        if options.propertiesOnly {
            mainImageSeen = true
            if defaultImageIsFrame, let control = pendingControl { describeFrame(control) }
            pendingControl = nil
            finishHeaderProperties()
        }
    }

    /// `DecodeOptions.directOutput`: the formats a main image is written in as its rows are
    /// unfiltered (`DirectImage`) — where its scanlines are native rows and it is no
    /// animation's frame (acTL, PLTE and tRNS all come before the first IDAT, so this is known
    /// at the first IDAT). Nil: the image is stored and converted when it is delivered.
    func directFormats(_ header: PNGHeader) -> (native: PixelFormat, target: PixelFormat)? {
        guard let output = options.directOutput, rowSink == nil, !header.interlaced, animation == nil,
              let native = PNGPixelExpansion.storedRowFormat(header: header, palette: palette, transparency: transparency),
              let target = output.target(native: native, hasAlpha: header.colorType.hasAlphaChannel || transparency != nil),
              target != native else { return nil }
        return (native, target)
    }

    /// Handles a whole non-streamed chunk. Returns the next state.
    func process(_ chunk: Chunk, data: ArraySlice<UInt8>) throws(DecodeError) -> State {
        let type = chunk.type
        switch type {
        case .IHDR:
            guard header == nil else {
                throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.chunkOrder("duplicate IHDR"))
            }
            let parsed = try PNGHeader(parsing: data, offset: chunk.dataOffset)
            header = parsed
            _ = try SizeMath.checkImage(width: parsed.width, height: parsed.height, bytesPerPixel: 1,
                                        limits: options.limits, format: .png, offset: chunk.dataOffset)
            var properties = ImageProperties(format: .png, width: parsed.width, height: parsed.height,
                                             colorModel: parsed.colorType == .grayscale || parsed.colorType == .grayscaleAlpha ? .gray : .rgb,
                                             bitsPerComponent: parsed.bitDepth, hasAlpha: parsed.colorType.hasAlphaChannel)
            properties.isInterlaced = parsed.interlaced
            self.properties = properties
        case .PLTE:
            guard let header else { break }
            if order.seenPLTE {
                throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.chunkOrder("duplicate PLTE"))
            }
            if order.seenIDAT {
                // libpng: "out of place", a benign error (a warning when reading).
                warn(at: chunk.offset, "PLTE after IDAT ignored")
                break
            }
            if header.colorType == .grayscale || header.colorType == .grayscaleAlpha {
                // libpng: "ignored in grayscale PNG" (benign error).
                warn(at: chunk.offset, "PLTE in a grayscale image ignored")
                break
            }
            // libpng's png_set_PLTE refuses an empty palette for every colour type ("Invalid palette").
            guard data.count > 0 else {
                throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.invalidPaletteLength(0))
            }
            guard data.count % 3 == 0, data.count <= 768 else {
                if header.colorType == .indexed {
                    throw DecodeError(.malformed, format: .png, offset: chunk.offset, PNGError.invalidPaletteLength(UInt32(data.count)))
                }
                warn(at: chunk.offset, "\(PNGError.invalidPaletteLength(UInt32(data.count))); ignored")
                break
            }
            order.notePLTE()
            // libpng silently drops entries beyond 2^bitDepth for indexed images.
            var entries = Array(data)
            if header.colorType == .indexed {
                entries = Array(entries.prefix(3 << header.bitDepth))
            }
            palette = Palette(rgb: entries)
        case .IDAT:
            break   // an IDAT after the image data ended, already reported by beginChunk
        case .IEND:
            if !data.isEmpty { warn(at: chunk.offset, "IEND with \(data.count) data bytes; ignored") }
            try finish()
            return .done
        case .tRNS:
            guard let header, admit(type, at: chunk.offset) else { break }
            switch header.colorType {
            case .grayscale:
                guard data.count == 2 else { warn(at: chunk.offset, "tRNS: length \(data.count) for gray, must be 2; ignored"); break }
                transparency = .key([UInt16(data[data.startIndex]) << 8 | UInt16(data[data.startIndex + 1])])
            case .truecolor:
                guard data.count == 6 else { warn(at: chunk.offset, "tRNS: length \(data.count) for RGB, must be 6; ignored"); break }
                let d = Array(data)
                transparency = .key([UInt16(d[0]) << 8 | UInt16(d[1]), UInt16(d[2]) << 8 | UInt16(d[3]), UInt16(d[4]) << 8 | UInt16(d[5])])
            case .indexed:
                guard data.count >= 1, data.count <= (palette?.count ?? 0) else {
                    warn(at: chunk.offset, "tRNS: \(data.count) entries for a palette of \(palette?.count ?? 0); ignored")
                    break
                }
                transparency = .paletteAlpha(Array(data))
            case .grayscaleAlpha, .truecolorAlpha:
                warn(at: chunk.offset, "tRNS in an image with an alpha channel ignored")
            }
        case .acTL where !options.decodeAPNGAnimation, .fcTL where !options.decodeAPNGAnimation, .fdAT where !options.decodeAPNGAnimation:
            break
        case .acTL:
            if animation != nil {
                // "There must be exactly one acTL chunk" — Pillow and browsers fall back to the
                // default image; so do we.
                dropAnimation("more than one acTL", at: chunk.offset)
                break
            }
            guard admit(type, at: chunk.offset), !animationInvalid else { break }
            if let control = APNGAnimationControl(parsing: data) {
                animation = control
                if control.frameCount > options.limits.maxFrames {
                    dropAnimation("\(control.frameCount) frames exceed the limit of \(options.limits.maxFrames)", at: chunk.offset)
                }
            } else {
                warn(at: chunk.offset, "APNG: invalid acTL; the file is shown as a still image")
            }
        case .fcTL:
            // An fcTL may precede acTL (only acTL's place before IDAT is prescribed); its
            // sequence number counts either way.
            guard !animationInvalid, let header else { break }
            switch APNGFrameControl.parse(data, canvasWidth: header.width, canvasHeight: header.height) {
            case .failure(let error):
                dropAnimation(error.description, at: chunk.offset)
            case .success(let control):
                guard checkSequence(control.sequenceNumber, at: chunk.dataOffset) else { break }
                if currentFrame != nil || frameAwaitingData != nil || (pendingControl != nil && !imageDataStarted) {
                    dropAnimation("fcTL without image data for the previous frame", at: chunk.offset)
                    break
                }
                if !imageDataStarted {
                    pendingControl = control
                } else if animation != nil {
                    if frameControls.count >= (animation?.frameCount ?? 0) {
                        dropAnimation("more fcTL chunks than acTL announced", at: chunk.offset)
                        break
                    }
                    if options.propertiesOnly {
                        frameAwaitingData = control
                        break
                    }
                    let frameHeader = PNGHeader(width: control.width, height: control.height, bitDepth: header.bitDepth,
                                                colorType: header.colorType, interlaced: header.interlaced)
                    currentFrame = (control, try PNGImageData(header: frameHeader, budget: budget, offsetBase: chunk.offset))
                    currentFrameStream = []
                }
            }
        default:
            if type.isCritical {
                throw DecodeError(.unsupported, format: .png, offset: chunk.offset, PNGError.unknownCriticalChunk(type: type.description))
            }
            guard admit(type, at: chunk.offset), let header, var properties else { break }
            if let problem = PNGMetadata.apply(type, data: data, header: header, limits: options.limits, to: &properties) {
                warn(at: chunk.offset, problem)
            }
            self.properties = properties
        }
        return .chunkHeader
    }

    /// §5.6 ordering for ancillary chunks; false (with a warning) when the chunk is to be ignored.
    func admit(_ type: PNGChunkType, at offset: Int) -> Bool {
        if let problem = order.admitAncillary(type, indexed: header?.colorType == .indexed) {
            warn(at: offset, problem)
            return false
        }
        return true
    }
}
