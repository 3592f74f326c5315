/// The high-quality resampling filter of the downscaler — the role `kCGInterpolationHigh`
/// plays in SDWebImage's tile drawing.
///
/// Lanczos-3: `L(x) = sinc(x) · sinc(x / 3)` for |x| < 3, 0 outside, `sinc(x) = sin(πx)/(πx)`.
/// It is the filter image libraries use for high-quality reduction (Pillow's `LANCZOS`,
/// ImageMagick's default for downscaling): sharp, with little aliasing, and its small negative
/// lobes keep edges crisp. When shrinking by a factor s > 1 the kernel is stretched by s
/// (support 3s source pixels) so it also averages away the detail the destination cannot hold.
///
/// Weights for one destination pixel i (centre in source coordinates c = (i + 0.5) · s):
/// source pixels j from floor(c − 3s) to ceil(c + 3s), w_j = L((j + 0.5 − c) / s), clipped to
/// the image and normalised to sum 1, then converted to 14-bit fixed point with the rounding
/// error put on the largest weight, so every row of weights sums exactly to 2^14.
struct ResampleFilter {
    static let support = 3.0
    static let precisionBits = 14

    /// Contributions to each destination pixel along one axis.
    struct Axis {
        /// `starts[i]`: first source index for destination pixel i.
        var starts: [Int32]
        /// `counts[i]`: number of source pixels for destination pixel i.
        var counts: [Int32]
        /// Fixed-point weights, `stride` per destination pixel (zero-padded).
        var weights: [Int32]
        var stride: Int
    }

    /// Weights stored per destination pixel: the filter's width in source pixels, plus two for
    /// the rounding of its ends (what `axis` allocates, so callers can budget it first).
    static func stride(sourceExtent: Double, destinationSize: Int) -> Int {
        let radius = support * max(1, sourceExtent / Double(max(1, destinationSize)))
        return Int((radius * 2).rounded(.up)) + 2
    }

    static func lanczos3(_ x: Double) -> Double {
        if x == 0 { return 1 }
        guard abs(x) < support else { return 0 }
        let px = Double.pi * x
        return support * sin(px) * sin(px / support) / (px * px)
    }

    /// Weights for resampling `sourceSize` pixels to `destinationSize` pixels. `sourceExtent`
    /// is how many source pixels the picture spans when that is not a whole number: a JPEG
    /// decoded at 1/d holds ceil(size / d) pixels, the last one a partial block, but the picture
    /// ends at size / d — mapping the destination onto ceil(size / d) would stretch it.
    static func axis(sourceSize: Int, destinationSize: Int, sourceExtent: Double? = nil) -> Axis {
        let scale = (sourceExtent ?? Double(sourceSize)) / Double(destinationSize)
        let filterScale = max(1, scale)
        let radius = support * filterScale
        let stride = Self.stride(sourceExtent: sourceExtent ?? Double(sourceSize), destinationSize: destinationSize)
        var starts = [Int32](repeating: 0, count: destinationSize)
        var counts = [Int32](repeating: 0, count: destinationSize)
        var weights = [Int32](repeating: 0, count: destinationSize * stride)
        var row = [Double](repeating: 0, count: stride)
        for i in 0..<destinationSize {
            let centre = (Double(i) + 0.5) * scale
            let first = max(0, Int((centre - radius).rounded(.down)))
            let last = min(sourceSize - 1, Int((centre + radius).rounded(.up)))
            var total = 0.0
            var count = 0
            for j in first...max(first, last) where count < stride {
                let w = lanczos3((Double(j) + 0.5 - centre) / filterScale)
                row[count] = w
                total += w
                count += 1
            }
            // Fixed point, exact sum of 2^14 (the error goes to the largest weight).
            let one = Int32(1 << precisionBits)
            var sum: Int32 = 0
            var largest = 0
            for k in 0..<count {
                let fixed = Int32((row[k] / (total == 0 ? 1 : total) * Double(one)).rounded())
                weights[i * stride + k] = fixed
                sum += fixed
                if abs(row[k]) > abs(row[largest]) { largest = k }
            }
            weights[i * stride + largest] += one - sum
            starts[i] = Int32(first)
            counts[i] = Int32(count)
        }
        return Axis(starts: starts, counts: counts, weights: weights, stride: stride)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
