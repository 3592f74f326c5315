// The downscaler rows (issue 11): `decodedAndScaledDown(limitBytes:)` on huge images, each run
// in a fresh child process, against the reference library's full decode of the same file,
// also in a child. A row reports both sides' time and peak resident memory.
//
// How the peak is measured, and why not with getrusage:
//
//   The child is this executable again (`pureimage-bench --child SIDE FILE LIMIT CLOCK MEMORY`). It
//   reads the file, notes its VmHWM, runs the one timed call, and prints the time, the result's
//   size and VmHWM again, read from /proc/self/status. VmHWM is the high-water mark of the
//   resident set of the process's address space, which exec created new: it is exactly the
//   child's own peak.
//
//   getrusage's ru_maxrss is not, whether read with RUSAGE_CHILDREN in the parent, from
//   wait4, or with RUSAGE_SELF in the child: Linux keeps ru_maxrss per process across exec and,
//   at exec, raises it to the high-water mark of the address space being replaced (fs/exec.c,
//   exec_mmap → setmax_mm_hiwater_rss). After posix_spawn (vfork semantics: the child borrows
//   the parent's address space until exec) or fork + exec, that is the parent's, so every child
//   would report at least the bench's own peak — hundreds of MB once the corpus is loaded.
//   (Checked on this kernel: a parent holding 500 MB spawns a small C program; wait4 gives
//   513 MB for it, its own getrusage(RUSAGE_SELF) 513 MB, its VmHWM 1.4 MB.) RUSAGE_CHILDREN
//   is moreover the maximum over all children waited for so far, not per child.

import CReference
import PureImage
import PureImageConformance

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What one child run reports.
struct ChildReport {
    /// The timed call alone (the bench's clock, in the child: its one thread's CPU time by
    /// default), milliseconds.
    var milliseconds: Double
    /// The result's size.
    var width: Int
    var height: Int
    /// VmHWM after reading the file, before the timed call (runtime + libraries + the file).
    var inputKB: Int
    /// VmHWM after the timed call: the process's peak.
    var peakKB: Int
}

/// The side a child runs.
enum ChildSide: String {
    /// PureImage: `ImageSource(bytes:)` + `decodedAndScaledDown(limitBytes:)` (display output).
    case pureimage = "pureimage-downscale"
    /// The reference library's full decode in the layout of the decode rows (libjpeg-turbo RGB8,
    /// libpng RGBA8, libtiff RGBA8): what decoding the whole image costs.
    case reference = "reference-decode"
    /// PureImage playing an animation: every frame in order through one `ImageSource`, display
    /// output (the playback rows: "width" reports the frame count, "height" the canvas height).
    case play = "pureimage-play"
}

extension CaseFactory {
    /// The `.downscale` row for a file: its plan computed here from the header (the child must
    /// produce that size); nothing is decoded in this process. nil for formats without a
    /// reference full decode here (GIF: a huge GIF is not a case worth a row).
    static func downscale(file: String, path: String, variant: String, bytes: [UInt8], format: ImageFormat,
                          limitBytes: Int) -> BenchCase? {
        guard format == .jpeg || format == .png || format == .tiff else { return nil }
        var benchCase = BenchCase(file: file, format: format, variant: variant, kind: .downscale(limitBytes: limitBytes))
        benchCase.path = path
        let library = format == .jpeg ? "libjpeg-turbo RGB8" : format == .png ? "libpng RGBA8" : "libtiff RGBA8"
        do {
            let plan = try ImageSource(bytes: bytes).downscalePlan(limitBytes: limitBytes)
            benchCase.width = plan.sourceWidth
            benchCase.height = plan.sourceHeight
            benchCase.destinationWidth = plan.destinationWidth
            benchCase.destinationHeight = plan.destinationHeight
            benchCase.layout = "\(plan.destinationWidth)x\(plan.destinationHeight) display (child) | \(library) full decode (child)"
            if !plan.scalesDown {
                benchCase.skipReason = "the image fits in the limit: nothing to downscale"
            }
        } catch {
            benchCase.skipReason = "PureImage: \(error)"
        }
        return benchCase
    }
}

/// Running a child and reading its report.
enum ChildProcess {
    /// This executable, as the kernel knows it (not argv[0], which may be relative or a name
    /// found on PATH).
    static let executable: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 { return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CommandLine.arguments[0]
    }()

    /// Runs `side` on `path` in a new process and waits for it: its report, or why it failed.
    static func run(_ side: ChildSide, path: String, limitBytes: Int, clock: TimingClock) -> Result<ChildReport, ChildFailure> {
        let arguments = [executable, "--child", side.rawValue, path, String(limitBytes), clock.rawValue, memoryPolicy.rawValue]
        var output: [Int32] = [0, 0]
        guard pipe(&output) == 0 else { return .failure(ChildFailure("pipe: errno \(errno)")) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The child's stdout is the pipe's write end; its stderr stays the bench's.
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addclose(&actions, output[0])
        posix_spawn_file_actions_addclose(&actions, output[1])
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(output[1])
        guard spawned == 0 else {
            close(output[0])
            return .failure(ChildFailure("posix_spawn \(executable): error \(spawned)"))
        }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(output[0], $0.baseAddress, $0.count) }
            if count > 0 {
                text.append(contentsOf: chunk[0..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        close(output[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let line = String(decoding: text, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        // Exit status: the low 7 bits are the signal that ended the child (0: it exited).
        let signal = status & 0x7F
        guard signal == 0 else { return .failure(ChildFailure("child killed by signal \(signal)")) }
        guard (status >> 8) & 0xFF == 0 else {
            return .failure(ChildFailure(line.hasPrefix("error ") ? String(line.dropFirst(6)) : "child exited with status \((status >> 8) & 0xFF)"))
        }
        let fields = line.split(separator: " ")
        guard fields.count == 6, fields[0] == "ok", let milliseconds = Double(fields[1]), let width = Int(fields[2]),
              let height = Int(fields[3]), let inputKB = Int(fields[4]), let peakKB = Int(fields[5]) else {
            return .failure(ChildFailure("unreadable child report: \(line)"))
        }
        return .success(ChildReport(milliseconds: milliseconds, width: width, height: height, inputKB: inputKB, peakKB: peakKB))
    }
}

struct ChildFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The child's side: `pureimage-bench --child SIDE FILE LIMIT CLOCK MEMORY` (not in the usage text; the
/// bench runs it). Prints one line, `ok MS WIDTH HEIGHT INPUT_KB PEAK_KB` or `error MESSAGE`,
/// and exits 0 or 1.
enum ChildWorker {
    static func main(_ arguments: [String]) -> Never {
        guard arguments.count == 5, let side = ChildSide(rawValue: arguments[0]), let limit = Int(arguments[2]),
              let clock = TimingClock(rawValue: arguments[3]), let memory = MemoryPolicy(rawValue: arguments[4]) else {
            report("error bad child arguments: \(arguments.joined(separator: " "))", status: 1)
        }
        timingClock = clock
        memoryPolicy = memory
        memoryPolicyApplied = memory.apply()
        let path = arguments[1]
        let bytes: [UInt8]
        do {
            bytes = try ImageFiles.read(path)
        } catch {
            report("error \(error)", status: 1)
        }
        let inputKB = highWaterMarkKB()
        let start = now()
        let size: (width: Int, height: Int)
        switch side {
        case .pureimage:
            do {
                let bitmap = try ImageSource(bytes: bytes).decodedAndScaledDown(limitBytes: limit)
                size = (bitmap.width, bitmap.height)
            } catch {
                report("error PureImage: \(error)", status: 1)
            }
        case .reference:
            guard let decoded = referenceDecode(bytes) else {
                report("error the reference library failed on \(path)", status: 1)
            }
            size = decoded
        case .play:
            do {
                let source = try ImageSource(bytes: bytes)
                let frames = try source.properties().frameCount
                var height = 0
                for index in 0 ..< frames { height = try source.image(at: index, options: .init(output: .display)).height }
                size = (frames, height)
            } catch {
                report("error PureImage: \(error)", status: 1)
            }
        }
        let milliseconds = (now() - start) * 1000
        let peakKB = highWaterMarkKB()
        report("ok \(milliseconds) \(size.width) \(size.height) \(inputKB) \(peakKB)", status: 0)
    }

    /// The full decode by the library of the decode rows; the pixels are freed after the peak
    /// is read (the caller exits right after), so free() is not timed.
    static func referenceDecode(_ bytes: [UInt8]) -> (Int, Int)? {
        var image = PIRefImage()
        switch FormatSniffer.sniff(bytes) {
        case .format(.jpeg): bytes.withUnsafeBufferPointer { _ = pi_ref_jpeg_decode($0.baseAddress, $0.count, 1, &image) }
        case .format(.png): bytes.withUnsafeBufferPointer { _ = pi_ref_png_decode($0.baseAddress, $0.count, &image) }
        case .format(.tiff): bytes.withUnsafeBufferPointer { _ = pi_ref_tiff_decode_rgba($0.baseAddress, $0.count, 0, &image) }
        default: return nil
        }
        guard image.status >= 0, image.pixels != nil else { return nil }
        return (Int(image.width), Int(image.height))
    }

    /// VmHWM of this process in kilobytes (Linux; elsewhere getrusage's ru_maxrss, which is
    /// bytes on Darwin).
    static func highWaterMarkKB() -> Int {
        #if os(Linux)
        if let status = readTextFile("/proc/self/status") {
            for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
                let digits = line.dropFirst(6).filter { $0.isNumber }
                if let value = Int(String(digits)) { return value }
            }
        }
        return -1
        #else
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss) / 1024
        #endif
    }

    static func report(_ line: String, status: Int32) -> Never {
        let text = line + "\n"
        _ = text.utf8CString.withUnsafeBufferPointer { write(1, $0.baseAddress, $0.count - 1) }
        exit(status)
    }
}
