// pureimage-conform — PureImage against the reference C libraries, file by file, over folders
// of images (`pureimage conform …` runs it). Exit status: 0 every verdict within the
// expectations, 1 otherwise (or an output file could not be written), 2 usage.
import CommandLineSupport
#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "conform-one" {
    exit(Isolation.runChild(Array(arguments.dropFirst())))   // internal: the child of --isolate
}
do {
    exit(try ConformCommand.run(arguments))
} catch let error as UsageError {
    printError("pureimage-conform: \(error.message)\n")
    printError(ConformCommand.help)
    exit(ExitStatus.usage)
} catch {
    printError("pureimage-conform: \(error)")
    exit(ExitStatus.invalidInput)
}
