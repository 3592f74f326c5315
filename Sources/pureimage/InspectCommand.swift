import CommandLineSupport
import PureImage

/// `pureimage inspect FILE`
enum InspectCommand {
    static let help = """
    usage: pureimage inspect FILE

    Lists the container structure of FILE with byte offsets: PNG chunks with CRC status and
    decoded fields, JPEG markers and segment fields, GIF blocks, TIFF IFD entries, WebP RIFF
    chunks (VP8X flags, VP8/VP8L headers, ALPH, ANIM, ANMF frames and their chunks). The first
    line names the format from its signature.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, valued: [], allowedFlags: ["--help", "-h"])
        if parsed.has("--help") || parsed.has("-h") { print(help); return ExitStatus.success }
        guard parsed.positional.count == 1, let path = parsed.positional.first else {
            throw UsageError(message: "inspect takes exactly one FILE")
        }
        let bytes: [UInt8]
        do {
            bytes = try ImageFiles.read(path)
        } catch {
            return CLI.report(path, error)
        }
        print("  offset  structure")
        for entry in Inspector.inspect(bytes) { print(entry) }
        return ExitStatus.success
    }
}
