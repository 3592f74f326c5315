/// Every way a JPEG can fail to decode, each case citing the clause of ITU-T T.81 (or the
/// libjpeg-turbo 2.1.5 check) it enforces. `DecodeError.reason` carries one of these; the
/// error's `kind` says which family (malformed, unsupported, truncated, limit) it belongs to.
public enum JPEGError: DecodeErrorReason, Hashable {
    // MARK: Markers (T.81 Annex B)

    /// B.1.1.3 / B.2.1: a JPEG stream starts with SOI (FF D8); libjpeg `JERR_NO_SOI`.
    case missingSOI(found: [UInt8])
    /// A second SOI before EOI; libjpeg `JERR_SOI_DUPLICATE`.
    case duplicateSOI
    /// A second frame header; libjpeg `JERR_SOF_DUPLICATE` (only hierarchical mode has several).
    case duplicateSOF
    /// B.1.1.4: a segment's length field disagrees with its contents; libjpeg `JERR_BAD_LENGTH`.
    case badSegmentLength(marker: UInt8, length: Int)
    /// B.1.1.3: a reserved marker (JPGn, RES, DHP, EXP) libjpeg refuses as `JERR_UNKNOWN_MARKER`.
    case unknownMarker(UInt8)
    /// B.2.2: a frame width or component count of 0 (libjpeg `JERR_EMPTY_IMAGE`; a height
    /// of 0 is defined by DNL, B.2.5), or a height of 0 that no DNL segment defines.
    case emptyImage(width: Int, height: Int, components: Int)
    /// B.2.2 / Table B.2: P is 8 or 12 in a DCT frame (8 only in baseline, which libjpeg-turbo
    /// does not check) and 2…16 in a lossless one; libjpeg `JERR_BAD_PRECISION`.
    case precision(Int)
    /// B.2.2: H_i and V_i shall be 1…4; libjpeg `JERR_BAD_SAMPLING`.
    case badSamplingFactor(component: Int, h: Int, v: Int)
    /// libjpeg-turbo's 65500-pixel limit on each dimension (`JERR_IMAGE_TOO_BIG`).
    case dimensionTooLarge(width: Int, height: Int)
    /// B.2.3: SOS before any SOF; libjpeg `JERR_SOS_NO_SOF`.
    case scanBeforeFrame
    /// B.2.3: C_sj names no frame component, or names one twice; libjpeg `JERR_BAD_COMPONENT_ID`.
    case badScanComponent(id: UInt8)
    /// B.2.3 / libjpeg `JERR_BAD_MCU_SIZE`: an interleaved MCU holds at most 10 blocks.
    case tooManyBlocksInMCU(Int)
    /// A second scan in a file whose first scan held every component; libjpeg
    /// `JERR_EOI_EXPECTED`.
    case unexpectedScan
    /// B.2.4.1: Tq shall be 0…3; libjpeg `JERR_DQT_INDEX`.
    case badQuantizationTableIndex(Int)
    /// A component's quantization table was never defined; libjpeg `JERR_NO_QUANT_TABLE`.
    case missingQuantizationTable(Int)
    /// B.2.4.2: Th shall be 0…3; libjpeg `JERR_DHT_INDEX`.
    case badHuffmanTableIndex(Int)
    /// A scan uses an undefined Huffman table; libjpeg `JERR_NO_HUFF_TABLE`.
    case missingHuffmanTable(Int, isDC: Bool)
    /// Annex C: the code lengths do not form a prefix code, more than 256 codes, or a DC
    /// symbol above 15; libjpeg `JERR_BAD_HUFF_TABLE`.
    case badHuffmanTable(String)
    /// B.2.4.3 (arithmetic conditioning): index or value out of range; libjpeg `JERR_DAC_*`.
    case badArithmeticConditioning(index: Int, value: Int)
    /// No SOS before EOI; libjpeg `JERR_NO_IMAGE`.
    case noImage
    /// G.1.1.1 / B.2.3: progressive scan parameters libjpeg-turbo refuses
    /// (`JERR_BAD_PROGRESSION`): a DC scan with Se ≠ 0; an AC scan with Ss > Se, Se > 63 or
    /// more than one component; Ah ≠ 0 with Al ≠ Ah − 1; Al > 13.
    case badProgression(ss: Int, se: Int, ah: Int, al: Int)
    /// H.1.1 / jdlossls.c `start_pass_lossless`: a lossless scan needs the predictor Ss in
    /// 1…7, Se = 0, Ah = 0 and the point transform Al below P (`JERR_BAD_PROGRESSION`).
    case badLosslessParameters(ss: Int, se: Int, ah: Int, al: Int)
    /// jddiffct.c: a lossless restart interval must be a whole number of MCU rows
    /// (`JERR_BAD_RESTART`).
    case badLosslessRestartInterval(Int, mcusPerRow: Int)
    /// A DC value past the range of a C int in a progressive DC scan (jdphuff.c
    /// `JERR_BAD_DCT_COEF`).
    case dcCoefficientOverflow

    // MARK: Unsupported

    /// SOF5–SOF7, SOF13–SOF15, DHP, EXP: hierarchical (Annex J).
    case hierarchical(sof: UInt8)
    /// SOF55: a JPEG-LS file (ITU-T T.87), another standard; libjpeg-turbo does not decode it either.
    case jpegLS
    /// 2 or more than 4 components: libjpeg-turbo has no colour conversion for them.
    case componentCount(Int)
    /// A ratio between sampling factors that is not a whole number (libjpeg
    /// `JERR_FRACT_SAMPLE_NOTIMPL`), e.g. H 3 beside H 2.
    case fractionalSampling
    /// A lossless YCbCr or YCCK frame of more than 12 bits: no reference arithmetic exists for
    /// its colour conversion (libjpeg-turbo refuses every lossless conversion).
    case losslessColorConversion(precision: Int)
    /// `DecodeOptions.jpegScaleDenominator` other than 1, 2, 4 or 8.
    case scaleDenominator(Int)

    // MARK: Truncation

    /// The input ended inside the named part of the file.
    case truncated(inside: String)

    public var description: String {
        switch self {
        case .missingSOI(let found):
            return "no SOI marker at the start (found \(found.map { hex2($0) }.joined(separator: " ")))"
        case .duplicateSOI: return "a second SOI marker"
        case .duplicateSOF: return "a second SOF marker"
        case .badSegmentLength(let marker, let length): return "marker FF\(hex2(marker)) has a bad length \(length)"
        case .unknownMarker(let marker): return "unsupported marker FF\(hex2(marker))"
        case .emptyImage(let width, let height, let count):
            return "empty image \(width)×\(height) with \(count) components"
        case .badSamplingFactor(let component, let h, let v): return "component \(component) has sampling factors \(h)×\(v)"
        case .dimensionTooLarge(let width, let height): return "\(width)×\(height) exceeds 65500 pixels per side"
        case .scanBeforeFrame: return "SOS before SOF"
        case .badScanComponent(let id): return "scan names component \(id), which is not in the frame or repeated"
        case .tooManyBlocksInMCU(let count): return "an MCU of \(count) blocks (at most 10)"
        case .unexpectedScan: return "a second scan after a scan holding every component"
        case .badQuantizationTableIndex(let index): return "quantization table index \(index)"
        case .missingQuantizationTable(let index): return "quantization table \(index) is not defined"
        case .badHuffmanTableIndex(let index): return "Huffman table index \(index)"
        case .missingHuffmanTable(let index, let isDC): return "\(isDC ? "DC" : "AC") Huffman table \(index) is not defined"
        case .badHuffmanTable(let why): return "bad Huffman table: \(why)"
        case .badArithmeticConditioning(let index, let value): return "bad DAC entry \(index) = \(value)"
        case .noImage: return "the stream contains no image (EOI before SOS)"
        case .badProgression(let ss, let se, let ah, let al): return "invalid progressive parameters Ss=\(ss) Se=\(se) Ah=\(ah) Al=\(al)"
        case .badLosslessParameters(let ss, let se, let ah, let al): return "invalid lossless parameters Ss=\(ss) Se=\(se) Ah=\(ah) Al=\(al)"
        case .losslessColorConversion(let precision): return "YCbCr to RGB conversion of \(precision)-bit lossless samples is not supported"
        case .badLosslessRestartInterval(let interval, let mcusPerRow):
            return "restart interval \(interval) is not a whole number of MCU rows (\(mcusPerRow) MCUs each)"
        case .dcCoefficientOverflow: return "a DC coefficient overflows (progressive DC scan)"
        case .hierarchical(let sof): return "hierarchical JPEG (marker FF\(hex2(sof))) is not supported"
        case .jpegLS: return "JPEG-LS (ITU-T T.87, marker FFF7) is not supported"
        case .precision(let bits): return "\(bits)-bit samples are not allowed (8 or 12 in DCT frames, 2–16 in lossless ones)"
        case .componentCount(let count): return "\(count) components are not supported (1, 3 or 4)"
        case .fractionalSampling: return "fractional sampling-factor ratios are not supported"
        case .scaleDenominator(let value): return "scale denominator \(value) (1, 2, 4 or 8)"
        case .truncated(let inside): return "input ends inside \(inside)"
        }
    }
}
