/// Reads the orientation (tag 274) from an EXIF block: a TIFF structure (TIFF 6.0 §2) starting
/// with its byte-order mark — what JPEG APP1 carries after "Exif\0\0" and PNG eXIf holds.
/// Only IFD0 is consulted, as ImageIO does. Returns nil when the block is malformed or the
/// tag is absent; the caller then keeps orientation 1.
enum EXIFOrientation {
    static func read(_ exif: ArraySlice<UInt8>) -> Orientation? {
        let reader = ByteReader(Array(exif))
        do throws(ByteReaderError) {
            let endianness: Endianness
            switch (try reader.getUInt8(at: 0), try reader.getUInt8(at: 1)) {
            case (0x49, 0x49): endianness = .littleEndian  // "II"
            case (0x4D, 0x4D): endianness = .bigEndian     // "MM"
            default: return nil
            }
            guard try reader.getUInt16(at: 2, endianness) == 42 else { return nil }
            let ifd = Int(try reader.getUInt32(at: 4, endianness))
            let count = Int(try reader.getUInt16(at: ifd, endianness))
            for entry in 0..<count {
                let at = ifd + 2 + entry * 12
                guard try reader.getUInt16(at: at, endianness) == 274 else { continue }
                // TIFF 6.0 §2: type SHORT (3), count 1, value in the first two bytes of the field.
                let type = try reader.getUInt16(at: at + 2, endianness)
                let value: Int
                switch type {
                case 3: value = Int(try reader.getUInt16(at: at + 8, endianness))
                case 4: value = Int(try reader.getUInt32(at: at + 8, endianness))
                default: return nil
                }
                return Orientation(rawValue: value)
            }
            return nil
        } catch {
            return nil
        }
    }
}
