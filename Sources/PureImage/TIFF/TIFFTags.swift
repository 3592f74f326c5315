/// The tags this decoder reads or names, with the TIFF 6.0 section defining each.
enum TIFFTag {
    static let newSubfileType = 254          // §8
    static let subfileType = 255             // §8
    static let imageWidth = 256              // §8
    static let imageLength = 257             // §8
    static let bitsPerSample = 258           // §8
    static let compression = 259             // §8
    static let photometric = 262             // §8
    static let fillOrder = 266               // §8
    static let stripOffsets = 273            // §8
    static let orientation = 274             // §8
    static let samplesPerPixel = 277         // §8
    static let rowsPerStrip = 278            // §8
    static let stripByteCounts = 279         // §8
    static let planarConfiguration = 284     // §8
    static let t4Options = 292               // §11
    static let t6Options = 293               // §11
    static let predictor = 317               // §14
    static let whitePoint = 318              // §20
    static let colorMap = 320                // §8
    static let tileWidth = 322               // §15
    static let tileLength = 323              // §15
    static let tileOffsets = 324             // §15
    static let tileByteCounts = 325          // §15
    static let inkSet = 332                  // §16
    static let extraSamples = 338            // §8
    static let sampleFormat = 339            // §19
    static let jpegTables = 347              // Technical Note 2
    static let ycbcrCoefficients = 529       // §21
    static let ycbcrSubsampling = 530        // §21
    static let ycbcrPositioning = 531        // §21
    static let referenceBlackWhite = 532     // §20
    static let dataType = 32996              // SGI, before SampleFormat

    /// Names for `pureimage inspect` (TIFF 6.0 Appendix A, plus common private tags).
    static func name(_ tag: Int) -> String {
        switch tag {
        case 254: return "NewSubfileType"
        case 255: return "SubfileType"
        case 256: return "ImageWidth"
        case 257: return "ImageLength"
        case 258: return "BitsPerSample"
        case 259: return "Compression"
        case 262: return "PhotometricInterpretation"
        case 263: return "Threshholding"
        case 264: return "CellWidth"
        case 265: return "CellLength"
        case 266: return "FillOrder"
        case 269: return "DocumentName"
        case 270: return "ImageDescription"
        case 271: return "Make"
        case 272: return "Model"
        case 273: return "StripOffsets"
        case 274: return "Orientation"
        case 277: return "SamplesPerPixel"
        case 278: return "RowsPerStrip"
        case 279: return "StripByteCounts"
        case 280: return "MinSampleValue"
        case 281: return "MaxSampleValue"
        case 282: return "XResolution"
        case 283: return "YResolution"
        case 284: return "PlanarConfiguration"
        case 285: return "PageName"
        case 286: return "XPosition"
        case 287: return "YPosition"
        case 290: return "GrayResponseUnit"
        case 291: return "GrayResponseCurve"
        case 292: return "T4Options"
        case 293: return "T6Options"
        case 296: return "ResolutionUnit"
        case 297: return "PageNumber"
        case 301: return "TransferFunction"
        case 305: return "Software"
        case 306: return "DateTime"
        case 315: return "Artist"
        case 316: return "HostComputer"
        case 317: return "Predictor"
        case 318: return "WhitePoint"
        case 319: return "PrimaryChromaticities"
        case 320: return "ColorMap"
        case 321: return "HalftoneHints"
        case 322: return "TileWidth"
        case 323: return "TileLength"
        case 324: return "TileOffsets"
        case 325: return "TileByteCounts"
        case 330: return "SubIFDs"
        case 332: return "InkSet"
        case 333: return "InkNames"
        case 334: return "NumberOfInks"
        case 336: return "DotRange"
        case 337: return "TargetPrinter"
        case 338: return "ExtraSamples"
        case 339: return "SampleFormat"
        case 340: return "SMinSampleValue"
        case 341: return "SMaxSampleValue"
        case 342: return "TransferRange"
        case 347: return "JPEGTables"
        case 512: return "JPEGProc"
        case 513: return "JPEGInterchangeFormat"
        case 514: return "JPEGInterchangeFormatLength"
        case 515: return "JPEGRestartInterval"
        case 517: return "JPEGLosslessPredictors"
        case 518: return "JPEGPointTransforms"
        case 519: return "JPEGQTables"
        case 520: return "JPEGDCTables"
        case 521: return "JPEGACTables"
        case 529: return "YCbCrCoefficients"
        case 530: return "YCbCrSubSampling"
        case 531: return "YCbCrPositioning"
        case 532: return "ReferenceBlackWhite"
        case 700: return "XMP"
        case 33432: return "Copyright"
        case 33723: return "IPTC"
        case 34377: return "Photoshop"
        case 326: return "BadFaxLines"
        case 327: return "CleanFaxData"
        case 328: return "ConsecutiveBadFaxLines"
        case 32996: return "DataType (SGI)"
        case 65560: return "SGILogDataFmt"
        case 34665: return "ExifIFD"
        case 34675: return "ICCProfile"
        case 34853: return "GPSIFD"
        default: return "tag\(tag)"
        }
    }

    /// Compression names (§8, Technical Notes, libtiff's registry).
    static func compressionName(_ code: Int) -> String {
        switch code {
        case 1: return "none"
        case 2: return "CCITT RLE"
        case 3: return "CCITT Group 3 fax"
        case 4: return "CCITT Group 4 fax"
        case 5: return "LZW"
        case 6: return "old-style JPEG"
        case 7: return "JPEG"
        case 8, 32946: return "Deflate"
        case 32766: return "NeXT 2-bit"
        case 32771: return "CCITT RLEW"
        case 32773: return "PackBits"
        case 32809: return "ThunderScan"
        case 32908, 32909: return "PixarLog"
        case 34661: return "JBIG"
        case 34676: return "SGI LogLuv"
        case 34677: return "SGI LogLuv 24"
        case 34712: return "JPEG 2000"
        case 34887: return "LERC"
        case 34925: return "LZMA"
        case 50000: return "Zstandard"
        case 50001: return "WebP"
        case 52546: return "JPEG XL"
        default: return "unknown"
        }
    }

    /// PhotometricInterpretation values (§8, Technical Notes, libtiff's registry).
    static let photometricNames = [0: "WhiteIsZero", 1: "BlackIsZero", 2: "RGB", 3: "palette", 4: "transparency mask",
                                   5: "separated (CMYK)", 6: "YCbCr", 8: "CIELab", 9: "ICCLab", 10: "ITULab",
                                   32844: "LogL", 32845: "LogLuv"]

    static func photometricName(_ code: Int) -> String { photometricNames[code] ?? "unknown (\(code))" }

    /// What an enumerated or bit-field value means, for `pureimage inspect` (nil when nothing to add).
    static func meaning(_ tag: Int, _ value: Int) -> String? {
        switch tag {
        case 259: return compressionName(value)
        case 262: return photometricNames[value]
        case 266: return value == 2 ? "least significant bit first" : (value == 1 ? "most significant bit first" : nil)
        case 284: return value == 2 ? "separate planes" : (value == 1 ? "contiguous" : nil)
        case 292, 293:
            // T4Options: bit 0 2-D coding, bit 1 uncompressed mode, bit 2 fill bits; T6Options: bit 1.
            var bits: [String] = []
            if tag == 292 && value & 1 != 0 { bits.append("2-D coding") }
            if value & 2 != 0 { bits.append("uncompressed mode allowed") }
            if tag == 292 && value & 4 != 0 { bits.append("fill bits before EOLs") }
            return bits.isEmpty ? (tag == 292 ? "1-D coding" : nil) : bits.joined(separator: ", ")
        case 317: return [1: "none", 2: "horizontal differencing", 3: "floating point"][value]
        case 339: return [1: "unsigned integer", 2: "signed integer", 3: "IEEE float", 4: "undefined", 5: "complex integer", 6: "complex float"][value]
        case 512: return [1: "baseline sequential", 14: "lossless"][value]
        default: return nil
        }
    }
}
