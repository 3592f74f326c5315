/// A minimal JSON value with deterministic (insertion-ordered) object keys.
public indirect enum JSONValue {
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

public struct JSONObject {
    public init() {}
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
