/// Lists a WebP file's chunks (RFC 9649 §2) with offsets and decoded fields, for
/// `pureimage inspect`. Reads structure only; stops, with a note, where the file stops making
/// sense.
enum WebPInspector {
    static func walk(_ bytes: [UInt8]) -> [InspectionEntry] {
        var entries: [InspectionEntry] = []
        guard bytes.count >= 12 else {
            entries.append(InspectionEntry(offset: 0, name: "end", detail: "file ends inside the RIFF header (\(bytes.count) bytes)"))
            return entries
        }
        let riffSize = WebPChunks.le32(bytes, 4)
        let riffEnd = 8 + riffSize
        entries.append(InspectionEntry(offset: 0, name: "RIFF", detail: "size=\(riffSize) form=WEBP" +
                                       (riffEnd > bytes.count ? " (file is \(riffEnd - bytes.count) bytes short)" :
                                        riffEnd < bytes.count ? " (\(bytes.count - riffEnd) bytes after the RIFF end)" : "")))
        walkChunks(bytes, from: 12, to: min(riffEnd, bytes.count), level: 1, into: &entries)
        return entries
    }

    private static func walkChunks(_ bytes: [UInt8], from start: Int, to end: Int, level: Int, into entries: inout [InspectionEntry]) {
        var at = start
        while at < end {
            guard end - at >= 8 else {
                entries.append(InspectionEntry(offset: at, name: "end", detail: "\(end - at) bytes left, too few for a chunk header", level: level))
                return
            }
            let fourCC = WebPChunks.fourCC(bytes[at ..< at + 4])
            let size = WebPChunks.le32(bytes, at + 4)
            let payload = at + 8
            let available = min(size, max(0, end - payload))
            var detail = "size=\(size)" + (available < size ? " (only \(available) bytes present)" : "")
            let body = Array(bytes[payload ..< payload + available])
            switch fourCC {
            case "VP8X" where body.count >= 10:
                let vp8x = WebPVP8X(payload: body)
                let names = [(WebPVP8X.iccFlag, "ICC"), (WebPVP8X.alphaFlag, "alpha"), (WebPVP8X.exifFlag, "EXIF"),
                             (WebPVP8X.xmpFlag, "XMP"), (WebPVP8X.animationFlag, "animation")]
                let flags = names.filter { vp8x.flags & $0.0 != 0 }.map(\.1)
                detail += " canvas=\(vp8x.canvasWidth)x\(vp8x.canvasHeight) flags=0x\(hex2(vp8x.flags)) [\(flags.joined(separator: " "))]"
            case "VP8 ":
                if let header = try? VP8FrameHeader(parsing: body, chunkSize: size) {
                    detail += " key frame \(header.width)x\(header.height) version=\(header.profile) firstPartition=\(header.firstPartitionSize)"
                } else {
                    detail += " (frame header not readable)"
                }
            case "VP8L":
                if body.count >= VP8LHeader.size, let header = try? VP8LHeader(parsing: body) {
                    detail += " \(header.width)x\(header.height) alphaIsUsed=\(header.alphaIsUsed)"
                } else {
                    detail += " (header not readable)"
                }
            case "ALPH" where !body.isEmpty:
                let b = body[0]
                detail += " compression=\(b & 3) filter=\((b >> 2) & 3) preprocessing=\((b >> 4) & 3)"
            case "ANIM" where body.count >= 6:
                let info = WebPAnimationInfo(payload: body)
                detail += " background=0x\(String(info.backgroundColor, radix: 16, uppercase: true)) loops=\(info.loopCount)\(info.loopCount == 0 ? " (forever)" : "")"
            case "ANMF" where body.count >= 16:
                let frame = WebPFrameHeader(payload: body[0..<16])
                detail += " \(frame.width)x\(frame.height) at (\(frame.x),\(frame.y)) duration=\(frame.duration)ms " +
                          "blend=\(frame.blends ? "alpha" : "none") dispose=\(frame.disposesToBackground ? "background" : "none")"
            default:
                break
            }
            entries.append(InspectionEntry(offset: at, name: fourCC, detail: detail, level: level))
            if fourCC == "ANMF" && available >= 16 {
                walkChunks(bytes, from: payload + 16, to: payload + available, level: level + 1, into: &entries)
            }
            if available < size { return }
            at = payload + size + (size & 1)
        }
    }
}
