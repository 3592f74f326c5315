// swift-tools-version:6.0
//
// PureImage: image decoders written by hand in Swift.
//
//   PureImage        the library; its only non-Swift dependency is the system zlib (CZlib)
//   pureimage        the command-line tool (info, inspect, decode, downscale, ...); links only
//                    the library and zlib, and runs pureimage-conform for `pureimage conform`
//   pureimage-conform  the conformance runner (PureImage vs the reference C libraries)
//   CommandLineSupport  what the three executables share: argument parsing, exit statuses,
//                    a small JSON writer and reader
//   pureimage-bench  PureImage and the C reference libraries timed side by side
//   CReference       libjpeg-turbo, libpng, giflib, libtiff and libwebp behind a small C API (plus
//                    libspng and stb_image for the bench's extra columns); used by tests, the
//                    conformance runner and the bench, never by the library
//   CReferenceJPEG3  libjpeg-turbo 3.x (from the imagecodecs wheel, loaded at run time): the
//                    reference for 12-bit and lossless JPEG, which Debian's 2.1.5 cannot decode
//   PureImageConformance  the comparison engine (PureImage vs CReference, expectations,
//                    JSON and HTML reports) shared by `pureimage conform`, the tests and the bench
import PackageDescription

let package = Package(
    name: "PureImage",
    platforms: [.macOS(.v15)],   // Synchronization's Mutex (ImageSource's lock); Linux has no minimum
    products: [
        .library(name: "PureImage", targets: ["PureImage"]),
        .executable(name: "pureimage", targets: ["pureimage"]),
        .executable(name: "pureimage-conform", targets: ["pureimage-conform"]),
        .executable(name: "pureimage-bench", targets: ["pureimage-bench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "PureImage",
            dependencies: ["CZlib"]
        ),
        .target(
            name: "CReference",
            path: "Sources/CReference",
            cSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [
                .linkedLibrary("jpeg"),
                .linkedLibrary("png16"),
                .linkedLibrary("gif"),
                .linkedLibrary("tiff"),
                .linkedLibrary("webp"),
                .linkedLibrary("webpdemux"),
                .linkedLibrary("spng"),   // libspng-dev: an extra PNG column in the bench
                .linkedLibrary("stb"),    // libstb-dev: stb_image compiled into libstb.so
                .linkedLibrary("z"),
            ]
        ),
        .target(
            name: "CReferenceJPEG3",
            dependencies: ["CReference"],
            path: "Sources/CReferenceJPEG3",
            exclude: ["jpeg80"],
            cSettings: [.unsafeFlags(["-O2"]), .headerSearchPath("jpeg80")]
        ),
        .target(
            name: "CommandLineSupport"
        ),
        .target(
            name: "PureImageConformance",
            dependencies: ["PureImage", "CReference", "CReferenceJPEG3", "CommandLineSupport"]
        ),
        .executableTarget(
            name: "pureimage",
            dependencies: ["PureImage", "CommandLineSupport"]   // no reference library: `ldd` shows zlib only
        ),
        .executableTarget(
            name: "pureimage-conform",
            dependencies: ["PureImage", "PureImageConformance", "CommandLineSupport"]
        ),
        .executableTarget(
            name: "pureimage-bench",
            dependencies: ["PureImage", "PureImageConformance", "CReference", "CReferenceJPEG3", "CZlib", "CommandLineSupport"]
        ),
        .testTarget(
            name: "PureImageTests",
            dependencies: ["PureImage", "PureImageConformance", "CReference", "CReferenceJPEG3", "CommandLineSupport"],
            exclude: ["Fuzz/Regressions"]   // fuzz reproducers, read from disk by RegressionTests
        ),
    ]
)
