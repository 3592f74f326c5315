/// libjpeg-turbo's (jpeg_color_space → out_color_space) pairs we produce.
enum JPEGColorTransform: Equatable {
    case gray       // 1 component: copy
    case rgb        // 3 components stored as RGB (Adobe transform 0, or ids 'R','G','B')
    case yccToRGB   // 3 components YCbCr
    case cmyk       // 4 components stored as CMYK
    case ycckToCMYK // 4 components YCCK (Adobe transform 2)

    /// The colour model of the output rows.
    var colorModel: ColorModel {
        switch self {
        case .gray: return .gray
        case .rgb, .yccToRGB: return .rgb
        case .cmyk, .ycckToCMYK: return .cmyk
        }
    }

    /// Output samples per pixel.
    var channels: Int {
        switch self {
        case .gray: return 1
        case .rgb, .yccToRGB: return 3
        case .cmyk, .ycckToCMYK: return 4
        }
    }

    /// libjpeg's JCS_UNKNOWN → JCS_UNKNOWN (null conversion): every component as decoded,
    /// interleaved, nothing inverted — what libtiff asks for outside YCbCr → RGB.
    static func asStored(componentCount: Int) -> (JPEGColorTransform, Bool, String?) {
        switch componentCount {
        case 1: return (.gray, false, nil)
        case 3: return (.rgb, false, nil)
        default: return (.cmyk, false, nil)
        }
    }

    /// libjpeg-turbo jdapimin.c `default_decompress_parms`: the stored colour space from
    /// the component count, JFIF, the Adobe transform and the component ids. Returns the
    /// transform, whether CMYK is Adobe-inverted, and a warning. Counts other than 1, 3, 4
    /// were refused before. In a lossless frame three components without JFIF or Adobe
    /// markers are RGB whatever their ids (libjpeg-turbo 3: lossless coding is meant to keep
    /// the samples as they are, so it assumes no colour transform).
    static func select(frame: FrameHeader, metadata: JPEGMetadata, lossless: Bool = false) -> (JPEGColorTransform, Bool, String?) {
        switch frame.components.count {
        case 1:
            return (.gray, false, nil)
        case 3:
            if metadata.jfif != nil { return (.yccToRGB, false, nil) }
            if let adobe = metadata.adobeTransform {
                let problem = adobe == 0 || adobe == 1 ? nil : "Unknown Adobe color transform code \(adobe)"
                return (adobe == 0 ? .rgb : .yccToRGB, false, problem)
            }
            return (lossless || frame.components.map(\.id) == [82, 71, 66] ? .rgb : .yccToRGB, false, nil)
        default:
            guard let adobe = metadata.adobeTransform else { return (.cmyk, false, nil) }
            let problem = adobe == 0 || adobe == 2 ? nil : "Unknown Adobe color transform code \(adobe)"
            return (adobe == 0 ? .cmyk : .ycckToCMYK, true, problem)
        }
    }
}
