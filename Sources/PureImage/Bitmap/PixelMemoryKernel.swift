#if canImport(Glibc)
import Glibc
#endif

/// Image-sized byte arrays, with the kernel asked to back them with huge pages.
///
/// A decode writes its output once, front to back, into memory glibc maps fresh from the
/// kernel (allocations over its mmap threshold are mapped on every call). Each 4 KiB page is
/// then a fault the kernel serves by zeroing the page: on this project's AMD EPYC machine,
/// writing 24 MB (a 3000×2000 image as BGRA) into a fresh mapping took 10.1 ms in 4 KiB
/// pages and 2.0 ms when the mapping was advised with `MADV_HUGEPAGE` (2 MiB a fault) — beside
/// the 12 ms a gray JPEG of that size takes to decode. The kernel's default policy
/// ("madvise") gives huge pages only to memory that asks for them; under "always" this is a
/// no-op, under "never" it is ignored. Only the 2 MiB-aligned interior of the array is
/// advised (a huge page must lie wholly inside the mapping), and only arrays of at least
/// `threshold` bytes, so small images and scratch rows keep ordinary pages.
///
/// Set `PUREIMAGE_HUGE_PAGES=0` in the environment to turn it off (read once): where memory is
/// fragmented, the kernel may compact on the first fault of a huge page instead of falling
/// back at once, which a latency-sensitive process may not want.
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

    static let enabled: Bool = {
        #if canImport(Glibc)
        if let value = getenv("PUREIMAGE_HUGE_PAGES"), String(cString: value) == "0" { return false }
        return true
        #else
        return false
        #endif
    }()

    /// `count` bytes, not initialised: every byte must be written before it is read.
    static func uninitialized(count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            advise(buffer)
            initialized = count
        }
    }

    /// `count` zero bytes; the zeroing faults the pages in after the advice.
    static func zeroed(count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            advise(buffer)
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
        #if canImport(Glibc)
        guard enabled, byteCount >= threshold else { return }
        let address = UInt(bitPattern: base)
        let mask = UInt(hugePageBytes - 1)
        let start = (address + mask) & ~mask, end = (address + UInt(byteCount)) & ~mask
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, Int(end - start), MADV_HUGEPAGE)
        #endif
    }
}
