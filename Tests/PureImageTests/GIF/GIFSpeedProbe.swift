@testable import PureImage
import CReference
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension GIFDecoder {
    func benchDecodeOnly(_ index: Int, into scratch: inout [UInt8]) {
        _ = frameCodes(index) { frame, codes in GIFFrameKernel.decodeIndices(frame, number: index, codes: codes, into: &scratch) }
    }
}

/// A rough speed probe, run only with PUREIMAGE_GIF_BENCH=1 (release build): every frame
/// decoded and composed, every raw frame, and LZW alone, against `pi_ref_gif_decode` (giflib's
/// DGifSlurp to indices). Best of 5; prints one line per file. The real benchmark belongs to
/// `pureimage-bench`; this only guards against gross regressions while developing.
@Suite("GIF speed probe") struct GIFSpeedProbe {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
    @Test func probe() throws {
        guard getenv("PUREIMAGE_GIF_BENCH") != nil else { return }
        let root = getenv("PUREIMAGE_CORPUS").map { String(cString: $0) } ?? "/work/shared/corpus"
        for path in ["gif/image-gif/samples/sample_big.gif", "gif/pillow/iss634.gif", "gif/image-gif/benches/samples/test.gif", "imagetestsuite/gif/f617c7af7f36296a37ddb419b828099c.gif", "gif/wuffs/hibiscus.regular.gif"] {
            let bytes = try ImageFiles.read(root + "/" + path)
            var best = (ours: 1e9, oursRaw: 1e9, ref: 1e9)
            for _ in 0..<5 {
                var t = Self.now()
                let d = GIFTest.decode(bytes).decoder
                for i in 0..<d.availableFrameCount { _ = try d.frame(at: i) }
                best.ours = min(best.ours, Self.now() - t)
                t = Self.now()
                let d2 = GIFTest.decode(bytes).decoder
                for i in 0..<d2.availableFrameCount { _ = try d2.rawFrame(at: i) }
                best.oursRaw = min(best.oursRaw, Self.now() - t)
                t = Self.now()
                var gif = PIRefGIF()
                _ = bytes.withUnsafeBufferPointer { pi_ref_gif_decode($0.baseAddress, $0.count, &gif) }
                pi_ref_gif_free(&gif)
                best.ref = min(best.ref, Self.now() - t)
            }
            var lzwOnly = 1e9
            let d3 = GIFTest.decode(bytes).decoder
            for _ in 0..<5 {
                let t = Self.now()
                var scratch: [UInt8] = []
                for i in 0..<d3.availableFrameCount { d3.benchDecodeOnly(i, into: &scratch) }
                lzwOnly = min(lzwOnly, Self.now() - t)
            }
            print("GIF speed LZW only \(lzwOnly * 1000) ms")
            print("GIF speed \(path): composed \(best.ours * 1000) ms, raw \(best.oursRaw * 1000) ms, giflib \(best.ref * 1000) ms, ratio \(best.ref / best.ours)")
        }
    }
}
