/// Marker codes, T.81 Table B.1. A marker is 0xFF followed by one of these codes; any number of
/// 0xFF fill bytes may precede it (B.1.1.2).
enum JPEGMarker {
    static let sof0: UInt8 = 0xC0   // baseline DCT
    static let sof1: UInt8 = 0xC1   // extended sequential DCT, Huffman
    static let sof2: UInt8 = 0xC2   // progressive DCT, Huffman
    static let sof3: UInt8 = 0xC3   // lossless, Huffman
    static let dht: UInt8 = 0xC4
    static let sof9: UInt8 = 0xC9   // extended sequential DCT, arithmetic
    static let sof10: UInt8 = 0xCA  // progressive DCT, arithmetic
    static let sof11: UInt8 = 0xCB  // lossless, arithmetic
    static let jpg: UInt8 = 0xC8    // reserved for extensions
    static let dac: UInt8 = 0xCC    // arithmetic conditioning
    static let rst0: UInt8 = 0xD0
    static let rst7: UInt8 = 0xD7
    static let soi: UInt8 = 0xD8
    static let eoi: UInt8 = 0xD9
    static let sos: UInt8 = 0xDA
    static let dqt: UInt8 = 0xDB
    static let dnl: UInt8 = 0xDC
    static let dri: UInt8 = 0xDD
    static let dhp: UInt8 = 0xDE
    static let exp: UInt8 = 0xDF
    static let app0: UInt8 = 0xE0
    static let app15: UInt8 = 0xEF
    static let com: UInt8 = 0xFE
    static let tem: UInt8 = 0x01
    /// JPEG-LS (ITU-T T.87 §C.2.2): a frame header laid out as T.81's, in another standard's
    /// files (their scans are not T.81 scans). Described by `properties()`, never decoded.
    static let sof55: UInt8 = 0xF7

    static func isRST(_ code: UInt8) -> Bool { code >= rst0 && code <= rst7 }
    static func isAPP(_ code: UInt8) -> Bool { code >= app0 && code <= app15 }

    /// True for markers without a length field (B.1.1.4): SOI, EOI, RSTn, TEM.
    static func isStandalone(_ code: UInt8) -> Bool {
        code == soi || code == eoi || isRST(code) || code == tem
    }

    /// Markers libjpeg-turbo rejects from the code alone (jdmarker.c `read_markers`): the SOF
    /// types it does not decode (here: the hierarchical ones) and reserved codes.
    static func refuseEarly(_ code: UInt8, offset: Int) throws(DecodeError) {
        if let refusal = refusal(code, offset: offset) { throw refusal }
    }

    /// `refuseEarly`'s error for `code`, nil for the codes it lets through.
    static func refusal(_ code: UInt8, offset: Int) -> DecodeError? {
        switch code {
        case JPEGMarker.sof0, JPEGMarker.sof1, JPEGMarker.sof2, JPEGMarker.sof3, JPEGMarker.sof9, JPEGMarker.sof10, JPEGMarker.sof11,
             JPEGMarker.dht, JPEGMarker.dqt, JPEGMarker.dri, JPEGMarker.dac, JPEGMarker.dnl, JPEGMarker.sos,
             JPEGMarker.app0...JPEGMarker.app15, JPEGMarker.com:
            return nil
        case 0xC5, 0xC6, 0xC7, 0xCD, 0xCE, 0xCF, JPEGMarker.dhp, JPEGMarker.exp:
            return DecodeError(.unsupported, format: .jpeg, offset: offset, JPEGError.hierarchical(sof: code))
        case JPEGMarker.sof55:
            return DecodeError(.unsupported, format: .jpeg, offset: offset, JPEGError.jpegLS)
        default:
            return DecodeError(.malformed, format: .jpeg, offset: offset, JPEGError.unknownMarker(code))
        }
    }

    /// SOF codes of processes this library does not decode but whose frame header it reads
    /// for `ImageSource.properties()`: hierarchical (SOF5–7) and hierarchical arithmetic
    /// (SOF13–15). Their header is laid out as SOF0's (B.2.2).
    static func describesOnly(_ code: UInt8) -> Bool {
        [0xC5, 0xC6, 0xC7, 0xCD, 0xCE, 0xCF, sof55].contains(code)
    }

    /// The coding process an SOF code announces (T.81 Table B.1).
    static func processName(_ code: UInt8) -> String {
        // 0xC8 (JPG) is reserved for extensions, not the arithmetic twin of SOF0.
        if code == 0xC8 { return "reserved (JPG extension)" }
        if code == sof55 { return "JPEG-LS (ITU-T T.87)" }
        let coding = (0xC9...0xCF).contains(code) ? "arithmetic" : "Huffman"
        switch code & 0xF7 {
        case 0xC0: return code == sof0 ? "baseline DCT, Huffman" : "extended sequential DCT, \(coding)"
        case 0xC1: return "extended sequential DCT, \(coding)"
        case 0xC2: return "progressive DCT, \(coding)"
        case 0xC3: return "lossless, \(coding)"
        case 0xC5: return "hierarchical sequential DCT, \(coding)"
        case 0xC6: return "hierarchical progressive DCT, \(coding)"
        case 0xC7: return "hierarchical lossless, \(coding)"
        default: return "unknown process"
        }
    }

    /// The name T.81 Table B.1 gives the code.
    static func name(_ code: UInt8) -> String {
        switch code {
        case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF: return "SOF\(Int(code) - 0xC0)"
        case dht: return "DHT"
        case jpg: return "JPG"
        case dac: return "DAC"
        case rst0...rst7: return "RST\(Int(code) - 0xD0)"
        case soi: return "SOI"
        case eoi: return "EOI"
        case sos: return "SOS"
        case dqt: return "DQT"
        case dnl: return "DNL"
        case dri: return "DRI"
        case dhp: return "DHP"
        case exp: return "EXP"
        case app0...app15: return "APP\(Int(code) - 0xE0)"
        case sof55: return "SOF55"   // T.81's JPG7, taken by JPEG-LS (T.87)
        case 0xF8: return "LSE"       // T.81's JPG8, JPEG-LS preset parameters
        case 0xF0...0xFD: return "JPG\(Int(code) - 0xF0)"
        case com: return "COM"
        case tem: return "TEM"
        default: return "RES(\(hex2(code)))"
        }
    }
}

/// A segment's bytes after its two length bytes, with the absolute offset of the first one so
/// that errors can say where they happened. `declaredLength` is the length field itself
/// (which counts its own two bytes, B.1.1.4).
struct JPEGSegment {
    let marker: UInt8
    /// Offset of the 0xFF of the marker.
    let markerOffset: Int
    let declaredLength: Int
    /// `max(0, declaredLength − 2)` bytes.
    let body: ArraySlice<UInt8>
    var bodyOffset: Int { markerOffset + 4 }

    func byte(_ index: Int) -> Int { Int(body[body.startIndex + index]) }
    func uint16(_ index: Int) -> Int { byte(index) << 8 | byte(index + 1) }

    func malformed(_ reason: JPEGError, at index: Int = 0) -> DecodeError {
        DecodeError(.malformed, format: .jpeg, offset: bodyOffset + index, reason)
    }
}
