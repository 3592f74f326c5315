import PureImage

/// Pixels in one of the two layouts every comparison uses: tightly packed RGBA with 8-bit
/// samples, or 16-bit samples in host byte order (`PixelFormat.rgba16`), or a decoder's native
/// layout (`channels` samples per pixel) when that is what the reference gives.
public struct ComparableImage: Sendable {
    public var width: Int
    public var height: Int
    public var channels: Int
    /// 8 or 16.
    public var bits: Int
    public var samples: [UInt8]

    public init(width: Int, height: Int, channels: Int, bits: Int, samples: [UInt8]) {
        self.width = width
        self.height = height
        self.channels = channels
        self.bits = bits
        self.samples = samples
    }

    /// A tight copy of `bitmap` (which must be 8-bit or host-order 16-bit with `channels` samples).
    public init(_ bitmap: Bitmap) {
        let tight = bitmap.tightlyPacked()
        width = tight.width
        height = tight.height
        channels = tight.format.componentsPerPixel
        bits = tight.format.bitsPerComponent
        samples = tight.bytes
    }

    /// Every sample x becomes `maximum` − x (8-bit, or 16-bit host order).
    public mutating func invert(maximum: Int) {
        if bits == 16 {
            for i in stride(from: 0, to: samples.count - 1, by: 2) {
                let value = UInt16(truncatingIfNeeded: maximum - (Int(samples[i]) | Int(samples[i + 1]) << 8))
                samples[i] = UInt8(value & 0xFF)
                samples[i + 1] = UInt8(value >> 8)
            }
        } else {
            samples = samples.map { UInt8(truncatingIfNeeded: maximum - Int($0)) }
        }
    }

    /// Sample `channel` of pixel (x, y).
    public func sample(x: Int, y: Int, channel: Int) -> Int {
        let index = (y * width + x) * channels + channel
        if bits == 16 {
            return Int(samples[2 * index]) | Int(samples[2 * index + 1]) << 8
        }
        return Int(samples[index])
    }

    /// The image as straight RGBA8 for display in reports (gray replicated, 16 bits rounded,
    /// CMYK shown naively as 255 − C etc. without K, which is enough to see a difference).
    public func displayRGBA8() -> [UInt8] {
        var out = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                func value(_ channel: Int) -> UInt8 {
                    let v = sample(x: x, y: y, channel: channel)
                    return bits == 16 ? UInt8((v + 128) / 257) : UInt8(v)
                }
                let o = (y * width + x) * 4
                switch channels {
                case 1: out[o] = value(0); out[o + 1] = value(0); out[o + 2] = value(0)
                case 2: out[o] = value(0); out[o + 1] = value(0); out[o + 2] = value(0); out[o + 3] = value(1)
                case 3: out[o] = value(0); out[o + 1] = value(1); out[o + 2] = value(2)
                default: out[o] = value(0); out[o + 1] = value(1); out[o + 2] = value(2); out[o + 3] = value(3)
                }
            }
        }
        return out
    }
}

/// How two images differ.
public struct PixelDifference: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var channel: Int
    public var ours: Int
    public var reference: Int
    /// Largest absolute difference over all samples.
    public var maxDifference: Int
    /// Number of samples that differ.
    public var differingSamples: Int

    public init(x: Int, y: Int, channel: Int, ours: Int, reference: Int, maxDifference: Int, differingSamples: Int) {
        self.x = x
        self.y = y
        self.channel = channel
        self.ours = ours
        self.reference = reference
        self.maxDifference = maxDifference
        self.differingSamples = differingSamples
    }
}

public enum ImageComparison {
    /// nil when identical; otherwise the first differing sample (row-major) and the totals.
    /// Geometry or layout mismatches are reported as a difference at (−1, −1).
    public static func compare(_ ours: ComparableImage, _ reference: ComparableImage) -> PixelDifference? {
        guard ours.width == reference.width, ours.height == reference.height,
              ours.channels == reference.channels, ours.bits == reference.bits,
              ours.samples.count == reference.samples.count else {
            return PixelDifference(x: -1, y: -1, channel: -1, ours: ours.width * 10000 + ours.height,
                                   reference: reference.width * 10000 + reference.height,
                                   maxDifference: Int.max, differingSamples: Int.max)
        }
        if ours.samples == reference.samples { return nil }
        var first: PixelDifference?
        var maximum = 0, count = 0
        let sampleCount = ours.width * ours.height * ours.channels
        for index in 0..<sampleCount {
            let pixel = index / ours.channels, channel = index % ours.channels
            let x = pixel % ours.width, y = pixel / ours.width
            let a = ours.sample(x: x, y: y, channel: channel), b = reference.sample(x: x, y: y, channel: channel)
            guard a != b else { continue }
            count += 1
            maximum = max(maximum, abs(a - b))
            if first == nil { first = PixelDifference(x: x, y: y, channel: channel, ours: a, reference: b, maxDifference: 0, differingSamples: 0) }
        }
        guard var result = first else { return nil }
        result.maxDifference = maximum
        result.differingSamples = count
        return result
    }

    /// A heat map of |ours − reference| (max over channels), amplified ×8 and clamped, as RGBA8:
    /// black where equal, red to yellow as the difference grows.
    public static func heatMap(_ ours: ComparableImage, _ reference: ComparableImage) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: ours.width * ours.height * 4)
        guard ours.width == reference.width, ours.height == reference.height, ours.channels == reference.channels else { return out }
        for y in 0..<ours.height {
            for x in 0..<ours.width {
                var worst = 0
                for channel in 0..<ours.channels {
                    worst = max(worst, abs(ours.sample(x: x, y: y, channel: channel) - reference.sample(x: x, y: y, channel: channel)))
                }
                if ours.bits == 16 { worst /= 257 }
                let o = (y * ours.width + x) * 4
                let level = min(255, worst * 8)
                out[o] = worst > 0 ? UInt8(max(96, level)) : 0
                out[o + 1] = UInt8(max(0, level - 128) * 2 > 255 ? 255 : max(0, level - 128) * 2)
                out[o + 2] = 0
                out[o + 3] = 255
            }
        }
        return out
    }
}
