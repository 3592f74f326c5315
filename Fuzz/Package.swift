// swift-tools-version:6.0
//
// libFuzzer targets for PureImage, in a package of their own so the library's and the CLI's
// builds never see the sanitizer flags. Build and run them with `scripts/fuzz.sh` (see
// Docs/Robustness.md): the script builds in release with `-sanitize=fuzzer,address`.
//
//   CLibFuzzer   declares LLVMFuzzerRunDriver, which each target's main calls (so SwiftPM's own
//                `main` stays the entry point and links without tricks)
//   FuzzDriver   drives the public API the way an app does (shared by every target)
//   fuzz-png, fuzz-jpeg, fuzz-gif, fuzz-tiff, fuzz-webp   the input is decoded as that format
//   fuzz-any     the input is sniffed, as `ImageSource(bytes:)` does
//   fuzz-replay  no libFuzzer, no sanitizer: replays inputs and times each (`fuzz.sh --replay`)
import PackageDescription

let formats = ["png", "jpeg", "gif", "tiff", "webp", "any"]

let package = Package(
    name: "PureImageFuzz",
    dependencies: [.package(name: "PureImage", path: "..")],
    targets: [
        .target(name: "FuzzDriver", dependencies: [.product(name: "PureImage", package: "PureImage")]),
        .target(name: "CLibFuzzer"),
        // The same driver without libFuzzer or sanitizers: times inputs one by one.
        .executableTarget(name: "fuzz-replay", dependencies: ["FuzzDriver"]),
    ] + formats.map { format in
        // gold (the default linker) stops with an internal error on libFuzzer + ASan objects;
        // lld links them.
        .executableTarget(name: "fuzz-\(format)", dependencies: ["FuzzDriver", "CLibFuzzer"],
                          linkerSettings: [.unsafeFlags(["-use-ld=lld"])])
    }
)
