/// Upper bounds checked before any allocation whose size comes from a file.
///
/// The defaults admit every real photograph (a 100-megapixel camera frame is 1e8 pixels) while
/// keeping a lying header from taking the machine down:
/// - `maxPixels` = 2^28 (268 435 456, e.g. 16384 × 16384): keeps `width × height × 8` (16-bit
///   RGBA) below 2^31, so intermediate sizes fit comfortably in `Int` everywhere.
/// - `maxAllocationBytes` = 2 GiB: one 2^28-pixel RGBA16 image; a single buffer never exceeds it.
/// - `maxMetadataBytes` = 64 MiB: decompressed ancillary data (PNG iCCP/zTXt/iTXt, EXIF, ICC),
///   which would otherwise be an unbounded zlib bomb.
/// - `maxFrames` = 100 000: frames of an animation; each costs bookkeeping even when empty.
public struct DecodeLimits: Hashable, Sendable {
    public var maxPixels: Int
    public var maxAllocationBytes: Int
    public var maxMetadataBytes: Int
    public var maxFrames: Int

    public init(maxPixels: Int = 1 << 28, maxAllocationBytes: Int = 1 << 31,
                maxMetadataBytes: Int = 64 << 20, maxFrames: Int = 100_000) {
        self.maxPixels = maxPixels
        self.maxAllocationBytes = maxAllocationBytes
        self.maxMetadataBytes = maxMetadataBytes
        self.maxFrames = maxFrames
    }

    public static let `default` = DecodeLimits()
}
