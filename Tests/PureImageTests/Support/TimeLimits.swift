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

    /// Swift Testing counts a time limit from when the test starts, and the suite starts many
    /// tests together: on a 2-core machine a started test can wait minutes for a thread while
    /// corpus tests run (seen: a test that takes 0.8 s alone reported after 228 s, over its
    /// 2-minute limit). The limits are hang guards, not speed checks, so none is below this.
    static let minimumMinutes = 10

    /// `.timeLimit(.minutes(minutes))` (at least `minimumMinutes`), scaled under a sanitizer.
    static func limit(minutes: Int) -> TimeLimitTrait {
        .timeLimit(.minutes(max(minutes, minimumMinutes) * factor))
    }
}
