// Replays fuzz inputs through FuzzDriver without sanitizers or libFuzzer, timing each one:
// the check behind "no input of ≤ 64 KB takes more than 1 s" (Docs/Robustness.md), which an
// ASan build cannot make (it runs several times slower).
//
//   fuzz-replay [--limit SECONDS] [--default-limits] [--times FILE] FILES-OR-FOLDERS...
//
// `--times FILE` writes every input's time with its size and declared pixels (TSV), to see
// which inputs a run's time goes to.
//
// A file's format is its folder's name when that is png, jpeg, gif, tiff or webp, else sniffed.
// Prints the slowest inputs; exits 1 when any input of ≤ 64 KiB took longer than the limit.
import FuzzDriver
import PureImage
#if canImport(Glibc)
import Glibc
#endif

var arguments = Array(CommandLine.arguments.dropFirst())
// The fuzzing limits by default (the inputs' 1 s bound holds under them); `--default-limits`
// times with the library's defaults, where a tiny file may claim 2^28 pixels and take time in
// proportion to them.
if let index = arguments.firstIndex(of: "--default-limits") {
    FuzzDriver.limits = DecodeLimits()
    arguments.remove(at: index)
}
var limit = 1.0
var timesPath: String?
if let index = arguments.firstIndex(of: "--times"), index + 1 < arguments.count {
    timesPath = arguments[index + 1]
    arguments.removeSubrange(index ... index + 1)
}
if let index = arguments.firstIndex(of: "--limit"), index + 1 < arguments.count, let value = Double(arguments[index + 1]) {
    limit = value
    arguments.removeSubrange(index ... index + 1)
}

func files(under path: String) -> [String] {
    var info = stat()
    guard stat(path, &info) == 0 else { return [] }
    guard (info.st_mode & S_IFMT) == S_IFDIR else { return [path] }
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var found: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name.hasPrefix(".") { continue }
        found += files(under: path + "/" + name)
    }
    return found.sorted()
}

func format(of path: String) -> ImageFormat? {
    let folder = path.split(separator: "/").dropLast().last.map(String.init) ?? ""
    return ["png": .png, "jpeg": .jpeg, "gif": .gif, "tiff": .tiff, "webp": .webp][folder]
}

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

var timings: [(seconds: Double, bytes: Int, path: String)] = []
for path in arguments.flatMap(files(under:)) {
    guard let bytes = try? ImageFiles.read(path) else { continue }
    let start = now()
    bytes.withUnsafeBufferPointer { FuzzDriver.run($0.baseAddress, $0.count, format: format(of: path)) }
    timings.append((now() - start, bytes.count, path))
}
if let timesPath, let file = fopen(timesPath, "w") {
    fputs("seconds\tbytes\tdeclared_pixels\tpath\n", file)
    for timing in timings {
        // The pixels the headers declare (0 when they do not parse), with the fuzzing limits.
        let pixels = (try? ImageFiles.read(timing.path)).flatMap { bytes in
            (try? ImageSource(bytes: bytes, options: DecodeOptions(limits: FuzzDriver.limits)).properties(at: 0)).map { $0.width * $0.height }
        } ?? 0
        fputs("\(timing.seconds)\t\(timing.bytes)\t\(pixels)\t\(timing.path)\n", file)
    }
    fclose(file)
}
timings.sort { $0.seconds > $1.seconds }
let slow = timings.filter { $0.bytes <= 65536 && $0.seconds > limit }
/// Seconds with three decimals (no Foundation here).
func milliseconds(_ seconds: Double) -> String {
    let ms = Int((seconds * 1000).rounded())
    return "\(ms / 1000).\(String(ms % 1000 + 1000).dropFirst())"
}

print("replayed \(timings.count) inputs in \(milliseconds(timings.reduce(0) { $0 + $1.seconds })) s; slowest:")
for timing in timings.prefix(5) {
    print("  \(milliseconds(timing.seconds)) s  \(timing.bytes) bytes  \(timing.path)")
}
print("\(slow.count) inputs of ≤ 64 KiB over \(limit) s")
exit(slow.isEmpty ? 0 : 1)
