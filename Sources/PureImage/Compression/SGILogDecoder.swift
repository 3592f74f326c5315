/// SGI's LogLuv codec (TIFF compression 34676 "SGILog", 34677 "SGILog24"; Greg Ward Larson,
/// "The LogLuv Encoding for Full Gamut, High Dynamic Range Images", 1998), as libtiff's tif_luv.c
/// decodes it:
///
/// | photometric | compression | pixel | coding of each row |
/// |---|---|---|---|
/// | LogL (32844) | 34676 | 16-bit L: sign + 15-bit log2(Y) × 256 | 2 byte planes (high, then low), each run-length coded |
/// | LogLuv (32845) | 34676 | 32-bit: 16-bit L, 8-bit u', 8-bit v' | 4 byte planes, each run-length coded |
/// | LogLuv (32845) | 34677 | 24-bit: 10-bit L, 14-bit (u', v') grid square | 3 bytes per pixel, plain |
///
/// Run-length coding of a byte plane: a byte n ≥ 128 repeats the next byte n − 126 times; a byte
/// n < 128 is followed by n literal bytes. The decoded values then become the caller's data
/// format — libtiff's SGILOGDATAFMT, guessed from the file's BitsPerSample and SampleFormat
/// unless a reader asks (its RGBA interface asks for 8-bit):
///
/// | format | LogL | LogLuv |
/// |---|---|---|
/// | `.float` | Y as float32 | X, Y, Z as float32 |
/// | `.sixteenBit` | L as stored (int16) | L, u' × 2^15, v' × 2^15 (int16 each; 24-bit L rescaled) |
/// | `.raw` | — | the 32-bit (or 24-bit) code |
/// | `.eightBit` | gray: 256 √Y, clipped | RGB: CCIR-709 primaries, gamma 2 (256 √c), clipped |
///
/// Output samples are big-endian, like every wide sample inside the TIFF decoder.
struct SGILogDecoder {
    enum Coding { case logL16, logLuv32, logLuv24 }
    enum DataFormat { case float, sixteenBit, raw, eightBit }

    let coding: Coding
    let format: DataFormat

    /// Bytes per decoded pixel in `format` (libtiff's pixel_size).
    var pixelBytes: Int {
        switch (coding, format) {
        case (.logL16, .float): return 4
        case (.logL16, .sixteenBit): return 2
        case (.logL16, _): return 1
        case (_, .float): return 12
        case (_, .sixteenBit): return 6
        case (_, .raw): return 4
        case (_, .eightBit): return 3
        }
    }

    /// libtiff's LogL16GuessDataFmt / LogLuvGuessDataFmt: the format the file's own BitsPerSample,
    /// SampleFormat and SamplesPerPixel describe, or nil (libtiff: "No support for converting user
    /// data format").
    static func guessFormat(coding: Coding, bitsPerSample: Int, sampleFormat: Int, samplesPerPixel: Int) -> DataFormat? {
        let integer = sampleFormat == 1 || sampleFormat == 2 || sampleFormat == 4
        let unsignedOrVoid = sampleFormat == 1 || sampleFormat == 4
        if coding == .logL16 {
            guard samplesPerPixel == 1 else { return nil }
            switch bitsPerSample {
            case 32 where sampleFormat == 3: return .float
            case 16 where integer: return .sixteenBit
            case 8 where unsignedOrVoid: return .eightBit
            default: return nil
            }
        }
        var guess: DataFormat?
        switch bitsPerSample {
        case 32 where sampleFormat == 3: guess = .float
        case 32 where integer: guess = .raw
        case 16 where integer: guess = .sixteenBit
        case 8 where unsignedOrVoid: guess = .eightBit
        default: guess = nil
        }
        switch samplesPerPixel {
        case 1: return guess == .raw ? .raw : nil
        case 3: return guess == .raw ? nil : guess
        default: return nil
        }
    }

    /// Decodes `rows` rows of `width` pixels from `data` into `output` (`rows × width ×
    /// pixelBytes` bytes, zeroed by the caller). Returns the bytes written — all of them, or,
    /// when the data runs out ("Not enough data"), the rows before plus what libtiff leaves of
    /// the failing row — and whether every row decoded.
    func decode(_ data: ArraySlice<UInt8>, width: Int, rows: Int, into output: inout [UInt8]) -> (written: Int, succeeded: Bool) {
        var position = data.startIndex
        let rowBytes = width * pixelBytes
        var codes = [UInt32](repeating: 0, count: width)
        for row in 0..<rows {
            let rowStart = row * rowBytes
            let (complete, decoded) = decodeRow(data, from: &position, into: &codes)
            // libtiff converts only a complete row; with .sixteenBit (LogL) or .raw it decodes in
            // place, so a failing row keeps what was decoded (zeroed first, except SGILog24).
            if complete {
                convert(codes, into: &output, at: rowStart)
            } else {
                if format == .raw || (format == .sixteenBit && coding == .logL16) {
                    let kept = coding == .logLuv24 ? decoded : width
                    convert(Array(codes.prefix(kept)), into: &output, at: rowStart)
                    return (rowStart + kept * pixelBytes, false)
                }
                return (rowStart, false)
            }
        }
        return (rows * rowBytes, true)
    }

    /// One row of codes (L16 in the low 16 bits, or the 32/24-bit Luv word). False when the data
    /// ran out; `decoded` counts the pixels SGILog24 filled before that.
    private func decodeRow(_ data: ArraySlice<UInt8>, from position: inout Int, into codes: inout [UInt32]) -> (Bool, decoded: Int) {
        let width = codes.count
        var remaining = data.endIndex - position
        if coding == .logLuv24 {
            var i = 0
            while i < width && remaining >= 3 {
                codes[i] = UInt32(data[position]) << 16 | UInt32(data[position + 1]) << 8 | UInt32(data[position + 2])
                position += 3
                remaining -= 3
                i += 1
            }
            return (i == width, i)
        }
        for i in 0..<width { codes[i] = 0 }
        let shifts: [UInt32] = coding == .logL16 ? [8, 0] : [24, 16, 8, 0]
        for shift in shifts {
            var i = 0
            while i < width && remaining > 0 {
                let control = Int(data[position])
                if control >= 128 {
                    // A run: needs its value byte too.
                    if remaining < 2 { break }
                    var count = control + 2 - 128
                    let value = UInt32(data[position + 1]) << shift
                    position += 2
                    remaining -= 2
                    while count > 0 && i < width { codes[i] |= value; i += 1; count -= 1 }
                } else {
                    // Literals: libtiff counts the control byte with its first decrement, and stops
                    // on the data's end, the count, or the row's end, in that order.
                    var count = control
                    position += 1
                    while true {
                        remaining -= 1
                        if remaining == 0 { break }
                        let left = count
                        count -= 1
                        if left == 0 || i >= width { break }
                        codes[i] |= UInt32(data[position]) << shift
                        i += 1
                        position += 1
                    }
                }
            }
            if i != width { return (false, 0) }
        }
        return (true, width)
    }

    /// The row's codes in the data format, big-endian, at byte `start` of `output`.
    private func convert(_ codes: [UInt32], into output: inout [UInt8], at start: Int) {
        var o = start
        func put16(_ v: UInt16) { output[o] = UInt8(v >> 8); output[o + 1] = UInt8(v & 0xFF); o += 2 }
        func put32(_ v: UInt32) { for k in 0..<4 { output[o + k] = UInt8(truncatingIfNeeded: v >> UInt32(24 - 8 * k)) }; o += 4 }
        for code in codes {
            switch (coding, format) {
            case (.logL16, .sixteenBit):
                put16(UInt16(truncatingIfNeeded: code))
            case (.logL16, .float):
                put32(Float(SGILogColor.luminance16(Int16(truncatingIfNeeded: code))).bitPattern)
            case (.logL16, _):
                output[o] = SGILogColor.gamma2Byte(SGILogColor.luminance16(Int16(truncatingIfNeeded: code)))
                o += 1
            case (_, .raw):
                put32(code)
            case (_, .float):
                let xyz = coding == .logLuv32 ? SGILogColor.xyz32(code) : SGILogColor.xyz24(code)
                for v in xyz { put32(v.bitPattern) }
            case (_, .sixteenBit):
                for v in coding == .logLuv32 ? SGILogColor.luv48From32(code) : SGILogColor.luv48From24(code) {
                    put16(UInt16(bitPattern: v))
                }
            case (_, .eightBit):
                let xyz = coding == .logLuv32 ? SGILogColor.xyz32(code) : SGILogColor.xyz24(code)
                for byte in SGILogColor.rgb24(xyz) { output[o] = byte; o += 1 }
            }
        }
    }
}
