// Floating-point pixels (`PixelFormat.ComponentType.float`): TIFF's SampleFormat 3 at full
// precision. Converting them to an integer format goes through 16-bit unsigned components
// with the same colour model and alpha:
//
//     c16 = 0                      if c ≤ 0 or c is NaN
//           65535                  if c ≥ 1
//           ⌊c × 65535 + 0.5⌋      otherwise (round half up, in Double)
//
// (alpha the same way), then `converted(to:)` takes it from there. Values above 1 (HDR) clip.
// Nothing is converted *to* float.

extension Bitmap {
    /// The same pixels with 16-bit unsigned components (same colour model, alpha, default order).
    func floatToUnsigned16() throws(BitmapError) -> Bitmap {
        let target = PixelFormat(colorModel: format.colorModel, bitsPerComponent: 16, alphaInfo: format.alphaInfo)
        if let problem = target.validate() { throw .invalidFormat(problem) }
        let components = format.componentsPerPixel
        let componentBytes = format.bitsPerComponent / 8
        let group = format.byteOrder.swapGroupSize
        // Byte k (most significant first) of logical component c of a pixel, in memory.
        func offset(_ logical: Int) -> Int {
            group == 1 ? logical : (logical / group) * group + (group - 1 - logical % group)
        }
        var offsets: [[Int]] = []
        for component in 0..<components {
            offsets.append((0..<componentBytes).map { offset(component * componentBytes + $0) })
        }
        var out = [UInt8](repeating: 0, count: width * height * components * 2)
        var index = 0
        for y in 0..<height {
            let rowStart = y * bytesPerRow
            for x in 0..<width {
                let pixel = rowStart + x * components * componentBytes
                for component in 0..<components {
                    var bits: UInt64 = 0
                    for byte in offsets[component] { bits = bits << 8 | UInt64(bytes[pixel + byte]) }
                    let value = componentBytes == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: bits)
                    let scaled: UInt16
                    if value.isNaN || value <= 0 {
                        scaled = 0
                    } else if value >= 1 {
                        scaled = 65535
                    } else {
                        scaled = UInt16((value * 65535 + 0.5).rounded(.down))
                    }
                    out[index] = UInt8(scaled >> 8)
                    out[index + 1] = UInt8(scaled & 0xFF)
                    index += 2
                }
            }
        }
        return Bitmap(uncheckedWidth: width, height: height, format: target, bytesPerRow: width * components * 2, bytes: out)
    }
}
