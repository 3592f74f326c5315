import CommandLineSupport
#if canImport(Glibc)
import Glibc
#endif

/// `pureimage conform …` runs `pureimage-conform …`. The comparison links the reference C
/// libraries (libjpeg-turbo, libpng, giflib, libtiff, libwebp, libspng, stb); keeping it in its
/// own executable means `pureimage` itself needs only the library and zlib.
enum ConformForwarding {
    static let help = """
    usage: pureimage conform [PATH ...] [options]

    Runs pureimage-conform (the comparison with the reference C libraries) with the same
    arguments; `pureimage-conform --help` lists them. pureimage-conform is looked for next to
    this executable, then on PATH; `swift build -c release --product pureimage-conform`
    builds it.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(help)
            // Show the runner's own options too when it is there.
            guard let runner = runnerPath() else { return ExitStatus.success }
            return exec(runner, arguments)
        }
        guard let runner = runnerPath() else {
            printError("pureimage conform: pureimage-conform was not found next to \(ownPath() ?? "pureimage") or on PATH; "
                       + "build it with `swift build -c release --product pureimage-conform`")
            return ExitStatus.usage
        }
        return exec(runner, arguments)
    }

    /// Replaces this process with the runner; returns only when that fails.
    static func exec(_ runner: String, _ arguments: [String]) -> Int32 {
        fflush(nil)   // every output stream: what this process printed must not vanish with it
        var argv: [UnsafeMutablePointer<CChar>?] = ([runner] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(runner, argv)
        let reason = String(cString: strerror(errno))
        printError("pureimage conform: cannot run \(runner): \(reason)")
        return ExitStatus.usage
    }

    /// This executable's own path, from /proc/self/exe (argv[0] may be a bare name).
    static func ownPath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func runnerPath() -> String? {
        if let own = ownPath(), let slash = own.lastIndex(of: "/") {
            let beside = String(own[..<slash]) + "/pureimage-conform"
            if access(beside, X_OK) == 0 { return beside }
        }
        let searchPath = getenv("PATH").map { String(cString: $0) } ?? ""
        for folder in searchPath.split(separator: ":") where !folder.isEmpty {
            let candidate = String(folder) + "/pureimage-conform"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
