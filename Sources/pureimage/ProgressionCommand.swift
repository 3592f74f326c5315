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
        // Each partial image is drawn into its cell band by band as its rows are converted
        // (`partialImageRows`), so the command holds the decoder's own partial image and one
        // band of RGBA8 rows at a time — no RGBA8 copy of the whole image, none kept per tile.
        var sheet = ContactSheet(tiles: chosen.count)
        var drawn = 0
        for update in 0..<updates {
            let end = min(bytes.count, (update + 1) * chunkSize)
            source.append(bytes[(update * chunkSize)..<end], final: end == bytes.count)
            if chosen.contains(update) {
                _ = try source.partialImageRows(output: .format(.rgba8)) { band in sheet.draw(band, inCell: drawn) }
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

    /// Draws a band of a tile's RGBA8 rows into cell `index`, "over" the checkerboard with
    /// their straight alpha: the cell's rows whose nearest-neighbour source row is in the band.
    mutating func draw(_ band: RowBand, inCell index: Int) {
        let rows = band.rows.tightlyPacked()
        let tileWidth = rows.width, tileHeight = band.frameHeight
        guard tileWidth > 0, tileHeight > 0, rows.format.bitsPerPixel == 32 else { return }
        let cell = Self.cell, gap = Self.gap
        // Shrink large images to fit; enlarge small ones (up to 8×) so their progress is visible.
        let scale = min(Double(cell) / Double(tileWidth), Double(cell) / Double(tileHeight), 8)
        let w = max(1, Int(Double(tileWidth) * scale)), h = max(1, Int(Double(tileHeight) * scale))
        let left = gap + (index % columns) * (cell + gap), top = gap + (index / columns) * (cell + gap)
        guard top + h <= height, left + w <= width else { return }
        for y in 0..<h {
            let sy = min(tileHeight - 1, Int(Double(y) / scale)) - band.firstRow
            guard sy >= 0, sy < rows.height else { continue }
            for x in 0..<w {
                let sx = min(tileWidth - 1, Int(Double(x) / scale))
                let s = (sy * tileWidth + sx) * 4, d = ((top + y) * width + left + x) * 4
                let a = Int(rows.bytes[s + 3])
                for c in 0..<3 {
                    pixels[d + c] = UInt8((Int(rows.bytes[s + c]) * a + Int(pixels[d + c]) * (255 - a) + 127) / 255)
                }
            }
        }
    }

    func bitmap() throws -> Bitmap {
        try Bitmap(width: width, height: height, format: .rgba8, bytes: pixels)
    }
}
