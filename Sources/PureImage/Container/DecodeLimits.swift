/// Upper bounds checked before any allocation whose size comes from a file.
///
/// The defaults admit every real photograph (a 100-megapixel camera frame is 1e8 pixels) while
/// keeping a lying header from taking the machine down (Docs/Robustness.md measures what the
/// worst inputs cost with them):
/// - `maxPixels` = 2^28 (268 435 456, e.g. 16384 × 16384) per image or frame: keeps
///   `width × height × 8` (16-bit RGBA) below 2^31, so intermediate sizes fit comfortably in
///   `Int` everywhere.
/// - `maxMemoryBytes` = 1.5 GiB: everything one decode holds at once — coefficient stores,
///   sample planes, output bitmaps, animation canvases and kept frames, resampler tables
///   (`MemoryBudget`) — so with the input itself a decode stays under 2 GB. A 100-megapixel
///   progressive JPEG decoded to RGBA needs about 1.1 GB.
/// - `maxMetadataBytes` = 64 MiB: decompressed ancillary data (PNG iCCP/zTXt/iTXt, EXIF, ICC),
///   which would otherwise be an unbounded zlib bomb.
/// - `maxFrames` = 100 000: frames of an animation (and pages of a TIFF); each costs
///   bookkeeping even when empty.
public struct DecodeLimits: Hashable, Sendable {
    /// Most pixels (`width × height`) an image or frame may have; default 2^28.
    public var maxPixels: Int
    /// Most bytes one decode may hold at once; default 1.5 GiB.
    public var maxMemoryBytes: Int
    /// Most bytes of decompressed metadata (ICC, EXIF, PNG text); default 64 MiB.
    public var maxMetadataBytes: Int
    /// Most frames of an animation or pages of a TIFF; default 100 000.
    public var maxFrames: Int

    /// Limits with the given bounds; every default is the one listed on the type.
    public init(maxPixels: Int = 1 << 28, maxMemoryBytes: Int = 3 << 29,
                maxMetadataBytes: Int = 64 << 20, maxFrames: Int = 100_000) {
        self.maxPixels = maxPixels
        self.maxMemoryBytes = maxMemoryBytes
        self.maxMetadataBytes = maxMetadataBytes
        self.maxFrames = maxFrames
    }

    /// The defaults listed on the type.
    public static let `default` = DecodeLimits()
}
