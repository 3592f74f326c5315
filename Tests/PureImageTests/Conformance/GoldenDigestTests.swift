import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import PureImageConformance
@testable import PureImage

/// The golden-digest manifest (`Conformance/golden.tsv`, `pureimage conform --golden`): the
/// digest is the documented CRC, a manifest round-trips, and a check says which side moved.
@Suite struct GoldenDigestTests {
    /// One 1×1 gray 8-bit image of value 42: the 16-byte little-endian header, then the sample,
    /// under zlib's CRC-32 (Python: zlib.crc32(bytes([1,0,0,0, 1,0,0,0, 1,0,0,0, 8,0,0,0, 42]))).
    @Test func digestIsTheDocumentedCRC() {
        let image = ComparableImage(width: 1, height: 1, channels: 1, bits: 8, samples: [42])
        let digest = OutputDigest.adding(image, to: nil)
        #expect(digest == 0x6F6F_752F)
        #expect(digest == CRC32.checksum([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0, 42] as [UInt8]))
        #expect(OutputDigest.text(digest) == "6f6f752f" && OutputDigest.text(nil) == "-")
        // A second frame continues the CRC rather than replacing it.
        #expect(OutputDigest.adding(image, to: digest) != digest)
    }

    @Test func manifestRoundTripsAndTellsWhichSideMoved() throws {
        let root = try ConformanceTests.makeCorpus()
        defer { ConformanceTests.removeCorpus(root) }
        let rootName = root.split(separator: "/").last.map(String.init) ?? ""
        var clean = ConformanceRun()
        clean.add(root: root, expectations: Expectations())
        let environment = ReferenceEnvironment(libraries: "libpng 1.0; test", machine: "test machine")
        let manifest = GoldenDigests(run: clean, environment: environment)
        #expect(manifest.entries.count == 4)
        let image0 = try #require(manifest.entries["\(rootName)/suite/image0.png"])
        #expect(image0.verdict == "identical" && image0.reference == image0.ours && image0.ours.count == 8)
        #expect(manifest.entries["\(rootName)/suite/cut.png"]?.ours == "-")

        let parsed = try GoldenDigests(parsing: manifest.serialized())
        #expect(parsed.environment == environment)
        #expect(parsed.entries == manifest.entries)

        // The same run: nothing moved.
        let same = parsed.check(clean, current: environment)
        #expect(same.unchanged == 4 && same.decoderUnchanged && same.referenceChanged.isEmpty)
        #expect(!same.summary().contains("differ"))

        // A decoder change: one planted sample in image1.
        var tampered = ConformanceRun()
        tampered.add(root: root, expectations: Expectations(), tamper: { path, image in
            if path == "suite/image1.png" { image.samples[0] ^= 1 }
        })
        let decoder = parsed.check(tampered, current: environment)
        #expect(decoder.decoderChanged == ["\(rootName)/suite/image1.png"])
        #expect(decoder.unchanged == 3 && !decoder.decoderUnchanged)
        #expect(decoder.summary().contains("DECODER CHANGED: \(rootName)/suite/image1.png"))

        // A reference change: the manifest recorded another reference digest for image2 (as a
        // manifest made with another libpng would), and names other libraries.
        var older = parsed
        older.entries["\(rootName)/suite/image2.png"]?.reference = "00000000"
        older.environment.libraries = "libpng 0.9; test"
        let reference = older.check(clean, current: environment)
        #expect(reference.referenceChanged == ["\(rootName)/suite/image2.png"])
        #expect(reference.decoderUnchanged)
        #expect(reference.summary().contains("libraries differ"))

        // A file the manifest lists under this root that the run no longer sees.
        var extra = parsed
        extra.entries["\(rootName)/suite/gone.png"] = image0
        extra.entries["elsewhere/x.png"] = image0
        let missing = extra.check(clean, current: environment)
        #expect(missing.missing == ["\(rootName)/suite/gone.png"] && !missing.decoderUnchanged)

        // A run over a folder inside the corpus matches the manifest by the path's tail.
        var inner = ConformanceRun()
        inner.add(root: root + "/suite", expectations: Expectations(), tamper: { path, image in
            if path == "image1.png" { image.samples[0] ^= 1 }
        })
        let innerCheck = extra.check(inner, current: environment)
        #expect(innerCheck.unchanged == 3 && innerCheck.notInManifest == 0)
        #expect(innerCheck.decoderChanged == ["\(rootName)/suite/image1.png"])
        #expect(innerCheck.missing == ["\(rootName)/suite/gone.png"])
    }

    @Test func malformedManifestsAreRefused() {
        #expect(throws: GoldenDigests.ParseError.self) { try GoldenDigests(parsing: "# machine\tx\na\tpng\tidentical\t1\t2\n") }
        #expect(throws: GoldenDigests.ParseError.self) { try GoldenDigests(parsing: "# machine\tx\n") }
    }

    /// The checked-in manifest parses, records every reference library, and covers the shared
    /// corpus's images (CI's conform run checks the digests themselves).
    @Test func checkedInManifestIsComplete() throws {
        let bytes = try ImageFiles.read(packageRoot() + "/Conformance/golden.tsv")
        let manifest = try GoldenDigests(parsing: String(decoding: bytes, as: UTF8.self))
        for library in ["libpng", "libjpeg-turbo", "giflib", "libtiff", "libwebp", "libjpeg-turbo 3"] {
            #expect(manifest.environment.libraries.contains(library), "no \(library) version")
        }
        #expect(!manifest.environment.machine.isEmpty)
        #expect(manifest.entries.count > 1500)
        #expect(manifest.entries.keys.allSatisfy { $0.hasPrefix("corpus/") })
    }
}
