/// The planar and bitmap stages (STYLE.md item 12): IDCT from the `CoefficientStore` into one
/// sample plane per component (lossless scans write their samples into the planes directly),
/// then upsampling and colour conversion into output rows as soon as every component has the
/// sample rows an output row needs. Output rows therefore appear in bands of MCU rows while a
/// single-scan file is still arriving (`rowsDone`).
///
/// `Kernels` holds what depends on the sample size: 8-bit samples (`EightBitSamples`, the
/// vectorised kernels) or 16-bit ones (`TwelveBitSamples`: 12-bit lossy, and lossless
/// precisions above 8). Output rows hold samples of that size, 16-bit ones in host byte order.
final class JPEGRenderer<Kernels: JPEGSampleKernels> {
    typealias Sample = Kernels.Sample
    let geometry: FrameGeometry
    let transform: JPEGColorTransform
    /// Adobe files store inverted CMYK; with this set the native bitmap holds `maximum` − x so
    /// that 0 means no ink (`ColorModel.cmyk`). See Docs/JPEG.md "CMYK".
    let invertCMYK: Bool
    /// The largest sample value, 2^P − 1 (255, 4095, or a lossless precision's).
    let maximum: Sample
    let channels: Int
    /// Bytes per output row.
    let rowBytes: Int
    /// Set when the output rows are 4-byte RGB pixels (`FourByteRGB`) rather than the
    /// transform's samples; only for 8-bit samples and the gray and RGB transforms (`FourByteRGB.writes`).
    let fourByte: FourByteRGB?

    // Set once in init: `let`, so that reading them takes no dynamic exclusivity check (a
    // `var` array of a class is checked on every access the optimizer cannot prove safe, and
    // `upsampleRow` reads four of them per component per output row).
    private let planes: [UnsafeMutablePointer<Sample>]
    private let planeStrides: [Int]
    private let planeRows: [Int]
    /// Per component: how many sample rows from the top are reconstructed.
    private(set) var rowsReady: [Int]
    /// Per component: the dequantization multipliers, zero until latched (`JPEGQuantTable`).
    private let quant: [UnsafeMutablePointer<Int32>]
    private let upsampled: [UnsafeMutablePointer<Sample>]
    private let workspace: UnsafeMutablePointer<Int32>
    /// h2v2 fancy upsampling's column sums, one row of the widest component.
    private let columnSums: UnsafeMutablePointer<UInt16>
    private let budget: MemoryBudget
    /// Planes and scratch rows (reserved at creation) and the output (reserved when allocated).
    private let reservedBytes: Int

    /// Output pixels, `rowBytes` per row. Allocated when the first row is emitted (a file cut
    /// before its pixel data, or a header probe, never touches memory for it), and not zeroed:
    /// `emitRows` writes every row before `rowsDone` passes it, and `pixels` zeroes the rows
    /// not yet written before it hands the buffer out, so no byte is read before it is written
    /// (a zero fill of the whole image, then overwritten, cost ≈ 5 % of a 6 MP decode). In
    /// streaming mode (`rowSink` set at creation) it holds one row, reused for every row.
    private var output: [UInt8] = []
    private let outputBytes: Int
    /// Whether the rows ≥ `rowsDone` of `output` hold zeros (they stay so: `emitRows` only
    /// writes rows below the new `rowsDone`).
    private var tailZeroed = false

    /// The output, full size; the rows not yet emitted are zero samples (as 4-byte pixels:
    /// black with the fourth byte 255).
    var pixels: [UInt8] {
        guard rowSink == nil else { return output }
        guard !output.isEmpty else {
            var blank = [UInt8](repeating: 0, count: outputBytes)
            fillOpaque(&blank, from: 0)
            return blank
        }
        if !tailZeroed {
            tailZeroed = true
            // Bound: rowsDone ≤ outputHeight, and outputBytes = outputHeight × rowBytes.
            let written = rowsDone * rowBytes
            if written < output.count {
                output.withUnsafeMutableBytes { _ = $0[written...].initializeMemory(as: UInt8.self, repeating: 0) }
                fillOpaque(&output, from: written)
            }
        }
        return output
    }

    /// Rows not decoded are zero samples; as 4-byte pixels that is black with the fourth byte
    /// 255, what converting zero RGB rows gives. Bound: `start` is a row boundary, so pixels
    /// start at multiples of 4 up to `bytes.count`.
    private func fillOpaque(_ bytes: inout [UInt8], from start: Int) {
        guard let fourByte else { return }
        let fill = fourByte.order == .rgbx || fourByte.order == .bgrx ? 3 : 0
        for pixel in stride(from: start, to: bytes.count, by: 4) { bytes[pixel + fill] = 255 }
    }
    /// Streaming mode (the downscaler): each finished output row is handed here, top to bottom,
    /// and the full-size output is never allocated.
    let rowSink: ((UnsafeBufferPointer<UInt8>) -> Void)?
    private(set) var rowsDone = 0
    /// Raw mode (libjpeg's `raw_data_out`, for TIFF's old-style JPEG): every sample row of every
    /// component, as the IDCT writes it — `widthInBlocks × blockSize` samples, the padding of
    /// partial blocks included — before any upsampling: (component, row, samples).
    var rawRowSink: ((Int, Int, UnsafeRawBufferPointer) -> Void)?

    /// Sample rows held per component: a ring of three MCU rows (`ringRows[c]`, a multiple of
    /// the block size; the whole component when it is shorter), as MCU rows are reconstructed
    /// top to bottom. Output row y reads at
    /// most one sample row above the MCU row being finished (h1v2/h2v2 context), and rows are
    /// emitted as soon as they are ready, so three MCU rows never wrap onto a row still needed.
    private let ringRows: [Int]

    /// `ringMCURows`: per component, the sample rows of one MCU row (the planes are rings of
    /// three of them). Callers reconstruct MCU rows in order, each followed by `emitRows()`.
    init(geometry: FrameGeometry, transform: JPEGColorTransform, invertCMYK: Bool, maximum: Sample, ringMCURows: [Int],
         budget: MemoryBudget, fourByte: FourByteRGB? = nil, rowSink: ((UnsafeBufferPointer<UInt8>) -> Void)? = nil) throws(DecodeError) {
        let limits = budget.limits
        let sampleBytes = MemoryLayout<Sample>.size
        self.geometry = geometry
        self.rowSink = rowSink
        self.transform = transform
        self.invertCMYK = invertCMYK
        self.maximum = maximum
        // 4-byte pixels only from 8-bit gray or RGB (the colour converter writes bytes).
        let fourByte = sampleBytes == 1 && FourByteRGB.writes(transform) ? fourByte : nil
        self.fourByte = fourByte
        channels = fourByte == nil ? transform.channels : 4
        rowBytes = geometry.outputWidth * channels * sampleBytes
        outputBytes = try SizeMath.checkImage(width: geometry.outputWidth, height: geometry.outputHeight, bytesPerPixel: channels * sampleBytes,
                                              limits: limits, format: .jpeg, offset: nil)
        var planeBytes = 0
        var ringRows: [Int] = []
        for (c, component) in geometry.components.enumerated() {
            let size = component.scaledBlockSize
            let full = component.heightInBlocks * size
            let rows = min(full, 3 * ringMCURows[c])
            ringRows.append(rows)
            let bytes = try SizeMath.allocationSize(component.widthInBlocks * size, rows, sampleBytes, limits: limits, format: .jpeg, offset: nil)
            planeBytes += bytes
            _ = try SizeMath.allocationSize(planeBytes, 1, limits: limits, format: .jpeg, offset: nil)
        }
        // Planes, upsampled rows and column sums; nothing is allocated before this succeeds (a
        // throwing initializer does not run deinit, so allocating first would leak).
        let widest = geometry.components.map(\.sampleWidth).max() ?? 0
        let scratchBytes = geometry.components.reduce(0) { $0 + (max(geometry.outputWidth, $1.sampleWidth * geometry.maxH) + 16) * sampleBytes }
            + 2 * widest
        // The output is allocated when the first row is emitted, but counted now: it is what a
        // decode that gets that far will hold.
        let heldOutput = rowSink == nil ? outputBytes : rowBytes
        try budget.reserve(planeBytes + scratchBytes + heldOutput, format: .jpeg, offset: nil)
        self.budget = budget
        reservedBytes = planeBytes + scratchBytes + heldOutput
        self.ringRows = ringRows
        workspace = .allocate(capacity: 128)
        rowsReady = [Int](repeating: 0, count: geometry.components.count)
        columnSums = .allocate(capacity: max(1, widest))
        columnSums.initialize(repeating: 0, count: max(1, widest))
        var planes: [UnsafeMutablePointer<Sample>] = [], planeStrides: [Int] = [], planeRows: [Int] = []
        var quant: [UnsafeMutablePointer<Int32>] = [], upsampled: [UnsafeMutablePointer<Sample>] = []
        for (c, component) in geometry.components.enumerated() {
            let size = component.scaledBlockSize
            let stride = component.widthInBlocks * size
            let rows = ringRows[c]
            let plane = UnsafeMutablePointer<Sample>.allocate(capacity: max(1, stride * rows))
            plane.initialize(repeating: 0, count: max(1, stride * rows))
            planes.append(plane)
            planeStrides.append(stride)
            planeRows.append(rows)
            let table = UnsafeMutablePointer<Int32>.allocate(capacity: JPEGQuantTable.capacity)
            table.initialize(repeating: 0, count: JPEGQuantTable.capacity)
            quant.append(table)
            // Upsampled rows: 2 × samples for the fancy filters, h × samples when replicating;
            // never less than the output width.
            let expanded = max(geometry.outputWidth, component.sampleWidth * geometry.maxH) + 16
            let row = UnsafeMutablePointer<Sample>.allocate(capacity: expanded)
            row.initialize(repeating: 0, count: expanded)
            upsampled.append(row)
        }
        (self.planes, self.planeStrides, self.planeRows, self.quant, self.upsampled) = (planes, planeStrides, planeRows, quant, upsampled)
    }

    deinit {
        for plane in planes { plane.deallocate() }
        for table in quant { table.deallocate() }
        for row in upsampled { row.deallocate() }
        workspace.deallocate()
        columnSums.deallocate()
        budget.release(reservedBytes)
    }

    /// Latches a quantization table for a component (natural order), as the IDCT multipliers
    /// `Kernels.multiplier` makes of it.
    func setQuantization(component c: Int, _ values: [UInt16]) {
        for k in 0..<64 { JPEGQuantTable.set(quant[c], k, Kernels.multiplier(values[k])) }
    }

    /// Lossless scans: line `row` (0 ≤ row < sampleHeight, in order) of component `c`,
    /// `count` ≤ sampleWidth reconstructed values before the point transform, stored as
    /// `value << pointTransform` cut to the sample size (libjpeg-turbo keeps the low 8 or 16
    /// bits) into the ring of planes, and marked ready for `emitRows`.
    func storeLosslessRow(component c: Int, row: Int, values: UnsafePointer<Int32>, count: Int, pointTransform: Int) {
        // Bound: the plane's lines hold `planeStrides[c]` = sampleWidth samples (data unit 1).
        let out = planes[c] + (row % planeRows[c]) * planeStrides[c]
        // A masking shift: the point transform is below the precision (≤ 16), checked at the SOS.
        for x in 0..<min(count, planeStrides[c]) { out[x] = Sample(truncatingIfNeeded: values[x] &<< Int32(truncatingIfNeeded: pointTransform)) }
        rowsReady[c] = max(rowsReady[c], min(geometry.components[c].sampleHeight, row + 1))
    }

    /// Every component's lines count as ready (multi-scan lossless images at their end).
    func markAllReady() {
        for (c, component) in geometry.components.enumerated() { rowsReady[c] = max(rowsReady[c], component.sampleHeight) }
    }

    var isComplete: Bool { rowsDone == geometry.outputHeight }

    /// IDCT of block rows `blockRows` of component `c` (clamped to the component's real
    /// blocks; dummy blocks of partial MCUs are never reconstructed, as in libjpeg). With
    /// `smoothing`, each block goes through `BlockSmoothing` first (progressive files).
    func reconstruct(component c: Int, from store: CoefficientStore, blockRows: Range<Int>, smoothing: BlockSmoothing? = nil) {
        let component = geometry.components[c]
        let size = component.scaledBlockSize
        let stride = planeStrides[c]
        let plane = store.planes[c]
        let lower = max(0, blockRows.lowerBound), upper = min(component.heightInBlocks, blockRows.upperBound)
        guard lower < upper else { return }
        let kernel = Kernels.idct(blockSize: size)
        for by in lower..<upper {
            // Bound: by < heightInBlocks and bx < widthInBlocks, so the block's `size` rows
            // of `size` samples lie inside the plane (stride = widthInBlocks × size,
            // rows = heightInBlocks × size); bx < paddedWidth keeps the store access valid.
            // Ring: ringRows is a multiple of `size`, so a block never straddles the wrap.
            let rowBase = planes[c] + ((by * size) % planeRows[c]) * stride
            if let smoothing {
                let table = quant[c], work = workspace
                smoothing.smoothRow(by) { bx, block in kernel(block, table, rowBase + bx * size, stride, work) }
                handRawRows(component: c, blockRow: by, rowBase: rowBase)
                continue
            }
            // The row's blocks are consecutive in the plane (x < widthInBlocks ≤ blocksPerRow).
            Kernels.idctRow(blockSize: size, plane.block(x: 0, y: by), count: component.widthInBlocks, quant[c], rowBase,
                            stride: stride, workspace: workspace)
            handRawRows(component: c, blockRow: by, rowBase: rowBase)
        }
        rowsReady[c] = max(rowsReady[c], min(component.sampleHeight, upper * size))
    }

    /// Raw mode: the block row's sample rows to `rawRowSink` (each lies inside the plane row at
    /// `rowBase`, `widthInBlocks × size` samples of `stride`).
    private func handRawRows(component c: Int, blockRow by: Int, rowBase: UnsafeMutablePointer<Sample>) {
        guard let rawRowSink else { return }
        let size = geometry.components[c].scaledBlockSize
        let count = geometry.components[c].widthInBlocks * size * MemoryLayout<Sample>.stride
        for r in 0..<size {
            rawRowSink(c, by * size + r, UnsafeRawBufferPointer(start: rowBase + r * planeStrides[c], count: count))
        }
    }

    /// Converts every output row whose inputs are ready. Returns the number of new rows.
    @discardableResult
    func emitRows() -> Int {
        let start = rowsDone
        let width = geometry.outputWidth
        var rowPointers = [UnsafePointer<Sample>](repeating: UnsafePointer(upsampled[0]), count: geometry.components.count)
        if output.isEmpty {
            // Uninitialised on purpose (see `output`): every byte is written before it is read.
            let count = rowSink == nil ? outputBytes : rowBytes
            output = PixelMemory.uninitialized(count: count)
        }
        let samplesPerRow = width * channels
        while rowsDone < geometry.outputHeight {
            let y = rowsDone
            var ready = true
            for c in 0..<geometry.components.count where geometry.lastSampleRow(component: c, outputRow: y) >= rowsReady[c] {
                ready = false
            }
            guard ready else { break }
            for c in 0..<geometry.components.count {
                rowPointers[c] = upsampleRow(component: c, outputRow: y)
            }
            let rowOffset = rowSink == nil ? y * samplesPerRow : 0
            output.withUnsafeMutableBytes { output in
                // The output's bytes hold `Sample`s, viewed as such for this row only (rows are
                // whole samples, so a UInt16 row starts 2-byte aligned).
                guard let base = output.baseAddress else { return }
                base.withMemoryRebound(to: Sample.self, capacity: output.count / MemoryLayout<Sample>.size) { out in
                    // Bound: row y < outputHeight, `samplesPerRow` samples at y × samplesPerRow
                    // (or at 0 in the one-row buffer of a row sink).
                    let destination = out + rowOffset
                    if let fourByte {
                        // Set only for 8-bit samples (see init): the samples are bytes.
                        func bytes(_ row: UnsafePointer<Sample>) -> UnsafePointer<UInt8> { UnsafeRawPointer(row).assumingMemoryBound(to: UInt8.self) }
                        // Gray has one row: it is passed as R, G and B (gray → RGB replicates).
                        let last = rowPointers.count - 1
                        ColorConversionKernels.toFourBytes(fourByte.order, from: transform, bytes(rowPointers[0]),
                                                           bytes(rowPointers[min(1, last)]), bytes(rowPointers[min(2, last)]), width: width,
                                                           UnsafeMutableRawPointer(destination).assumingMemoryBound(to: UInt8.self))
                        return
                    }
                    switch transform {
                    case .gray:
                        destination.update(from: rowPointers[0], count: width)
                    case .rgb, .cmyk:
                        ColorConversionKernels.interleave(rowPointers, width: width, destination)
                    case .yccToRGB:
                        Kernels.yccToRGB(rowPointers[0], rowPointers[1], rowPointers[2], width: width, destination)
                    case .ycckToCMYK:
                        Kernels.ycckToCMYK(rowPointers[0], rowPointers[1], rowPointers[2], rowPointers[3], width: width, destination)
                    }
                    if invertCMYK {
                        for i in 0..<samplesPerRow { destination[i] = maximum &- destination[i] }
                    }
                }
            }
            if let rowSink {
                output.withUnsafeBufferPointer { rowSink(UnsafeBufferPointer(rebasing: $0.prefix(rowBytes))) }
            }
            rowsDone += 1
        }
        return rowsDone - start
    }

    /// Component `c`'s samples for output row `y`, at output resolution (≥ outputWidth samples).
    private func upsampleRow(component c: Int, outputRow y: Int) -> UnsafePointer<Sample> {
        let component = geometry.components[c]
        let stride = planeStrides[c]
        let plane = planes[c]
        let last = component.sampleHeight - 1
        // Bound: every row index is clamped to 0…sampleHeight − 1, then wrapped into the ring.
        let held = planeRows[c]
        func row(_ index: Int) -> UnsafePointer<Sample> { UnsafePointer(plane + (min(max(index, 0), last) % held) * stride) }
        let out = upsampled[c]
        switch component.upsampling {
        case .fullsize:
            return row(y)
        case .h2v1Fancy:
            Kernels.h2v1Fancy(row(y), width: component.sampleWidth, out)
        case .h1v2Fancy:
            let near = y >> 1
            let upper = y & 1 == 0
            Kernels.h1v2Fancy(near: row(near), far: row(upper ? near - 1 : near + 1), width: component.sampleWidth,
                              bias: upper ? 1 : 2, out)
        case .h2v2Fancy:
            let near = y >> 1
            Kernels.h2v2Fancy(near: row(near), far: row(y & 1 == 0 ? near - 1 : near + 1), width: component.sampleWidth,
                              sums: columnSums, out)
        case .replicate(let h, let v):
            if h == 1 { return row(y / v) }
            UpsamplingKernels.replicate(row(y / v), width: component.sampleWidth, factor: h, out)
        }
        return UnsafePointer(out)
    }
}

/// A component's dequantization table as the renderer keeps it: the 64 multipliers in natural
/// order as Int32 (what every IDCT kernel reads), followed by the same 64 narrowed to Int16
/// (what `IDCTLaneKernels` multiplies its 16-bit lanes by, loaded eight at a time; narrowing
/// them in the kernel cost five instructions per row of every block).
enum JPEGQuantTable {
    /// In Int32 units: 64 + 64 / 2.
    static let capacity = 96

    static func set(_ table: UnsafeMutablePointer<Int32>, _ k: Int, _ multiplier: Int32) {
        table[k] = multiplier
        UnsafeMutableRawPointer(table + 64).storeBytes(of: Int16(truncatingIfNeeded: multiplier), toByteOffset: 2 * k, as: Int16.self)
    }

    /// The Int16 copy of `table`.
    @inline(__always) static func narrowed(_ table: UnsafePointer<Int32>) -> UnsafeRawPointer { UnsafeRawPointer(table + 64) }
}
