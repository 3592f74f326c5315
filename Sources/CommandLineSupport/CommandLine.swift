#if canImport(Glibc)
import Glibc
#endif

/// The exit statuses every PureImage tool uses.
public enum ExitStatus {
    public static let success: Int32 = 0
    public static let invalidInput: Int32 = 1
    public static let usage: Int32 = 2
    public static let truncated: Int32 = 3
}

/// A usage problem: printed with the usage of the command it concerns, exit status 2.
public struct UsageError: Error {
    public let message: String
    public init(message: String) { self.message = message }
}

/// Writes a line to standard error.
public func printError(_ text: String) {
    var line = text
    if !line.hasSuffix("\n") { line += "\n" }
    // Write to file descriptor 2 directly: the C `stderr` global is not concurrency-safe in Swift 6.
    _ = line.utf8CString.withUnsafeBufferPointer { buffer in
        write(2, buffer.baseAddress, buffer.count - 1)
    }
}

extension String {
    public func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

/// A tiny argument parser: positional arguments, `--flag`, `--option value`, `--option=value` and
/// `-o value`.
public struct Arguments {
    public private(set) var positional: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []

    /// `valued` lists the options that take a value; everything else starting with `-` is a flag
    /// and must be in `allowedFlags`.
    public init(_ arguments: [String], valued: Set<String>, allowedFlags: Set<String>) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("-") && argument.count > 1 {
                if let equals = argument.firstIndex(of: "="), valued.contains(String(argument[..<equals])) {
                    options[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
                } else if valued.contains(argument) {
                    guard index + 1 < arguments.count else { throw UsageError(message: "\(argument) needs a value") }
                    options[argument] = arguments[index + 1]
                    index += 1
                } else if allowedFlags.contains(argument) {
                    flags.insert(argument)
                } else {
                    throw UsageError(message: "unknown option \(argument)")
                }
            } else {
                positional.append(argument)
            }
            index += 1
        }
    }

    public func value(_ name: String) -> String? { options[name] }
    public func has(_ flag: String) -> Bool { flags.contains(flag) }
}
