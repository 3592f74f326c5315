/// Every way a GIF can fail to decode (thrown, or — after the first complete frame — recorded
/// as the warning that ended the stream), plus the LZW problems met while rendering a frame
/// (always warnings: the frame keeps the pixels decoded before the problem). Each case cites
/// the section of the GIF89a specification it enforces.
public enum GIFError: DecodeErrorReason, Hashable {
    /// GIF89a §17 Header: the first three bytes must be "GIF".
    case badSignature(found: [UInt8])
    /// GIF89a §20 Image Descriptor / §23: no Image Descriptor before the Trailer (§27). With a
    /// canvas of some pixels only a warning: the file shows as its empty canvas, as in
    /// browsers; thrown when the canvas has none (giflib: `D_GIF_ERR_NO_IMAG_DSCR`).
    case noImage
    /// GIF89a §15, §27: a block must start with 0x21 (Extension), 0x2C (Image Separator) or
    /// 0x3B (Trailer).
    case unknownBlock(introducer: UInt8)
    /// GIF89a §22 Table Based Image Data and Appendix F: "LZW Minimum Code Size" — the spec
    /// allows 2...8; we accept 0...11 as Chromium and Firefox do (giflib stops at 8); at 12 and
    /// above the first codes would already be wider than the 12-bit maximum.
    case invalidMinimumCodeSize(Int)
    /// The input ended inside the named part of the file (GIF89a §15: every block is complete
    /// up to its Block Terminator).
    case truncated(inside: String)

    // LZW problems (Appendix F), reported as warnings by the frame renderer.

    /// Appendix F: a code above the next free table slot (or a non-literal first code after a
    /// Clear code). Browsers stop the frame here; giflib reports `D_GIF_ERR_IMAGE_DEFECT` in
    /// most such streams.
    case invalidCode(code: Int, frame: Int)
    /// Appendix F: the End of Information code arrived before the frame's pixels were all
    /// decoded. giflib: `D_GIF_ERR_EOF_TOO_SOON`.
    case earlyEndCode(frame: Int, pixelsMissing: Int)
    /// §22 / §16: the frame's data sub-blocks ended (Block Terminator) before every pixel was
    /// decoded. giflib: `D_GIF_ERR_IMAGE_DEFECT`.
    case dataEndedEarly(frame: Int, pixelsMissing: Int)

    public var description: String {
        switch self {
        case .badSignature(let found):
            return "bad signature \(found.map { hex2($0) }.joined(separator: " ")) (expected 47 49 46 = \"GIF\")"
        case .noImage: return "no image descriptor before the trailer"
        case .unknownBlock(let introducer): return "unknown block introducer 0x\(hex2(introducer))"
        case .invalidMinimumCodeSize(let size): return "LZW minimum code size \(size) (at most 11)"
        case .truncated(let inside): return "input ends inside \(inside)"
        case .invalidCode(let code, let frame): return "frame \(frame): invalid LZW code \(code); the rest of the frame is transparent"
        case .earlyEndCode(let frame, let missing): return "frame \(frame): LZW end code with \(missing) pixels missing (left transparent)"
        case .dataEndedEarly(let frame, let missing): return "frame \(frame): image data ended with \(missing) pixels missing (left transparent)"
        }
    }
}
