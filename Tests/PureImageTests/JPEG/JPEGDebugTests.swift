import Foundation
import Testing
@testable import PureImage

@Suite struct JPEGDebugTests {
    @Test func debugFile() throws {
        guard let path = ProcessInfo.processInfo.environment["JPEG_DEBUG_FILE"], let bytes = JPEGTestSupport.read(path) else { return }
        let scale = Int(ProcessInfo.processInfo.environment["JPEG_DEBUG_SCALE"] ?? "1") ?? 1
        let reference = JPEGTestSupport.reference(bytes, scale: scale)
        guard case .success(let ours) = JPEGTestSupport.decode(bytes, scale: scale) else { print("ours failed"); return }
        let mine = JPEGTestSupport.asLibjpegBytes(ours)
        let w = ours.bitmap.width, ch = ours.bitmap.format.componentsPerPixel
        var shown = 0
        for y in 0..<ours.bitmap.height {
            for x in 0..<w {
                for c in 0..<ch {
                    let i = (y * w + x) * ch + c
                    if i < reference.pixels.count, mine[i] != reference.pixels[i], shown < 30 {
                        print("diff x=\(x) y=\(y) c=\(c) ours=\(mine[i]) ref=\(reference.pixels[i])")
                        shown += 1
                    }
                }
            }
        }
        for warning in ours.warnings { print("warning: \(warning)") }
        print("ref: \(reference.message)")
    }
}
