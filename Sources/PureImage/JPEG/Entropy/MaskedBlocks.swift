/// The first pass of a banded progressive decode (`CoefficientBands`): a block outside the
/// rings is decoded into a scratch block that holds only what the parsing of a progressive scan
/// depends on — which coefficients are non-zero (T.81 G.1.2.3) — and keeps that as its mask.
extension BaselineScan {
    /// Decodes block (x, y) of the slot's component through the scratch block, and keeps in
    /// its mask what later scans' parsing needs. Values are not kept: the block is decoded
    /// again, into a ring, when its band comes.
    /// - DC scans read nothing from the block and give no AC coefficient: the scratch block is
    ///   written and forgotten.
    /// - An AC first scan reads nothing from the block either: decoded into a zeroed scratch
    ///   block, its new non-zeros join the mask.
    /// - An AC refinement reads which coefficients of its band are non-zero: those become 1 in
    ///   the scratch block, the kernel runs on it as on a stored block (a correction bit keeps a
    ///   non-zero value non-zero; a new coefficient is ±2^Al), and the band's non-zeros go back
    ///   into the mask.
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
        switch kind {
        case .sequential, .dcFirst, .dcRefine:
            return decodeProgressiveBlock(base, end: end, closed: closed, slot: slot, block: scratch)
        case .acFirst:
            scratch.update(repeating: 0, count: 64)
            guard decodeProgressiveBlock(base, end: end, closed: closed, slot: slot, block: scratch) else { return false }
            masks.blocks[index] |= RefineMask.nonZero(scratch)
        case .acRefine(let ss, let se, _):
            let band = RefineMask.indices(from: ss, through: se)
            let mask = masks.blocks[index]
            RefineMask.expand(mask & band, into: scratch, natural: natural)
            guard decodeProgressiveBlock(base, end: end, closed: closed, slot: slot, block: scratch) else { return false }
            masks.blocks[index] = mask & ~band | RefineMask.nonZero(scratch) & band
        }
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
