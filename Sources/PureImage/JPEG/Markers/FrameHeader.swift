/// T.81 §B.2.2 — Frame header syntax (SOF0, SOF1, SOF2; other SOFn are parsed for `inspect` only).
///
/// ```
///  Lf(16) P(8) Y(16) X(16) Nf(8)  { C_i(8) H_i(4) V_i(4) Tq_i(8) } × Nf
/// ```
struct FrameHeader: Equatable {
    struct Component: Equatable {
        /// C_i, 0…255. Not necessarily unique in real files (libjpeg matches in order).
        let id: UInt8
        /// H_i and V_i; validated to 1…4 at the first scan, as libjpeg's `initial_setup` does.
        let h: Int
        let v: Int
        /// Tq_i; checked (0…3 and defined) when the component's first scan starts.
        let tq: Int
    }

    let marker: UInt8
    /// P: 8 is the only precision decoded.
    let precision: Int
    /// Y (lines) and X (samples per line), 1…65535 after the checks below.
    let height: Int
    let width: Int
    let components: [Component]

    /// Parses and checks as libjpeg-turbo's `get_sof` does — a width or component count of 0
    /// is `JERR_EMPTY_IMAGE`, and Lf must equal 8 + 3 × Nf — except that a height of 0 is
    /// accepted: the DNL segment after the first scan defines it (B.2.5; libjpeg-turbo refuses
    /// such files).
    init(parsing segment: JPEGSegment) throws(DecodeError) {
        guard segment.body.count >= 6 else {
            throw segment.malformed(.badSegmentLength(marker: segment.marker, length: segment.declaredLength))
        }
        marker = segment.marker
        precision = segment.byte(0)
        height = segment.uint16(1)
        width = segment.uint16(3)
        let count = segment.byte(5)
        // B.2.2: "Y … the value 0 indicates that the number of lines shall be defined by the
        // DNL marker" (`JPEGDecoder` finds it before the first scan is decoded).
        guard width > 0, count > 0 else {
            throw DecodeError(.malformed, format: .jpeg, offset: segment.bodyOffset,
                              JPEGError.emptyImage(width: width, height: height, components: count))
        }
        guard segment.declaredLength - 8 == count * 3, segment.body.count >= 6 + count * 3 else {
            throw segment.malformed(.badSegmentLength(marker: segment.marker, length: segment.declaredLength))
        }
        var components: [Component] = []
        for index in 0..<count {
            let at = 6 + index * 3
            let sampling = segment.byte(at + 1)
            components.append(Component(id: UInt8(segment.byte(at)), h: sampling >> 4, v: sampling & 15, tq: segment.byte(at + 2)))
        }
        self.components = components
    }

    /// The same frame with Y = `lines` (from a DNL segment).
    func defining(lines: Int) -> FrameHeader {
        FrameHeader(marker: marker, precision: precision, height: lines, width: width, components: components)
    }

    private init(marker: UInt8, precision: Int, height: Int, width: Int, components: [Component]) {
        self.marker = marker
        self.precision = precision
        self.height = height
        self.width = width
        self.components = components
    }
}
