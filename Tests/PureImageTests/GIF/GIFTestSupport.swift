@testable import PureImage
import CReference
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Helpers shared by the GIF tests: running the decoder directly, giflib through CReference,
/// and an independent, deliberately naive reference compositor.
enum GIFTest {
    /// The outcome of running `GIFDecoder` over whole input (closed).
    struct Decoded {
        var decoder: GIFDecoder
        var error: DecodeError?
    }

    static func decode(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) -> Decoded {
        let decoder = GIFDecoder(options: options)
        var input = InputBuffer(bytes, isClosed: true)
        do {
            let progress = try decoder.advance(&input)
            if progress != .finished {
                return Decoded(decoder: decoder, error: DecodeError(.truncated, format: .gif, offset: nil, GIFError.truncated(inside: "test: needMoreInput on closed input")))
            }
            return Decoded(decoder: decoder, error: nil)
        } catch {
            return Decoded(decoder: decoder, error: error)
        }
    }

    /// Feeds `bytes` in pieces of `chunk` bytes, then closes.
    static func decodeIncrementally(_ bytes: [UInt8], chunk: Int) -> Decoded {
        let decoder = GIFDecoder(options: DecodeOptions())
        var input = InputBuffer()
        var position = 0
        do {
            while position < bytes.count {
                let end = min(bytes.count, position + chunk)
                input.append(contentsOf: bytes[position..<end])
                position = end
                _ = try decoder.advance(&input)
                // Partial images while data arrives: every available frame renders.
                for i in 0 ..< decoder.availableFrameCount { _ = try decoder.frame(at: i) }
            }
            input.close()
            _ = try decoder.advance(&input)
            return Decoded(decoder: decoder, error: nil)
        } catch {
            return Decoded(decoder: decoder, error: error)
        }
    }

    /// One of giflib's frames, copied out of `PIRefGIF`.
    struct ReferenceFrame {
        var left, top, width, height: Int
        var disposal: Int
        var transparent: Int?
        var delay: Int
        var palette: [UInt8]   // RGB triples
        var indices: [UInt8]

        /// Pixels through the palette (indices past it: opaque black), transparency as alpha 0
        /// with colour 0 — the rule `GIFDecoder.rawFrame` documents.
        var rgba: [UInt8] {
            var out = [UInt8](repeating: 0, count: width * height * 4)
            for i in 0 ..< width * height { color(indices[i], into: &out, at: i * 4) }
            return out
        }

        func color(_ index: UInt8, into out: inout [UInt8], at p: Int) {
            if let transparent, Int(index) == transparent { out[p] = 0; out[p + 1] = 0; out[p + 2] = 0; out[p + 3] = 0; return }
            let e = Int(index) * 3
            if e + 2 < palette.count {
                out[p] = palette[e]; out[p + 1] = palette[e + 1]; out[p + 2] = palette[e + 2]
            } else {
                out[p] = 0; out[p + 1] = 0; out[p + 2] = 0
            }
            out[p + 3] = 255
        }
    }

    struct Reference {
        var status: Int
        var message: String
        var width: Int
        var height: Int
        var loopCount: Int?
        var frames: [ReferenceFrame]
    }

    /// giflib's view of `bytes` (`pi_ref_gif_decode`).
    static func reference(_ bytes: [UInt8]) -> Reference {
        var gif = PIRefGIF()
        let status = bytes.withUnsafeBufferPointer { pi_ref_gif_decode($0.baseAddress, $0.count, &gif) }
        defer { pi_ref_gif_free(&gif) }
        let message = withUnsafeBytes(of: gif.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        var frames: [ReferenceFrame] = []
        if status >= 0, let base = gif.frames {
            for i in 0 ..< Int(gif.frame_count) {
                let f = base[i]
                let count = Int(f.width) * Int(f.height)
                let indices = f.indices.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [UInt8](repeating: 0, count: count)
                let palette = withUnsafeBytes(of: f.palette) { Array($0.prefix(Int(f.palette_count) * 3)) }
                frames.append(ReferenceFrame(left: Int(f.left), top: Int(f.top), width: Int(f.width), height: Int(f.height),
                                             disposal: Int(f.disposal), transparent: f.transparent_index >= 0 ? Int(f.transparent_index) : nil,
                                             delay: Int(f.delay_cs), palette: palette, indices: indices))
            }
        }
        return Reference(status: Int(status), message: message, width: Int(gif.width), height: Int(gif.height),
                         loopCount: gif.loop_count >= 0 ? Int(gif.loop_count) : nil, frames: frames)
    }

    /// The composition rules of the GIF issue, written the plain way (whole-canvas snapshots
    /// for restore-previous, per-pixel bounds checks): the canvas after each frame.
    static func referenceCanvases(width: Int, height: Int, frames: [ReferenceFrame]) -> [[UInt8]] {
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var results: [[UInt8]] = []
        var previous: ReferenceFrame?
        var snapshot: [UInt8]?
        for frame in frames {
            if let previous {
                switch previous.disposal {
                case 2:
                    for y in previous.top ..< previous.top + previous.height where y < height {
                        for x in previous.left ..< previous.left + previous.width where x < width {
                            for c in 0..<4 { canvas[(y * width + x) * 4 + c] = 0 }
                        }
                    }
                case 3, 4:
                    if let snapshot { canvas = snapshot }
                default: break
                }
            }
            snapshot = (frame.disposal == 3 || frame.disposal == 4) ? canvas : nil
            var pixel = [UInt8](repeating: 0, count: 4)
            for y in 0 ..< frame.height {
                for x in 0 ..< frame.width {
                    let cx = frame.left + x, cy = frame.top + y
                    guard cx < width, cy < height else { continue }
                    let index = frame.indices[y * frame.width + x]
                    if let t = frame.transparent, Int(index) == t { continue }
                    frame.color(index, into: &pixel, at: 0)
                    for c in 0..<4 { canvas[(cy * width + cx) * 4 + c] = pixel[c] }
                }
            }
            results.append(canvas)
            previous = frame
        }
        return results
    }

    /// Every regular file under `root` (recursively), sorted.
    static func files(under root: String) -> [String] {
        var result: [String] = []
        guard let dir = opendir(root) else { return [] }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let path = root + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                result += files(under: path)
            } else if (info.st_mode & S_IFMT) == S_IFREG {
                result.append(path)
            }
        }
        return result.sorted()
    }

    /// The first differing byte of two buffers as a short description, nil when equal.
    static func firstDifference(_ a: [UInt8], _ b: [UInt8], width: Int) -> String? {
        guard a != b else { return nil }
        if a.count != b.count { return "sizes \(a.count) vs \(b.count)" }
        for i in 0 ..< a.count where a[i] != b[i] {
            let pixel = i / 4
            let x = width > 0 ? pixel % width : 0, y = width > 0 ? pixel / width : 0
            let ours = Array(a[pixel * 4 ..< pixel * 4 + 4]), theirs = Array(b[pixel * 4 ..< pixel * 4 + 4])
            let count = stride(from: 0, to: a.count, by: 4).filter { a[$0 ..< $0 + 4] != b[$0 ..< $0 + 4] }.count
            return "pixel (\(x),\(y)) ours \(ours) reference \(theirs); \(count) pixels differ"
        }
        return nil
    }
}
