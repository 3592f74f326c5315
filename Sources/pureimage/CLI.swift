import PureImage
#if canImport(Glibc)
import Glibc
#endif

enum ExitStatus {
    static let success: Int32 = 0
    static let invalidInput: Int32 = 1
    static let usage: Int32 = 2
    static let truncated: Int32 = 3
}

/// A usage problem: printed with the command's help, exit status 2.
struct UsageError: Error {
    let message: String
}

enum CLI {
    static let commands: [(name: String, summary: String)] = [
        ("info", "format, size, frames, orientation, colour, depth, alpha, timing"),
        ("inspect", "the container's structure with byte offsets"),
        ("decode", "decode to PAM, PNG, PPM or PGM"),
        ("conform", "compare with the reference C libraries over folders of images"),
        ("progression", "contact sheet of the partial image after each incremental update"),
        ("downscale", "SDWebImage's scaled-down decode for huge images (streaming)"),
        ("thumbnail", "ImageIO-style thumbnail: longest side at most N pixels"),
    ]

    static let help = """
    usage: pureimage <command> [options]

    commands:
    \(commands.map { "  \($0.name.padding(8))  \($0.summary)" }.joined(separator: "\n"))

    Run `pureimage <command> --help` for a command's options; `pureimage --version` prints
    the version.
    Exit status: 0 success, 1 invalid or unsupported input, 2 usage error,
    3 truncated input decoded partially.
    """

    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            printError(help)
            return ExitStatus.usage
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "--help", "-h", "help":
                print(help)
                return ExitStatus.success
            case "--version", "-V", "version":
                print("pureimage \(PureImageVersion.string)")
                return ExitStatus.success
            case "info": return try InfoCommand.run(rest)
            case "inspect": return try InspectCommand.run(rest)
            case "decode": return try DecodeCommand.run(rest)
            case "conform": return try ConformCommand.run(rest)
            case "progression": return try ProgressionCommand.run(rest)
            case "downscale": return try DownscaleCommand.run(rest)
            case "thumbnail": return try DownscaleCommand.runThumbnail(rest)
            case "conform-one": return Isolation.runChild(rest)   // internal: the child of `conform --isolate`
            default:
                throw UsageError(message: "unknown command '\(command)'")
            }
        } catch let error as UsageError {
            printError("pureimage: \(error.message)\n")
            printError(help)
            return ExitStatus.usage
        } catch {
            printError("pureimage: \(error)")
            return ExitStatus.invalidInput
        }
    }

    /// `pureimage: FILE: <kind> at byte <offset>: <detail>`
    /// For files that cannot be read: `pureimage: FILE: is a directory` (the reason names the file).
    static func report(_ path: String, _ error: DecodeError) -> Int32 {
        if error.kind == .io {
            printError("pureimage: \(error.reason)")
        } else {
            printError("pureimage: \(path): \(error)")
        }
        return ExitStatus.invalidInput
    }
}

func printError(_ text: String) {
    var line = text
    if !line.hasSuffix("\n") { line += "\n" }
    // Write to file descriptor 2 directly: the C `stderr` global is not concurrency-safe in Swift 6.
    _ = line.utf8CString.withUnsafeBufferPointer { buffer in
        write(2, buffer.baseAddress, buffer.count - 1)
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

/// A tiny argument parser: positional arguments, `--flag`, `--option value` and `-o value`.
struct Arguments {
    private(set) var positional: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []

    /// `valued` lists the options that take a value; everything else starting with `-` is a flag
    /// and must be in `allowedFlags`.
    init(_ arguments: [String], valued: Set<String>, allowedFlags: Set<String>) throws {
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

    func value(_ name: String) -> String? { options[name] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}
