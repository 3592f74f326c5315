/// Application segments (T.81 §B.2.4.6, APPn) and comments (§B.2.4.5, COM): the metadata a
/// JPEG carries outside the image data.
///
/// libjpeg-turbo itself looks at only two of them, each from its first 14 (APP0) or 12
/// (APP14) bytes: JFIF, which selects YCbCr, and Adobe, whose transform flag selects the
/// colour space. The rest (EXIF, ICC, comments) are ours to report.
struct JPEGMetadata {
    /// JFIF APP0 ("JFIF\0"): version, density unit (0 none, 1 dpi, 2 dpcm), X and Y density.
    var jfif: JFIFProperties?
    /// Adobe APP14 transform flag: 0 unknown (RGB or CMYK), 1 YCbCr, 2 YCCK.
    var adobeTransform: Int?
    /// The first EXIF APP1 block, after "Exif\0\0".
    var exif: [UInt8]?
    var orientation: Orientation? { exifMetadata?.orientation }
    /// The first EXIF block's tags (`EXIFReader`).
    var exifMetadata: EXIFMetadata?
    /// ICC chunks by sequence number (1-based), with the count each chunk declared.
    var iccChunks: [(sequence: Int, count: Int, data: ArraySlice<UInt8>)] = []
    var comments: [String] = []

    /// Examines one APPn or COM segment. Returns a warning for recoverable oddities.
    mutating func absorb(_ segment: JPEGSegment) -> String? {
        let body = segment.body
        switch segment.marker {
        case JPEGMarker.app0:
            // libjpeg `examine_app0`: "JFIF\0" and at least 14 bytes.
            if body.count >= 14, body.starts(with: [0x4A, 0x46, 0x49, 0x46, 0x00]) {
                jfif = JFIFProperties(majorVersion: segment.byte(5), minorVersion: segment.byte(6), densityUnit: segment.byte(7),
                            xDensity: segment.uint16(8), yDensity: segment.uint16(10))
                if segment.byte(5) != 1 {
                    return "JFIF major version \(segment.byte(5)) (libjpeg warns and goes on)"
                }
            }
        case JPEGMarker.app0 + 1:
            // EXIF (CIPA DC-008 §4.7.2): "Exif\0\0" then a TIFF structure. The first one counts.
            if exif == nil, body.count >= 6, body.starts(with: [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]) {
                let tiff = body.dropFirst(6)
                exif = Array(tiff)
                exifMetadata = EXIFReader.read(block: exif ?? [])
            }
        case JPEGMarker.app0 + 2:
            // ICC.1:2010 Annex B.4: "ICC_PROFILE\0", sequence number (1-based), chunk count.
            let signature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
            if body.count >= 14, body.starts(with: signature) {
                iccChunks.append((segment.byte(12), segment.byte(13), body.dropFirst(14)))
            }
        case JPEGMarker.app0 + 14:
            // libjpeg `examine_app14`: "Adobe" and at least 12 bytes; transform in byte 11.
            if body.count >= 12, body.starts(with: [0x41, 0x64, 0x6F, 0x62, 0x65]) {
                adobeTransform = segment.byte(11)
            }
        case JPEGMarker.com:
            // T.81 gives no encoding; Latin-1 keeps every byte (the common practice is ASCII).
            var text = ""
            for byte in body { text.unicodeScalars.append(Unicode.Scalar(byte)) }
            while text.last == "\0" { text.removeLast() }
            comments.append(text)
        default:
            break
        }
        return nil
    }

    /// The ICC profile reassembled in sequence order, with libjpeg-turbo's `jpeg_read_icc_profile`
    /// rules: every chunk declares the same non-zero count, sequence numbers are 1…count, none
    /// missing or repeated. Otherwise there is no profile (and a warning says why).
    func iccProfile() -> (profile: [UInt8]?, problem: String?) {
        guard let first = iccChunks.first else { return (nil, nil) }
        let count = first.count
        guard count > 0 else { return (nil, "ICC chunk count 0; profile ignored") }
        var ordered = [ArraySlice<UInt8>?](repeating: nil, count: count)
        for chunk in iccChunks {
            guard chunk.count == count, chunk.sequence >= 1, chunk.sequence <= count else {
                return (nil, "inconsistent ICC chunk numbering; profile ignored")
            }
            guard ordered[chunk.sequence - 1] == nil else {
                return (nil, "ICC chunk \(chunk.sequence) appears twice; profile ignored")
            }
            ordered[chunk.sequence - 1] = chunk.data
        }
        var profile: [UInt8] = []
        for (index, chunk) in ordered.enumerated() {
            guard let chunk else { return (nil, "ICC chunk \(index + 1) of \(count) is missing; profile ignored") }
            profile.append(contentsOf: chunk)
        }
        return (profile, nil)
    }
}
