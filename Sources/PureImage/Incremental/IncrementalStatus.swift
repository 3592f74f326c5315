/// Where an incremental decode stands — `CGImageSourceStatus`'s cases.
///
/// ```
///  unknownType ──► readingHeader ──► incomplete ──► complete
///       │               │                │
///       └───────────────┴────────────────┴──► invalidData   (the bytes break the format)
///                                        └──► unexpectedEOF (final data ended early)
/// ```
/// The status only moves forward along the arrows (`rawValue` increases); `complete`,
/// `invalidData` and `unexpectedEOF` are final.
public enum IncrementalStatus: Int, Comparable, Sendable, CustomStringConvertible {
    /// Too few bytes to tell the format.
    case unknownType = 0
    /// The format is known; its header (size, colour type…) is not complete yet.
    case readingHeader = 1
    /// Properties are known; pixel data is arriving.
    case incomplete = 2
    /// Every frame is decoded.
    case complete = 3
    /// The data is malformed or unsupported (the error is kept in `IncrementalImageSource.error`).
    case invalidData = 4
    /// The final data ended before the image did; what arrived is decoded.
    case unexpectedEOF = 5

    public static func < (a: IncrementalStatus, b: IncrementalStatus) -> Bool { a.rawValue < b.rawValue }

    /// True for `complete`, `invalidData` and `unexpectedEOF`: nothing will change any more.
    public var isFinal: Bool { self >= .complete }

    public var description: String {
        switch self {
        case .unknownType: return "unknownType"
        case .readingHeader: return "readingHeader"
        case .incomplete: return "incomplete"
        case .complete: return "complete"
        case .invalidData: return "invalidData"
        case .unexpectedEOF: return "unexpectedEOF"
        }
    }
}
