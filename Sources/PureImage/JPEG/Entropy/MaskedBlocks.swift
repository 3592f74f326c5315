/// The first pass of a banded progressive decode (`CoefficientBands`): a block outside the
/// rings keeps only what the parsing of a progressive scan depends on — which coefficients are
/// non-zero (T.81 G.1.2.3) — as its mask.
extension BaselineScan {
    /// Decodes block (x, y) of the slot's component for its mask: what later scans' parsing
    /// needs. Values are not kept: the block is decoded again, into a ring, when its band comes.
    /// - DC scans read nothing from the block and give no AC coefficient: decoded into the
    ///   scratch block and forgotten.
    /// - AC scans decode straight onto the mask (`NonZeroMaskTarget`): a first scan's values
    ///   set or clear their bits, a refinement reads its band's bits where a block's decode
    ///   reads the coefficients (its corrections never change them; a new coefficient is
    ///   ±2^Al, non-zero) — including the value a refinement places past Se on corrupt data,
    ///   which lands outside the band as in the block.
    ///
    /// Bound: x < paddedWidthInBlocks = masks.blocksPerRow and y < paddedHeightInBlocks (the
    /// scan's MCU grid lies inside the padded component), so the mask index is below
    /// masks.count.
    mutating func decodeMaskedBlock(_ base: UnsafePointer<UInt8>, end: Int, closed: Bool, slot: UnsafePointer<Slot>,
                                    x: Int, y: Int) -> Bool {
        guard let masks = slot.pointee.masks else { return false }
        let index = y &* masks.blocksPerRow &+ x
        guard index >= 0 && index < masks.count else { return false }
        switch kind {
        case .sequential, .dcFirst, .dcRefine:
            return decodeProgressiveBlock(base, end: end, closed: closed, slot: slot, block: store.scratch)
        case .acFirst(let ss, let se, let al):
            var target = NonZeroMaskTarget(nonZero: masks.blocks[index])
            guard decodeACFirst(base, end: end, closed: closed, slot: slot, into: &target, ss: ss, se: se, al: al) else { return false }
            masks.blocks[index] = target.nonZero
        case .acRefine(let ss, let se, let al):
            var target = NonZeroMaskTarget(nonZero: masks.blocks[index])
            guard decodeACRefine(base, end: end, closed: closed, slot: slot, into: &target, ss: ss, se: se, al: al) else { return false }
            masks.blocks[index] = target.nonZero
        }
        return true
    }
}
