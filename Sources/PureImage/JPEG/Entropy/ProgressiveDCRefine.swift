extension BaselineScan {
    /// T.81 §G.1.2.1 — DC successive-approximation refinement: one raw bit per block, bit Al
    /// of the DC coefficient ("the refinement bit … is appended", G.1.2.1). No Huffman table.
    @inline(__always)
    mutating func decodeDCRefine(_ base: UnsafePointer<UInt8>, end: Int, closed: Bool,
                                 block: UnsafeMutablePointer<Int16>, al: Int) -> Bool {
        guard let bit = receive(1, base, end: end, closed: closed) else { return false }
        if bit != 0 { block[0] |= Int16(truncatingIfNeeded: 1 << al) }
        return true
    }
}
