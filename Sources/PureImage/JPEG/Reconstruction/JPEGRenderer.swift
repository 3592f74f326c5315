/// The planar and bitmap stages (STYLE.md item 12): IDCT from the `CoefficientStore` into one
/// sample plane per component, then upsampling and colour conversion into output rows as soon
/// as every component has the sample rows an output row needs. Output rows therefore appear in
/// bands of MCU rows while a single-scan file is still arriving (`rowsDone`).
final class JPEGRenderer {
    /// libjpeg-turbo's (jpeg_color_space → out_color_space) pairs we produce.
    enum ColorTransform: Equatable {
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
        static func asStored(componentCount: Int) -> (ColorTransform, Bool, String?) {
            switch componentCount {
            case 1: return (.gray, false, nil)
            case 3: return (.rgb, false, nil)
            default: return (.cmyk, false, nil)
            }
        }

        /// libjpeg-turbo jdapimin.c `default_decompress_parms`: the stored colour space from
        /// the component count, JFIF, the Adobe transform and the component ids. Returns the
        /// transform, whether CMYK is Adobe-inverted, and a warning. Counts other than 1, 3, 4
        /// were refused before.
        static func select(frame: FrameHeader, metadata: JPEGMetadata) -> (ColorTransform, Bool, String?) {
            switch frame.components.count {
            case 1:
                return (.gray, false, nil)
            case 3:
                if metadata.jfif != nil { return (.yccToRGB, false, nil) }
                if let adobe = metadata.adobeTransform {
                    let problem = adobe == 0 || adobe == 1 ? nil : "Unknown Adobe color transform code \(adobe)"
                    return (adobe == 0 ? .rgb : .yccToRGB, false, problem)
                }
                return (frame.components.map(\.id) == [82, 71, 66] ? .rgb : .yccToRGB, false, nil)
            default:
                guard let adobe = metadata.adobeTransform else { return (.cmyk, false, nil) }
                let problem = adobe == 0 || adobe == 2 ? nil : "Unknown Adobe color transform code \(adobe)"
                return (adobe == 0 ? .cmyk : .ycckToCMYK, true, problem)
            }
        }
    }

    let geometry: FrameGeometry
    let transform: ColorTransform
    /// Adobe files store inverted CMYK; with this set the native bitmap holds 255 − x so that
    /// 0 means no ink (`ColorModel.cmyk`). See Docs/JPEG.md "CMYK".
    let invertCMYK: Bool
    let channels: Int

    private var planes: [UnsafeMutablePointer<UInt8>] = []
    private var planeStrides: [Int] = []
    private var planeRows: [Int] = []
    /// Per component: how many sample rows from the top are reconstructed.
    private(set) var rowsReady: [Int]
    /// Per component: the 64 dequantization multipliers (natural order), zero until latched.
    private var quant: [UnsafeMutablePointer<Int32>] = []
    private var upsampled: [UnsafeMutablePointer<UInt8>] = []
    private let workspace: UnsafeMutablePointer<Int32>
    /// h2v2 fancy upsampling's column sums, one row of the widest component.
    private let columnSums: UnsafeMutablePointer<UInt16>
    private let budget: MemoryBudget
    /// Planes and scratch rows (reserved at creation) and the output (reserved when allocated).
    private var reservedBytes = 0

    /// Output pixels, `outputWidth × channels` bytes per row; rows ≥ `rowsDone` are zero.
    /// Allocated when the first row is emitted (a file cut before its pixel data, or a header
    /// probe, never touches memory for it). In streaming mode (`rowSink` set at creation) it
    /// holds one row, reused for every row.
    private var output: [UInt8] = []
    private let outputBytes: Int

    /// The output, full size (zero rows when nothing has been emitted yet).
    var pixels: [UInt8] { output.isEmpty && rowSink == nil ? [UInt8](repeating: 0, count: outputBytes) : output }
    /// Streaming mode (the downscaler): each finished output row is handed here, top to bottom,
    /// and the full-size output is never allocated.
    let rowSink: ((UnsafeBufferPointer<UInt8>) -> Void)?
    private(set) var rowsDone = 0

    /// Sample rows held per component: a ring of three MCU rows (`ringRows[c]`, a multiple of
    /// the block size; the whole component when it is shorter), as MCU rows are reconstructed
    /// top to bottom. Output row y reads at
    /// most one sample row above the MCU row being finished (h1v2/h2v2 context), and rows are
    /// emitted as soon as they are ready, so three MCU rows never wrap onto a row still needed.
    private var ringRows: [Int] = []

    /// `ringMCURows`: per component, the sample rows of one MCU row (the planes are rings of
    /// three of them). Callers reconstruct MCU rows in order, each followed by `emitRows()`.
    init(geometry: FrameGeometry, transform: ColorTransform, invertCMYK: Bool, ringMCURows: [Int], budget: MemoryBudget,
         rowSink: ((UnsafeBufferPointer<UInt8>) -> Void)? = nil) throws(DecodeError) {
        let limits = budget.limits
        self.geometry = geometry
        self.rowSink = rowSink
        self.transform = transform
        self.invertCMYK = invertCMYK
        channels = transform.channels
        outputBytes = try SizeMath.checkImage(width: geometry.outputWidth, height: geometry.outputHeight, bytesPerPixel: channels,
                                              limits: limits, format: .jpeg, offset: nil)
        var planeBytes = 0
        for (c, component) in geometry.components.enumerated() {
            let size = component.scaledBlockSize
            let full = component.heightInBlocks * size
            let rows = min(full, 3 * ringMCURows[c])
            ringRows.append(rows)
            let bytes = try SizeMath.allocationSize(component.widthInBlocks * size, rows, limits: limits, format: .jpeg, offset: nil)
            planeBytes += bytes
            _ = try SizeMath.allocationSize(planeBytes, 1, limits: limits, format: .jpeg, offset: nil)
        }
        // Planes, upsampled rows and column sums; nothing is allocated before this succeeds (a
        // throwing initializer does not run deinit, so allocating first would leak).
        let widest = geometry.components.map(\.sampleWidth).max() ?? 0
        let scratchBytes = geometry.components.reduce(0) { $0 + max(geometry.outputWidth, $1.sampleWidth * geometry.maxH) + 16 } + 2 * widest
        // The output is allocated when the first row is emitted, but counted now: it is what a
        // decode that gets that far will hold.
        let heldOutput = rowSink == nil ? outputBytes : geometry.outputWidth * channels
        try budget.reserve(planeBytes + scratchBytes + heldOutput, format: .jpeg, offset: nil)
        self.budget = budget
        reservedBytes = planeBytes + scratchBytes + heldOutput
        workspace = .allocate(capacity: 128)
        rowsReady = [Int](repeating: 0, count: geometry.components.count)
        columnSums = .allocate(capacity: max(1, widest))
        columnSums.initialize(repeating: 0, count: max(1, widest))
        for (c, component) in geometry.components.enumerated() {
            let size = component.scaledBlockSize
            let stride = component.widthInBlocks * size
            let rows = ringRows[c]
            let plane = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, stride * rows))
            plane.initialize(repeating: 0, count: max(1, stride * rows))
            planes.append(plane)
            planeStrides.append(stride)
            planeRows.append(rows)
            let table = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
            table.initialize(repeating: 0, count: 64)
            quant.append(table)
            // Upsampled rows: 2 × samples for the fancy filters, h × samples when replicating;
            // never less than the output width.
            let expanded = max(geometry.outputWidth, component.sampleWidth * geometry.maxH) + 16
            let row = UnsafeMutablePointer<UInt8>.allocate(capacity: expanded)
            row.initialize(repeating: 0, count: expanded)
            upsampled.append(row)
        }
    }

    deinit {
        for plane in planes { plane.deallocate() }
        for table in quant { table.deallocate() }
        for row in upsampled { row.deallocate() }
        workspace.deallocate()
        columnSums.deallocate()
        budget.release(reservedBytes)
    }

    /// Latches a quantization table for a component (natural order). Values are narrowed to
    /// Int16 as libjpeg-turbo's SIMD build stores its `ISLOW_MULT_TYPE` multipliers.
    func setQuantization(component c: Int, _ values: [UInt16]) {
        for k in 0..<64 { quant[c][k] = Int32(Int16(truncatingIfNeeded: values[k])) }
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
        let kernel: (UnsafePointer<Int16>, UnsafePointer<Int32>, UnsafeMutablePointer<UInt8>, Int, UnsafeMutablePointer<Int32>, UnsafePointer<UInt8>) -> Void
        switch size {
        case 8: kernel = { IDCTLaneKernels.islow($0, $1, $2, stride: $3, workspace: $4, range: $5) }
        case 4: kernel = { IDCTKernels.reduced4x4($0, $1, $2, stride: $3, workspace: $4, range: $5) }
        case 2: kernel = { IDCTKernels.reduced2x2($0, $1, $2, stride: $3, workspace: $4, range: $5) }
        default: kernel = { IDCTKernels.reduced1x1($0, $1, $2, stride: $3, workspace: $4, range: $5) }
        }
        IDCTKernels.rangeLimit.withUnsafeBufferPointer { range in
            guard let rangeBase = range.baseAddress else { return }
            for by in lower..<upper {
                // Bound: by < heightInBlocks and bx < widthInBlocks, so the block's `size` rows
                // of `size` samples lie inside the plane (stride = widthInBlocks × size,
                // rows = heightInBlocks × size); bx < paddedWidth keeps the store access valid.
                // Ring: ringRows is a multiple of `size`, so a block never straddles the wrap.
                let rowBase = planes[c] + ((by * size) % planeRows[c]) * stride
                if let smoothing {
                    let table = quant[c], work = workspace
                    smoothing.smoothRow(by) { bx, block in kernel(block, table, rowBase + bx * size, stride, work, rangeBase) }
                    continue
                }
                for bx in 0..<component.widthInBlocks {
                    kernel(plane.block(x: bx, y: by), quant[c], rowBase + bx * size, stride, workspace, rangeBase)
                }
            }
        }
        rowsReady[c] = max(rowsReady[c], min(component.sampleHeight, upper * size))
    }

    /// Converts every output row whose inputs are ready. Returns the number of new rows.
    @discardableResult
    func emitRows() -> Int {
        let start = rowsDone
        let width = geometry.outputWidth
        var rowPointers = [UnsafePointer<UInt8>](repeating: UnsafePointer(upsampled[0]), count: geometry.components.count)
        if output.isEmpty {
            output = [UInt8](repeating: 0, count: rowSink == nil ? outputBytes : geometry.outputWidth * channels)
        }
        output.withUnsafeMutableBufferPointer { output in
            guard let out = output.baseAddress else { return }
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
                // Bound: row y < outputHeight, `width × channels` bytes at y × width × channels.
                let destination = out + (rowSink == nil ? y * width * channels : 0)
                switch transform {
                case .gray:
                    destination.update(from: rowPointers[0], count: width)
                case .rgb, .cmyk:
                    ColorConversionKernels.interleave(rowPointers, width: width, destination)
                case .yccToRGB:
                    ColorConversionKernels.yccToRGB(rowPointers[0], rowPointers[1], rowPointers[2], width: width, destination)
                case .ycckToCMYK:
                    ColorConversionKernels.ycckToCMYK(rowPointers[0], rowPointers[1], rowPointers[2], rowPointers[3], width: width, destination)
                }
                if invertCMYK {
                    for i in 0..<(width * channels) { destination[i] = 255 &- destination[i] }
                }
                rowSink?(UnsafeBufferPointer(start: destination, count: width * channels))
                rowsDone += 1
            }
        }
        return rowsDone - start
    }

    /// Component `c`'s samples for output row `y`, at output resolution (≥ outputWidth samples).
    private func upsampleRow(component c: Int, outputRow y: Int) -> UnsafePointer<UInt8> {
        let component = geometry.components[c]
        let stride = planeStrides[c]
        let plane = planes[c]
        let last = component.sampleHeight - 1
        // Bound: every row index is clamped to 0…sampleHeight − 1, then wrapped into the ring.
        let held = planeRows[c]
        func row(_ index: Int) -> UnsafePointer<UInt8> { UnsafePointer(plane + (min(max(index, 0), last) % held) * stride) }
        let out = upsampled[c]
        switch component.upsampling {
        case .fullsize:
            return row(y)
        case .h2v1Fancy:
            UpsamplingKernels.h2v1Fancy(row(y), width: component.sampleWidth, out)
        case .h1v2Fancy:
            let near = y >> 1
            let upper = y & 1 == 0
            UpsamplingKernels.h1v2Fancy(near: row(near), far: row(upper ? near - 1 : near + 1), width: component.sampleWidth,
                                        bias: upper ? 1 : 2, out)
        case .h2v2Fancy:
            let near = y >> 1
            UpsamplingKernels.h2v2Fancy(near: row(near), far: row(y & 1 == 0 ? near - 1 : near + 1), width: component.sampleWidth,
                                        sums: columnSums, out)
        case .replicate(let h, let v):
            if h == 1 { return row(y / v) }
            UpsamplingKernels.replicate(row(y / v), width: component.sampleWidth, factor: h, out)
        }
        return UnsafePointer(out)
    }
}
