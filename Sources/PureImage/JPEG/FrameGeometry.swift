/// Sizes derived from the frame header and the requested scale, computed as libjpeg-turbo 2.1
/// does (jdinput.c `initial_setup`, jdmaster.c `jpeg_calc_output_dimensions`, jdsample.c
/// `jinit_upsampler`). Everything here is fixed once the first scan starts.
struct FrameGeometry {
    /// How one component's samples become output-resolution samples (jdsample.c).
    enum Upsampling: Equatable {
        /// Already at output resolution.
        case fullsize
        /// h2v1 triangle filter (`h2v1_fancy_upsample`).
        case h2v1Fancy
        /// h1v2 triangle filter (`h1v2_fancy_upsample`).
        case h1v2Fancy
        /// h2v2 triangle filter (`h2v2_fancy_upsample`).
        case h2v2Fancy
        /// Plain replication by whole factors (`h2v1_upsample`, `h2v2_upsample`, `int_upsample`).
        case replicate(h: Int, v: Int)
    }

    struct Component {
        /// H_i, V_i (1…4).
        let h: Int
        let v: Int
        /// Blocks covering the component (A.1.1: ⌈X · H_i / H_max⌉ samples, in 8-blocks).
        let widthInBlocks: Int
        let heightInBlocks: Int
        /// Blocks held in the coefficient store: rounded up to whole MCUs.
        let paddedWidthInBlocks: Int
        let paddedHeightInBlocks: Int
        /// IDCT output size per block: 1, 2, 4 or 8 (`DCT_scaled_size`); 1 for lossless frames,
        /// whose "blocks" are single samples.
        let scaledBlockSize: Int
        /// Samples per row/column after IDCT scaling (`downsampled_width/height`).
        let sampleWidth: Int
        let sampleHeight: Int
        let upsampling: Upsampling
    }

    let width: Int
    let height: Int
    let maxH: Int
    let maxV: Int
    /// 1, 2, 4, 8.
    let scaleDenominator: Int
    /// 8 / scaleDenominator (`min_DCT_scaled_size`).
    let minBlockSize: Int
    let outputWidth: Int
    let outputHeight: Int
    /// MCUs of an interleaved scan.
    let mcusPerRow: Int
    let mcuRows: Int
    let components: [Component]

    /// Throws when libjpeg-turbo would refuse the layout (fractional ratios). A lossless frame
    /// (T.81 Annex H) has a data unit of one sample instead of an 8 × 8 block, and no scaling:
    /// libjpeg-turbo decodes it at full size whatever scale is asked for.
    init(frame: FrameHeader, scaleDenominator: Int, lossless: Bool = false) throws(JPEGError) {
        width = frame.width
        height = frame.height
        maxH = frame.components.map(\.h).max() ?? 1
        maxV = frame.components.map(\.v).max() ?? 1
        let unit = lossless ? 1 : 8
        self.scaleDenominator = lossless ? 1 : scaleDenominator
        minBlockSize = lossless ? 1 : 8 / scaleDenominator
        outputWidth = (width * minBlockSize + unit - 1) / unit
        outputHeight = (height * minBlockSize + unit - 1) / unit
        mcusPerRow = ceilDiv(width, unit * maxH)
        mcuRows = ceilDiv(height, unit * maxV)
        // do_fancy_upsampling && min_DCT_scaled_size > 1 (jdsample.c)
        let fancy = minBlockSize > 1
        var components: [Component] = []
        for c in frame.components {
            // jdmaster.c: scale chroma up through the IDCT rather than the upsampler where the
            // ratio is a power of two.
            var size = minBlockSize
            while size < unit && (maxH * minBlockSize) % (c.h * size * 2) == 0 && (maxV * minBlockSize) % (c.v * size * 2) == 0 {
                size *= 2
            }
            let widthInBlocks = ceilDiv(width * c.h, maxH * unit)
            let heightInBlocks = ceilDiv(height * c.v, maxV * unit)
            let sampleWidth = ceilDiv(width * c.h * size, maxH * unit)
            let sampleHeight = ceilDiv(height * c.v * size, maxV * unit)
            let hIn = c.h * size / minBlockSize, vIn = c.v * size / minBlockSize
            let upsampling: Upsampling
            if hIn == maxH && vIn == maxV {
                upsampling = .fullsize
            } else if hIn * 2 == maxH && vIn == maxV {
                upsampling = fancy && sampleWidth > 2 ? .h2v1Fancy : .replicate(h: 2, v: 1)
            } else if hIn == maxH && vIn * 2 == maxV && fancy {
                upsampling = .h1v2Fancy
            } else if hIn * 2 == maxH && vIn * 2 == maxV {
                upsampling = fancy && sampleWidth > 2 ? .h2v2Fancy : .replicate(h: 2, v: 2)
            } else if maxH % hIn == 0 && maxV % vIn == 0 {
                upsampling = .replicate(h: maxH / hIn, v: maxV / vIn)
            } else {
                throw .fractionalSampling
            }
            components.append(Component(h: c.h, v: c.v, widthInBlocks: widthInBlocks, heightInBlocks: heightInBlocks,
                                        paddedWidthInBlocks: ceilDiv(widthInBlocks, c.h) * c.h,
                                        paddedHeightInBlocks: ceilDiv(heightInBlocks, c.v) * c.v,
                                        scaledBlockSize: size, sampleWidth: sampleWidth, sampleHeight: sampleHeight,
                                        upsampling: upsampling))
        }
        self.components = components
    }

    /// The last row of component `c`'s samples that output row `y` reads.
    func lastSampleRow(component c: Int, outputRow y: Int) -> Int {
        let component = components[c]
        switch component.upsampling {
        case .fullsize, .h2v1Fancy: return y
        case .h1v2Fancy, .h2v2Fancy: return min(y / 2 + 1, component.sampleHeight - 1)
        case .replicate(_, let v): return y / v
        }
    }
}

/// ⌈a / b⌉ for a ≥ 0, b > 0.
@inline(__always) func ceilDiv(_ a: Int, _ b: Int) -> Int { (a + b - 1) / b }
