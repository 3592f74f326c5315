/// The first pass of a banded progressive decode (`CoefficientBands`): a block outside the
/// rings is decoded into a scratch block that holds only what the parsing of a progressive scan
/// depends on — which coefficients are non-zero (T.81 G.1.2.3) — and keeps that as its mask.
extension BaselineScan {
    /// Decodes block (x, y) of the slot's component through the scratch block: the mask's
    /// non-zero coefficients become 1, the scan's kernel runs on it as on a stored block (a
    /// correction bit keeps a non-zero value non-zero; a new coefficient is ±2^Al), and the
    /// block's non-zeros become its mask again. Values are not kept: the block is decoded again,
    /// into a ring, when its band comes.
    ///
    /// Bound: x < paddedWidthInBlocks = masks.blocksPerRow and y < paddedHeightInBlocks (the
    /// scan's MCU grid lies inside the padded component), so the mask index is below
    /// masks.count.
    mutating func decodeMaskedBlock(_ base: UnsafePointer<UInt8>, end: Int, closed: Bool, slot: UnsafePointer<Slot>,
                                    x: Int, y: Int) -> Bool {
        guard let masks = slot.pointee.masks else { return false }
        let index = y &* masks.blocksPerRow &+ x
        guard index >= 0 && index < masks.count else { return false }
        let scratch = store.scratch
        RefineMask.expand(masks.blocks[index], into: scratch, natural: natural)
        guard decodeProgressiveBlock(base, end: end, closed: closed, slot: slot, block: scratch) else { return false }
        masks.blocks[index] = RefineMask.nonZero(scratch)
        return true
    }
}

extension RefineMask {
    /// A block whose non-zero coefficients (zig-zag bits of `mask`) are 1 and the rest 0.
    /// Bound: `block` holds 64 Int16; `natural` maps the 64 zig-zag indices to positions < 64.
    @inline(__always)
    static func expand(_ mask: UInt64, into block: UnsafeMutablePointer<Int16>, natural: UnsafePointer<UInt8>) {
        block.update(repeating: 0, count: 64)
        var rest = mask
        while rest != 0 {
            block[Int(natural[rest.trailingZeroBitCount])] = 1
            rest &= rest &- 1
        }
    }
}
