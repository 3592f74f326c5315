/// An estimate of the "quality" setting a JPEG was written with, from its luminance
/// quantization table, on the IJG scale (cjpeg's `-quality`, 1…100) — what `identify` and
/// `exiftool` users look for in `pureimage info`. Only an estimate: encoders other than libjpeg
/// use other tables, and the number then says how coarse table 0 is compared with the standard one.
///
/// The IJG library scales the example table of T.81 Annex K (Table K.1) by
/// `S = quality < 50 ? 5000 / quality : 200 − 2 × quality` percent (jcparam.c
/// `jpeg_quality_scaling`). Inverting that from the table as stored: `S = 100 × Σq / Σk`, summed
/// over the 64 entries, then `quality = S ≤ 100 ? (200 − S) / 2 : 5000 / S`.
enum QualityEstimate {
    /// T.81 Table K.1, the luminance table, in natural (row-major) order.
    static let standardLuminance: [Int] = [
        16, 11, 10, 16, 24, 40, 51, 61,
        12, 12, 14, 19, 26, 58, 60, 55,
        14, 13, 16, 24, 40, 57, 69, 56,
        14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77,
        24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101,
        72, 92, 95, 98, 112, 100, 103, 99,
    ]

    /// The quality 1…100 from the closed-form inverse above, rounded and clamped (natural order,
    /// 64 entries); nil for a table of another size. Exact to ±1 from quality 25 up; below that,
    /// baseline tables clamp entries at 255 and the estimate comes out higher.
    static func ijgQuality(luminanceTable table: [UInt16]) -> Int? {
        guard table.count == 64 else { return nil }
        let stored = table.reduce(0) { $0 + Int($1) }
        let standard = standardLuminance.reduce(0, +)   // 3 688
        let scale = Double(stored) * 100 / Double(standard)
        let quality = scale <= 100 ? (200 - scale) / 2 : 5000 / scale
        return min(100, max(1, Int(quality.rounded())))
    }
}
