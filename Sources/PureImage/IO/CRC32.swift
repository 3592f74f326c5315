/// CRC-32 as PNG §5.5 specifies it (ISO 3309 / ITU-T V.42: polynomial 0xEDB88320 in reflected
/// form, initial value and final XOR 0xFFFFFFFF), computed in Swift with slicing-by-4 tables.
enum CRC32 {
    /// `tables[k][b]` is the CRC of byte b followed by k zero bytes; table 0 is the classic one.
    private static let tables: [[UInt32]] = {
        var table0 = [UInt32](repeating: 0, count: 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            table0[byte] = crc
        }
        var tables = [table0]
        for k in 1..<4 {
            var next = [UInt32](repeating: 0, count: 256)
            for byte in 0..<256 {
                let previous = tables[k - 1][byte]
                next[byte] = (previous >> 8) ^ table0[Int(previous & 0xFF)]
            }
            tables.append(next)
        }
        return tables
    }()

    /// Continues a CRC over `bytes` (pass the previous result to chain; start from 0).
    static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var c = ~crc
        var index = 0
        let count = bytes.count
        tables[0].withUnsafeBufferPointer { t0 in
        tables[1].withUnsafeBufferPointer { t1 in
        tables[2].withUnsafeBufferPointer { t2 in
        tables[3].withUnsafeBufferPointer { t3 in
            // Four bytes per step while at least four remain (index + 3 < count), then one at a time.
            while index + 4 <= count {
                c ^= UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
                c = t3[Int(c & 0xFF)] ^ t2[Int((c >> 8) & 0xFF)] ^ t1[Int((c >> 16) & 0xFF)] ^ t0[Int(c >> 24)]
                index += 4
            }
            while index < count {
                c = t0[Int((c ^ UInt32(bytes[index])) & 0xFF)] ^ (c >> 8)
                index += 1
            }
        }}}}
        return ~c
    }

    static func checksum<C: Collection>(_ bytes: C, initial: UInt32 = 0) -> UInt32 where C.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ update(initial, UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return Array(bytes).withUnsafeBytes { update(initial, $0) }
    }
}
