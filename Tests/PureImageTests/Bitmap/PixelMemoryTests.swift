import Foundation
import Testing
@testable import PureImage

/// `PixelMemory`: image-sized arrays whose pages the kernel may be asked to back with huge pages
/// (opt-in: `PUREIMAGE_HUGE_PAGES=1`).
@Suite struct PixelMemoryTests {
    /// The kernel's transparent-huge-page policy ("always", "madvise" or "never"), nil when
    /// there is none to read (another OS, or a kernel without THP).
    static let transparentHugePagePolicy: String? = {
        guard let text = readToEnd("/sys/kernel/mm/transparent_hugepage/enabled"),
              let open = text.firstIndex(of: "["), let close = text[open...].firstIndex(of: "]") else { return nil }
        return String(text[text.index(after: open) ..< close])
    }()

    /// A file of /proc or /sys read to its end (they report a size of 0, so a read by size
    /// would return nothing).
    static func readToEnd(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// A counter of /proc/vmstat.
    static func vmstat(_ name: String) -> Int? {
        readToEnd("/proc/vmstat")?.split(separator: "\n").lazy.compactMap { line -> Int? in
            let fields = line.split(separator: " ")
            return fields.count == 2 && fields[0] == name ? Int(fields[1]) : nil
        }.first
    }

    static let adviceApplies = transparentHugePagePolicy == "madvise" || transparentHugePagePolicy == "always"

    /// The `AnonHugePages` of the mapping that holds `address`, in kB (from /proc/self/smaps).
    static func anonHugePagesKB(containing address: UInt) -> Int? {
        guard let smaps = readToEnd("/proc/self/smaps") else { return nil }
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            } else if inside, fields.first == "AnonHugePages:", fields.count >= 2 {
                return Int(fields[1])
            }
        }
        return nil
    }

    @Test func zeroedArraysAreZeroAndUninitialisedOnesHaveTheirCount() {
        for count in [0, 1, 4095, PixelMemory.threshold - 1, PixelMemory.threshold + 12345] {
            let zeroed = PixelMemory.zeroed(count: count)
            #expect(zeroed.count == count)
            #expect(!zeroed.contains { $0 != 0 })
            #expect(PixelMemory.uninitialized(count: count).count == count)
        }
        var appended: [UInt8] = []
        PixelMemory.reserve(&appended, capacity: 3 * PixelMemory.threshold)
        #expect(appended.isEmpty && appended.capacity >= 3 * PixelMemory.threshold)
    }

    /// The advice reaches the kernel: a 64 MiB array made with it, once written, is mapped (at
    /// least partly) in huge pages. 64 MiB because glibc raises its mmap threshold as large
    /// blocks are freed, up to 32 MiB: a smaller array, in a process that has decoded images
    /// (the whole suite), can come from heap pages faulted in long before — so no advice could
    /// change them (a 16 MiB one did, in CI). Skipped where the kernel's policy is "never" or
    /// there is none (a "machine: " skip, which scripts/test.sh lists without failing).
    @Test(.enabled(if: adviceApplies, "machine: transparent huge pages are off here"))
    func advisedArraysAreBackedByHugePages() throws {
        let fallbacksBefore = Self.vmstat("thp_fault_fallback")
        let bytes = PixelMemory.zeroed(count: 64 << 20, advising: true)
        // A kernel out of free huge pages falls back to small ones and counts it: the advice
        // reached it all the same.
        let fellBack = (Self.vmstat("thp_fault_fallback") ?? 0) > (fallbacksBefore ?? 0)
        // The advice covers the 2 MiB-aligned interior, which the kernel keeps as a mapping of
        // its own (the bytes before it stay in another).
        let base = bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let interior = (base + UInt(PixelMemory.hugePageBytes - 1)) & ~UInt(PixelMemory.hugePageBytes - 1)
        let kilobytes = try #require(Self.anonHugePagesKB(containing: interior))
        #expect(kilobytes >= 2048 || fellBack, "AnonHugePages of the array's mapping: \(kilobytes) kB")
        #expect(bytes.count == 64 << 20)
    }

    /// Off unless asked for: CI and the bench run without `PUREIMAGE_HUGE_PAGES`.
    @Test func theAdviceIsOptIn() {
        let setting = ProcessInfo.processInfo.environment["PUREIMAGE_HUGE_PAGES"]
        #expect(PixelMemory.enabled == (setting == "1"))
    }
}
