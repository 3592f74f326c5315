/// APNG acTL: number of frames and plays (0 = loop forever).
struct APNGAnimationControl: Equatable {
    let frameCount: Int
    let playCount: Int

    /// APNG spec, "acTL: The Animation Control Chunk" — 8 bytes; num_frames 0 is invalid.
    init?(parsing data: ArraySlice<UInt8>) {
        let reader = ByteReader(Array(data))
        guard data.count == 8,
              let frames = try? reader.getUInt32(at: 0, .bigEndian),
              let plays = try? reader.getUInt32(at: 4, .bigEndian),
              frames > 0, frames <= 0x7FFF_FFFF, plays <= 0x7FFF_FFFF else { return nil }
        frameCount = Int(frames)
        playCount = Int(plays)
    }
}

/// APNG fcTL: one frame's region, timing and compositing operations.
struct APNGFrameControl: Equatable {
    enum Dispose: UInt8 { case none = 0, background = 1, previous = 2 }
    enum Blend: UInt8 { case source = 0, over = 1 }

    let sequenceNumber: UInt32
    let width: Int, height: Int, x: Int, y: Int
    let delayNumerator: UInt16
    let delayDenominator: UInt16
    var dispose: Dispose
    let blend: Blend

    /// The same frame cut to its first `rows` rows (drawing a frame whose data is still arriving).
    func withHeight(_ rows: Int) -> APNGFrameControl {
        APNGFrameControl(sequenceNumber: sequenceNumber, width: width, height: rows, x: x, y: y,
                         delayNumerator: delayNumerator, delayDenominator: delayDenominator, dispose: dispose, blend: blend)
    }

    /// "If the denominator is 0, it is to be treated as if it were 100."
    var delaySeconds: Double {
        Double(delayNumerator) / Double(delayDenominator == 0 ? 100 : delayDenominator)
    }

    /// APNG spec, "fcTL: The Frame Control Chunk" — 26 bytes. Returns a description of the
    /// broken rule instead when the region is empty or outside the canvas, or an op is unknown.
    static func parse(_ data: ArraySlice<UInt8>, canvasWidth: Int, canvasHeight: Int) -> Result<APNGFrameControl, PNGError> {
        let reader = ByteReader(Array(data))
        guard data.count == 26,
              let sequence = try? reader.getUInt32(at: 0, .bigEndian),
              let width = try? reader.getUInt32(at: 4, .bigEndian),
              let height = try? reader.getUInt32(at: 8, .bigEndian),
              let x = try? reader.getUInt32(at: 12, .bigEndian),
              let y = try? reader.getUInt32(at: 16, .bigEndian),
              let numerator = try? reader.getUInt16(at: 20, .bigEndian),
              let denominator = try? reader.getUInt16(at: 22, .bigEndian),
              let disposeByte = try? reader.getUInt8(at: 24),
              let blendByte = try? reader.getUInt8(at: 25) else {
            return .failure(.animation("fcTL length \(data.count), must be 26"))
        }
        guard width > 0, height > 0,
              UInt64(x) + UInt64(width) <= UInt64(canvasWidth),
              UInt64(y) + UInt64(height) <= UInt64(canvasHeight) else {
            return .failure(.animation("fcTL region \(width)×\(height) at (\(x), \(y)) is empty or outside the \(canvasWidth)×\(canvasHeight) canvas"))
        }
        guard let dispose = Dispose(rawValue: disposeByte) else { return .failure(.animation("fcTL dispose_op \(disposeByte)")) }
        guard let blend = Blend(rawValue: blendByte) else { return .failure(.animation("fcTL blend_op \(blendByte)")) }
        return .success(APNGFrameControl(sequenceNumber: sequence, width: Int(width), height: Int(height), x: Int(x), y: Int(y),
                                         delayNumerator: numerator, delayDenominator: denominator, dispose: dispose, blend: blend))
    }
}
