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
/// (Docs/JPEG.md, "The coefficient store"). Blocks start zeroed (libjpeg pre-zeroes its whole-image coefficient arrays).
final class CoefficientStore {
    struct Plane {
        let blocksPerRow: Int
        let heldBlockRows: Int
        let coefficients: UnsafeMutablePointer<Int16>
        let count: Int
        /// `heldBlockRows − 1` when that is a power of two (the usual ring of 1 or 2 rows), else −1.
        let rowMask: Int

        init(blocksPerRow: Int, heldBlockRows: Int, coefficients: UnsafeMutablePointer<Int16>, count: Int) {
            self.blocksPerRow = blocksPerRow
            self.heldBlockRows = heldBlockRows
            self.coefficients = coefficients
            self.count = count
            rowMask = heldBlockRows > 0 && heldBlockRows & (heldBlockRows - 1) == 0 ? heldBlockRows - 1 : -1
        }

        /// The block at (x, y); the caller keeps x < blocksPerRow (the padded width). Rows wrap.
        /// This runs once per block in every scan, so the wrap avoids a division where it can:
        /// a mask for a ring of 2^n rows, nothing for a whole-image plane (y < heldBlockRows).
        /// Bound: x < blocksPerRow and y ≥ 0 give a row below heldBlockRows and an offset
        /// below count, so the wrapping arithmetic cannot overflow.
        @inline(__always) func block(x: Int, y: Int) -> UnsafeMutablePointer<Int16> {
            let row = rowMask >= 0 ? y & rowMask : (y < heldBlockRows ? y : y % heldBlockRows)
            return coefficients + (row &* blocksPerRow &+ x) &* 64
        }
    }

    let planes: [Plane]
    let isWholeImage: Bool
    private let budget: MemoryBudget
    private let reservedBytes: Int

    /// Sizes are reserved in `budget` before anything is allocated.
    init(geometry: FrameGeometry, wholeImage: Bool, interleavedRows: Bool, budget: MemoryBudget) throws(DecodeError) {
        var total = 0
        var shapes: [(Int, Int)] = []
        for component in geometry.components {
            let rows = wholeImage ? component.paddedHeightInBlocks : (interleavedRows ? component.v : 1)
            let count = try SizeMath.allocationSize(component.paddedWidthInBlocks, rows, 64, 2, limits: budget.limits, format: .jpeg, offset: nil) / 2
            total += max(count, 64)
            shapes.append((component.paddedWidthInBlocks, rows))
        }
        reservedBytes = try SizeMath.allocationSize(total, 2, limits: budget.limits, format: .jpeg, offset: nil)
        try budget.reserve(reservedBytes, format: .jpeg, offset: nil)
        self.budget = budget
        var planes: [Plane] = []
        for (width, rows) in shapes {
            let count = width * rows * 64
            let storage = UnsafeMutablePointer<Int16>.allocate(capacity: max(count, 64))
            storage.initialize(repeating: 0, count: max(count, 64))
            planes.append(Plane(blocksPerRow: width, heldBlockRows: rows, coefficients: storage, count: max(count, 64)))
        }
        self.planes = planes
        isWholeImage = wholeImage
    }

    deinit {
        for plane in planes { plane.coefficients.deallocate() }
        budget.release(reservedBytes)
    }
}
