import Foundation
import Testing
@testable import PureImage

/// The IDCT kernels against T.81 §A.3.3's definition and against known values.
@Suite struct JPEGIDCTTests {
    typealias Kernel = (UnsafePointer<Int16>, UnsafePointer<Int32>, UnsafeMutablePointer<UInt8>, Int, UnsafeMutablePointer<Int32>, UnsafePointer<UInt8>) -> Void

    static func run(_ size: Int, _ coefficients: [Int16], quant: [Int32] = [Int32](repeating: 1, count: 64)) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: size * size)
        let workspace = UnsafeMutablePointer<Int32>.allocate(capacity: 128)
        defer { workspace.deallocate() }
        let kernel: Kernel
        switch size {
        case 8: kernel = { IDCTKernels.islow($0, $1, $2, stride: $3, workspace: $4, range: $5) }
        case 4: kernel = { IDCTKernels.reduced4x4($0, $1, $2, stride: $3, workspace: $4, range: $5) }
        case 2: kernel = { IDCTKernels.reduced2x2($0, $1, $2, stride: $3, workspace: $4, range: $5) }
        default: kernel = { IDCTKernels.reduced1x1($0, $1, $2, stride: $3, workspace: $4, range: $5) }
        }
        coefficients.withUnsafeBufferPointer { c in
            quant.withUnsafeBufferPointer { q in
                IDCTKernels.rangeLimit.withUnsafeBufferPointer { r in
                    output.withUnsafeMutableBufferPointer { o in
                        kernel(c.baseAddress!, q.baseAddress!, o.baseAddress!, size, workspace, r.baseAddress!)
                    }
                }
            }
        }
        return output
    }

    /// A.3.3: s(y,x) = ¼ Σu Σv C(u)C(v) S(v,u) cos((2x+1)uπ/16) cos((2y+1)vπ/16), + 128.
    static func reference(_ coefficients: [Int16]) -> [Double] {
        var out = [Double](repeating: 0, count: 64)
        for y in 0..<8 { for x in 0..<8 {
            var sum = 0.0
            for v in 0..<8 { for u in 0..<8 {
                let cu = u == 0 ? 1 / 2.0.squareRoot() : 1, cv = v == 0 ? 1 / 2.0.squareRoot() : 1
                sum += cu * cv * Double(coefficients[v * 8 + u]) * cos(Double(2 * x + 1) * Double(u) * .pi / 16) * cos(Double(2 * y + 1) * Double(v) * .pi / 16)
            }}
            out[y * 8 + x] = min(255, max(0, sum / 4 + 128))
        }}
        return out
    }

    @Test func dcOnlyBlocks() {
        var block = [Int16](repeating: 0, count: 64)
        block[0] = 80  // 80 / 8 = 10
        #expect(Self.run(8, block) == [UInt8](repeating: 138, count: 64))
        #expect(Self.run(4, block) == [UInt8](repeating: 138, count: 16))
        #expect(Self.run(2, block) == [UInt8](repeating: 138, count: 4))
        #expect(Self.run(1, block) == [138])
        block[0] = -1200
        #expect(Self.run(8, block) == [UInt8](repeating: 0, count: 64))
    }

    @Test func islowIsWithinOneOfTheDefinition() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var block = [Int16](repeating: 0, count: 64)
            for k in 0..<64 where Int.random(in: 0..<4, using: &generator) == 0 {
                block[k] = Int16.random(in: (k == 0 ? -1000 : -120)...(k == 0 ? 1000 : 120), using: &generator)
            }
            let ours = Self.run(8, block), exact = Self.reference(block)
            for i in 0..<64 { #expect(abs(Double(ours[i]) - exact[i]) <= 1.0) }
        }
    }

    /// The SIMD arithmetic saturates where libjpeg's C code wraps through `range_limit`:
    /// a dequantized DC of 8 · 1000 gives 255, not a wrapped value.
    @Test func overflowSaturatesAsTheSIMDKernels() {
        var block = [Int16](repeating: 0, count: 64)
        block[0] = 1000
        block[1] = 3
        #expect(Self.run(8, block, quant: [Int32](repeating: 8, count: 64)).allSatisfy { $0 == 255 })
    }
}
