#if canImport(Glibc)
import Glibc
#endif

/// Image-sized byte arrays, with the kernel optionally asked to back them with huge pages.
///
/// A decode writes its output once, front to back, into memory glibc maps fresh from the
/// kernel (allocations over its mmap threshold are mapped on every call). Each 4 KiB page is
/// then a fault the kernel serves by zeroing the page: on this project's machine (an AMD EPYC
/// guest of a Firecracker VM), writing 24 MB into a fresh mapping took 10.1 ms in 4 KiB pages
/// and 2.0 ms when the mapping was advised with `MADV_HUGEPAGE` (2 MiB a fault). Decodes got
/// that much faster at best — a 3000×2000 baseline JPEG 26 → 19 ms, libjpeg-turbo given the
/// same advice 24 → 18 ms — but not reliably: a full benchmark run with the advice on both
/// sides had medians up to three times its minima where they used to be within 10 % (a
/// 7680×4320 progressive JPEG: minimum 294 ms, median 884; 455 ms median without the advice),
/// and the reference's one-shot decode of a 12000×8000 JPEG took 246–819 ms advised against
/// 324–432 ms not. A huge page the kernel takes from memory the VM's host has never backed
/// costs the host's faults on top. So the advice is opt-in: `PUREIMAGE_HUGE_PAGES=1` in the
/// environment (read once) turns it on, for machines where it measures as a win.
///
/// Only the 2 MiB-aligned interior of an array is advised (a huge page must lie wholly inside
/// the mapping), and only arrays of at least `threshold` bytes. The kernel's own policy still
/// decides: "madvise" (Debian's default) honours the advice, "always" makes it a no-op,
/// "never" ignores it.
///
/// Safety: `advise` gets memory just allocated (an array's own buffer from
/// `unsafeUninitializedCapacity`, or a pointer's allocation) and advises
/// [start rounded up to 2 MiB, end rounded down to 2 MiB), which lies inside it; `madvise`
/// neither reads nor writes the bytes, and its failure changes nothing.
enum PixelMemory {
    /// Arrays smaller than this keep ordinary pages (two huge pages: below that, the aligned
    /// interior is mostly empty).
    static let threshold = 4 << 20
    static let hugePageBytes = 2 << 20

    /// Whether the library advises its arrays: `PUREIMAGE_HUGE_PAGES=1` (see the type's comment).
    static let enabled: Bool = {
        #if canImport(Glibc)
        if let value = getenv("PUREIMAGE_HUGE_PAGES") { return String(cString: value) == "1" }
        #endif
        return false
    }()

    /// `count` bytes, not initialised: every byte must be written before it is read.
    static func uninitialized(count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            advise(buffer)
            initialized = count
        }
    }

    /// `count` zero bytes; the zeroing faults the pages in after the advice (`advising`: whether
    /// to advise, `enabled` unless a test asks).
    static func zeroed(count: Int, advising: Bool = enabled) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if advising, let base = buffer.baseAddress { adviseUnconditionally(UnsafeMutableRawPointer(base), byteCount: count) }
            if let base = buffer.baseAddress { base.initialize(repeating: 0, count: count) }
            initialized = count
        }
    }

    /// Reserves `capacity` bytes in the empty `array` (to be filled by appending) and advises them.
    static func reserve(_ array: inout [UInt8], capacity: Int) {
        array.reserveCapacity(capacity)
        guard array.isEmpty, array.capacity >= capacity else { return }
        // An empty array's buffer pointer starts at its storage, which holds `capacity` bytes.
        array.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { advise(UnsafeMutableRawPointer(base), byteCount: capacity) }
        }
    }

    static func advise(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        if let base = buffer.baseAddress { advise(UnsafeMutableRawPointer(base), byteCount: buffer.count) }
    }

    /// Advises the 2 MiB-aligned interior of `byteCount` bytes at `base`, memory the caller
    /// has just allocated and not yet written, for huge pages (see the type's comment).
    static func advise(_ base: UnsafeMutableRawPointer, byteCount: Int) {
        if enabled { adviseUnconditionally(base, byteCount: byteCount) }
    }

    private static func adviseUnconditionally(_ base: UnsafeMutableRawPointer, byteCount: Int) {
        #if canImport(Glibc)
        guard byteCount >= threshold else { return }
        let address = UInt(bitPattern: base)
        let mask = UInt(hugePageBytes - 1)
        let start = (address + mask) & ~mask, end = (address + UInt(byteCount)) & ~mask
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, Int(end - start), MADV_HUGEPAGE)
        #endif
    }
}
