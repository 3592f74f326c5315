/// JPEGDecoder, the markers (T.81 B.1.1.3, B.2.4, B.3): standalone markers, the marker
/// segments (tables, restart interval, frame header, DNL, metadata), and what the header walk
/// says about a frame the decode will refuse.
extension JPEGDecoder {
    func standalone(_ code: UInt8, offset: Int, synthetic: Bool) throws(DecodeError) {
        switch code {
        case JPEGMarker.soi:
            throw DecodeError(.malformed, format: .jpeg, offset: offset, JPEGError.duplicateSOI)
        case JPEGMarker.eoi:
            try finish(atEOI: offset, synthetic: synthetic)
        default:
            // RSTn outside a scan and TEM carry nothing (libjpeg traces and ignores them).
            state = .findMarker
        }
    }

    /// `count` bytes of libjpeg's end-of-input filler FF D9 FF D9 …, starting `start` bytes in.
    func endOfInputFiller(_ count: Int, start: Int) -> [UInt8] {
        (0..<count).map { (start + $0) & 1 == 0 ? 0xFF : JPEGMarker.eoi }
    }

    func process(_ segment: JPEGSegment, input: InputBuffer) throws(DecodeError) {
        let code = segment.marker
        state = .findMarker
        switch code {
        case JPEGMarker.sof0, JPEGMarker.sof1, JPEGMarker.sof2, JPEGMarker.sof3, JPEGMarker.sof9, JPEGMarker.sof10, JPEGMarker.sof11:
            guard frame == nil else { throw segment.malformed(.duplicateSOF) }
            let parsed = try FrameHeader(parsing: segment)
            progressive = code == JPEGMarker.sof2 || code == JPEGMarker.sof10
            arithmetic = code == JPEGMarker.sof9 || code == JPEGMarker.sof10 || code == JPEGMarker.sof11
            lossless = code == JPEGMarker.sof3 || code == JPEGMarker.sof11
            // libjpeg-turbo 3 decodes 12-bit data in any lossy frame (T.81 allows it in
            // SOF1, SOF2, SOF9, SOF10; SOF0 is 8-bit by definition, but libjpeg does not check)
            // and lossless frames of 2 to 16 bits (H.1.1).
            guard lossless ? (2...16).contains(parsed.precision) : parsed.precision == 8 || parsed.precision == 12 else {
                let refusal = DecodeError(.malformed, format: .jpeg, offset: segment.bodyOffset, JPEGError.precision(parsed.precision))
                guard options.propertiesOnly else { throw refusal }
                try describeOnly(parsed, segment: segment, refusal: refusal)
                return
            }
            frame = parsed
            publishProperties(of: parsed)
        case JPEGMarker.dht:
            for table in try HuffmanTables.parse(segment) {
                if table.isDC { dcSpecs[table.index] = table } else { acSpecs[table.index] = table }
                derivedTables[(table.isDC ? 0 : 4) + table.index] = nil
            }
        case JPEGMarker.dqt:
            for table in try QuantizationTables.parse(segment) { quantTables[table.index] = table.values }
        case JPEGMarker.dri:
            restartInterval = try RestartInterval.parse(segment)
        case JPEGMarker.dac:
            try conditioning.apply(segment)
        case JPEGMarker.dnl:
            // The DNL after a first scan whose frame said Y = 0 was read before that scan; a
            // DNL that redefines a non-zero Y is ignored, as libjpeg-turbo ignores every DNL.
            break
        case JPEGMarker.sos:
            if renderer == nil && options.propertiesOnly {
                // A header probe (ImageSource's properties) ends at the first scan: everything
                // the properties need is known, and no buffer is sized or sample decoded.
                try describeFrameForProbe(at: segment.markerOffset)
                state = .done
                return
            }
            try startScan(segment)
            adoptNewScan(origin: input.origin)
        case JPEGMarker.app0...JPEGMarker.app15, JPEGMarker.com:
            if let problem = metadata.absorb(segment) { warn(at: segment.markerOffset, problem) }
            if var properties {
                applyMetadata(to: &properties)
                self.properties = properties
            }
        case _ where options.propertiesOnly && JPEGMarker.describesOnly(code):
            guard frame == nil else { throw segment.malformed(.duplicateSOF) }
            let refusal = JPEGMarker.refusal(code, offset: segment.markerOffset)
                ?? DecodeError(.unsupported, format: .jpeg, offset: segment.markerOffset, JPEGError.unknownMarker(code))
            try describeOnly(try FrameHeader(parsing: segment), segment: segment, refusal: refusal)
            // A JPEG-LS file's later segments (LSE, T.87 §C.2.4) and scans are T.87's: the
            // walk ends at its frame header.
            if code == JPEGMarker.sof55 { state = .done }
        default:
            throw DecodeError(.malformed, format: .jpeg, offset: segment.markerOffset, JPEGError.unknownMarker(code))
        }
    }

    enum DefinedLines: Equatable {
        case lines(Int)
        /// The bytes so far end inside the first scan or its DNL segment; the search can go
        /// on from `resumeAt` when more arrive.
        case notYet(resumeAt: Int)
        /// Another marker (at `offset`) ends the first scan: no DNL.
        case missing(offset: Int)
    }

    /// T.81 B.2.5: "the number of lines … defined by the DNL marker at the end of the first
    /// scan": the entropy-coded data of the scan starting at `scanStart` is skipped (restart
    /// markers included) up to the marker that ends it, which must be DNL (Ld 4, NL ≥ 1).
    /// The decoder reads this before decoding the scan, so the frame is sized as if its SOF
    /// had said NL — a DNL file decodes like the same file with NL in its SOF.
    /// `from` is the scan's first byte, or where an earlier search of it stopped.
    static func definedLines(_ input: InputBuffer, from start: Int) -> DefinedLines {
        var at = start
        while true {
            let origin = input.origin
            let result = input.bytes.withUnsafeBufferPointer { MarkerScanner.next(in: $0, from: at - origin, end: $0.count) }
            switch result {
            case .endOfBytes(let discarded):
                // Everything before `at + discarded` is data; from there on (a run of 0xFF at
                // most) the next bytes decide.
                return .notYet(resumeAt: at + discarded)
            case .marker(let code, let heldOffset, let heldNext, _):
                let offset = heldOffset + origin, next = heldNext + origin
                if JPEGMarker.isRST(code) {
                    at = next
                    continue
                }
                guard code == JPEGMarker.dnl else { return .missing(offset: offset) }
                guard next + 4 <= input.writeIndex else { return .notYet(resumeAt: offset) }
                let length = Int(input.byte(at: next)) << 8 | Int(input.byte(at: next + 1))
                let lines = Int(input.byte(at: next + 2)) << 8 | Int(input.byte(at: next + 3))
                return length == 4 && lines > 0 ? .lines(lines) : .missing(offset: offset)
            }
        }
    }

    /// The image's properties as the frame header (SOFn) and the metadata so far give them.
    func publishProperties(of parsed: FrameHeader) {
        var properties = ImageProperties(format: .jpeg, width: parsed.width, height: parsed.height,
                                         colorModel: parsed.components.count == 1 ? .gray : parsed.components.count == 4 ? .cmyk : .rgb,
                                         bitsPerComponent: parsed.precision, hasAlpha: false)
        properties.isProgressive = progressive
        applyMetadata(to: &properties)
        self.properties = properties
    }

    /// The header walk over a frame this decoder does not decode (the hierarchical processes,
    /// SOF5–7 and SOF13–15, and precisions its process does not allow; a decode refuses it
    /// with `refusal`): its header is read like any
    /// other — size, components, precision, progression (SOF6 and SOF14 are progressive) — so
    /// `properties()` describes the file as `jpeg_read_header` of a decoder that supports it
    /// would, and the walk ends at the first scan as usual.
    func describeOnly(_ parsed: FrameHeader, segment: JPEGSegment, refusal: DecodeError) throws(DecodeError) {
        progressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(segment.marker)
        frame = parsed
        publishProperties(of: parsed)
        headerRefusal = refusal
        warn(at: refusal.offset, "described from the \(JPEGMarker.name(segment.marker)) frame header, not decoded: \(refusal.reason)")
    }

    /// The properties `setUpFrame` would finish with — the colour model its colour transform
    /// gives — without setting anything up.
    ///
    /// A frame that is well formed but that the decode will refuse — a process or component count
    /// it does not decode, a size beyond libjpeg's 65500 or the decode limits — is still described:
    /// the error becomes `headerRefusal` (what `decode` will throw), not the walk's failure.
    func describeFrameForProbe(at offset: Int) throws(DecodeError) {
        guard let frame else { throw DecodeError(.malformed, format: .jpeg, offset: offset, JPEGError.scanBeforeFrame) }
        do throws(DecodeError) {
            try probeDecodability(frame, at: offset)
        } catch where error.kind == .unsupported || error.kind == .limitExceeded {
            if headerRefusal == nil { headerRefusal = error }   // a refusal at the SOF comes first
        }
        guard var properties else { return }
        applyMetadata(to: &properties)
        self.properties = properties
    }

    /// The checks a decode makes before it allocates anything (libjpeg's `initial_setup`, the
    /// colour conversion it would choose, the renderer's output size), and the colour model the
    /// properties report.
    func probeDecodability(_ frame: FrameHeader, at offset: Int) throws(DecodeError) {
        try checkSupported(frame, at: offset)
        let transform = colorTransform(for: frame).0
        try checkConvertible(frame, transform: transform, at: offset)
        properties?.colorModel = transform.colorModel
        // The output-size check JPEGRenderer makes, so a probe refuses what a decode would.
        let geometry: FrameGeometry
        do {
            geometry = try FrameGeometry(frame: frame, scaleDenominator: options.jpegScaleDenominator, lossless: lossless)
        } catch {
            throw DecodeError(.unsupported, format: .jpeg, offset: offset, error)
        }
        _ = try SizeMath.checkImage(width: geometry.outputWidth, height: geometry.outputHeight,
                                    bytesPerPixel: transform.channels * (frame.precision > 8 ? 2 : 1),
                                    limits: options.limits, format: .jpeg, offset: offset)
    }

    func applyMetadata(to properties: inout ImageProperties) {
        properties.exif = metadata.exif
        properties.exifMetadata = metadata.exifMetadata
        properties.orientation = metadata.orientation ?? .up
        properties.text = metadata.comments.map { TextEntry(keyword: "comment", text: $0) }
        properties.extra.removeAll()
        properties.jfif = metadata.jfif
        if let transform = metadata.adobeTransform { properties.extra.append(("adobeTransform", String(transform))) }
        properties.iccProfile = metadata.iccProfile().profile
        // What djpeg -verbose and identify users look for: the process, each component's
        // sampling factors (H×V), and how coarse the luminance table is.
        if let frame {
            properties.extra.append(("process", JPEGMarker.processName(frame.marker)))
            properties.extra.append(("sampling", frame.components.map { "\($0.h)x\($0.v)" }.joined(separator: ",")))
            if frame.precision == 8, !lossless, let tq = frame.components.first?.tq, tq < 4, let table = quantTables[tq],
               let quality = QualityEstimate.ijgQuality(luminanceTable: table) {
                properties.extra.append(("quality", "≈ \(quality) (IJG scale, estimated from quantization table \(tq))"))
            }
        }
    }
}
