import CommandLineSupport
import PureImage

/// `pureimage progression FILE --chunk-size N -o SHEET.png [--max-tiles N]`
enum ProgressionCommand {
    static let help = """
    usage: pureimage progression FILE --chunk-size N -o SHEET.png [--max-tiles N]

    Feeds FILE to the incremental decoder N bytes at a time and writes a contact sheet of the
    partial image after each update (left to right, top to bottom; at most --max-tiles tiles,
    default 48, spread evenly over the updates, the last one always included). Area not decoded
    yet is transparent and shows the sheet's checkerboard.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, valued: ["--chunk-size", "-o", "--output", "--max-tiles"], allowedFlags: ["--help", "-h"])
        if parsed.has("--help") || parsed.has("-h") { print(help); return ExitStatus.success }
        guard parsed.positional.count == 1, let path = parsed.positional.first else { throw UsageError(message: "progression takes exactly one FILE") }
        guard let output = parsed.value("-o") ?? parsed.value("--output") else { throw UsageError(message: "progression needs -o SHEET.png") }
        guard let text = parsed.value("--chunk-size"), let chunkSize = Int(text), chunkSize > 0 else {
            throw UsageError(message: "progression needs --chunk-size N (N > 0)")
        }
        let maxTiles = Int(parsed.value("--max-tiles") ?? "48") ?? 48
        guard maxTiles > 0 else { throw UsageError(message: "--max-tiles must be positive") }
        let bytes: [UInt8]
        do { bytes = try ImageFiles.read(path) } catch { return CLI.report(path, error) }

        let updates = max(1, (bytes.count + chunkSize - 1) / chunkSize)
        let chosen = Set((0..<min(maxTiles, updates)).map { i in
            maxTiles >= updates ? i : (updates - 1) * i / max(1, min(maxTiles, updates) - 1)
        })
        let source = IncrementalImageSource()
        // Each partial image is drawn into its cell as soon as it is taken and then dropped, so
        // the command holds one partial image at a time, not one per tile.
        var sheet = ContactSheet(tiles: chosen.count)
        var drawn = 0
        for update in 0..<updates {
            let end = min(bytes.count, (update + 1) * chunkSize)
            source.append(bytes[(update * chunkSize)..<end], final: end == bytes.count)
            if chosen.contains(update) {
                if let partial = source.partialImage(options: ImageDecodingOptions(output: .format(.rgba8))) {
                    sheet.draw(partial, at: drawn)
                }
                drawn += 1
            }
        }
        if source.status == .invalidData, let error = source.error { return CLI.report(path, error) }
        do {
            let image = try sheet.bitmap()
            try FileIO.writeStreaming(to: output) { sink in try ImageWriter.write(image, as: .png, to: sink) }
        } catch {
            printError("pureimage: \(output): cannot write: \(error)")
            return ExitStatus.invalidInput
        }
        print("\(updates) updates of \(chunkSize) bytes, \(drawn) tiles, final status \(source.status)")
        return source.status == .unexpectedEOF ? ExitStatus.truncated : ExitStatus.success
    }
}

/// Lays out RGBA8 tiles on a checkerboard, each scaled (nearest neighbour) to fit 160 × 160, small ones enlarged up to 8×.
struct ContactSheet {
    static let cell = 160, gap = 6
    let columns: Int, width: Int, height: Int
    private var pixels: [UInt8]

    /// A sheet of `tiles` cells, as close to square as the count allows.
    init(tiles: Int) {
        columns = max(1, Int(Double(tiles).squareRoot().rounded(.up)))
        let rows = max(1, (tiles + columns - 1) / columns)
        width = columns * (Self.cell + Self.gap) + Self.gap
        height = rows * (Self.cell + Self.gap) + Self.gap
        pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let shade: UInt8 = ((x / 8) + (y / 8)) % 2 == 0 ? 200 : 232
                let o = (y * width + x) * 4
                pixels[o] = shade; pixels[o + 1] = shade; pixels[o + 2] = shade; pixels[o + 3] = 255
            }
        }
    }

    /// Draws `tile` (RGBA8) into cell `index`, "over" the checkerboard with its straight alpha.
    mutating func draw(_ tile: Bitmap, at index: Int) {
        let tile = tile.tightlyPacked()
        guard tile.width > 0, tile.height > 0, tile.format.bitsPerPixel == 32 else { return }
        let cell = Self.cell, gap = Self.gap
        // Shrink large images to fit; enlarge small ones (up to 8×) so their progress is visible.
        let scale = min(Double(cell) / Double(tile.width), Double(cell) / Double(tile.height), 8)
        let w = max(1, Int(Double(tile.width) * scale)), h = max(1, Int(Double(tile.height) * scale))
        let left = gap + (index % columns) * (cell + gap), top = gap + (index / columns) * (cell + gap)
        guard top + h <= height, left + w <= width else { return }
        for y in 0..<h {
            for x in 0..<w {
                let sx = min(tile.width - 1, Int(Double(x) / scale)), sy = min(tile.height - 1, Int(Double(y) / scale))
                let s = (sy * tile.width + sx) * 4, d = ((top + y) * width + left + x) * 4
                let a = Int(tile.bytes[s + 3])
                for c in 0..<3 {
                    pixels[d + c] = UInt8((Int(tile.bytes[s + c]) * a + Int(pixels[d + c]) * (255 - a) + 127) / 255)
                }
            }
        }
    }

    func bitmap() throws -> Bitmap {
        try Bitmap(width: width, height: height, format: .rgba8, bytes: pixels)
    }
}
