import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Time limits of the corpus-sized tests. They guard against a hang, not against slowness
/// (speed is `pureimage-bench`'s to measure), so under a sanitizer — 5–15× slower —
/// `scripts/sanitize.sh` sets PUREIMAGE_SANITIZER and the limits grow by `sanitizerFactor`.
enum TestTime {
    static let sanitizerFactor = 15

    static var factor: Int {
        guard let value = getenv("PUREIMAGE_SANITIZER"), value.pointee != 0 else { return 1 }
        return sanitizerFactor
    }

    /// `.timeLimit(.minutes(minutes))`, scaled under a sanitizer.
    static func limit(minutes: Int) -> TimeLimitTrait {
        .timeLimit(.minutes(minutes * factor))
    }
}
