import CReferenceJPEG3
import Foundation

/// libjpeg-turbo 3.x, the reference for 12-bit and lossless JPEG (Debian's libjpeg-turbo 2.1.5
/// decodes neither). It comes from the `imagecodecs` wheel on PyPI, which ships it as a shared
/// library; `CReferenceJPEG3` loads it at run time. `scripts/install-deps.sh` installs the
/// wheel, and the library is found through `PUREIMAGE_LIBJPEG_TURBO3` (a path to the .so) or
/// by asking python3 where imagecodecs keeps its libraries.
public enum LibjpegTurbo3 {
    /// The library file, when one was found.
    public static let path: String? = locate()

    /// Nil when the library is loaded and ready; otherwise why not.
    public static let unavailableReason: String? = {
        guard let path else {
            return "libjpeg-turbo 3 not found: set PUREIMAGE_LIBJPEG_TURBO3 or install the imagecodecs wheel (scripts/install-deps.sh)"
        }
        var message = [CChar](repeating: 0, count: 256)
        guard pi_ref_jpeg3_load(path, &message) != 0 else { return nil }
        return String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    public static var isAvailable: Bool { unavailableReason == nil }

    /// The frame's precision P and libjpeg-turbo 3's decode at 1/`scaleDenominator` (its
    /// default output colour space, YCbCr → RGB; 8-bit samples for P ≤ 8, host-order 16-bit
    /// samples holding the file's values for P > 8). Rejected when the library is unavailable.
    /// With `asStored`, the stored colour space (YCbCr planes as they are).
    public static func decode(_ bytes: [UInt8], scaleDenominator: Int = 1, asStored: Bool = false) -> (result: ReferenceResult, precision: Int) {
        guard unavailableReason == nil else {
            return (ReferenceResult(status: .rejected, message: unavailableReason ?? "", frames: []), 0)
        }
        var image = PIRefImage()
        var precision: Int32 = 0
        _ = bytes.withUnsafeBufferPointer { pi_ref_jpeg3_decode($0.baseAddress, $0.count, Int32(scaleDenominator), asStored ? 1 : 0, &image, &precision) }
        return (ReferenceDecoders.result(&image), Int(precision))
    }

    /// "libjpeg-turbo 3.1.3 (imagecodecs 2026.3.6)", as the wheel reports it; nil when the
    /// library is unavailable, "libjpeg-turbo 3 from PATH" when it was given by path only.
    public static let version: String? = {
        guard isAvailable, let path else { return nil }
        let script = """
            import imagecodecs
            print(imagecodecs.jpeg8_version().replace('libjpeg_turbo', 'libjpeg-turbo').split('/')[0], '(imagecodecs ' + imagecodecs.__version__ + ')')
            """
        let given = ProcessInfo.processInfo.environment["PUREIMAGE_LIBJPEG_TURBO3"]
        if given == nil || given == "", let line = python(script) { return line }
        return "libjpeg-turbo 3 from \(path)"
    }()

    private static func locate() -> String? {
        if let given = ProcessInfo.processInfo.environment["PUREIMAGE_LIBJPEG_TURBO3"], !given.isEmpty { return given }
        // imagecodecs.libs/libjpeg-<hash>.so.8.x beside the imagecodecs package.
        return python("""
            import glob, os, imagecodecs
            folder = os.path.join(os.path.dirname(os.path.dirname(imagecodecs.__file__)), 'imagecodecs.libs')
            print('\\n'.join(sorted(glob.glob(os.path.join(folder, 'libjpeg-*.so*')))))
            """)
    }

    /// The first line python3 prints for `script`, nil when it fails.
    private static func python(_ script: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: output, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }
}
