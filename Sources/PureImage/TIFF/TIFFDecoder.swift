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
    private var directories: [TIFFDirectory] = []
    private var visited: Set<Int> = []
    private var chainComplete = false
    private var pages: [Bitmap] = []

    private(set) var properties: ImageProperties?
    private(set) var truncation: DecodeError?
    private(set) var warnings: [DecodeWarning] = []

    init(options: DecodeOptions) {
        self.options = options
    }

    var completedFrameCount: Int { pages.count }
    var availableFrameCount: Int { pages.count }

    func frame(at index: Int) throws(DecodeError) -> Bitmap {
        guard index >= 0, index < pages.count else {
            throw DecodeError(.malformed, format: .tiff, offset: nil, ContainerError.frameOutOfRange(index: index, count: pages.count))
        }
        return pages[index]
    }

    func advance(_ input: inout InputBuffer) throws(DecodeError) -> DecodeProgress {
        while true {
            let reader = ByteReader(input.bytes)
            switch state {
            case .done:
                return .finished

            case .header:
                switch input.demand(8, at: 0) {
                case .needMoreInput: return .needMoreInput
                case .truncated:
                    throw DecodeError(.truncated, format: .tiff, offset: input.writeIndex, TIFFError.truncated(inside: "the header"))
                case .ready:
                    let header = try TIFFHeader(parsing: reader)
                    endianness = header.endianness
                    visited.insert(header.firstIFD)
                    state = .directory(offset: header.firstIFD)
                }

            case .directory(let offset):
                let parsed: TIFFDirectory?
                do throws(DecodeError) {
                    parsed = try TIFFDirectory.parse(at: offset, reader: reader, endianness: endianness, isClosed: input.isClosed)
                } catch {
                    // The first IFD must be readable; a broken later one ends the chain, as
                    // libtiff stops counting directories there.
                    if directories.isEmpty { throw error }
                    warn(at: offset, "\(error.reason); the IFD chain ends here")
                    endChain()
                    continue
                }
                guard let directory = parsed else { return .needMoreInput }
                directories.append(directory)
                if directories.count == 1 { try describeFirstPage(directory, input: input) }
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
                let directory = directories[index]
                if !input.isClosed && !valuesPresent(directory, input: input) { return .needMoreInput }
                if index == 0 && properties == nil { try describeFirstPage(directory, input: input) }
                do throws(DecodeError) {
                    let layout = try TIFFImageLayout(directory: directory, reader: reader, limits: options.limits)
                    if !input.isClosed && !chunksPresent(layout, input: input) { return .needMoreInput }
                    let page = try TIFFPage(layout: layout, bytes: input.bytes, endianness: endianness, limits: options.limits)
                    warnings += page.warnings
                    if let at = page.truncatedAt, truncation == nil {
                        truncation = DecodeError(.truncated, format: .tiff, offset: at, TIFFError.truncated(inside: "the image data of page \(index)"))
                    }
                    pages.append(page.bitmap)
                    state = .page(index + 1)
                } catch {
                    if index == 0 { throw error }
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
    }

    /// Properties from the first IFD, as soon as it is parsed (and its values have arrived).
    private func describeFirstPage(_ directory: TIFFDirectory, input: InputBuffer) throws(DecodeError) {
        let reader = ByteReader(input.bytes)
        guard input.isClosed || valuesPresent(directory, input: input) else { return }
        guard let layout = try? TIFFImageLayout(directory: directory, reader: reader, limits: options.limits) else {
            // Unsupported or broken: the page decode reports the typed error; give what is known.
            let width = (try? directory.integer(TIFFTag.imageWidth, reader: reader)) ?? nil
            let height = (try? directory.integer(TIFFTag.imageLength, reader: reader)) ?? nil
            if let width, let height {
                var properties = ImageProperties(format: .tiff, width: width, height: height, colorModel: .rgb, bitsPerComponent: 8, hasAlpha: false)
                properties.frameCount = chainComplete ? directories.count : 1
                self.properties = properties
            }
            return
        }
        let model: ColorModel
        switch layout.photometric {
        case .whiteIsZero, .blackIsZero: model = .gray
        case .separated: model = .cmyk
        default: model = .rgb
        }
        var properties = ImageProperties(format: .tiff, width: layout.width, height: layout.height, colorModel: model,
                                         bitsPerComponent: layout.bitsPerSample, hasAlpha: layout.alpha != .none)
        properties.orientation = Orientation(rawValue: layout.orientation) ?? .up
        properties.frameCount = chainComplete ? directories.count : 1
        properties.extra.append((key: "compression", value: TIFFTag.compressionName(layout.compression)))
        properties.extra.append((key: "layout", value: layout.isTiled ? "tiles \(layout.chunkWidth)×\(layout.chunkHeight)" : "strips of \(layout.chunkHeight) rows"))
        if let icc = try? directory.bytes(34675, reader: reader, limit: options.limits.maxMetadataBytes) { properties.iccProfile = icc }
        self.properties = properties
    }

    /// Whether every entry's value bytes are in the input (open input only: wait for them).
    private func valuesPresent(_ directory: TIFFDirectory, input: InputBuffer) -> Bool {
        directory.entries.allSatisfy { entry in
            let (end, overflow) = entry.valueOffset.addingReportingOverflow(entry.byteCount)
            return !overflow && end <= input.writeIndex
        }
    }

    /// Whether every strip or tile of the page is in the input.
    private func chunksPresent(_ layout: TIFFImageLayout, input: InputBuffer) -> Bool {
        for (offset, count) in zip(layout.offsets, layout.byteCounts) {
            let (end, overflow) = offset.addingReportingOverflow(max(0, count))
            if overflow || end > input.writeIndex { return false }
        }
        return true
    }
}
