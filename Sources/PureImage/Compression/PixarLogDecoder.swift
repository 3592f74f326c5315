#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// PixarLog (TIFF compression 32909, and 32908, its old code; Pixar's own scheme, read by libtiff's
/// tif_pixarlog.c). A chunk is one zlib stream of 16-bit *tokens* in the file's byte order, one
/// per sample: each row's first pixel holds its tokens, each later pixel the differences from
/// the pixel before, per channel, modulo 2^11. A token is an 11-bit *companded* value — linear
/// from 0 to about 0.0183 in steps of about 0.0000733, then logarithmic (each step × 1.004)
/// up to about 25 — which libtiff's tables turn into the page's sample format: 32-bit float,
/// 16-bit or 8-bit unsigned (values above 1.0 clamp to the top).
///
/// Exactly libtiff 4.5: the tables are built with the same double-precision arithmetic (the
/// same libm `exp` and `log`), every output value is a table entry, and a chunk whose zlib
/// stream is damaged or ends early fails whole, nothing written.
struct PixarLogDecoder {
    /// What libtiff's PixarLogGuessDataFmt chooses from BitsPerSample and SampleFormat (only
    /// the formats whose samples PureImage can hold; 11- and 12-bit data are refused).
    enum DataFormat: Equatable {
        case float32, sixteenBit, eightBit

        var bytesPerSample: Int {
            switch self {
            case .float32: return 4
            case .sixteenBit: return 2
            case .eightBit: return 1
            }
        }
    }

    let format: DataFormat
    /// Samples per pixel in one chunk (libtiff's stride: the samples per pixel, 1 with planes).
    let stride: Int
    /// Pixels per row.
    let width: Int
    /// The file's byte order (the tokens are stored in it).
    let tokensBigEndian: Bool

    /// libtiff's PixarLogMakeTables, the decoding half: `linear[t]` is token t's value.
    struct Tables {
        var linear: [Float]
        var linear16: [UInt16]
        var linear8: [UInt8]

        init() {
            let size = 2048, one = 1250.0
            var c = log(1.004)
            let linearCount = Int(1.0 / c)   // tokens in the linear part
            c = 1.0 / Double(linearCount)
            let b = exp(-c * one)            // scale: b · exp(c · 1250) = 1
            let step = b * c * exp(1.0)
            linear = (0..<linearCount).map { Float(Double($0) * step) }
                + (linearCount..<size).map { Float(b * exp(c * Double($0))) }
            linear.append(linear[size - 1])
            linear16 = linear.map { value in
                let scaled = Double(value) * 65535.0 + 0.5
                return scaled > 65535.0 ? 65535 : UInt16(scaled)
            }
            linear8 = linear.map { value in
                let scaled = Double(value) * 255.0 + 0.5
                return scaled > 255.0 ? 255 : UInt8(scaled)
            }
        }
    }

    static let tables = Tables()

    /// Decodes one chunk into `output` (rows of `width × stride` samples, wide samples
    /// big-endian as the TIFF pipeline keeps them). Returns the bytes written — all of `output`
    /// or none — and the problem.
    func decode(_ input: ArraySlice<UInt8>, into output: inout [UInt8]) -> (written: Int, problem: String?) {
        let samples = output.count / format.bytesPerSample
        var tokenBytes = [UInt8](repeating: 0, count: samples * 2)
        let inflated = TIFFDecompressor.inflate(input, into: &tokenBytes)
        if let problem = inflated.problem { return (0, "PixarLog: \(problem)") }
        guard inflated.written == tokenBytes.count else {
            return (0, "PixarLog: not enough data (short \(tokenBytes.count - inflated.written) bytes)")
        }
        let rowSamples = stride * width
        guard rowSamples > 0, samples % rowSamples == 0 else { return (0, "PixarLog: the chunk is not whole rows") }
        let tables = Self.tables
        // libtiff's horizontalAccumulate* have a dedicated loop for 3 and 4 samples a pixel: each
        // row starts afresh and every pixel adds its differences to the pixel before. Any other
        // count (gray, two samples, separate planes) takes their general loop, which adds each
        // pixel into the *next* one before writing it: pixel 1 comes out undifferenced (pixel 0
        // is never added), and the row's last pixel is added into the next row's first.
        let dedicatedLoop = stride == 3 || stride == 4
        var sums = [UInt32](repeating: 0, count: stride)
        var carry = [UInt32](repeating: 0, count: stride)
        for row in 0 ..< samples / rowSamples {
            let start = row * rowSamples
            for index in start ..< start + rowSamples {
                let high = Int(tokenBytes[2 * index]), low = Int(tokenBytes[2 * index + 1])
                let token = UInt32(tokensBigEndian ? high << 8 | low : low << 8 | high)
                let pixel = (index - start) / stride, channel = (index - start) % stride
                if dedicatedLoop {
                    sums[channel] = pixel == 0 ? token : sums[channel] &+ token
                } else {
                    switch pixel {
                    case 0: sums[channel] = token &+ carry[channel]
                    case 1: sums[channel] = token
                    default: sums[channel] = sums[channel] &+ token
                    }
                    if pixel == width - 1 { carry[channel] = pixel == 0 ? 0 : sums[channel] }
                }
                let code = Int(sums[channel] & 0x7FF)
                switch format {
                case .eightBit:
                    output[index] = tables.linear8[code]
                case .sixteenBit:
                    let value = tables.linear16[code]
                    output[2 * index] = UInt8(value >> 8)
                    output[2 * index + 1] = UInt8(value & 0xFF)
                case .float32:
                    let bits = tables.linear[code].bitPattern
                    for k in 0..<4 { output[4 * index + k] = UInt8(truncatingIfNeeded: bits >> UInt32(24 - 8 * k)) }
                }
            }
        }
        return (output.count, nil)
    }
}
