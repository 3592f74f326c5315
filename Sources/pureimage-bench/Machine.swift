#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the numbers were measured on: printed above the table and stored in the JSON.
struct MachineInfo {
    var cpuModel: String
    var logicalCPUs: Int
    var kernel: String
    /// /proc/loadavg's 1-minute load when the run started (other work on the machine skews
    /// timings; a load near the CPU count means the run shared the machine).
    var loadAverageAtStart: String
    var swiftVersion: String
    var date: String

    static func current() -> MachineInfo {
        MachineInfo(cpuModel: cpuModel(), logicalCPUs: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
                    kernel: kernel(), loadAverageAtStart: loadAverage(), swiftVersion: swiftVersion(),
                    date: utcDate())
    }

    /// The first "model name" line of /proc/cpuinfo ("unknown" elsewhere).
    static func cpuModel() -> String {
        guard let text = readTextFile("/proc/cpuinfo") else { return "unknown" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingSpaces()
            }
        }
        return "unknown"
    }

    static func loadAverage() -> String {
        guard let text = readTextFile("/proc/loadavg") else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    static func kernel() -> String {
        var name = utsname()
        uname(&name)
        let sysname = withUnsafeBytes(of: name.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let release = withUnsafeBytes(of: name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let machine = withUnsafeBytes(of: name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(sysname) \(release) \(machine)"
    }

    /// `swift --version` is not available at run time: scripts/bench.sh passes its first line
    /// in PUREIMAGE_SWIFT_VERSION; otherwise the compiler version this binary was built with,
    /// to the minor version, from `#if compiler`.
    static func swiftVersion() -> String {
        if let value = getenv("PUREIMAGE_SWIFT_VERSION"), let text = String(validatingCString: value), !text.isEmpty {
            return text
        }
        #if compiler(>=6.4)
        return "Swift compiler >= 6.4"
        #elseif compiler(>=6.3)
        return "Swift compiler 6.3"
        #elseif compiler(>=6.2)
        return "Swift compiler 6.2"
        #elseif compiler(>=6.1)
        return "Swift compiler 6.1"
        #else
        return "Swift compiler 6.0"
        #endif
    }

    /// Now, as ISO 8601 UTC ("2026-11-29T18:30:00Z").
    static func utcDate() -> String {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A small text file (e.g. under /proc, whose files report size 0) read whole, or nil.
func readTextFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        bytes.append(contentsOf: chunk[0..<count])
        if count < chunk.count { break }
    }
    return String(decoding: bytes, as: UTF8.self)
}

extension Substring {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\n" }.reversed())
    }
}
