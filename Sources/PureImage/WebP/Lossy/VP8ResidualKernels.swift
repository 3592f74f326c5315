/// The "non-zero" contexts of RFC 6386 §13.3 that run across macroblocks: for each 4×4 block
/// column above (and block row to the left), whether the last block there had a coefficient.
struct VP8NonZeroContext {
    /// Per macroblock column: 4 luma, 2 U, 2 V block columns, and the Y2 block.
    var topY: [UInt8]
    var topU: [UInt8]
    var topV: [UInt8]
    var topY2: [UInt8]
    var leftY: [UInt8] = [0, 0, 0, 0]
    var leftU: [UInt8] = [0, 0]
    var leftV: [UInt8] = [0, 0]
    var leftY2: UInt8 = 0

    init(macroblockColumns: Int) {
        topY = [UInt8](repeating: 0, count: macroblockColumns * 4)
        topU = [UInt8](repeating: 0, count: macroblockColumns * 2)
        topV = [UInt8](repeating: 0, count: macroblockColumns * 2)
        topY2 = [UInt8](repeating: 0, count: macroblockColumns)
    }

    /// §13.3: "before decoding each row of macroblocks, the left predictors are cleared".
    mutating func startRow() {
        leftY = [0, 0, 0, 0]
        leftU = [0, 0]
        leftV = [0, 0]
        leftY2 = 0
    }
}

/// What the residual of one macroblock needs for reconstruction: 25 blocks of dequantized
/// coefficients (16 luma, 4 U, 4 V; the Y2 block already inverted into the luma DCs) and, per
/// block, which inverse transform applies: 0 none, 1 DC only, 2 the first three coefficients
/// (zigzag 0–2), 3 full — libwebp's `NzCodeBits`, whose choice matters for results only with
/// out-of-range coefficients (see `VP8TransformKernels`).
struct VP8Residual {
    var coefficients = [Int16](repeating: 0, count: 384)
    var transforms = [UInt8](repeating: 0, count: 24)
    /// No block has anything to add (the inner loop-filter edges then depend on the mode only).
    var isEmpty = true
}

/// RFC 6386 §13 — DCT/WHT token decoding with the coefficient probabilities.
///
/// Unsafe for speed. Bounds: probability indices are `tokenIndex(type ≤ 3, band ≤ 7, ctx ≤ 2)
/// + node ≤ 10` < 1056 (bands come from the 17-entry band table indexed by n ≤ 16);
/// coefficient writes are at `block × 16 + zigzag[n]` with block ≤ 23, n ≤ 15 into 384 entries.
enum VP8ResidualKernels {
    /// Reads the residual of one macroblock (§13, libwebp's `ParseResiduals`) from the token
    /// partition `d`, updating the non-zero contexts of macroblock column `column`.
    static func read(_ d: inout VP8BoolDecoder, _ data: UnsafeBufferPointer<UInt8>, probabilities: [UInt8],
                     dequantizer q: VP8Dequantizer, hasY2: Bool, column: Int,
                     context: inout VP8NonZeroContext, into residual: inout VP8Residual) {
        probabilities.withUnsafeBufferPointer { probabilities in
        residual.coefficients.withUnsafeMutableBufferPointer { out in
            for i in 0..<384 { out[i] = 0 }
            var first = 0
            var lumaType = 3
            if hasY2 {
                // §13: the Y2 block (type 1), then its inverse WHT gives the 16 luma DCs (§14.3).
                let ctx = Int(context.topY2[column] + context.leftY2)
                let nz = withUnsafeTemporaryAllocation(of: Int16.self, capacity: 16) { dc in
                    dc.initialize(repeating: 0)
                    let nz = coefficients(&d, data, probabilities, type: 1, context: ctx, dc: q.y2.dc, ac: q.y2.ac, first: 0, out: dc, block: 0)
                    if nz > 1 {
                        VP8TransformKernels.inverseWHT(dc, into: out)
                    } else {
                        // Only the DC: every output is (dc + 3) >> 3.
                        let value = Int16(truncatingIfNeeded: (Int(dc[0]) + 3) >> 3)
                        for i in 0..<16 { out[i * 16] = value }
                    }
                    return nz
                }
                let flag: UInt8 = nz > 0 ? 1 : 0
                context.topY2[column] = flag
                context.leftY2 = flag
                first = 1
                lumaType = 0
            }
            var empty = true
            for y in 0..<4 {
                var left = context.leftY[y]
                for x in 0..<4 {
                    let block = y * 4 + x
                    let ctx = Int(left + context.topY[column * 4 + x])
                    let nz = coefficients(&d, data, probabilities, type: lumaType, context: ctx,
                                          dc: q.y1.dc, ac: q.y1.ac, first: first, out: out, block: block)
                    left = nz > first ? 1 : 0
                    context.topY[column * 4 + x] = left
                    let code: UInt8 = nz > 3 ? 3 : nz > 1 ? 2 : (out[block * 16] != 0 ? 1 : 0)
                    residual.transforms[block] = code
                    if code != 0 { empty = false }
                }
                context.leftY[y] = left
            }
            for plane in 0..<2 {
                for y in 0..<2 {
                    var left = plane == 0 ? context.leftU[y] : context.leftV[y]
                    for x in 0..<2 {
                        let block = 16 + plane * 4 + y * 2 + x
                        let top = plane == 0 ? context.topU[column * 2 + x] : context.topV[column * 2 + x]
                        let nz = coefficients(&d, data, probabilities, type: 2, context: Int(left + top),
                                              dc: q.uv.dc, ac: q.uv.ac, first: 0, out: out, block: block)
                        left = nz > 0 ? 1 : 0
                        if plane == 0 { context.topU[column * 2 + x] = left } else { context.topV[column * 2 + x] = left }
                        let code: UInt8 = nz > 3 ? 3 : nz > 1 ? 2 : (out[block * 16] != 0 ? 1 : 0)
                        residual.transforms[block] = code
                        if code != 0 { empty = false }
                    }
                    if plane == 0 { context.leftU[y] = left } else { context.leftV[y] = left }
                }
            }
            residual.isEmpty = empty
        }
        }
    }

    /// A macroblock without residual (`mb_skip_coeff`): its blocks count as empty for the
    /// neighbours' contexts; the Y2 context is cleared only when the macroblock has a Y2 block.
    static func skip(hasY2: Bool, column: Int, context: inout VP8NonZeroContext, into residual: inout VP8Residual) {
        for i in 0..<4 { context.topY[column * 4 + i] = 0; context.leftY[i] = 0 }
        for i in 0..<2 {
            context.topU[column * 2 + i] = 0; context.topV[column * 2 + i] = 0
            context.leftU[i] = 0; context.leftV[i] = 0
        }
        if hasY2 { context.topY2[column] = 0; context.leftY2 = 0 }
        for i in 0..<24 { residual.transforms[i] = 0 }
        residual.isEmpty = true
    }

    /// §13.2–§13.3: the tokens of one block from position `first`, dequantized (DC factor at
    /// position 0, AC factor after) and stored as 16-bit values (wrapping, as libwebp stores
    /// them) at their raster positions. Returns the position after the last non-zero
    /// coefficient, or 16 when the tokens run to the end without an end-of-block.
    @inline(__always)
    static func coefficients(_ d: inout VP8BoolDecoder, _ data: UnsafeBufferPointer<UInt8>, _ probabilities: UnsafeBufferPointer<UInt8>,
                             type: Int, context: Int, dc: Int, ac: Int, first: Int,
                             out: UnsafeMutableBufferPointer<Int16>, block: Int) -> Int {
        let bands = VP8ProbabilityTables.coefficientBands
        let zigzag = VP8ProbabilityTables.zigzag
        var n = first
        var p = VP8ProbabilityTables.tokenIndex(type: type, band: bands[n], context: context)
        while n < 16 {
            // dct_eob ("0"), only possible when the previous token was not DCT_0.
            if !d.readBool(Int(probabilities[p]), data) { return n }
            // DCT_0 ("10"): zeros until a non-zero token.
            while !d.readBool(Int(probabilities[p + 1]), data) {
                n += 1
                if n == 16 { return 16 }
                p = VP8ProbabilityTables.tokenIndex(type: type, band: bands[n], context: 0)
            }
            let value: Int
            let nextContext: Int
            if !d.readBool(Int(probabilities[p + 2]), data) {
                value = 1
                nextContext = 1
            } else {
                value = largeValue(&d, data, probabilities, p)
                nextContext = 2
            }
            let signed = d.readBool(128, data) ? -value : value
            out[block &* 16 &+ zigzag[n]] = Int16(truncatingIfNeeded: signed &* (n > 0 ? ac : dc))
            n += 1
            p = VP8ProbabilityTables.tokenIndex(type: type, band: bands[n], context: nextContext)
        }
        return 16
    }

    /// §13.2 coeff_tree below "111": DCT_2 … DCT_4 and the categories with their extra bits
    /// (base values 5, 7, 11, 19, 35, 67).
    @inline(__always)
    private static func largeValue(_ d: inout VP8BoolDecoder, _ data: UnsafeBufferPointer<UInt8>,
                                   _ probabilities: UnsafeBufferPointer<UInt8>, _ p: Int) -> Int {
        if !d.readBool(Int(probabilities[p + 3]), data) {
            if !d.readBool(Int(probabilities[p + 4]), data) { return 2 }
            return 3 + (d.readBool(Int(probabilities[p + 5]), data) ? 1 : 0)
        }
        if !d.readBool(Int(probabilities[p + 6]), data) {
            if !d.readBool(Int(probabilities[p + 7]), data) {
                return 5 + (d.readBool(159, data) ? 1 : 0)                      // dct_cat1
            }
            let high = d.readBool(165, data) ? 2 : 0                             // dct_cat2
            return 7 + high + (d.readBool(145, data) ? 1 : 0)
        }
        let bit1 = d.readBool(Int(probabilities[p + 8]), data) ? 1 : 0
        let bit0 = d.readBool(Int(probabilities[p + 9 + bit1]), data) ? 1 : 0
        let category = 2 * bit1 + bit0                                          // dct_cat3 … dct_cat6
        var extra = 0
        for probability in VP8ProbabilityTables.categoryExtraBits[category] {
            extra = extra << 1 | (d.readBool(Int(probability), data) ? 1 : 0)
        }
        return extra + 3 + (8 << category)
    }
}
