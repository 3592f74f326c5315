/// T.81 §B.2.4.1 — Quantization table-specification syntax (DQT).
///
/// ```
///  Lq(16) { Pq(4) Tq(4) Q_0 … Q_63 (8 or 16 bits each, zig-zag order) } …
/// ```
/// Tables are stored in natural (row-major) order. Any non-zero Pq reads 16-bit entries, as
/// libjpeg-turbo's `get_dqt` does; Tq ≥ 4 is `JERR_DQT_INDEX`; the lengths must add up exactly.
enum QuantizationTables {
    struct Table: Equatable {
        let index: Int
        let sixteenBit: Bool
        /// 64 entries, natural order.
        let values: [UInt16]
    }

    static func parse(_ segment: JPEGSegment) throws(DecodeError) -> [Table] {
        var tables: [Table] = []
        var remaining = segment.declaredLength - 2
        var at = 0
        while remaining > 0 {
            guard at < segment.body.count else { break }
            let pqtq = segment.byte(at)
            let index = pqtq & 15
            let sixteenBit = pqtq >> 4 != 0
            guard index < 4 else { throw segment.malformed(.badQuantizationTableIndex(index), at: at) }
            let size = sixteenBit ? 128 : 64
            guard at + 1 + size <= segment.body.count else { break }
            var values = [UInt16](repeating: 0, count: 64)
            for k in 0..<64 {
                let value = sixteenBit ? segment.uint16(at + 1 + 2 * k) : segment.byte(at + 1 + k)
                values[JPEGZigZag.natural[k]] = UInt16(value)
            }
            tables.append(Table(index: index, sixteenBit: sixteenBit, values: values))
            at += 1 + size
            remaining -= 1 + size
        }
        guard remaining == 0 else {
            throw segment.malformed(.badSegmentLength(marker: segment.marker, length: segment.declaredLength))
        }
        return tables
    }
}

/// T.81 Figure A.6: zig-zag index → natural index. Sixteen extra entries of 63 follow, as in
/// libjpeg's `jpeg_natural_order`: a corrupt run can push the index to 63 + 15, and such
/// coefficients land on position 63 instead of outside the block. `naturalPointer` extends
/// them to index 127 for the EOB entries of `HuffmanTable.sequentialAC` (k + 63).
enum JPEGZigZag {
    static let natural: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
        12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
        58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
        63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    ]

    /// `natural` as a never-freed 128-byte table for the entropy decoder's inner loop
    /// (indices 64…127 map to 63).
    nonisolated(unsafe) static let naturalPointer: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 128)
        table.initialize(repeating: 63, count: 128)
        for (index, value) in natural.enumerated() { table[index] = UInt8(value) }
        return UnsafePointer(table)
    }()
}
