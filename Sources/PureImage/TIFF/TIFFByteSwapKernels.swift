/// The byte reversal of 16-, 24-, 32- and 64-bit samples (a little-endian file's wide samples
/// made big-endian, `TIFFDecompressor.reverseWideSamples`), a sample at a time as one unaligned
/// load, `byteSwapped` and store, which the compiler runs several samples per vector. A 1-byte
/// swap per pair (`Array.swapAt`, bounds-checked) cost 95 % of a 4 KB fuzzed file's 1.3 s decode:
/// 1 536 strips declaring 1.4 MB each.
///
/// Unsafe: a named kernel (STYLE.md item 20). Bounds: sample i covers bytes
/// `size · i ..< size · (i + 1)` for i < ⌊count / size⌋, with `count ≤ bytes.count`.
enum TIFFByteSwapKernels {
    static func reverseSamples(_ bytes: UnsafeMutableRawBufferPointer, count: Int, size: Int) {
        guard let base = bytes.baseAddress else { return }
        let samples = min(count, bytes.count) / size
        switch size {
        case 2:
            for i in 0..<samples {
                let o = 2 &* i
                base.storeBytes(of: base.loadUnaligned(fromByteOffset: o, as: UInt16.self).byteSwapped, toByteOffset: o, as: UInt16.self)
            }
        case 4:
            for i in 0..<samples {
                let o = 4 &* i
                base.storeBytes(of: base.loadUnaligned(fromByteOffset: o, as: UInt32.self).byteSwapped, toByteOffset: o, as: UInt32.self)
            }
        case 8:
            for i in 0..<samples {
                let o = 8 &* i
                base.storeBytes(of: base.loadUnaligned(fromByteOffset: o, as: UInt64.self).byteSwapped, toByteOffset: o, as: UInt64.self)
            }
        case 3:
            for i in 0..<samples {
                let o = 3 &* i
                let first = base.load(fromByteOffset: o, as: UInt8.self)
                base.storeBytes(of: base.load(fromByteOffset: o &+ 2, as: UInt8.self), toByteOffset: o, as: UInt8.self)
                base.storeBytes(of: first, toByteOffset: o &+ 2, as: UInt8.self)
            }
        default:
            return
        }
    }
}
