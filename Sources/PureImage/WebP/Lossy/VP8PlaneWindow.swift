/// The part of the Y, U and V planes a VP8 decode still needs: the macroblock row being rebuilt
/// and filtered, and above it the last `rowsAbove` rows of the row before (libwebp keeps the
/// same kind of cache, not whole planes).
///
/// ```
///   window row 0 … 7     last 8 luma (chroma) rows of macroblock row r − 1
///   window row 8 …       macroblock row r: 16 luma rows (8 chroma rows)
/// ```
/// Why 8 rows above are enough: the loop filter of row r reads 4 rows above its top edge and
/// moves 3. After row r − 1, rows are converted to RGBA up to where the filter of row r can no
/// longer change them and fancy upsampling has the chroma row below: luma rows below 16r − 7
/// and chroma rows below 8r − 4 have been converted (`VP8Decoder.finishedLumaRows`, the
/// chroma lag of `WebPLossyCodec.emitFinishedRows`), so the conversion after row r starts at
/// luma row 16r − 7 or later and reads chroma rows from 8r − 4 on — all inside the window.
/// `VP8ColorKernels.convertRows` checks it.
///
/// Whole planes would cost 1.5 bytes per pixel of memory that is written once and read once;
/// the window stays in cache (3 × 24 rows of 16 × 188 bytes for a 3000-pixel-wide image).
struct VP8PlaneWindow {
    static let rowsAbove = 8
    static let lumaRows = rowsAbove + 16
    static let chromaRows = rowsAbove + 8

    let lumaStride: Int
    let chromaStride: Int
    var y: [UInt8]
    var u: [UInt8]
    var v: [UInt8]
    /// The image rows held at window row 0 (negative while macroblock row 0 is the current one).
    private(set) var firstLumaRow = -rowsAbove
    private(set) var firstChromaRow = -rowsAbove

    init(mbWidth: Int) {
        lumaStride = mbWidth * 16
        chromaStride = mbWidth * 8
        y = [UInt8](repeating: 0, count: lumaStride * Self.lumaRows)
        u = [UInt8](repeating: 0, count: chromaStride * Self.chromaRows)
        v = u
    }

    /// Where the current macroblock row starts in `y`, and in `u` and `v`.
    var lumaStart: Int { Self.rowsAbove * lumaStride }
    var chromaStart: Int { Self.rowsAbove * chromaStride }

    /// Before the next macroblock row is rebuilt: the last `rowsAbove` rows of the current one
    /// move to the top of the window.
    mutating func advance() {
        let lumaKept = Self.rowsAbove * lumaStride, chromaKept = Self.rowsAbove * chromaStride
        Self.moveTail(&y, count: lumaKept)
        Self.moveTail(&u, count: chromaKept)
        Self.moveTail(&v, count: chromaKept)
        firstLumaRow += 16
        firstChromaRow += 8
    }

    private static func moveTail(_ plane: inout [UInt8], count: Int) {
        plane.withUnsafeMutableBufferPointer { p in
            guard let base = p.baseAddress, count <= p.count else { return }
            // The source (the last `count` bytes) and the destination (the first) do not overlap:
            // the window is at least twice `count`.
            base.update(from: base + (p.count - count), count: count)
        }
    }
}
