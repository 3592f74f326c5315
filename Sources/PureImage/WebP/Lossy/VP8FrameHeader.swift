/// RFC 6386 §9.1 — the uncompressed data chunk at the start of a VP8 key frame (10 bytes).
///
/// ```
///   bytes 0-2: frame tag, little-endian 24 bits:
///     bit 0 key_frame (0 = key frame), bits 1-3 version, bit 4 show_frame,
///     bits 5-23 first_part_size
///   bytes 3-5: start code 9D 01 2A
///   bytes 6-7: width (14 bits) | horizontal scale (2 bits)
///   bytes 8-9: height (14 bits) | vertical scale (2 bits)
/// ```
/// The checks are libwebp's (`VP8GetInfo`, `VP8GetHeaders`): a key frame, version ≤ 3, shown,
/// non-zero size, and a first partition shorter than the chunk. The scale bits are ignored
/// (libwebp does not upscale).
struct VP8FrameHeader: Equatable {
    static let size = 10
    var width: Int
    var height: Int
    var profile: Int
    var firstPartitionSize: Int

    /// `chunkSize` is the VP8 chunk's declared payload size (the bytes may still be arriving).
    init(parsing bytes: [UInt8], chunkSize: Int) throws(WebPCodecFailure) {
        guard bytes.count >= Self.size else {
            throw WebPCodecFailure(reason: .truncated(inside: "the VP8 frame header"), payloadOffset: bytes.count, kind: .truncated)
        }
        let tag = WebPChunks.le24(bytes, 0)
        guard tag & 1 == 0 else { throw WebPCodecFailure(reason: .vp8NotKeyFrame, payloadOffset: 0) }
        profile = (tag >> 1) & 7
        guard profile <= 3 else { throw WebPCodecFailure(reason: .vp8Profile(profile), payloadOffset: 0) }
        guard (tag >> 4) & 1 == 1 else { throw WebPCodecFailure(reason: .vp8NotShown, payloadOffset: 0) }
        firstPartitionSize = tag >> 5
        guard bytes[3] == 0x9D, bytes[4] == 0x01, bytes[5] == 0x2A else {
            throw WebPCodecFailure(reason: .vp8StartCode(Array(bytes[3..<6])), payloadOffset: 3)
        }
        width = WebPChunks.le16(bytes, 6) & 0x3FFF
        height = WebPChunks.le16(bytes, 8) & 0x3FFF
        guard width > 0, height > 0 else { throw WebPCodecFailure(reason: .vp8ZeroSize, payloadOffset: 6) }
        // libwebp (VP8GetInfo): "partition_length >= chunk_size" is inconsistent size information.
        guard firstPartitionSize < chunkSize else {
            throw WebPCodecFailure(reason: .vp8FirstPartitionSize(size: firstPartitionSize, available: chunkSize), payloadOffset: 0)
        }
    }
}
