/// Chroma upsampling exactly as libjpeg-turbo 2.1's jdsample.c with `do_fancy_upsampling`
/// (its default): triangle filters for the 2:1 cases, replication for the rest. Rows above the
/// first and below the last sample row repeat that row (jdmainct.c context rows).
/// Unsafe kernel file: each function writes `2 × width` (or `width × h`) samples to `output`
/// and reads `width` samples from each input row; callers size the buffers accordingly.
enum UpsamplingKernels {
    /// `h2v1_fancy_upsample`: each output is ¾ of the nearer input + ¼ of the further one,
    /// rounding alternately down (+1) and up (+2). `width` > 2.
    static func h2v1Fancy(_ input: UnsafePointer<UInt8>, width: Int, _ output: UnsafeMutablePointer<UInt8>) {
        var value = Int(input[0])
        output[0] = UInt8(value)
        output[1] = UInt8((value * 3 + Int(input[1]) + 2) >> 2)
        var i = 1
        while i < width - 1 {
            value = Int(input[i]) * 3
            output[2 * i] = UInt8((value + Int(input[i - 1]) + 1) >> 2)
            output[2 * i + 1] = UInt8((value + Int(input[i + 1]) + 2) >> 2)
            i += 1
        }
        value = Int(input[width - 1])
        output[2 * width - 2] = UInt8((value * 3 + Int(input[width - 2]) + 1) >> 2)
        output[2 * width - 1] = UInt8(value)
    }

    /// `h1v2_fancy_upsample`: ¾ nearer row + ¼ further row; bias 1 for the upper output row of
    /// a pair, 2 for the lower.
    static func h1v2Fancy(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int, bias: Int, _ output: UnsafeMutablePointer<UInt8>) {
        for i in 0..<width {
            output[i] = UInt8((Int(near[i]) * 3 + Int(far[i]) + bias) >> 2)
        }
    }

    /// `h2v2_fancy_upsample`: column sums 3·near + far, then the h2v1 filter on the sums with
    /// /16 and biases 8 and 7. `width` > 2.
    static func h2v2Fancy(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int, _ output: UnsafeMutablePointer<UInt8>) {
        var this = Int(near[0]) * 3 + Int(far[0])
        var next = Int(near[1]) * 3 + Int(far[1])
        output[0] = UInt8((this * 4 + 8) >> 4)
        output[1] = UInt8((this * 3 + next + 7) >> 4)
        var last = this
        this = next
        var i = 1
        while i < width - 1 {
            next = Int(near[i + 1]) * 3 + Int(far[i + 1])
            output[2 * i] = UInt8((this * 3 + last + 8) >> 4)
            output[2 * i + 1] = UInt8((this * 3 + next + 7) >> 4)
            last = this
            this = next
            i += 1
        }
        output[2 * width - 2] = UInt8((this * 3 + last + 8) >> 4)
        output[2 * width - 1] = UInt8((this * 4 + 7) >> 4)
    }

    /// `int_upsample` / `h2v1_upsample`: each sample repeated `factor` times, `width` samples.
    static func replicate(_ input: UnsafePointer<UInt8>, width: Int, factor: Int, _ output: UnsafeMutablePointer<UInt8>) {
        var o = 0
        for i in 0..<width {
            let value = input[i]
            for _ in 0..<factor { output[o] = value; o += 1 }
        }
    }
}
