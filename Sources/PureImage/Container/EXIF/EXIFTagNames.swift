/// ImageIO's names for EXIF tags: the `kCGImagePropertyTIFF…`, `kCGImagePropertyExif…` and
/// `kCGImagePropertyGPS…` keys without their prefix (so `kCGImagePropertyExifFocalLenIn35mmFilm`
/// is "FocalLenIn35mmFilm", and ImageIO's own spelling "Differental" is kept). Tag numbers from
/// TIFF 6.0 and Exif 2.32 (CIPA DC-008) §4.6.
enum EXIFTagNames {
    static func name(_ tag: Int, in directory: EXIFDirectory) -> String? {
        switch directory {
        case .tiff, .thumbnail: return tiff[tag]
        case .exif: return exif[tag]
        case .gps: return gps[tag]
        case .interoperability: return nil
        }
    }

    /// IFD0 / IFD1 (TIFF 6.0 tags ImageIO puts in `{TIFF}`).
    static let tiff: [Int: String] = [
        259: "Compression", 262: "PhotometricInterpretation", 269: "DocumentName", 270: "ImageDescription",
        271: "Make", 272: "Model", 274: "Orientation", 282: "XResolution", 283: "YResolution", 296: "ResolutionUnit",
        301: "TransferFunction", 305: "Software", 306: "DateTime", 315: "Artist", 316: "HostComputer",
        318: "WhitePoint", 319: "PrimaryChromaticities", 322: "TileWidth", 323: "TileLength", 33432: "Copyright",
    ]

    /// The Exif IFD (Exif 2.32 §4.6.5).
    static let exif: [Int: String] = [
        33434: "ExposureTime", 33437: "FNumber", 34850: "ExposureProgram", 34852: "SpectralSensitivity",
        34855: "ISOSpeedRatings", 34856: "OECF", 34864: "SensitivityType", 34865: "StandardOutputSensitivity",
        34866: "RecommendedExposureIndex", 34867: "ISOSpeed", 34868: "ISOSpeedLatitudeyyy", 34869: "ISOSpeedLatitudezzz",
        36864: "ExifVersion", 36867: "DateTimeOriginal", 36868: "DateTimeDigitized",
        36880: "OffsetTime", 36881: "OffsetTimeOriginal", 36882: "OffsetTimeDigitized",
        37121: "ComponentsConfiguration", 37122: "CompressedBitsPerPixel", 37377: "ShutterSpeedValue",
        37378: "ApertureValue", 37379: "BrightnessValue", 37380: "ExposureBiasValue", 37381: "MaxApertureValue",
        37382: "SubjectDistance", 37383: "MeteringMode", 37384: "LightSource", 37385: "Flash", 37386: "FocalLength",
        37396: "SubjectArea", 37500: "MakerNote", 37510: "UserComment", 37520: "SubsecTime",
        37521: "SubsecTimeOriginal", 37522: "SubsecTimeDigitized", 40960: "FlashPixVersion", 40961: "ColorSpace",
        40962: "PixelXDimension", 40963: "PixelYDimension", 40964: "RelatedSoundFile", 41483: "FlashEnergy",
        41484: "SpatialFrequencyResponse", 41486: "FocalPlaneXResolution", 41487: "FocalPlaneYResolution",
        41488: "FocalPlaneResolutionUnit", 41492: "SubjectLocation", 41493: "ExposureIndex", 41495: "SensingMethod",
        41728: "FileSource", 41729: "SceneType", 41730: "CFAPattern", 41985: "CustomRendered", 41986: "ExposureMode",
        41987: "WhiteBalance", 41988: "DigitalZoomRatio", 41989: "FocalLenIn35mmFilm", 41990: "SceneCaptureType",
        41991: "GainControl", 41992: "Contrast", 41993: "Saturation", 41994: "Sharpness",
        41995: "DeviceSettingDescription", 41996: "SubjectDistRange", 42016: "ImageUniqueID", 42032: "CameraOwnerName",
        42033: "BodySerialNumber", 42034: "LensSpecification", 42035: "LensMake", 42036: "LensModel",
        42037: "LensSerialNumber", 42240: "Gamma",
    ]

    /// The GPS IFD (Exif 2.32 §4.6.6).
    static let gps: [Int: String] = [
        0: "Version", 1: "LatitudeRef", 2: "Latitude", 3: "LongitudeRef", 4: "Longitude", 5: "AltitudeRef",
        6: "Altitude", 7: "TimeStamp", 8: "Satellites", 9: "Status", 10: "MeasureMode", 11: "DOP", 12: "SpeedRef",
        13: "Speed", 14: "TrackRef", 15: "Track", 16: "ImgDirectionRef", 17: "ImgDirection", 18: "MapDatum",
        19: "DestLatRef", 20: "DestLat", 21: "DestLongRef", 22: "DestLong", 23: "DestBearingRef", 24: "DestBearing",
        25: "DestDistanceRef", 26: "DestDistance", 27: "ProcessingMethod", 28: "AreaInformation", 29: "DateStamp",
        30: "Differental", 31: "HPositioningError",
    ]
}
