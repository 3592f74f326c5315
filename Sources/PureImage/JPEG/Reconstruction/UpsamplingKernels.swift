/// Chroma upsampling exactly as libjpeg-turbo 2.1's jdsample.c with `do_fancy_upsampling`
/// (its default): triangle filters for the 2:1 cases, replication for the rest. Rows above the
/// first and below the last sample row repeat that row (jdmainct.c context rows).
/// Unsafe kernel file: each function writes `2 × width` (or `width × h`) samples to `output`
/// and reads `width` samples from each input row; callers size the buffers accordingly.
enum UpsamplingKernels {
    /// `h2v1_fancy_upsample`: each output is ¾ of the nearer input + ¼ of the further one,
    /// rounding alternately down (+1) and up (+2). `width` > 2.
    static func h2v1Fancy(_ input: UnsafePointer<UInt8>, width: Int, _ output: UnsafeMutablePointer<UInt8>) {
        // Bound: 1 ≤ i ≤ width − 2 reads input[i − 1 … i + 1] and writes output[2i], output[2i + 1].
        for i in 1..<(width - 1) {
            let center = UInt16(input[i]) &* 3
            output[2 * i] = UInt8(truncatingIfNeeded: (center &+ UInt16(input[i - 1]) &+ 1) >> 2)
            output[2 * i + 1] = UInt8(truncatingIfNeeded: (center &+ UInt16(input[i + 1]) &+ 2) >> 2)
        }
        h2v1FancyEdges(input, width: width, output)
    }

    /// The first and last input's outputs, whose outer neighbour is the sample itself.
    @inline(__always)
    static func h2v1FancyEdges(_ input: UnsafePointer<UInt8>, width: Int, _ output: UnsafeMutablePointer<UInt8>) {
        let first = UInt16(input[0])
        output[0] = UInt8(truncatingIfNeeded: first)
        output[1] = UInt8(truncatingIfNeeded: (first &* 3 &+ UInt16(input[1]) &+ 2) >> 2)
        let last = UInt16(input[width - 1])
        output[2 * width - 2] = UInt8(truncatingIfNeeded: (last &* 3 &+ UInt16(input[width - 2]) &+ 1) >> 2)
        output[2 * width - 1] = UInt8(truncatingIfNeeded: last)
    }

    /// `h1v2_fancy_upsample`: ¾ nearer row + ¼ further row; bias 1 for the upper output row of
    /// a pair, 2 for the lower.
    static func h1v2Fancy(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int, bias: Int, _ output: UnsafeMutablePointer<UInt8>) {
        let bias = UInt16(truncatingIfNeeded: bias)
        for i in 0..<width {
            output[i] = UInt8(truncatingIfNeeded: (UInt16(near[i]) &* 3 &+ UInt16(far[i]) &+ bias) >> 2)
        }
    }

    /// `h2v2_fancy_upsample`: column sums 3·near + far, then the h2v1 filter on the sums with
    /// /16 and biases 8 and 7. `width` > 2; `sums` has room for `width` values. The sums go
    /// through memory rather than a rolling register trio so that neither loop carries a value
    /// from one sample to the next (a column sum is at most 4 · 255 and a filter sum at most
    /// 16 · 255 + 8: UInt16 lanes suffice). The reference for `UpsamplingLaneKernels.h2v2Fancy`,
    /// which the decoder runs.
    static func h2v2Fancy(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int, sums: UnsafeMutablePointer<UInt16>,
                          _ output: UnsafeMutablePointer<UInt8>) {
        columnSums(near: near, far: far, width: width, sums)
        // Bound: 1 ≤ i ≤ width − 2 reads sums[i − 1 … i + 1] and writes output[2i], output[2i + 1].
        for i in 1..<(width - 1) {
            let center = sums[i] &* 3
            output[2 * i] = UInt8(truncatingIfNeeded: (center &+ sums[i - 1] &+ 8) >> 4)
            output[2 * i + 1] = UInt8(truncatingIfNeeded: (center &+ sums[i + 1] &+ 7) >> 4)
        }
        h2v2FancyEdges(sums: sums, width: width, output)
    }

    /// h2v2's vertical stage: 3 · near + far for each of `width` columns.
    @inline(__always)
    static func columnSums(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int, _ sums: UnsafeMutablePointer<UInt16>) {
        for i in 0..<width { sums[i] = UInt16(near[i]) &* 3 &+ UInt16(far[i]) }
    }

    /// h2v2's first and last column's outputs, whose outer neighbour is the column itself.
    static func h2v2FancyEdges(sums: UnsafePointer<UInt16>, width: Int, _ output: UnsafeMutablePointer<UInt8>) {
        output[0] = UInt8(truncatingIfNeeded: (sums[0] &* 4 &+ 8) >> 4)
        output[1] = UInt8(truncatingIfNeeded: (sums[0] &* 3 &+ sums[1] &+ 7) >> 4)
        let last = sums[width - 1]
        output[2 * width - 2] = UInt8(truncatingIfNeeded: (last &* 3 &+ sums[width - 2] &+ 8) >> 4)
        output[2 * width - 1] = UInt8(truncatingIfNeeded: (last &* 4 &+ 7) >> 4)
    }

    /// `int_upsample` / `h2v1_upsample`: each sample repeated `factor` times, `width` samples
    /// (any sample size: 8-bit, and the 16-bit samples of 12-bit and lossless files).
    static func replicate<Sample>(_ input: UnsafePointer<Sample>, width: Int, factor: Int, _ output: UnsafeMutablePointer<Sample>) {
        var o = 0
        for i in 0..<width {
            let value = input[i]
            for _ in 0..<factor { output[o] = value; o += 1 }
        }
    }
}
