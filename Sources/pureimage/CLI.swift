import CommandLineSupport
import PureImage
#if canImport(Glibc)
import Glibc
#endif

enum CLI {
    /// A subcommand: its name, one line for the overview, its usage text and what runs it.
    struct Command: Sendable {
        let name: String
        let summary: String
        let usage: String
        let run: @Sendable ([String]) throws -> Int32
    }

    static let commands: [Command] = [
        Command(name: "info", summary: "format, size, frames, orientation, colour, depth, alpha, timing",
                usage: InfoCommand.help, run: InfoCommand.run),
        Command(name: "inspect", summary: "the container's structure with byte offsets",
                usage: InspectCommand.help, run: InspectCommand.run),
        Command(name: "decode", summary: "decode to PAM, PNG, PPM or PGM",
                usage: DecodeCommand.help, run: DecodeCommand.run),
        Command(name: "conform", summary: "compare with the reference C libraries (runs pureimage-conform)",
                usage: ConformForwarding.help, run: ConformForwarding.run),
        Command(name: "progression", summary: "contact sheet of the partial image after each incremental update",
                usage: ProgressionCommand.help, run: ProgressionCommand.run),
        Command(name: "downscale", summary: "SDWebImage's scaled-down decode for huge images (streaming)",
                usage: DownscaleCommand.help, run: DownscaleCommand.run),
        Command(name: "thumbnail", summary: "ImageIO-style thumbnail: longest side at most N pixels",
                usage: DownscaleCommand.thumbnailHelp, run: DownscaleCommand.runThumbnail),
    ]

    static let help = """
    usage: pureimage <command> [options]

    commands:
    \(commands.map { "  \($0.name.padding(11))  \($0.summary)" }.joined(separator: "\n"))

    Run `pureimage <command> --help` for a command's options; `pureimage --version` prints
    the version.
    Exit status: 0 success, 1 invalid or unsupported input, 2 usage error,
    3 truncated input decoded partially.
    """

    static func run(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first else {
            printError(help)
            return ExitStatus.usage
        }
        switch name {
        case "--help", "-h", "help":
            print(help)
            return ExitStatus.success
        case "--version", "-V", "version":
            print("pureimage \(PureImageVersion.string)")
            return ExitStatus.success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            printError("pureimage: unknown command '\(name)'\n")
            printError(help)
            return ExitStatus.usage
        }
        do {
            return try command.run(Array(arguments.dropFirst()))
        } catch let error as UsageError {
            // The usage of the command that was misused, like djpeg or tiffinfo print theirs.
            printError("pureimage \(command.name): \(error.message)\n")
            printError(command.usage)
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
