/// One block's inverse DCT: coefficients (64, natural order), the component's multipliers,
/// the top-left output sample, the output stride in samples, a 128-Int32 workspace.
typealias JPEGIDCT<Sample> = (UnsafePointer<Int16>, UnsafePointer<Int32>, UnsafeMutablePointer<Sample>, Int, UnsafeMutablePointer<Int32>) -> Void

// Bounds: every pointer here comes from `JPEGRenderer`, which sizes the sample rows to the
// component's padded width (a whole number of blocks, plus one sample each side for the fancy
// filters) and the output rows to `width` pixels; the kernels read and write `width` samples
// (upsampled: `2 × width`) from the pointers they are given and nothing else. Sample values stay
// in 0...maxSample because every IDCT output passes through the range limit.

/// What `JPEGRenderer` does differently for each sample size: the IDCT and its multipliers, the
/// fancy upsampling filters and the YCbCr conversions (jdsample.c, jdcolor.c). Replication
/// and interleaving are the same at every size (`UpsamplingKernels.replicate`,
/// `ColorConversionKernels.interleave`).
protocol JPEGSampleKernels {
    associatedtype Sample: FixedWidthInteger & UnsignedInteger
    /// The IDCT multiplier libjpeg-turbo makes of a quantization table entry.
    static func multiplier(_ quantizer: UInt16) -> Int32
    /// The IDCT with `blockSize` × `blockSize` outputs (8, or 4, 2, 1 when scaling), one block
    /// at a time (block smoothing hands blocks over one by one; whole rows use `idctRow`).
    static func idct(blockSize: Int) -> JPEGIDCT<Sample>
    /// The IDCT of `count` consecutive blocks of a block row (64 coefficients apart), block x
    /// written at `output + x × blockSize`: one loop of direct calls per size, where the
    /// closure of `idct(blockSize:)` costs a call per block — at 1/8 scale as much as the
    /// multiply and shift it wraps.
    static func idctRow(blockSize: Int, _ blocks: UnsafePointer<Int16>, count: Int, _ quant: UnsafePointer<Int32>,
                        _ output: UnsafeMutablePointer<Sample>, stride: Int, workspace: UnsafeMutablePointer<Int32>)
    static func h2v1Fancy(_ input: UnsafePointer<Sample>, width: Int, _ output: UnsafeMutablePointer<Sample>)
    static func h1v2Fancy(near: UnsafePointer<Sample>, far: UnsafePointer<Sample>, width: Int, bias: Int, _ output: UnsafeMutablePointer<Sample>)
    /// `sums` holds `width` values of scratch.
    static func h2v2Fancy(near: UnsafePointer<Sample>, far: UnsafePointer<Sample>, width: Int, sums: UnsafeMutablePointer<UInt16>,
                          _ output: UnsafeMutablePointer<Sample>)
    static func yccToRGB(_ y: UnsafePointer<Sample>, _ cb: UnsafePointer<Sample>, _ cr: UnsafePointer<Sample>, width: Int,
                         _ output: UnsafeMutablePointer<Sample>)
    static func ycckToCMYK(_ y: UnsafePointer<Sample>, _ cb: UnsafePointer<Sample>, _ cr: UnsafePointer<Sample>, _ k: UnsafePointer<Sample>,
                           width: Int, _ output: UnsafeMutablePointer<Sample>)
}

/// 8-bit samples, as libjpeg-turbo 2.1.5's x86-64 build computes them (its SIMD IDCTs, whose
/// multipliers are the table entries narrowed to Int16).
enum EightBitSamples: JPEGSampleKernels {
    static func multiplier(_ quantizer: UInt16) -> Int32 { Int32(Int16(truncatingIfNeeded: quantizer)) }

    static func idct(blockSize: Int) -> JPEGIDCT<UInt8> {
        let range = IDCTKernels.rangeLimitPointer
        switch blockSize {
        case 8: return { IDCTLaneKernels.islow($0, JPEGQuantTable.narrowed($1), $2, stride: $3, workspace: $4, range: range) }
        case 4: return { IDCTKernels.reduced4x4($0, $1, $2, stride: $3, workspace: $4, range: range) }
        case 2: return { IDCTKernels.reduced2x2($0, $1, $2, stride: $3, workspace: $4, range: range) }
        default: return { IDCTKernels.reduced1x1($0, $1, $2, stride: $3, workspace: $4, range: range) }
        }
    }

    static func idctRow(blockSize: Int, _ blocks: UnsafePointer<Int16>, count: Int, _ quant: UnsafePointer<Int32>,
                        _ output: UnsafeMutablePointer<UInt8>, stride: Int, workspace: UnsafeMutablePointer<Int32>) {
        let range = IDCTKernels.rangeLimitPointer
        switch blockSize {
        case 8:
            let narrowed = JPEGQuantTable.narrowed(quant)
            for x in 0..<count {
                IDCTLaneKernels.islow(blocks + x &* 64, narrowed, output + x &* 8, stride: stride, workspace: workspace, range: range)
            }
        case 4:
            for x in 0..<count {
                IDCTKernels.reduced4x4(blocks + x &* 64, quant, output + x &* 4, stride: stride, workspace: workspace, range: range)
            }
        case 2:
            for x in 0..<count {
                IDCTKernels.reduced2x2(blocks + x &* 64, quant, output + x &* 2, stride: stride, workspace: workspace, range: range)
            }
        default:
            for x in 0..<count { output[x] = IDCTKernels.dcOnly(blocks[x &* 64], quant[0], range: range) }
        }
    }

    static func h2v1Fancy(_ input: UnsafePointer<UInt8>, width: Int, _ output: UnsafeMutablePointer<UInt8>) {
        UpsamplingKernels.h2v1Fancy(input, width: width, output)
    }

    static func h1v2Fancy(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int, bias: Int, _ output: UnsafeMutablePointer<UInt8>) {
        UpsamplingKernels.h1v2Fancy(near: near, far: far, width: width, bias: bias, output)
    }

    static func h2v2Fancy(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int, sums: UnsafeMutablePointer<UInt16>,
                          _ output: UnsafeMutablePointer<UInt8>) {
        UpsamplingLaneKernels.h2v2Fancy(near: near, far: far, width: width, sums: sums, output)
    }

    static func yccToRGB(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, width: Int,
                         _ output: UnsafeMutablePointer<UInt8>) {
        ColorConversionKernels.yccToRGB(y, cb, cr, width: width, output)
    }

    static func ycckToCMYK(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, _ k: UnsafePointer<UInt8>,
                           width: Int, _ output: UnsafeMutablePointer<UInt8>) {
        ColorConversionKernels.ycckToCMYK(y, cb, cr, k, width: width, output)
    }
}

/// 16-bit samples: 12-bit lossy files as libjpeg-turbo 3 computes them (`TwelveBitKernels`:
/// its C code, multipliers as stored), and lossless files of 9–16 bits, which use no IDCT and
/// convert colours (YCbCr at up to 12 bits) with the same 12-bit arithmetic.
enum TwelveBitSamples: JPEGSampleKernels {
    static func multiplier(_ quantizer: UInt16) -> Int32 { Int32(quantizer) }

    static func idct(blockSize: Int) -> JPEGIDCT<UInt16> {
        switch blockSize {
        case 8: return { TwelveBitKernels.islow($0, $1, $2, stride: $3, workspace: $4) }
        case 4: return { TwelveBitKernels.reduced4x4($0, $1, $2, stride: $3, workspace: $4) }
        case 2: return { TwelveBitKernels.reduced2x2($0, $1, $2, stride: $3, workspace: $4) }
        default: return { TwelveBitKernels.reduced1x1($0, $1, $2, stride: $3, workspace: $4) }
        }
    }

    static func idctRow(blockSize: Int, _ blocks: UnsafePointer<Int16>, count: Int, _ quant: UnsafePointer<Int32>,
                        _ output: UnsafeMutablePointer<UInt16>, stride: Int, workspace: UnsafeMutablePointer<Int32>) {
        switch blockSize {
        case 8:
            for x in 0..<count { TwelveBitKernels.islow(blocks + x &* 64, quant, output + x &* 8, stride: stride, workspace: workspace) }
        case 4:
            for x in 0..<count { TwelveBitKernels.reduced4x4(blocks + x &* 64, quant, output + x &* 4, stride: stride, workspace: workspace) }
        case 2:
            for x in 0..<count { TwelveBitKernels.reduced2x2(blocks + x &* 64, quant, output + x &* 2, stride: stride, workspace: workspace) }
        default:
            for x in 0..<count { output[x] = TwelveBitKernels.dcOnly(blocks[x &* 64], quant[0]) }
        }
    }

    static func h2v1Fancy(_ input: UnsafePointer<UInt16>, width: Int, _ output: UnsafeMutablePointer<UInt16>) {
        TwelveBitKernels.h2v1Fancy(input, width: width, output)
    }

    static func h1v2Fancy(near: UnsafePointer<UInt16>, far: UnsafePointer<UInt16>, width: Int, bias: Int, _ output: UnsafeMutablePointer<UInt16>) {
        TwelveBitKernels.h1v2Fancy(near: near, far: far, width: width, bias: bias, output)
    }

    static func h2v2Fancy(near: UnsafePointer<UInt16>, far: UnsafePointer<UInt16>, width: Int, sums: UnsafeMutablePointer<UInt16>,
                          _ output: UnsafeMutablePointer<UInt16>) {
        TwelveBitKernels.h2v2Fancy(near: near, far: far, width: width, output)
    }

    static func yccToRGB(_ y: UnsafePointer<UInt16>, _ cb: UnsafePointer<UInt16>, _ cr: UnsafePointer<UInt16>, width: Int,
                         _ output: UnsafeMutablePointer<UInt16>) {
        TwelveBitKernels.yccToRGB(y, cb, cr, width: width, output)
    }

    static func ycckToCMYK(_ y: UnsafePointer<UInt16>, _ cb: UnsafePointer<UInt16>, _ cr: UnsafePointer<UInt16>, _ k: UnsafePointer<UInt16>,
                           width: Int, _ output: UnsafeMutablePointer<UInt16>) {
        TwelveBitKernels.ycckToCMYK(y, cb, cr, k, width: width, output)
    }
}
