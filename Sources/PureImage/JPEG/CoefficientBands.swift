/// A progressive image decoded band by band, so that its coefficients are never all held at
/// once: what `decodedAndScaledDown` asks for when a whole-image coefficient store would be
/// large (a 12000 × 8000 4:2:0 progressive JPEG holds 288 MB of coefficients; libjpeg-turbo
/// holds them too).
///
/// The image's render rows (MCU rows; block rows for a one-component frame) are cut into bands
/// of `bandRows`. The coefficient planes become rings of `heldRenderRows` render rows.
///
/// - Pass 1 decodes every scan in full. Blocks of the first band (and its margin) go into the
///   rings; every other block keeps only its non-zero mask (8 bytes a block, which the AC
///   scans decode straight onto: `NonZeroMaskTarget`): a later scan's parsing depends on
///   which coefficients are non-zero (T.81 G.1.2.3: a refinement scan reads a correction bit
///   for each coefficient already non-zero and counts zero runs over the others), never on
///   their values. At the start of each later band's held rows, each scan's entropy-decoder
///   state is kept (bit position, EOB run, DC predictions, restart count). At EOI band 0 is
///   rendered and the masks are freed.
/// - Band k ≥ 1: the rings are cleared, every scan is resumed from its kept state over the
///   band's held rows only, and the band is rendered. When no block smoothing applies (the
///   scans completed the coefficients it looks at, as in most files) nothing reads the margins,
///   so each scan resumes from its state at the band's own first row and decodes those rows only.
///
/// Entropy decoding thus costs one full pass plus the bands' rows again (with smoothing, each
/// band re-decodes `2 × margin` extra rows), where decoding the whole file once per band would
/// cost the band count times over. The output is the whole-image decode's, byte for byte: every block of
/// a rendered row has gone through the same scans from the same decoder states.
///
/// `margin` render rows above and below each band are held too: block smoothing (libjpeg-turbo
/// 2.1's 5 × 5 window, `BlockSmoothing`) reads two block rows either side, which is at most two
/// render rows. Upsampling needs nothing from the store: the renderer keeps its own context rows.
struct CoefficientBands: Equatable {
    /// Render rows held above and below a band.
    static let margin = 2

    /// Render rows of the image: MCU rows, or the padded block rows of a one-component frame.
    let renderRows: Int
    /// Render rows per band (the last band may be shorter).
    let bandRows: Int
    /// Block rows of each component in one render row (V when several components, else 1).
    let blockRowsPerRenderRow: [Int]

    var count: Int { (renderRows - 1) / bandRows + 1 }
    /// Rows each ring holds: a band and its margins.
    var heldRenderRows: Int { bandRows + 2 * Self.margin }

    /// The render rows band `k` outputs.
    func rendered(_ k: Int) -> Range<Int> {
        k * bandRows ..< min(renderRows, (k + 1) * bandRows)
    }

    /// The render rows band `k` decodes into the rings: its own and the margins inside the image.
    func held(_ k: Int) -> Range<Int> {
        max(0, k * bandRows - Self.margin) ..< min(renderRows, (k + 1) * bandRows + Self.margin)
    }

    /// Bands for a frame whose whole coefficient store would take more than `2 × bandBytes`:
    /// as many render rows per band as fit in `bandBytes` (at least `minimumRows`), or nil when
    /// the whole image is held (small enough, or one band would cover it).
    static func plan(geometry: FrameGeometry, bandBytes: Int, minimumRows: Int) -> CoefficientBands? {
        let several = geometry.components.count > 1
        let perRenderRow = geometry.components.map { several ? $0.v : 1 }
        let renderRows = several ? geometry.mcuRows : (geometry.components.first?.paddedHeightInBlocks ?? 0)
        guard renderRows > 0 else { return nil }
        // Bytes of one render row across the components: 64 Int16 per block.
        var rowBytes = 0
        for (component, rows) in zip(geometry.components, perRenderRow) {
            guard let bytes = SizeMath.product(component.paddedWidthInBlocks, rows, 128) else { return nil }
            rowBytes = rowBytes.addingReportingOverflow(bytes).overflow ? Int.max : rowBytes + bytes
        }
        guard let whole = SizeMath.product(rowBytes, renderRows) else { return nil }
        // bandBytes 0: bands of exactly `minimumRows` (tests cut small images this way).
        if bandBytes > 0 && whole <= 2 * bandBytes { return nil }
        let bandRows = max(minimumRows, 1, bandBytes / max(rowBytes, 1))
        guard bandRows < renderRows else { return nil }
        return CoefficientBands(renderRows: renderRows, bandRows: bandRows, blockRowsPerRenderRow: perRenderRow)
    }
}

/// What a decode asks of `CoefficientBands.plan` (`DecodeOptions.jpegCoefficientBands`).
struct JPEGBandRequest: Hashable, Sendable {
    /// Coefficient bytes per band; 0 cuts bands of exactly `minimumRows` whatever the size.
    var bandBytes: Int
    /// Render rows per band at least (each band also decodes `2 × margin` rows again).
    var minimumRows: Int
}
