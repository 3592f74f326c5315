import Testing
@testable import PureImage

/// The lane kernels of the lossy YUV → RGBA output against the scalar reference
/// (`VP8ColorKernels`), bit for bit: every (Y, U, V) triple through the conversion, and random
/// and extreme planes through upsampling + conversion at every width up to 80, both row parities.
@Suite struct VP8ColorLaneTests {
    @Test func theLaneKernelsAreAvailableOnThisTarget() {
        #expect(VP8ColorLaneKernels.available)
    }

    /// All 2^24 triples: for each (U, V), a row of the 256 Y values.
    @Test func everyTripleConvertsAsTheScalarKernelConvertsIt() {
        let y = (0..<256).map { UInt8($0) }
        var lanes = [UInt8](repeating: 0, count: 1024), scalar = lanes
        var differing = 0
        y.withUnsafeBufferPointer { y in
            for u in 0..<256 {
                for v in 0..<256 {
                    let uRow = [UInt8](repeating: UInt8(u), count: 256), vRow = [UInt8](repeating: UInt8(v), count: 256)
                    uRow.withUnsafeBufferPointer { uRow in
                        vRow.withUnsafeBufferPointer { vRow in
                            lanes.withUnsafeMutableBufferPointer { out in
                                VP8ColorLaneKernels.convert(width: 256, y: y.baseAddress!, u: uRow.baseAddress!,
                                                            v: vRow.baseAddress!, out: out.baseAddress!)
                            }
                        }
                    }
                    scalar.withUnsafeMutableBufferPointer { out in
                        for x in 0..<256 { VP8ColorKernels.yuvToRGBA(x, u, v, out, 4 * x) }
                    }
                    if lanes != scalar { differing += 1 }
                }
            }
        }
        #expect(differing == 0)
    }

    /// Random planes (and all-0, all-255 and alternating ones) of widths 1…80: one output row
    /// from two chroma rows, upper and lower, equal to `VP8ColorKernels.row`. Bytes past the
    /// row's end must stay untouched.
    @Test func rowsEqualTheScalarKernelAtEveryWidth() {
        var generator = JPEGIDCTLaneTests.SplitMix64(seed: 0x5EB_0C01)
        var failures: [String] = []
        for width in 1...80 {
            let chroma = (width + 1) / 2
            for pattern in 0..<6 {
                func sample(_ i: Int) -> UInt8 {
                    switch pattern {
                    case 0: return 0
                    case 1: return 255
                    case 2: return i & 1 == 0 ? 0 : 255
                    default: return UInt8(truncatingIfNeeded: generator.next())
                    }
                }
                let y = (0..<width).map(sample)
                let u = (0..<(2 * chroma)).map(sample), v = (0..<(2 * chroma)).map(sample)
                for lower in [false, true] {
                    var expected = [UInt8](repeating: 0xA5, count: 4 * width + 8)
                    var actual = expected
                    var upsampled = [UInt8](repeating: 0, count: 2 * width + 8)
                    y.withUnsafeBufferPointer { y in
                    u.withUnsafeBufferPointer { u in
                    v.withUnsafeBufferPointer { v in
                        expected.withUnsafeMutableBufferPointer { out in
                            VP8ColorKernels.row(width: width, lower: lower, y: y, yStart: 0, u: u, v: v,
                                                topStart: 0, currentStart: chroma,
                                                out: UnsafeMutableBufferPointer(rebasing: out[0 ..< 4 * width]))
                        }
                        upsampled.withUnsafeMutableBufferPointer { up in
                            let near = lower ? chroma : 0, far = lower ? 0 : chroma
                            let rowU = up.baseAddress!, rowV = up.baseAddress! + width
                            VP8ColorLaneKernels.upsample(width: width, near: u.baseAddress! + near, far: u.baseAddress! + far, out: rowU)
                            VP8ColorLaneKernels.upsample(width: width, near: v.baseAddress! + near, far: v.baseAddress! + far, out: rowV)
                            actual.withUnsafeMutableBufferPointer { out in
                                VP8ColorLaneKernels.convert(width: width, y: y.baseAddress!, u: rowU, v: rowV, out: out.baseAddress!)
                            }
                        }
                    }
                    }
                    }
                    if expected != actual { failures.append("width \(width) pattern \(pattern) lower \(lower)") }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10))")
    }

    /// The alpha row and the premultiplied BGRA layout (`VP8PixelLayout`), lanes and scalar
    /// tail, at widths 1…80: `.rgba` with alpha is the opaque row with its alpha bytes set;
    /// `.bgraPremultiplied` is that row converted to the display format by `PixelConverter`
    /// (with alpha: `display(hasAlpha: true)`; without: both display formats), as the raster
    /// would have converted it.
    @Test func alphaAndTheDisplayLayoutEqualTheConvertedRow() throws {
        var generator = JPEGIDCTLaneTests.SplitMix64(seed: 0xA1FA_0B6A)
        var failures: [String] = []
        for width in 1...80 {
            for pattern in 0..<5 {
                func sample(_ i: Int) -> UInt8 {
                    switch pattern {
                    case 0: return 0
                    case 1: return 255
                    case 2: return i & 1 == 0 ? 0 : 255
                    default: return UInt8(truncatingIfNeeded: generator.next())
                    }
                }
                let y = (0..<width).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                let u = (0..<width).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                let v = (0..<width).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                let alpha = (0..<width).map(sample)
                func run(_ alpha: [UInt8]?, _ layout: VP8PixelLayout) -> [UInt8] {
                    var out = [UInt8](repeating: 0xA5, count: 4 * width + 8)
                    y.withUnsafeBufferPointer { y in
                    u.withUnsafeBufferPointer { u in
                    v.withUnsafeBufferPointer { v in
                    (alpha ?? []).withUnsafeBufferPointer { a in
                    out.withUnsafeMutableBufferPointer { out in
                        VP8ColorLaneKernels.convert(width: width, y: y.baseAddress!, u: u.baseAddress!, v: v.baseAddress!,
                                                    alpha: alpha == nil ? nil : a.baseAddress!, out: out.baseAddress!, layout: layout)
                    }
                    }
                    }
                    }
                    }
                    #expect(out[(4 * width)...].allSatisfy { $0 == 0xA5 }, "width \(width): bytes past the row written")
                    return Array(out[..<(4 * width)])
                }
                func converted(_ rgba: [UInt8], to target: PixelFormat) throws -> [UInt8] {
                    try Bitmap(width: width, height: 1, format: .rgba8, bytes: rgba).converted(to: target, bytesPerRow: 4 * width).bytes
                }
                let opaque = run(nil, .rgba)
                var withAlpha = opaque
                for x in 0..<width { withAlpha[4 * x + 3] = alpha[x] }
                if run(alpha, .rgba) != withAlpha { failures.append("rgba + alpha, width \(width) pattern \(pattern)") }
                if try run(alpha, .bgraPremultiplied) != converted(withAlpha, to: .display(hasAlpha: true)) {
                    failures.append("premultiplied BGRA, width \(width) pattern \(pattern)")
                }
                let opaqueBGRA = run(nil, .bgraPremultiplied)
                if try opaqueBGRA != converted(opaque, to: .display(hasAlpha: true)) || opaqueBGRA != converted(opaque, to: .display(hasAlpha: false)) {
                    failures.append("opaque BGRA, width \(width)")
                }
            }
        }
        #expect(failures.count == 0, "\(failures.count) failures, the first: \(failures.prefix(4))")
    }
}
