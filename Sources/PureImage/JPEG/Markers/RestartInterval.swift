/// T.81 §B.2.4.4 — Restart interval definition syntax (DRI): `Lr(16) = 4, Ri(16)`.
/// libjpeg-turbo's `get_dri` insists on Lr = 4.
enum RestartInterval {
    static func parse(_ segment: JPEGSegment) throws(DecodeError) -> Int {
        guard segment.declaredLength == 4, segment.body.count >= 2 else {
            throw segment.malformed(.badSegmentLength(marker: segment.marker, length: segment.declaredLength))
        }
        return segment.uint16(0)
    }
}
