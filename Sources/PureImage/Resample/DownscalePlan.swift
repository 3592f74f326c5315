/// SDWebImage 5.x's "Large Image Downsizing" arithmetic (`SDImageCoderHelper
/// decodedAndScaledDownImageWithImage:limitBytes:`, after Apple's sample of that name), kept
/// exactly so a plan can be compared number for number:
///
/// ```
/// bytes            = limitBytes == 0 ? 60 MB : limitBytes      (MB = 1024 × 1024; iOS default)
/// bytes            = max(bytes, 4)                             (4 bytes per pixel)
/// destTotalPixels  = bytes / 4
/// tileTotalPixels  = destTotalPixels / 3
/// sourceTotalPixels = width × height;  no scaling when sourceTotalPixels ≤ destTotalPixels
/// scale            = sqrt(destTotalPixels / sourceTotalPixels)
/// destination      = max(1, floor(width × scale)) × max(1, floor(height × scale))
///                    (a side clamped up to 1 clamps the other to destTotalPixels: ours, see init)
/// band rows        = max(1, floor(tileTotalPixels / width))    (full-width source bands)
/// seam overlap     = floor(2 / destination height × height)    (2 destination rows, in source rows)
/// bands            = ceil(height / band rows)                  (the last takes the remainder)
/// ```
/// The divisions are in floating point as in SDWebImage (`CGFloat`), the floors are C `(int)`
/// conversions. The plan is what `pureimage downscale --plan` prints.
public struct DownscalePlan: Equatable, Sendable {
    /// iOS's default destination budget: 60 MB (macOS uses 90, watchOS 30).
    public static let defaultLimitBytes = 60 * 1024 * 1024
    /// Bytes per destination pixel the budget assumes (8-bit RGBA).
    public static let bytesPerPixel = 4
    /// Destination rows by which consecutive tiles overlap (SDWebImage's `kDestSeemOverlap`).
    public static let destinationSeamOverlap = 2

    /// Source width in pixels.
    public let sourceWidth: Int
    /// Source height in pixels.
    public let sourceHeight: Int
    /// The destination budget in bytes actually used (`defaultLimitBytes` for 0, at least 4).
    public let limitBytes: Int
    /// The most pixels the destination may have: `limitBytes / 4`.
    public let destinationTotalPixels: Double
    /// Source pixels per band: a third of `destinationTotalPixels`.
    public let tileTotalPixels: Double
    /// False when the source already fits: the image is decoded at full size.
    public let scalesDown: Bool
    /// Destination side ÷ source side; 1 when the source fits.
    public let scale: Double
    /// Width of the downscaled image in pixels (the source width when it fits).
    public let destinationWidth: Int
    /// Height of the downscaled image in pixels (the source height when it fits).
    public let destinationHeight: Int
    /// Source rows per band (before the seam overlap is added).
    public let bandRows: Int
    /// Source rows each band after the first also re-covers from the previous one.
    public let seamOverlapRows: Int
    /// Full-width source bands decoded in turn; 0 for an empty source.
    public let bandCount: Int

    /// Plans a downscale of a `sourceWidth` × `sourceHeight` image to a `limitBytes` budget (0: the default).
    public init(sourceWidth: Int, sourceHeight: Int, limitBytes: Int) {
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        let bytes = max(limitBytes == 0 ? Self.defaultLimitBytes : limitBytes, Self.bytesPerPixel)
        self.limitBytes = bytes
        destinationTotalPixels = Double(bytes) / Double(Self.bytesPerPixel)
        tileTotalPixels = destinationTotalPixels / 3
        let sourceTotalPixels = Double(sourceWidth) * Double(sourceHeight)
        scalesDown = sourceTotalPixels > destinationTotalPixels && sourceWidth > 0 && sourceHeight > 0
        if scalesDown {
            scale = (destinationTotalPixels / sourceTotalPixels).squareRoot()
            let width = max(1, Int(Double(sourceWidth) * scale))
            let height = max(1, Int(Double(sourceHeight) * scale))
            // Our one departure from SDWebImage: when a side is clamped up to 1 pixel (an aspect
            // ratio beyond the pixel budget, e.g. 1 × 2^28), the other side is clamped down so
            // the destination stays within `destTotalPixels`; SDWebImage's arithmetic would plan
            // 1 × 64 977 878 for a 60 MB budget, four times its own limit.
            let budget = max(1, Int(destinationTotalPixels))
            destinationWidth = height == 1 ? min(width, budget) : width
            destinationHeight = width == 1 ? min(height, budget) : height
        } else {
            scale = 1
            destinationWidth = sourceWidth
            destinationHeight = sourceHeight
        }
        bandRows = max(1, Int(tileTotalPixels / Double(max(1, sourceWidth))))
        seamOverlapRows = scalesDown ? Self.truncated(Double(Self.destinationSeamOverlap) / Double(destinationHeight) * Double(sourceHeight)) : 0
        // ceil(height / bandRows) without forming height + bandRows - 1, which overflows for a
        // header's height near Int.max (the plan is made before any limit is checked).
        bandCount = sourceHeight <= 0 ? 0 : (sourceHeight - 1) / bandRows + 1
    }

    /// C's `(int)` conversion for the non-negative quotients above, saturating at `Int.max`
    /// instead of trapping (a 1-row destination of a 2^63-row source asks for 2^64 overlap rows).
    private static func truncated(_ value: Double) -> Int {
        value >= Double(Int.max) ? Int.max : Int(value)
    }

    /// width × height, or the product in floating point when it does not fit an Int.
    private var sourcePixelsDescription: String {
        let (pixels, overflow) = sourceWidth.multipliedReportingOverflow(by: sourceHeight)
        return overflow ? String(Double(sourceWidth) * Double(sourceHeight)) : String(pixels)
    }

    /// A few lines for `--plan`.
    public var description: String {
        """
        source:       \(sourceWidth) x \(sourceHeight) (\(sourcePixelsDescription) pixels)
        limit:        \(limitBytes) bytes -> \(Int(destinationTotalPixels)) destination pixels, tiles of \(Int(tileTotalPixels)) pixels
        scale:        \(scalesDown ? String(scale) : "1 (fits, not scaled)")
        destination:  \(destinationWidth) x \(destinationHeight)
        bands:        \(bandCount) full-width bands of \(bandRows) source rows (last: \(sourceHeight - max(0, bandCount - 1) * bandRows)), seam overlap \(seamOverlapRows) source rows
        """
    }
}

/// `kCGImageSourceThumbnailMaxPixelSize` with `kCGImageSourceCreateThumbnailWithTransform`
/// semantics: the longest side becomes at most `maxPixelSize`, the aspect ratio is kept (each
/// side rounded to the nearest pixel, at least 1), and an image is never enlarged.
public struct ThumbnailPlan: Equatable, Sendable {
    /// Thumbnail width in pixels.
    public let width: Int
    /// Thumbnail height in pixels.
    public let height: Int

    /// Plans a thumbnail whose longest side is at most `maxPixelSize` (0 or less: full size).
    public init(sourceWidth: Int, sourceHeight: Int, maxPixelSize: Int) {
        let longest = max(sourceWidth, sourceHeight)
        guard maxPixelSize > 0, longest > maxPixelSize else {
            width = sourceWidth
            height = sourceHeight
            return
        }
        let ratio = Double(maxPixelSize) / Double(longest)
        if sourceWidth >= sourceHeight {
            width = maxPixelSize
            height = max(1, Int((Double(sourceHeight) * ratio).rounded()))
        } else {
            height = maxPixelSize
            width = max(1, Int((Double(sourceWidth) * ratio).rounded()))
        }
    }
}
