import PureImage

extension Bitmap {
    /// The pixel bytes without row padding (conversions choose padded rows by default).
    var tightBytes: [UInt8] { tightlyPacked().bytes }
}
