/// The TIFF 6.0 decoder: a resumable state machine over header, IFD chain and pages.
///
/// ```
///  header ─► directory(offset) ─┬─► directory(next) … (chain of IFDs = pages)
///                               └─► page(0) ─► page(1) … ─► done
/// ```
/// TIFF addresses everything by offset, so "need more input" means "need the bytes at this
/// offset": each state says which byte range it needs (the header's 8 bytes, an IFD's
/// 2 + 12n + 4 bytes, a page's tag values and every strip or tile) and waits until it has
/// arrived. Once the input is closed, a page whose strips run past the end is decoded from
/// what is there and the decoder reports the truncation.
final class TIFFDecoder: FormatDecoder {
    private enum State {
        case header
        case directory(offset: Int)
        case page(Int)
        case done
    }

    private let options: DecodeOptions
    private var state = State.header
    private var endianness = Endianness.littleEndian
    private var variant = TIFFVariant.classic
    private var directories: [TIFFDirectory] = []
    private var visited: Set<Int> = []
    private var chainComplete = false
    /// Decoded pages: every page in order, or the one page `options.onlyPage` asks for.
    private var pages: [Bitmap] = []
    /// The page index of `pages[0]` (nonzero only when one later page is decoded alone).
    private var firstPageIndex = 0
    /// The page being decoded band by band (its bitmap is the partial frame).
    private var pageInProgress: TIFFPageDecoder?

    /// Streaming mode (the downscaler): the first page's rows go here as bands of native rows,
    /// and no page bitmap is kept. Set before the first `advance`.
    var rowSink: ((Bitmap) -> Void)?
    /// `pureimage inspect`: what this decoder reads, as it reads it (`FormatDecoder.structureLog`).
    var structureLog: StructureLog?
    /// A file read at offsets instead of `input` (`ImageSource.decodeRows(contentsOfFile:)`):
    /// IFDs and tag values through its block cache, each strip or tile when its band is
    /// decoded, so the file is never held. Set before the first `advance`; `input` is then
    /// not read (the session's buffer stays empty and closed).
    var file: RandomAccessFile?

    private(set) var properties: ImageProperties?
    /// Properties only: every page described from its own IFD (`ImageSource.properties(at:)`).
    private(set) var pageProperties: [ImageProperties?] = []
    private(set) var truncation: DecodeError?
    private(set) var warnings: [DecodeWarning] = []
    private(set) var headerRefusal: DecodeError?

    /// What this decode holds at once, against `options.limits.maxMemoryBytes`.
    let budget: MemoryBudget

    init(options: DecodeOptions) {
        self.options = options
        budget = MemoryBudget(limits: options.limits)
    }

    var completedFrameCount: Int { firstPageIndex + pages.count }
    var availableFrameCount: Int { firstPageIndex + pages.count }

    func frame(at index: Int) throws(DecodeError) -> Bitmap {
        guard index >= firstPageIndex, index < firstPageIndex + pages.count else {
            throw DecodeError(.malformed, format: .tiff, offset: nil, ContainerError.frameOutOfRange(index: index, count: properties?.frameCount ?? pages.count))
        }
        return pages[index - firstPageIndex]
    }

    /// The page being decoded: rows so far, the rest zero (black, or transparent with alpha).
    func partialFrame() -> PartialFrame? {
        // (A direct decode's page is not all written until it is complete.)
        guard options.directOutput == nil, let page = pageInProgress, let bitmap = page.bitmap else { return nil }
        return PartialFrame(bitmap: bitmap, decodedRows: page.decodedRows, frameIndex: firstPageIndex + pages.count)
    }

    func advance(_ input: inout InputBuffer) throws(DecodeError) -> DecodeProgress {
        while true {
            let reader = file.map { RandomAccessReader(file: $0) } ?? RandomAccessReader(input.bytes)
            // A file read at offsets has all its bytes there.
            let isClosed = file != nil || input.isClosed
            func demand(_ count: Int, at offset: Int) -> InputBuffer.Availability {
                guard file != nil else { return input.demand(count, at: offset) }
                let (end, overflow) = offset.addingReportingOverflow(count)
                return !overflow && offset >= 0 && end <= reader.size ? .ready : .truncated
            }
            switch state {
            case .done:
                return .finished

            case .header:
                // 8 bytes tell classic TIFF from BigTIFF, whose header is 16 bytes.
                var headerSize = 8
                if case .ready = demand(4, at: 0) { headerSize = TIFFHeader.size(peeking: reader) }
                switch demand(headerSize, at: 0) {
                case .needMoreInput: return .needMoreInput
                case .truncated:
                    throw DecodeError(.truncated, format: .tiff, offset: reader.size, TIFFError.truncated(inside: "the header"))
                case .ready:
                    let header = try TIFFHeader(parsing: reader)
                    structureLog?.record(0, "header", TIFFInspector.describe(header))
                    endianness = header.endianness
                    variant = header.variant
                    visited.insert(header.firstIFD)
                    state = .directory(offset: header.firstIFD)
                }

            case .directory(let offset):
                let parsed: TIFFDirectory?
                do throws(DecodeError) {
                    parsed = try TIFFDirectory.parse(at: offset, reader: reader, endianness: endianness, variant: variant, isClosed: isClosed)
                } catch {
                    // The first IFD must be readable; a broken later one ends the chain, as
                    // libtiff stops counting directories there.
                    if directories.isEmpty { throw error }
                    warn(at: offset, "\(error.reason); the IFD chain ends here")
                    endChain()
                    continue
                }
                guard let directory = parsed else { return .needMoreInput }
                structureLog.map { TIFFInspector.record(directory, index: directories.count, reader: reader, into: $0) }
                directories.append(directory)
                if directories.count == 1 { try describeFirstPage(directory, reader: reader, input: input) }
                let next = directory.nextOffset
                if next == 0 || (options.firstFrameOnly && directories.count == 1) {
                    endChain()
                } else if visited.contains(next) {
                    // §2 does not allow loops; libtiff reports "IFD looping detected" and stops.
                    warn(at: directory.offset, "\(TIFFError.directoryLoop(offset: next)); the IFD chain ends here")
                    endChain()
                } else if directories.count >= options.limits.maxFrames {
                    warn(at: directory.offset, "\(LimitReason.tooManyFrames(limit: options.limits.maxFrames)); later IFDs ignored")
                    endChain()
                } else {
                    visited.insert(next)
                    state = .directory(offset: next)
                }

            case .page(let index):
                guard index < directories.count, !(options.firstFrameOnly && index > 0) else {
                    state = .done
                    continue
                }
                // One page alone: the pages before it are passed over, not decoded.
                if let only = options.onlyPage, !options.propertiesOnly, index != only {
                    state = index < only ? .page(only) : .done
                    continue
                }
                let directory = directories[index]
                if !isClosed && !valuesPresent(directory, input: input) { return .needMoreInput }
                if index == 0 && properties == nil { try describeFirstPage(directory, reader: reader, input: input) }
                // A header probe stops here (the chain is walked, page 0 described) rather than
                // decode pages it does not want.
                if options.propertiesOnly && properties != nil {
                    // Page 0 is `properties`: described by `describeFirstPage` from the same IFD
                    // and input, its frame count set when the chain ended.
                    pageProperties = directories.indices.map { page in page == 0 ? properties : describe(directories[page], reader: reader) }
                    state = .done
                    continue
                }
                do throws(DecodeError) {
                    let page: TIFFPageDecoder
                    if let current = pageInProgress {
                        page = current
                    } else {
                        // Old-style JPEG reads its header from the interchange bytes, which
                        // often run to the end of the file (TIFFOldJPEG): it waits for all of it.
                        if !isClosed, try directory.integer(TIFFTag.compression, reader: reader) == 6 { return .needMoreInput }
                        var layout = try TIFFImageLayout(directory: directory, reader: reader, limits: options.limits).forRendering()
                        // Byte counts estimated from the file's size need its final size.
                        if !isClosed && layout.byteCountsDependOnFileSize { return .needMoreInput }
                        // Streaming: a page stored as one uncompressed strip, all of it there,
                        // is read in libtiff's chopped strips (the same bytes, so the same
                        // rows), so that neither the strip nor the page is held whole.
                        if index == 0, rowSink != nil, let chopped = layout.choppedWhereComplete(inputSize: reader.size) { layout = chopped }
                        try TIFFRendering.checkRenderable(layout)
                        page = TIFFPageDecoder(layout: layout, endianness: endianness, budget: budget,
                                               rowSink: index == 0 ? rowSink : nil, directOutput: options.directOutput)
                        pageInProgress = page
                    }
                    // Band by band as the bytes arrive; once the input is closed, bands whose
                    // chunks run past the end decode what is there.
                    while !page.isComplete {
                        if !isClosed && !page.nextBandIsPresent(available: input.writeIndex) {
                            page.flushPendingRows()
                            return .needMoreInput
                        }
                        do {
                            try page.decodeNextBand(reader: reader)
                        } catch {
                            page.flushPendingRows()
                            throw error
                        }
                    }
                    pageInProgress = nil
                    warnings += page.warnings
                    if let structureLog {
                        for warning in page.warnings { structureLog.warning(warning.offset, warning.message) }
                        structureLog.record(directory.offset, "page \(index)", "decoded" + (page.truncatedAt.map { ", truncated at \($0)" } ?? ""))
                    }
                    if let at = page.truncatedAt, truncation == nil {
                        truncation = DecodeError(.truncated, format: .tiff, offset: at, TIFFError.truncated(inside: "the image data of page \(index)"))
                    }
                    if rowSink != nil {
                        state = .done   // streaming decodes the first page only
                        continue
                    }
                    // A layout always has at least one band (height ≥ 1), so the page exists.
                    guard let bitmap = page.bitmap else {
                        throw DecodeError(.malformed, format: .tiff, offset: directory.offset, TIFFError.invalidValue(field: "ImageLength", value: 0))
                    }
                    if pages.isEmpty { firstPageIndex = index }
                    pages.append(bitmap)
                    if options.onlyPage == index, index > 0, var page = describe(directory, reader: reader) {
                        // The decode's properties are its page's (size, orientation, alpha, ICC).
                        page.frameCount = directories.count
                        properties = page
                    }
                    state = .page(index + 1)
                } catch {
                    pageInProgress = nil
                    // Page 0, or the page asked for alone, is the decode: its error is the answer.
                    if index == 0 || index == options.onlyPage { throw error }
                    // Later pages: keep the pages before, as a viewer showing page 0 would.
                    warn(at: directory.offset, "page \(index): \(error); it and later pages dropped")
                    directories.removeSubrange(index...)
                    properties?.frameCount = directories.count
                    state = .done
                }
            }
        }
    }

    private func endChain() {
        chainComplete = true
        properties?.frameCount = directories.count
        state = .page(0)
    }

    private func warn(at offset: Int?, _ message: String) {
        warnings.append(DecodeWarning(offset: offset, message))
        structureLog?.warning(offset, message)
    }

    /// Properties from the first IFD, as soon as it is parsed (and its values have arrived).
    private func describeFirstPage(_ directory: TIFFDirectory, reader: RandomAccessReader, input: InputBuffer) throws(DecodeError) {
        guard file != nil || input.isClosed || valuesPresent(directory, input: input) else { return }
        let layout = Result { () throws(DecodeError) in try TIFFImageLayout(directory: directory, reader: reader, limits: options.limits) }
        if let described = describe(directory, layout: layout, reader: reader) { properties = described }
        // The page's decode will give this error; the header walk says it up front.
        if options.propertiesOnly, case .failure(let error) = layout, error.kind == .unsupported || error.kind == .limitExceeded {
            headerRefusal = error
        }
    }

    /// A page's properties from its IFD. A page this library cannot lay out (unsupported or
    /// broken: its decode reports the typed error) is described by what its tags say (size,
    /// compression, photometric, samples); nil when not even its size is readable.
    private func describe(_ directory: TIFFDirectory, reader: RandomAccessReader) -> ImageProperties? {
        describe(directory, layout: Result { () throws(DecodeError) in try TIFFImageLayout(directory: directory, reader: reader, limits: options.limits) },
                 reader: reader)
    }

    /// `describe` with the page's layout (or the error laying it out gave) already made.
    private func describe(_ directory: TIFFDirectory, layout: Result<TIFFImageLayout, DecodeError>, reader: RandomAccessReader) -> ImageProperties? {
        guard case .success(let layout) = layout else {
            func tag(_ code: Int) -> Int? { (try? directory.integer(code, reader: reader)) ?? nil }
            guard let width = tag(TIFFTag.imageWidth), let height = tag(TIFFTag.imageLength),
                  width <= UInt32.max, height <= UInt32.max else { return nil }
            let samples = tag(TIFFTag.samplesPerPixel) ?? 1
            let photometric = tag(TIFFTag.photometric)
            let model: ColorModel = photometric == 5 ? .cmyk : (photometric == 0 || photometric == 1) && samples <= 2 ? .gray : .rgb
            var properties = ImageProperties(format: .tiff, width: width, height: height, colorModel: model,
                                             bitsPerComponent: tag(TIFFTag.bitsPerSample) ?? 1, hasAlpha: false)
            properties.frameCount = chainComplete ? directories.count : 1
            properties.extra.append((key: "compression", value: TIFFTag.compressionName(tag(TIFFTag.compression) ?? 1)))
            if let photometric { properties.extra.append((key: "photometric", value: TIFFTag.photometricName(photometric))) }
            return properties
        }
        let model: ColorModel
        switch layout.photometric {
        case .whiteIsZero, .blackIsZero, .logL: model = .gray
        case .separated: model = .cmyk
        default: model = .rgb
        }
        var properties = ImageProperties(format: .tiff, width: layout.width, height: layout.height, colorModel: model,
                                         bitsPerComponent: layout.bitsPerSample, hasAlpha: layout.alpha != .none)
        properties.orientation = Orientation(rawValue: layout.orientation) ?? .up
        properties.frameCount = chainComplete ? directories.count : 1
        properties.extra.append((key: "compression", value: TIFFTag.compressionName(layout.compression)))
        properties.extra.append((key: "photometric", value: TIFFTag.photometricName(layout.photometricCode)))
        properties.extra.append((key: "samples", value: "\(layout.samplesPerPixel) × \(layout.bitsPerSample) bits"
                                 + (layout.samplesPerPixel > 1 ? (layout.planarConfigurationTag == 2 ? ", planar" : ", contiguous") : "")))
        properties.extra.append((key: "layout", value: layout.isTiled ? "tiles \(layout.chunkWidth)×\(layout.chunkHeight)" : "strips of \(layout.chunkHeight) rows"))
        if let icc = try? directory.bytes(34675, reader: reader, limit: options.limits.maxMetadataBytes) { properties.iccProfile = icc }
        // Classic TIFF's IFD layout is EXIF's (BigTIFF's 20-byte entries are not).
        if variant == .classic { properties.exifMetadata = EXIFReader.read(tiff: reader, endianness: endianness, ifd: directory.offset) }
        return properties
    }

    /// Whether every entry's value bytes are in the input (open input only: wait for them).
    private func valuesPresent(_ directory: TIFFDirectory, input: InputBuffer) -> Bool {
        directory.entries.allSatisfy { entry in
            let (end, overflow) = entry.valueOffset.addingReportingOverflow(entry.byteCount)
            return !overflow && end <= input.writeIndex
        }
    }
}
