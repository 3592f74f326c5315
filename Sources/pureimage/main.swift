// pureimage — the command-line face of PureImage. The contract (subcommands, flags, JSON keys,
// exit statuses) is fixed: other tools call it.
//
//   0  success
//   1  invalid or unsupported input: one line on stderr, `pureimage: FILE: <kind> at byte <offset>: <detail>`
//   2  usage error
//   3  truncated input decoded partially (output written, warning on stderr)
#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let status = CLI.run(arguments)
exit(status)
