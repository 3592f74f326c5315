/// A minimal JSON value with deterministic (insertion-ordered) object keys.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public func serialized() -> String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return value.isFinite ? String(value) : "null"
        case .string(let value): return JSONValue.quote(value)
        case .array(let values): return "[" + values.map { $0.serialized() }.joined(separator: ",") + "]"
        case .object(let object):
            return "{" + object.pairs.map { JSONValue.quote($0.key) + ":" + $0.value.serialized() }.joined(separator: ",") + "}"
        }
    }

    public static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

public struct JSONObject: Sendable, Equatable {
    public init() {}
    /// Equal when the same keys hold equal values in the same order (the order is part of the text).
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.pairs.count == b.pairs.count && zip(a.pairs, b.pairs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
    public private(set) var pairs: [(key: String, value: JSONValue)] = []

    public subscript(key: String) -> JSONValue? {
        get { pairs.first { $0.key == key }?.value }
        set {
            if let index = pairs.firstIndex(where: { $0.key == key }) {
                if let newValue { pairs[index].value = newValue } else { pairs.remove(at: index) }
            } else if let newValue {
                pairs.append((key, newValue))
            }
        }
    }
}

extension JSONValue {
    /// A JSON reading error: what was expected, at which byte of the text.
    public struct ParseError: Error, CustomStringConvertible {
        public let offset: Int
        public let expected: String
        public var description: String { "JSON: expected \(expected) at byte \(offset)" }
    }

    /// Reads JSON text (RFC 8259, strictly: its number grammar, its escapes, no raw control
    /// characters in strings, finite numbers) such as `serialized()` writes: objects keep their key order,
    /// numbers without a fraction or exponent that fit an `Int` are `.int`, others `.double`.
    /// Nesting deeper than 512 levels is refused rather than recursed into.
    public init(parsing text: String) throws {
        var reader = JSONReader(bytes: Array(text.utf8))
        self = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.position == reader.bytes.count else { throw ParseError(offset: reader.position, expected: "the end of the text") }
    }

    /// The members of an object, the elements of an array, or the payload of a scalar; nil for
    /// any other case, so callers can read documents with optional chaining.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
    public var arrayValue: [JSONValue]? { if case .array(let values) = self { return values } else { return nil } }
    public var stringValue: String? { if case .string(let value) = self { return value } else { return nil } }
    public var intValue: Int? { if case .int(let value) = self { return value } else { return nil } }
    public var boolValue: Bool? { if case .bool(let value) = self { return value } else { return nil } }
}

/// The recursive-descent reader behind `JSONValue(parsing:)`.
private struct JSONReader {
    let bytes: [UInt8]
    var position = 0

    mutating func skipSpace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    func fail(_ expected: String) -> JSONValue.ParseError { JSONValue.ParseError(offset: position, expected: expected) }

    mutating func literal(_ word: String, _ value: JSONValue) throws -> JSONValue {
        let expected = Array(word.utf8)
        guard position + expected.count <= bytes.count, Array(bytes[position..<position + expected.count]) == expected else {
            throw fail("'\(word)'")
        }
        position += expected.count
        return value
    }

    mutating func value(depth: Int) throws -> JSONValue {
        guard depth < 512 else { throw fail("at most 512 levels of nesting") }
        skipSpace()
        guard position < bytes.count else { throw fail("a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            var object = JSONObject()
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(object) }
            while true {
                skipSpace()
                let key = try string()
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw fail("':'") }
                position += 1
                object[key] = try value(depth: depth + 1)
                skipSpace()
                guard position < bytes.count else { throw fail("',' or '}'") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                guard bytes[position] == UInt8(ascii: "}") else { throw fail("',' or '}'") }
                position += 1
                return .object(object)
            }
        case UInt8(ascii: "["):
            position += 1
            var values: [JSONValue] = []
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(values) }
            while true {
                values.append(try value(depth: depth + 1))
                skipSpace()
                guard position < bytes.count else { throw fail("',' or ']'") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                guard bytes[position] == UInt8(ascii: "]") else { throw fail("',' or ']'") }
                position += 1
                return .array(values)
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, finite.
    mutating func number() throws -> JSONValue {
        let start = position
        func digits() -> Int {
            let first = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            return position - first
        }
        func fail() -> JSONValue.ParseError { JSONValue.ParseError(offset: start, expected: "a value") }
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        let leadingZero = position < bytes.count && bytes[position] == UInt8(ascii: "0")
        let integerDigits = digits()
        guard integerDigits > 0, !(leadingZero && integerDigits > 1) else { position = start; throw fail() }
        var integral = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            integral = false
            guard digits() > 0 else { position = start; throw fail() }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            integral = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { position = start; throw fail() }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if integral, let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { position = start; throw fail() }
        return .double(value)
    }

    mutating func string() throws -> String {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw fail("a string") }
        position += 1
        var scalars = String.UnicodeScalarView()
        var run = position   // start of the current stretch without escapes
        func flush(_ end: Int) { scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars) }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                flush(position)
                position += 1
                return String(scalars)
            }
            guard byte >= 0x20 else { throw fail("no control character inside a string") }
            guard byte == UInt8(ascii: "\\") else { position += 1; continue }
            flush(position)
            position += 1
            guard position < bytes.count else { break }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "u"):
                var code = try hex4()
                // A surrogate pair spells one scalar above U+FFFF; a lone surrogate becomes U+FFFD.
                if (0xD800..<0xDC00).contains(code), position + 1 < bytes.count,
                   bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                    let save = position
                    position += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) { code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) } else { position = save }
                }
                scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escape))
            default:
                position -= 1
                throw fail("one of the escapes \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u")
            }
            run = position
        }
        throw fail("the end of the string")
    }

    mutating func hex4() throws -> UInt32 {
        guard position + 4 <= bytes.count else { throw fail("four hexadecimal digits") }
        var code: UInt32 = 0
        for byte in bytes[position..<position + 4] {
            // Digits only: UInt32(_:radix:) would also take a sign.
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("four hexadecimal digits")
            }
            code = code << 4 | UInt32(digit)
        }
        position += 4
        return code
    }
}
