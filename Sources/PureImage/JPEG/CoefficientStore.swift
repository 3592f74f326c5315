/// The spectral stage (STYLE.md item 12): quantized DCT coefficients per component, 64 Int16
/// per block in natural order, laid out block row by block row.
///
/// ```
///  component c: ┌ block (0,0) ┬ block (1,0) ┬ … ┬ block (paddedWidth−1, 0) ┐  64 × Int16 each
///               ├ block (0,1) ┼ …                                          ┤
///               └ … `heldBlockRows` rows                                    ┘
/// ```
/// A file whose first scan holds every component (single-scan, the common baseline case) only
/// needs one MCU row at a time: `heldBlockRows` is then one MCU row and block row `r` lives at
/// `r % heldBlockRows`. Multi-scan files and every progressive file hold the whole image
/// (Docs/JPEG.md, "The coefficient store"), unless a decode asks for bands (`CoefficientBands`):
/// then rings of a band's rows, with a non-zero mask per block for the first pass. Blocks start
/// zeroed (libjpeg pre-zeroes its whole-image coefficient arrays).
final class CoefficientStore {
    struct Plane {
        let blocksPerRow: Int
        let heldBlockRows: Int
        let coefficients: UnsafeMutablePointer<Int16>
        let count: Int
        /// `heldBlockRows − 1` when that is a power of two (the usual ring of 1 or 2 rows), else −1.
        let rowMask: Int
        /// For a ring of another size (a band's rows): ⌊(2^64 − 1) / heldBlockRows⌋ + 1, with
        /// which `ringRow` takes the remainder by two multiplies instead of a division.
        let ringMultiplier: UInt64

        init(blocksPerRow: Int, heldBlockRows: Int, coefficients: UnsafeMutablePointer<Int16>, count: Int) {
            self.blocksPerRow = blocksPerRow
            self.heldBlockRows = heldBlockRows
            self.coefficients = coefficients
            self.count = count
            rowMask = heldBlockRows > 0 && heldBlockRows & (heldBlockRows - 1) == 0 ? heldBlockRows - 1 : -1
            ringMultiplier = heldBlockRows > 1 ? UInt64.max / UInt64(heldBlockRows) &+ 1 : 0
        }

        /// `y % heldBlockRows` for y ≥ heldBlockRows in a ring whose size is no power of two —
        /// once per block in every scan of a banded decode, where a division was a fifth of the
        /// MCU loop. Lemire, Kaser and Kurz, "Faster remainder by direct computation" (2019):
        /// with M = ⌊(2^64 − 1)/d⌋ + 1, the remainder of an n < 2^32 by a d < 2^32 is the high
        /// word of (M · n mod 2^64) · d. Block rows stay far below 2^32 (a frame has at most
        /// 65535 lines); larger values take the division.
        @inline(__always) func ringRow(_ y: Int) -> Int {
            guard y < 1 << 32 && heldBlockRows < 1 << 32 else { return y % heldBlockRows }
            let fraction = ringMultiplier &* UInt64(truncatingIfNeeded: y)
            return Int(truncatingIfNeeded: fraction.multipliedFullWidth(by: UInt64(truncatingIfNeeded: heldBlockRows)).high)
        }

        /// The block at (x, y); the caller keeps x < blocksPerRow (the padded width). Rows wrap.
        /// This runs once per block in every scan, so the wrap avoids a division where it can:
        /// a mask for a ring of 2^n rows, two multiplies for another ring (`ringRow`), nothing
        /// for a whole-image plane (y < heldBlockRows).
        /// Bound: x < blocksPerRow and y ≥ 0 give a row below heldBlockRows and an offset
        /// below count, so the wrapping arithmetic cannot overflow.
        @inline(__always) func block(x: Int, y: Int) -> UnsafeMutablePointer<Int16> {
            let row = rowMask >= 0 ? y & rowMask : (y < heldBlockRows ? y : ringRow(y))
            return coefficients + (row &* blocksPerRow &+ x) &* 64
        }
    }

    /// The non-zero masks of a banded store's first pass (`CoefficientBands`): one `UInt64` per
    /// block of the padded component (bit k: zig-zag coefficient k is non-zero), row by row.
    struct Masks {
        let blocks: UnsafeMutablePointer<UInt64>
        let blocksPerRow: Int
        let count: Int
    }

    let planes: [Plane]
    let isWholeImage: Bool
    /// Set when the planes are rings of bands of a progressive image (see `CoefficientBands`).
    let bands: CoefficientBands?
    /// A banded store's masks, until `releaseMasks()` (after the first pass); else empty.
    private(set) var masks: [Masks] = []
    /// One block a masked block is decoded into (a banded store's first pass).
    let scratch: UnsafeMutablePointer<Int16>
    private let budget: MemoryBudget
    private var reservedBytes: Int
    private var maskBytes = 0

    /// Sizes are reserved in `budget` before anything is allocated.
    convenience init(geometry: FrameGeometry, wholeImage: Bool, interleavedRows: Bool, budget: MemoryBudget) throws(DecodeError) {
        let rows = geometry.components.map { wholeImage ? $0.paddedHeightInBlocks : (interleavedRows ? $0.v : 1) }
        try self.init(geometry: geometry, heldBlockRows: rows, wholeImage: wholeImage, bands: nil, budget: budget)
    }

    /// A banded store: rings of `bands.heldRenderRows` render rows, and a mask for every block.
    /// Bands change what a decode holds, not what it accepts: the whole-image store's sizes are
    /// checked against the limits first (nothing of that size is allocated). Without this, bands
    /// would take a 203-byte DC-only file declaring 65500 × 65500 pixels (an 8.6 GB store),
    /// decoding every block it claims: 10 s.
    convenience init(geometry: FrameGeometry, bands: CoefficientBands, budget: MemoryBudget) throws(DecodeError) {
        _ = try Self.coefficientBytes(geometry: geometry, heldBlockRows: geometry.components.map(\.paddedHeightInBlocks),
                                      limits: budget.limits)
        let rows = bands.blockRowsPerRenderRow.map { bands.heldRenderRows * $0 }
        try self.init(geometry: geometry, heldBlockRows: rows, wholeImage: false, bands: bands, budget: budget)
    }

    /// Bytes of planes of `heldBlockRows` block rows per component, each plane and the total
    /// checked against `limits` (at least one block a plane).
    private static func coefficientBytes(geometry: FrameGeometry, heldBlockRows: [Int], limits: DecodeLimits) throws(DecodeError) -> Int {
        var total = 0
        for (component, rows) in zip(geometry.components, heldBlockRows) {
            let count = try SizeMath.allocationSize(component.paddedWidthInBlocks, rows, 64, 2, limits: limits, format: .jpeg, offset: nil) / 2
            total += max(count, 64)
        }
        return try SizeMath.allocationSize(total, 2, limits: limits, format: .jpeg, offset: nil)
    }

    private init(geometry: FrameGeometry, heldBlockRows: [Int], wholeImage: Bool, bands: CoefficientBands?,
                 budget: MemoryBudget) throws(DecodeError) {
        var maskTotal = 0
        if bands != nil {
            for component in geometry.components {
                maskTotal += try SizeMath.allocationSize(component.paddedWidthInBlocks, component.paddedHeightInBlocks, 8,
                                                         limits: budget.limits, format: .jpeg, offset: nil) / 8
            }
        }
        // (The 128-byte scratch block is not counted: a fixed size, like the decoder's tables.)
        let coefficientBytes = try Self.coefficientBytes(geometry: geometry, heldBlockRows: heldBlockRows, limits: budget.limits)
        maskBytes = try SizeMath.allocationSize(maskTotal, 8, limits: budget.limits, format: .jpeg, offset: nil)
        reservedBytes = coefficientBytes + maskBytes
        try budget.reserve(reservedBytes, format: .jpeg, offset: nil)
        self.budget = budget
        var planes: [Plane] = []
        for (component, rows) in zip(geometry.components, heldBlockRows) {
            let width = component.paddedWidthInBlocks
            let count = width * rows * 64
            let storage = UnsafeMutablePointer<Int16>.allocate(capacity: max(count, 64))
            PixelMemory.advise(UnsafeMutableRawPointer(storage), byteCount: max(count, 64) * 2)
            storage.initialize(repeating: 0, count: max(count, 64))
            planes.append(Plane(blocksPerRow: width, heldBlockRows: rows, coefficients: storage, count: max(count, 64)))
            if bands != nil {
                let blocks = width * component.paddedHeightInBlocks
                let storage = UnsafeMutablePointer<UInt64>.allocate(capacity: max(blocks, 1))
                storage.initialize(repeating: 0, count: max(blocks, 1))
                masks.append(Masks(blocks: storage, blocksPerRow: width, count: max(blocks, 1)))
            }
        }
        scratch = .allocate(capacity: 64)
        scratch.initialize(repeating: 0, count: 64)
        self.planes = planes
        self.bands = bands
        isWholeImage = wholeImage
    }

    /// A banded store after its first pass: the masks are no longer read.
    func releaseMasks() {
        for mask in masks { mask.blocks.deallocate() }
        masks = []
        budget.release(maskBytes)
        reservedBytes -= maskBytes
        maskBytes = 0
    }

    /// Every ring back to zero, before a band's scans are resumed (a refinement scan adds to
    /// what is there, so rows decoded for the previous band must not stay).
    func clearRings() {
        for plane in planes { plane.coefficients.update(repeating: 0, count: plane.count) }
    }

    deinit {
        for plane in planes { plane.coefficients.deallocate() }
        for mask in masks { mask.blocks.deallocate() }
        scratch.deallocate()
        budget.release(reservedBytes)
    }
}
