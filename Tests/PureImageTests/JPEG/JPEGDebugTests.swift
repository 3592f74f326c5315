import Foundation
import Testing
@testable import PureImage

/// Tools for investigating one file, run only on request:
/// JPEG_DEBUG_FILE=path [JPEG_DEBUG_SCALE=N] prints the first differing samples against
/// libjpeg-turbo and our warnings.
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

@Suite struct JPEGSpeedTests {
    /// JPEG_SPEED_FILE=path: times our decode and libjpeg-turbo's (best of 3), prints the ratio.
    @Test func speedAgainstLibjpegTurbo() throws {
        guard let path = ProcessInfo.processInfo.environment["JPEG_SPEED_FILE"], let bytes = JPEGTestSupport.read(path) else { return }
        func best(_ body: () -> Void) -> Double {
            var best = Double.infinity
            for _ in 0..<3 {
                let start = DispatchTime.now().uptimeNanoseconds
                body()
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            return best
        }
        let scale = Int(ProcessInfo.processInfo.environment["JPEG_SPEED_SCALE"] ?? "1") ?? 1
        let ours = best { _ = JPEGTestSupport.decode(bytes, scale: scale) }
        let reference = best { _ = JPEGTestSupport.reference(bytes, scale: scale) }
        print("JPEG speed \(path) 1/\(scale): ours \(ours) s, libjpeg-turbo \(reference) s, ratio \(ours / reference)")
    }
}
