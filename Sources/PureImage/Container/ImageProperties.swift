/// What is known about an image without looking at its pixels — the role of
/// `CGImageSourceCopyPropertiesAtIndex`.
public struct ImageProperties: Sendable {
    /// The container format.
    public var format: ImageFormat
    /// Width in pixels as stored (before orientation); for an animation, the canvas width.
    public var width: Int
    /// Height in pixels as stored (before orientation); for an animation, the canvas height.
    public var height: Int
    /// Frames (animation frames or TIFF pages) known so far; 1 for a still image.
    public var frameCount: Int
    /// The EXIF (or TIFF) orientation; `.up` when the file states none.
    public var orientation: Orientation
    /// The colour model of the decoder's native output (before any requested conversion).
    public var colorModel: ColorModel
    /// Bits per component as stored in the file (1, 2, 4, 8, 16).
    public var bitsPerComponent: Int
    /// True when the image can have transparent pixels (alpha channel, tRNS, transparent index).
    public var hasAlpha: Bool
    /// JPEG: a progressive (SOF2) frame.
    public var isProgressive: Bool
    /// PNG Adam7 or GIF interlaced (first frame).
    public var isInterlaced: Bool
    /// Animations: times to play, 0 = forever; nil when the file says nothing (play once).
    public var loopCount: Int?
    /// Every animation frame: timing, placement, disposal and blending (empty for stills).
    public var frames: [FrameProperties]
    /// Raw EXIF block (TIFF structure, starting at the byte-order mark), when present.
    public var exif: [UInt8]?
    /// The EXIF tags as typed values, named as ImageIO names them: from the EXIF block (JPEG
    /// APP1, PNG eXIf, WebP EXIF), or for TIFF from the file's own IFD0 and its Exif and GPS IFDs.
    public var exifMetadata: EXIFMetadata?
    /// ICC profile bytes, when present (PNG iCCP decompressed, JPEG APP2 reassembled).
    public var iccProfile: [UInt8]?
    /// The ICC profile's own description (its 'desc' tag, ICC.1 §9.2.41), when it has one.
    public var iccProfileDescription: String? { iccProfile.flatMap(ICCProfileDescription.read) }
    /// PNG: gamma, chromaticities, sRGB intent, significant bits, background, pixel density,
    /// modification time (all chunks the file has; empty for other formats).
    public var png: PNGProperties
    /// JPEG: the JFIF APP0 segment, when present.
    public var jfif: JFIFProperties?
    /// Textual metadata in file order (PNG tEXt/zTXt/iTXt, JPEG COM, GIF comments).
    public var text: [TextEntry]
    /// Further format-specific facts as name/value pairs in a stable order (e.g. PNG gAMA).
    public var extra: [(key: String, value: String)]

    /// Properties with the given basics: one frame, `.up`, no metadata.
    public init(format: ImageFormat, width: Int, height: Int, colorModel: ColorModel, bitsPerComponent: Int, hasAlpha: Bool) {
        self.format = format
        self.width = width
        self.height = height
        self.frameCount = 1
        self.orientation = .up
        self.colorModel = colorModel
        self.bitsPerComponent = bitsPerComponent
        self.hasAlpha = hasAlpha
        self.isProgressive = false
        self.isInterlaced = false
        self.loopCount = nil
        self.frames = []
        self.exif = nil
        self.exifMetadata = nil
        self.png = PNGProperties()
        self.jfif = nil
        self.iccProfile = nil
        self.text = []
        self.extra = []
    }
}

/// One textual metadata item: a PNG text chunk, a JPEG COM segment, a GIF comment or WebP XMP.
public struct TextEntry: Sendable, Hashable {
    /// PNG: the chunk's keyword (e.g. "Title"); otherwise "comment" (JPEG), "Comment" (GIF) or "XMP" (WebP).
    public var keyword: String
    /// The text, decompressed and decoded (PNG tEXt/zTXt as Latin-1, iTXt as UTF-8).
    public var text: String
    /// Creates an entry.
    public init(keyword: String, text: String) {
        self.keyword = keyword
        self.text = text
    }
}

/// One animation frame as its container describes it (GIF image descriptor and graphic control
/// extension, APNG fcTL, WebP ANMF) — known without decoding its pixels.
public struct FrameProperties: Sendable, Hashable {
    /// What happens to the frame's rectangle before the next frame is drawn.
    public enum Disposal: String, Sendable, Hashable {
        /// Left in place (GIF 0 and 1, APNG `none`, WebP "do not dispose").
        case none
        /// Cleared to transparent (GIF 2 as browsers and ImageIO read it, APNG `background`,
        /// WebP "dispose to background").
        case background
        /// Restored to the canvas as it was before the frame (GIF 3 and 4, APNG `previous`).
        case previous
    }

    /// How the frame's pixels meet the canvas.
    public enum Blend: String, Sendable, Hashable {
        /// Replace the rectangle, transparency included (APNG `source`, WebP "do not blend").
        case source
        /// Alpha-composite over the canvas (APNG `over`, WebP blending; GIF: transparent pixels
        /// leave the canvas as it is).
        case over
    }

    /// The delay as the file states it, in seconds (GIF hundredths, APNG fractions, WebP ms).
    public var delay: Double
    /// The delay used for playback: browsers and SDWebImage treat a delay below 0.011 s
    /// (including 0) as 0.1 s.
    public var duration: Double { delay < 0.011 ? 0.1 : delay }
    /// The frame's rectangle on the canvas.
    public var x: Int
    /// The rectangle's top edge, in pixels from the canvas top (`x` is its left edge).
    public var y: Int
    /// The rectangle's width in pixels.
    public var width: Int
    /// The rectangle's height in pixels.
    public var height: Int
    /// What happens to the rectangle after this frame is shown.
    public var disposal: Disposal
    /// How the frame is drawn onto the canvas.
    public var blend: Blend
    /// Whether the frame itself can have transparent pixels (GIF transparent index, APNG colour
    /// type or tRNS, WebP alpha).
    public var hasAlpha: Bool

    /// Creates a frame description; `delay` in seconds, the rectangle empty at the origin by default.
    public init(delay: Double, x: Int = 0, y: Int = 0, width: Int = 0, height: Int = 0,
                disposal: Disposal = .none, blend: Blend = .over, hasAlpha: Bool = false) {
        self.delay = delay
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.disposal = disposal
        self.blend = blend
        self.hasAlpha = hasAlpha
    }
}
