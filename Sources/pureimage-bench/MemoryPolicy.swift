import CReference

/// What happens to the large buffers the decoders allocate and free on every call (`--memory`).
///
/// glibc's malloc maps an allocation of 128 KiB or more from the kernel and unmaps it when it is
/// freed — until the first such buffer is freed: then it raises that threshold to the freed size
/// (up to 32 MiB) and keeps later buffers on its heap, where a decode reuses pages an earlier
/// one faulted in, unless the free space at the heap's top grows past twice that threshold,
/// which it then returns to the kernel. When that happens, and which buffers it covers, depends
/// on everything the process allocated before. Measured on the 2-core machine, six processes
/// timing the same four cases: with glibc's adaptive default one side's minimum moved by up to
/// 16 % from process to process (a 3000×2000 JPEG: 51.5 or 59.3 ms), with ASLR off and Swift's
/// hashing seed fixed too; with the thresholds fixed, every ratio stayed within 2.7 %. Two
/// consecutive default runs: 151 of 153 ratios within ±5 % (largest 6.7 %) adaptive, 153 of 153
/// (largest 3.5 %) fixed. See Docs/Performance.md, "Stability".
///
/// Both policies fix the thresholds, so neither depends on the process's history.
enum MemoryPolicy: String {
    /// The thresholds fixed at glibc's own default, 128 KiB (the default): every decode gets its
    /// output and large scratch buffers as fresh pages from the kernel, as the first decode in a
    /// process does, and pays their page faults: each side for the buffers it allocates.
    case fresh
    /// The mmap threshold fixed at 32 MiB (the largest glibc's adaptation reaches) and trimming
    /// off (1 GiB): every buffer under 32 MiB is carved from the heap and stays there when freed,
    /// so after the warm-up rounds a decode reuses pages an earlier call faulted in, on both
    /// sides — the compute-only view. Buffers of 32 MiB and more (a 12 MP RGBA output) are still
    /// mapped fresh on every call, on both sides.
    case reuse

    static let freshThresholdBytes = 128 * 1024
    static let reuseMapThresholdBytes = 32 << 20
    static let reuseTrimThresholdBytes = 1 << 30

    /// Applies the policy to this process. Returns false when it could not be set (not glibc):
    /// the run then measures the C library's default and says so.
    func apply() -> Bool {
        switch self {
        case .fresh:
            return pi_bench_fixed_malloc_thresholds(Self.freshThresholdBytes, Self.freshThresholdBytes) == 1
        case .reuse:
            return pi_bench_fixed_malloc_thresholds(Self.reuseMapThresholdBytes, Self.reuseTrimThresholdBytes) == 1
        }
    }
}

/// Set once at start-up; child processes get it on their command line.
nonisolated(unsafe) var memoryPolicy = MemoryPolicy.fresh
/// False when the `--memory` policy was asked for but the C library has no such setting.
nonisolated(unsafe) var memoryPolicyApplied = true

/// The header's and the JSON's wording of the policy in force.
var memoryDescription: String {
    switch memoryPolicy {
    case .fresh: return memoryPolicyApplied ? "fresh (malloc thresholds fixed at 128 KiB)" : "fresh requested, not available: C library default"
    case .reuse: return memoryPolicyApplied ? "reuse (malloc mmap threshold 32 MiB, no trimming)" : "reuse requested, not available: C library default"
    }
}
