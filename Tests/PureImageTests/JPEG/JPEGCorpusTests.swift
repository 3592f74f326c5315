import CReference
import Foundation
import Testing
@testable import PureImage

/// Every JPEG of the corpus against libjpeg-turbo 2.1.5 (CReference), sample for sample.
/// Runs only when PUREIMAGE_CORPUS points at the corpus root.
@Suite struct JPEGCorpusTests {
    static let root = ProcessInfo.processInfo.environment["PUREIMAGE_CORPUS"]

    struct Tally: CustomStringConvertible {
        var identical = 0, differing = 0, unsupported = 0, bothRejected = 0, onlyReferenceAccepts = 0, onlyWeAccept = 0
        var notes: [String] = []
        var description: String {
            "identical \(identical) / differing \(differing) / unsupported \(unsupported) / both rejected \(bothRejected)"
                + " / only libjpeg accepts \(onlyReferenceAccepts) / only we accept \(onlyWeAccept)"
        }
    }

    static func compare(_ files: [String], root: String, scale: Int) -> Tally {
        var tally = Tally()
        for path in files {
            guard let bytes = JPEGTestSupport.read(root + "/" + path) else { continue }
            let reference = JPEGTestSupport.reference(bytes, scale: scale)
            let ours = JPEGTestSupport.decode(bytes, scale: scale)
            switch (reference.status >= 0, ours) {
            case (true, .success(let image)):
                let mine = JPEGTestSupport.asLibjpegBytes(image)
                if image.bitmap.width == reference.width, image.bitmap.height == reference.height, mine == reference.pixels {
                    tally.identical += 1
                } else {
                    tally.differing += 1
                    var first = -1
                    for i in 0..<min(mine.count, reference.pixels.count) where mine[i] != reference.pixels[i] { first = i; break }
                    let count = zip(mine, reference.pixels).filter { $0 != $1 }.count
                    tally.notes.append("DIFF \(path) 1/\(scale): \(image.bitmap.width)x\(image.bitmap.height) vs \(reference.width)x\(reference.height), \(count) samples differ, first at \(first) (libjpeg: \(reference.message))")
                }
            case (true, .failure(let error)):
                if error.kind == .unsupported {
                    tally.unsupported += 1
                } else {
                    tally.onlyReferenceAccepts += 1
                    tally.notes.append("ONLY-LIBJPEG \(path): \(error)")
                }
            case (false, .failure(let error)):
                if error.kind == .unsupported { tally.unsupported += 1 } else { tally.bothRejected += 1 }
            case (false, .success):
                tally.onlyWeAccept += 1
                tally.notes.append("ONLY-OURS \(path): libjpeg says \(reference.message)")
            }
        }
        return tally
    }

    @Test func baselineFilesMatchLibjpegTurbo() throws {
        guard let root = Self.root else { return }
        let files = JPEGTestSupport.corpusFiles(root: root, prefixes: ["libjpeg-turbo/", "jpeg/", "photos/"])
        for scale in [1, 2, 4, 8] {
            let tally = Self.compare(files, root: root, scale: scale)
            print("JPEG corpus 1/\(scale): \(files.count) files: \(tally)")
            for note in tally.notes { print("  " + note) }
            #expect(tally.differing == 0, "scale 1/\(scale)")
        }
    }

    /// imagetestsuite: no crash, no hang; every outcome is an image or a typed error.
    @Test func imageTestSuiteNeverCrashes() throws {
        guard let root = Self.root else { return }
        let files = JPEGTestSupport.corpusFiles(root: root, prefixes: ["imagetestsuite/"])
        let tally = Self.compare(files, root: root, scale: 1)
        print("JPEG imagetestsuite: \(files.count) files: \(tally)"); for note in tally.notes { print("  " + note) }
    }
}
