/// What the WebP decoder records for `pureimage inspect` (`StructureLog`): the RIFF header and
/// each chunk (RFC 9649 §2) at its offset with its decoded fields, the chunks inside ANMF
/// frames one level down.
enum WebPInspector {
    /// §2.4 the RIFF header, against the file's real size.
    static func describeRIFF(size: Int, fileSize: Int) -> String {
        let riffEnd = 8 + size
        return "size=\(size) form=WEBP" + (riffEnd > fileSize ? " (file is \(riffEnd - fileSize) bytes short)" :
                                          riffEnd < fileSize ? " (\(fileSize - riffEnd) bytes after the RIFF end)" : "")
    }

    /// A chunk's header: its size, and how much of it the file holds.
    static func describeHeader(size: Int, available: Int) -> String {
        "size=\(size)" + (available < size ? " (only \(max(0, available)) bytes present)" : "")
    }

    /// The fields of a chunk whose payload starts with `body` (declared size `size`).
    static func describe(_ fourCC: String, _ body: [UInt8], size: Int) -> String {
        var text = ""
        switch fourCC {
        case "VP8X" where body.count >= 10:
            let vp8x = WebPVP8X(payload: body)
            let names = [(WebPVP8X.iccFlag, "ICC"), (WebPVP8X.alphaFlag, "alpha"), (WebPVP8X.exifFlag, "EXIF"),
                         (WebPVP8X.xmpFlag, "XMP"), (WebPVP8X.animationFlag, "animation")]
            let flags = names.filter { vp8x.flags & $0.0 != 0 }.map(\.1)
            text += " canvas=\(vp8x.canvasWidth)x\(vp8x.canvasHeight) flags=0x\(hex2(vp8x.flags)) [\(flags.joined(separator: " "))]"
        case "VP8 ":
            if let header = try? VP8FrameHeader(parsing: body, chunkSize: size) {
                text += " key frame \(header.width)x\(header.height) version=\(header.profile) firstPartition=\(header.firstPartitionSize)"
            } else {
                text += " (frame header not readable)"
            }
        case "VP8L":
            if body.count >= VP8LHeader.size, let header = try? VP8LHeader(parsing: body) {
                text += " \(header.width)x\(header.height) alphaIsUsed=\(header.alphaIsUsed)"
            } else {
                text += " (header not readable)"
            }
        case "ALPH" where !body.isEmpty:
            let b = body[0]
            text += " compression=\(b & 3) filter=\((b >> 2) & 3) preprocessing=\((b >> 4) & 3)"
        case "ANIM" where body.count >= 6:
            let info = WebPAnimationInfo(payload: body)
            text += " background=0x\(String(info.backgroundColor, radix: 16, uppercase: true)) loops=\(info.loopCount)\(info.loopCount == 0 ? " (forever)" : "")"
        case "ANMF" where body.count >= 16:
            let frame = WebPFrameHeader(payload: body[0..<16])
            text += " \(frame.width)x\(frame.height) at (\(frame.x),\(frame.y)) duration=\(frame.duration)ms " +
                    "blend=\(frame.blends ? "alpha" : "none") dispose=\(frame.disposesToBackground ? "background" : "none")"
        default:
            break
        }
        return text.hasPrefix(" ") ? String(text.dropFirst()) : text
    }
}
