import CommandLineSupport
import PureImage

/// `pureimage inspect FILE`
enum InspectCommand {
    static let help = """
    usage: pureimage inspect FILE

    Lists the structure of FILE with byte offsets, as the decoder reads it: PNG chunks with CRC
    status and decoded fields, JPEG markers, segment fields and entropy-coded segments, GIF
    blocks, TIFF IFD entries and pages, WebP RIFF chunks (VP8X flags, VP8/VP8L headers, ALPH,
    ANIM, ANMF frames and their chunks), each problem the decoder stepped over ("warning") where
    it met it, and how the decode ended ("error", "truncated", "trailing" bytes not read, "end").
    The first line names the format from its signature. The file is decoded whole, every frame,
    with the default limits.
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
