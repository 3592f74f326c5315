/// The description an ICC profile gives itself (ICC.1:2022 §9.2.41 profileDescriptionTag,
/// 'desc'): the text ImageIO shows as a profile's name. Version 2 profiles store it as a
/// textDescriptionType ('desc': an ASCII count and string, ICC.1:2001 §6.5.17), version 4 as a
/// multiLocalizedUnicodeType ('mluc': records of UTF-16BE strings, §10.15; the first record is
/// taken). Nil when the profile has no readable description; every offset is checked against
/// the profile's bytes.
enum ICCProfileDescription {
    static func read(_ profile: [UInt8]) -> String? {
        let reader = ByteReader(profile)
        do throws(ByteReaderError) {
            // §7.3: the tag table follows the 128-byte header: a count, then 12-byte entries.
            let count = Int(try reader.getUInt32(at: 128, .bigEndian))
            guard count <= (profile.count - 132) / 12 else { return nil }
            for index in 0 ..< count {
                let entry = 132 + index * 12
                guard try reader.getUInt32(at: entry, .bigEndian) == 0x6465_7363 else { continue }   // 'desc'
                let start = Int(try reader.getUInt32(at: entry + 4, .bigEndian))
                let size = Int(try reader.getUInt32(at: entry + 8, .bigEndian))
                let tag = ByteReader(profile, range: try reader.getBytes(at: start, count: size).indices)
                switch try tag.getUInt32(at: start, .bigEndian) {
                case 0x6465_7363:   // 'desc': reserved, ASCII count (with its NUL), ASCII
                    let length = Int(try tag.getUInt32(at: start + 8, .bigEndian))
                    let text = try tag.getBytes(at: start + 12, count: length).prefix { $0 != 0 }
                    return String(decoding: text, as: UTF8.self)
                case 0x6D6C_7563:   // 'mluc': reserved, record count, record size, records
                    guard try tag.getUInt32(at: start + 8, .bigEndian) > 0 else { return nil }
                    let length = Int(try tag.getUInt32(at: start + 20, .bigEndian))
                    let offset = Int(try tag.getUInt32(at: start + 24, .bigEndian))
                    let utf16 = try tag.getBytes(at: start + offset, count: length & ~1)
                    let units = stride(from: utf16.startIndex, to: utf16.endIndex, by: 2).map { UInt16(utf16[$0]) << 8 | UInt16(utf16[$0 + 1]) }
                    return String(decoding: units, as: UTF16.self).trimmingTrailingNULs()
                default:
                    return nil
                }
            }
            return nil
        } catch {
            return nil
        }
    }
}

private extension String {
    func trimmingTrailingNULs() -> String {
        var text = self
        while text.last == "\0" { text.removeLast() }
        return text
    }
}
