/// Why a decode failed, in one of a few families, with the byte offset where it was noticed and
/// a typed, format-specific reason (`PNGError`, `ContainerError`, …) that says exactly what.
///
/// `description` reads as one line: `malformed at byte 33: PNG: CRC mismatch in IHDR …`.
public struct DecodeError: Error, Sendable, CustomStringConvertible {
    /// The family a failure belongs to; its raw value is the word `description` begins with.
    public enum Kind: String, Sendable, Hashable {
        /// The bytes break the format's rules.
        case malformed
        /// Valid input using a feature this library does not decode (or a recognised format it
        /// does not support, such as HEIF).
        case unsupported
        /// The input asks for more than `DecodeLimits` allows.
        case limitExceeded = "limit exceeded"
        /// The input ended before the image did.
        case truncated
        /// The first bytes match no known signature.
        case unknownFormat = "unknown format"
        /// The file could not be read (`FileError` says why); nothing was decoded.
        case io = "I/O error"
    }

    /// Which family of failure this is.
    public let kind: Kind
    /// The format being decoded; nil when none was identified (e.g. unknown format, I/O errors).
    public let format: ImageFormat?
    /// Absolute byte offset in the input where the problem was found, when meaningful.
    public let offset: Int?
    /// The format-specific reason; cast to `PNGError` etc. to inspect it.
    public let reason: any DecodeErrorReason

    /// Creates an error of `kind` for `format` at `offset` (nil: no meaningful place), with its reason.
    public init(_ kind: Kind, format: ImageFormat?, offset: Int?, _ reason: any DecodeErrorReason) {
        self.kind = kind
        self.format = format
        self.offset = offset
        self.reason = reason
    }

    /// The same error, placed at `offset` when it had no place of its own: a buffer that would
    /// exceed the limits is refused deep inside a decoder, which knows the size but not which
    /// header declared it; the caller that parsed the header does.
    func located(at offset: Int) -> DecodeError {
        self.offset == nil ? DecodeError(kind, format: format, offset: offset, reason) : self
    }

    public var description: String {
        let place = offset.map { " at byte \($0)" } ?? ""
        let prefix = format.map { "\($0.rawValue.uppercased()): " } ?? ""
        return "\(kind.rawValue)\(place): \(prefix)\(reason)"
    }
}

/// A typed reason carried by `DecodeError`. Each format lists its reasons in one enum
/// (`PNGError`, …) so a single screen shows every way that format can fail.
public protocol DecodeErrorReason: Error, Sendable, CustomStringConvertible {}

/// Reasons that belong to no single format.
public enum ContainerError: DecodeErrorReason, Hashable {
    /// The signature table in `FormatSniffer` matched nothing; carries the first bytes seen.
    case unknownSignature(firstBytes: [UInt8])
    /// Within two bytes of a format's signature, but not equal to it (see `FormatSniffer`).
    case damagedSignature(ImageFormat, found: [UInt8])
    /// Too few bytes to tell the format.
    case tooShortToIdentify(count: Int)
    /// A format PureImage recognises but does not decode.
    case formatNotSupported(ImageFormat)
    /// Frame index past the end of the image's frames.
    case frameOutOfRange(index: Int, count: Int)
    /// The requested output pixel format could not be produced.
    case outputConversion(String)

    public var description: String {
        switch self {
        case .unknownSignature(let bytes):
            return "no known image signature (starts with \(bytes.map { hex2($0) }.joined(separator: " ")))"
        case .damagedSignature(let format, let found):
            return "damaged \(format.rawValue) signature \(found.map { hex2($0) }.joined(separator: " "))"
        case .tooShortToIdentify(let count): return "only \(count) bytes, too few to identify the format"
        case .formatNotSupported(let format): return "\(format.rawValue) is recognised, not supported"
        case .frameOutOfRange(let index, let count): return "frame \(index) requested, the image has \(count)"
        case .outputConversion(let what): return "cannot produce the requested pixels: \(what)"
        }
    }
}

/// Reasons for `DecodeError.Kind.limitExceeded`.
public enum LimitReason: DecodeErrorReason, Hashable {
    /// `width` × `height` pixels exceed `limit` (`DecodeLimits.maxPixels`).
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// `bytes` is nil when the size overflowed `Int` altogether.
    case allocationTooLarge(bytes: Int?, limit: Int)
    /// A metadata block exceeds `limit` bytes (`DecodeLimits.maxMetadataBytes`).
    case metadataTooLarge(limit: Int)
    /// The image has more than `limit` frames (`DecodeLimits.maxFrames`).
    case tooManyFrames(limit: Int)
    /// One decode would hold more than `DecodeLimits.maxMemoryBytes` at once; `requested` is
    /// nil when the size overflowed `Int`.
    case memoryBudgetExceeded(requested: Int?, held: Int, limit: Int)

    public var description: String {
        switch self {
        case .tooManyPixels(let width, let height, let limit):
            return "\(width)×\(height) exceeds the limit of \(limit) pixels"
        case .allocationTooLarge(let bytes, let limit):
            return "an allocation of \(bytes.map(String.init) ?? "more than Int.max") bytes exceeds the limit of \(limit)"
        case .metadataTooLarge(let limit): return "metadata larger than the limit of \(limit) bytes"
        case .tooManyFrames(let limit): return "more than \(limit) frames"
        case .memoryBudgetExceeded(let requested, let held, let limit):
            return "\(requested.map { "\($0) more bytes" } ?? "more than Int.max bytes") beside the \(held) held exceed the decode's memory limit of \(limit)"
        }
    }
}

/// Two hex digits, for messages.
func hex2(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
}

/// A problem the decoder recovered from, in the manner of libjpeg's and libpng's warnings.
public struct DecodeWarning: Sendable, CustomStringConvertible {
    /// Absolute byte offset in the input the warning concerns, when meaningful.
    public let offset: Int?
    /// What the decoder noticed and recovered from, as one line of text.
    public let message: String
    /// Creates a warning at `offset` (nil: no particular place).
    public init(offset: Int?, _ message: String) {
        self.offset = offset
        self.message = message
    }
    public var description: String {
        (offset.map { "at byte \($0): " } ?? "") + message
    }
}
