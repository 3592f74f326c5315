/// The bytes one decode holds at once, checked against `DecodeLimits.maxMemoryBytes` before
/// each allocation whose size the input controls.
///
/// A per-buffer limit is not enough: a few hundred bytes claiming 16384 × 16384 pixels can make
/// a decoder hold a coefficient store, sample planes and an output image, each under the limit
/// and together several gigabytes. So every long-lived buffer of a decode — the coefficient
/// store, sample planes, output bitmaps, animation canvases, kept frames, resampler tables — is
/// `reserve`d here before it is allocated and `release`d when it is freed (the owning class's
/// `deinit`), and results handed to the caller are `check`ed against what is left.
///
/// One budget belongs to one decoder (and the downscaler's resampler fed by it); decoders run
/// on one thread at a time, so the counters need no lock.
final class MemoryBudget {
    let limits: DecodeLimits
    /// Bytes reserved now.
    private(set) var held = 0
    /// The most ever reserved at once (tests and `Docs/Robustness.md` measure with it).
    private(set) var peak = 0

    init(limits: DecodeLimits) {
        self.limits = limits
    }

    /// Reserves `bytes` (nil: the size overflowed) for a buffer about to be allocated.
    /// Throws `.limitExceeded` — and reserves nothing — when the decode would then hold more
    /// than `maxMemoryBytes`.
    func reserve(_ bytes: Int?, format: ImageFormat?, offset: Int?) throws(DecodeError) {
        try check(bytes, format: format, offset: offset)
        held += bytes ?? 0
        peak = max(peak, held)
    }

    /// Gives back what `reserve` took.
    func release(_ bytes: Int) {
        held = max(0, held - bytes)
    }

    /// Whether `bytes` more fit beside what is held, without reserving them (a result that
    /// leaves with the caller, e.g. a converted frame).
    func check(_ bytes: Int?, format: ImageFormat?, offset: Int?) throws(DecodeError) {
        let limit = limits.maxMemoryBytes
        guard let bytes, bytes >= 0, bytes <= limit - held else {
            throw DecodeError(.limitExceeded, format: format, offset: offset,
                              LimitReason.memoryBudgetExceeded(requested: bytes, held: held, limit: limit))
        }
    }
}
