/// TIFF 6.0 §2 field types (Table "Types"), plus TIFF/EP's IFD type (13) and BigTIFF's 8-byte
/// types (16–18), which are recognised so an entry using them can be skipped or shown.
enum TIFFFieldType: Int, CaseIterable {
    case byte = 1, ascii = 2, short = 3, long = 4, rational = 5
    case sbyte = 6, undefined = 7, sshort = 8, slong = 9, srational = 10
    case float = 11, double = 12, ifd = 13, long8 = 16, slong8 = 17, ifd8 = 18

    /// Bytes per value (§2: "BYTE 8-bit unsigned integer", … "RATIONAL Two LONGs").
    var size: Int {
        switch self {
        case .byte, .ascii, .sbyte, .undefined: return 1
        case .short, .sshort: return 2
        case .long, .slong, .float, .ifd: return 4
        case .rational, .srational, .double, .long8, .slong8, .ifd8: return 8
        }
    }

    var name: String {
        switch self {
        case .byte: return "BYTE"
        case .ascii: return "ASCII"
        case .short: return "SHORT"
        case .long: return "LONG"
        case .rational: return "RATIONAL"
        case .sbyte: return "SBYTE"
        case .undefined: return "UNDEFINED"
        case .sshort: return "SSHORT"
        case .slong: return "SLONG"
        case .srational: return "SRATIONAL"
        case .float: return "FLOAT"
        case .double: return "DOUBLE"
        case .ifd: return "IFD"
        case .long8: return "LONG8"
        case .slong8: return "SLONG8"
        case .ifd8: return "IFD8"
        }
    }

    /// Integer types whose values `TIFFDirectory.integers` returns.
    var isInteger: Bool {
        switch self {
        case .byte, .short, .long, .sbyte, .sshort, .slong, .ifd, .long8, .slong8, .ifd8, .undefined: return true
        default: return false
        }
    }
}
