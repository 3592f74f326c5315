@testable import PureImage
import Testing

/// Hand-built GIFs, one per branch of GIF89a, each byte commented. Colours of the shared global
/// table: 0 red, 1 green, 2 blue, 3 white.
enum GIFSamples {
    static let red: [UInt8] = [255, 0, 0, 255]
    static let green: [UInt8] = [0, 255, 0, 255]
    static let blue: [UInt8] = [0, 0, 255, 255]
    static let white: [UInt8] = [255, 255, 255, 255]
    static let clear: [UInt8] = [0, 0, 0, 0]
    static let black: [UInt8] = [0, 0, 0, 255]

    /// Header + Logical Screen Descriptor + 4-entry Global Color Table for a `width`×`height` canvas.
    static func screen(width: UInt8, height: UInt8) -> [UInt8] {
        [
            0x47, 0x49, 0x46, 0x38, 0x39, 0x61,  // §17 "GIF89a"
            width, 0x00,                         // §18 logical screen width (LE16)
            height, 0x00,                        //     logical screen height (LE16)
            0x81,                                //     packed: global table, resolution 1, size 2^(1+1) = 4
            0x00,                                //     background colour index 0 (not used)
            0x00,                                //     pixel aspect ratio: not given
            0xFF, 0x00, 0x00,                    // §19 entry 0: red
            0x00, 0xFF, 0x00,                    //     entry 1: green
            0x00, 0x00, 0xFF,                    //     entry 2: blue
            0xFF, 0xFF, 0xFF,                    //     entry 3: white
        ]
    }

    /// The animation used by the disposal and truncation tests: a 4×1 canvas, three frames.
    /// `disposal` is frame 1's disposal method (0–3).
    static func animation(frame1Disposal disposal: UInt8) -> [UInt8] {
        screen(width: 4, height: 1) + [
            // §26 Application Extension: NETSCAPE2.0, loop count 0 (forever)
            0x21, 0xFF, 0x0B,                                                 // introducer, label, block size 11
            0x4E, 0x45, 0x54, 0x53, 0x43, 0x41, 0x50, 0x45, 0x32, 0x2E, 0x30, // "NETSCAPE2.0"
            0x03, 0x01, 0x00, 0x00,                                           // sub-block: id 1, loop count 0 (LE16)
            0x00,                                                             // block terminator
            // Frame 0. §23 Graphic Control Extension
            0x21, 0xF9, 0x04,       // introducer, label, block size 4
            0x04,                   // packed: disposal 1 (do not dispose), no transparency
            0x0A, 0x00,             // delay 10 cs
            0x00,                   // transparent index (flag clear)
            0x00,                   // block terminator
            // §20 Image Descriptor: 4×1 at (0,0), no local table, not interlaced
            0x2C, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x01, 0x00, 0x00,
            // §22 image data: minimum code size 2; codes clear 0 0 0 | 0 end (3,3,3,3 | 4,4 bits)
            0x02, 0x03, 0x04, 0x00, 0x05, 0x00,
            // Frame 1. GCE: disposal `disposal`, delay 20 cs
            0x21, 0xF9, 0x04, disposal << 2, 0x14, 0x00, 0x00, 0x00,
            // Image Descriptor: 1×1 at (1,0)
            0x2C, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
            // image data: size 2; codes clear 1 end (3 bits each) = 0x4C 0x01
            0x02, 0x02, 0x4C, 0x01, 0x00,
            // Frame 2. GCE: disposal 0, delay 0 (plays as 0.1 s), transparent index 3
            0x21, 0xF9, 0x04, 0x01, 0x00, 0x00, 0x03, 0x00,
            // Image Descriptor: 2×1 at (1,0)
            0x2C, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x00, 0x00,
            // image data: codes clear 3 2 end = 0x9C 0x0A — pixel (1,0) transparent, (2,0) blue
            0x02, 0x02, 0x9C, 0x0A, 0x00,
            0x3B,                   // §27 Trailer
        ]
    }

    /// A single frame `width`×`height` at (left, top) with the given code stream bytes (one
    /// sub-block) and optional GCE bytes.
    static func still(canvas: (UInt8, UInt8), frame: (left: UInt8, top: UInt8, width: UInt8, height: UInt8),
                      packed: UInt8 = 0x00, gce: [UInt8] = [], codes: [UInt8], minimumCodeSize: UInt8 = 2) -> [UInt8] {
        screen(width: canvas.0, height: canvas.1) + gce + [
            0x2C, frame.left, 0x00, frame.top, 0x00, frame.width, 0x00, frame.height, 0x00, packed,
            minimumCodeSize, UInt8(codes.count),
        ] + codes + [0x00, 0x3B]
    }

    static func pixels(_ bitmap: Bitmap) -> [[UInt8]] {
        stride(from: 0, to: bitmap.bytes.count, by: 4).map { Array(bitmap.bytes[$0 ..< $0 + 4]) }
    }
}

@Suite("GIF decoder")
struct GIFDecoderTests {
    typealias S = GIFSamples

    @Test func stillImageAndProperties() throws {
        // 4×1, codes clear 1 2 3 0 end = 0x8C 0x06 0x05
        let gif = S.still(canvas: (4, 1), frame: (0, 0, 4, 1), codes: [0x8C, 0x06, 0x05])
        let source = try ImageSource(bytes: gif)
        let properties = try source.properties()
        #expect(properties.width == 4 && properties.height == 1)
        #expect(properties.frameCount == 1)
        #expect(properties.loopCount == nil)
        #expect(properties.hasAlpha == false)
        #expect(properties.bitsPerComponent == 8)
        if case .indexed(let palette) = properties.colorModel { #expect(palette.count == 4) } else { Issue.record("not indexed") }
        let decoded = try source.decode(at: 0, options: .init(output: .native))
        let image = decoded.bitmap
        #expect(image.format == .rgba8)
        #expect(S.pixels(image) == [S.green, S.blue, S.white, S.red])
        #expect(decoded.truncation == nil)
    }

    @Test func gif87aWithoutExtensions() throws {
        var gif = S.still(canvas: (4, 1), frame: (0, 0, 4, 1), codes: [0x8C, 0x06, 0x05])
        gif[4] = 0x37  // "GIF87a"
        let decoded = GIFTest.decode(gif)
        #expect(decoded.error == nil)
        #expect(S.pixels(try decoded.decoder.frame(at: 0)) == [S.green, S.blue, S.white, S.red])
    }

    @Test func interlacedRowsComeInFourPasses() throws {
        // 1×10 frame, interlace flag (0x40). Stored rows 0…9 hold indices 0 1 2 3 0 1 2 3 0 1;
        // they belong to display rows 0 8 | 4 | 2 6 | 1 3 5 7 9 (Appendix E).
        let gif = S.still(canvas: (1, 10), frame: (0, 0, 1, 10), packed: 0x40,
                          codes: [0x44, 0x34, 0x10, 0x32, 0x10, 0x05])
        let decoded = GIFTest.decode(gif)
        #expect(decoded.error == nil)
        let rows = S.pixels(try decoded.decoder.frame(at: 0))
        let colours = [S.red, S.green, S.blue, S.white]
        let expected = [0, 1, 3, 2, 2, 3, 0, 0, 1, 1].map { colours[$0] }
        #expect(rows == expected)
        #expect(decoded.decoder.properties?.isInterlaced == true)
        #expect(GIFInterlace.displayRows(height: 10, interlaced: true) == [0, 8, 4, 2, 6, 1, 3, 5, 7, 9])
    }

    /// 0–3 as GIF89a §23 defines them; 4 acts as 3 and 5–7 as 0 (Firefox, Chromium).
    @Test(arguments: 0...7)
    func disposalMethods(_ disposal: Int) throws {
        let decoded = GIFTest.decode(S.animation(frame1Disposal: UInt8(disposal)))
        #expect(decoded.error == nil)
        let decoder = decoded.decoder
        #expect(decoder.availableFrameCount == 3)
        #expect(S.pixels(try decoder.frame(at: 0)) == [S.red, S.red, S.red, S.red])
        #expect(S.pixels(try decoder.frame(at: 1)) == [S.red, S.green, S.red, S.red])
        // Frame 2's pixel (1,0) is transparent: it shows frame 1's disposal result.
        let shown: [UInt8]
        switch disposal {
        case 2: shown = S.clear        // restore to background: transparent
        case 3, 4: shown = S.red       // restore to previous: the canvas before frame 1
        default: shown = S.green       // 0 and 1 leave frame 1 in place
        }
        #expect(S.pixels(try decoder.frame(at: 2)) == [S.red, shown, S.blue, S.red])
        // Random access after sequential access gives the same canvases.
        #expect(S.pixels(try decoder.frame(at: 1)) == [S.red, S.green, S.red, S.red])
        #expect(S.pixels(try decoder.frame(at: 2)) == [S.red, shown, S.blue, S.red])
    }

    @Test func timingAndLoopCount() throws {
        let decoded = GIFTest.decode(S.animation(frame1Disposal: 1))
        let properties = try #require(decoded.decoder.properties)
        #expect(properties.loopCount == 0)
        #expect(properties.frameCount == 3)
        #expect(properties.frames.map(\.delay) == [0.1, 0.2, 0])
        #expect(properties.frames.map(\.duration) == [0.1, 0.2, 0.1])
        #expect(decoded.decoder.frameInfo(at: 1)?.delayCentiseconds == 20)
        #expect(decoded.decoder.frameInfo(at: 2)?.transparentIndex == 3)
        #expect(properties.hasAlpha)
    }

    @Test func transparentIndexInRawFrame() throws {
        let decoded = GIFTest.decode(S.animation(frame1Disposal: 1))
        #expect(S.pixels(try decoded.decoder.rawFrame(at: 2)) == [S.clear, S.blue])
    }

    @Test func frameReachingPastTheCanvasIsClipped() throws {
        // 2×2 canvas; a 2×2 frame at (1,1): only its top-left pixel lands on the canvas.
        // codes clear 1 2 3 0 end: pixels green blue / white red.
        let gif = S.still(canvas: (2, 2), frame: (1, 1, 2, 2), codes: [0x8C, 0x06, 0x05])
        let decoded = GIFTest.decode(gif)
        #expect(decoded.error == nil)
        #expect(S.pixels(try decoded.decoder.frame(at: 0)) == [S.clear, S.clear, S.clear, S.green])
        #expect(S.pixels(try decoded.decoder.rawFrame(at: 0)) == [S.green, S.blue, S.white, S.red])
        #expect(decoded.decoder.properties?.hasAlpha == true)
    }

    @Test func zeroSizeFrameDrawsNothing() throws {
        // Frame 0: 2×1 whose codes end after one pixel; frame 1: 0×0 with a (skipped) code stream.
        var gif = S.screen(width: 2, height: 1)
        gif += [0x2C, 0, 0, 0, 0, 2, 0, 1, 0, 0x00, 0x02, 0x02, 0x4C, 0x01, 0x00]  // 2×1: clear 1 end → 1 pixel only
        gif += [0x21, 0xF9, 0x04, 0x00, 0x05, 0x00, 0x00, 0x00]                     // GCE delay 5 cs
        gif += [0x2C, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x02, 0x02, 0x4C, 0x01, 0x00]  // 0×0 frame
        gif += [0x3B]
        let decoded = GIFTest.decode(gif)
        #expect(decoded.error == nil)
        #expect(decoded.decoder.availableFrameCount == 2)
        #expect(decoded.decoder.frameInfo(at: 1)?.delayCentiseconds == 5)
        // Frame 0 had one pixel of two (end code early): the other stays transparent.
        #expect(S.pixels(try decoded.decoder.frame(at: 0)) == [S.green, S.clear])
        #expect(S.pixels(try decoded.decoder.frame(at: 1)) == [S.green, S.clear])
        #expect(decoded.decoder.warnings.contains { $0.message.contains("end code") })
    }

    @Test func indexBeyondTheTableIsOpaqueBlack() throws {
        // Local table of 2 entries (packed 0x80: size 2^(0+1)), minimum code size 2, pixel 3.
        var gif = S.screen(width: 1, height: 1)
        gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x80,   // image descriptor with local table flag, 2 entries
                0x10, 0x20, 0x30, 0x40, 0x50, 0x60,     // §21 local table: 2 colours
                0x02, 0x02, 0x5C, 0x01, 0x00,           // codes clear 3 end (3 bits each)
                0x3B]
        let decoded = GIFTest.decode(gif)
        #expect(S.pixels(try decoded.decoder.frame(at: 0)) == [S.black])
        #expect(decoded.decoder.frameInfo(at: 0)?.paletteCount == 2)
    }

    @Test func commentsBecomeText() throws {
        var gif = S.screen(width: 1, height: 1)
        gif += [0x21, 0xFE, 0x02, 0x68, 0x69, 0x01, 0x21, 0x00]  // §24 comment "hi" + "!" in two sub-blocks
        gif += [0x21, 0x01, 0x0C] + [UInt8](repeating: 0, count: 12) + [0x01, 0x41, 0x00]  // §25 plain text: skipped
        gif += [0x21, 0xFF, 0x0B] + Array("XYZAPPLE1.0".utf8) + [0x02, 0x01, 0x07, 0x00]  // unknown app: skipped
        gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x00, 0x02, 0x02, 0x4C, 0x01, 0x00, 0x3B]
        let decoded = GIFTest.decode(gif)
        #expect(decoded.error == nil)
        #expect(decoded.decoder.properties?.text == [TextEntry(keyword: "Comment", text: "hi!")])
        #expect(decoded.decoder.properties?.loopCount == nil)
    }

    @Test func animextsLoopCount() throws {
        var gif = S.screen(width: 1, height: 1)
        gif += [0x21, 0xFF, 0x0B] + Array("ANIMEXTS1.0".utf8) + [0x03, 0x01, 0x05, 0x00, 0x00]  // loop 5
        gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x00, 0x02, 0x02, 0x4C, 0x01, 0x00, 0x3B]
        #expect(GIFTest.decode(gif).decoder.properties?.loopCount == 5)
    }

    @Test func firstGraphicControlWins() throws {
        // giflib's DGifSavedExtensionToGCB: the first GCE before the image is used.
        var gif = S.screen(width: 1, height: 1)
        gif += [0x21, 0xF9, 0x04, 0x00, 0x07, 0x00, 0x00, 0x00]   // delay 7
        gif += [0x21, 0xF9, 0x04, 0x09, 0x09, 0x00, 0x01, 0x00]   // delay 9, disposal 2, transparent 1
        gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x00, 0x02, 0x02, 0x4C, 0x01, 0x00, 0x3B]
        let info = GIFTest.decode(gif).decoder.frameInfo(at: 0)
        #expect(info?.delayCentiseconds == 7)
        #expect(info?.transparentIndex == nil)
    }

    @Test func emptyExtensionsFollowTheSpec() throws {
        // `21 F9 00` and `21 FE 00`: label, then the block terminator at once. Parsed per §15
        // (giflib 5.2.1's DGifSlurp reads one sub-block too many here and fails).
        var gif = S.screen(width: 1, height: 1)
        gif += [0x21, 0xF9, 0x00, 0x21, 0xFE, 0x00]
        gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x00, 0x02, 0x02, 0x4C, 0x01, 0x00, 0x3B]
        let decoded = GIFTest.decode(gif)
        #expect(decoded.error == nil)
        #expect(decoded.decoder.frameInfo(at: 0)?.delayCentiseconds == 0)
        #expect(S.pixels(try decoded.decoder.frame(at: 0)) == [S.green])
        #expect(decoded.decoder.properties?.text == [])
    }

    @Test func graphicControlOfWrongLengthIsIgnored() throws {
        // giflib's DGifExtensionToGCB accepts only a 4-byte block: this 5-byte one gives no GCE.
        var gif = S.screen(width: 1, height: 1)
        gif += [0x21, 0xF9, 0x05, 0x01, 0x07, 0x00, 0x01, 0x09, 0x00]
        gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x00, 0x02, 0x02, 0x4C, 0x01, 0x00, 0x3B]
        let decoded = GIFTest.decode(gif)
        #expect(decoded.decoder.frameInfo(at: 0)?.transparentIndex == nil)
        #expect(decoded.decoder.frameInfo(at: 0)?.delayCentiseconds == 0)
        #expect(decoded.decoder.warnings.count == 1)
    }

    @Test func invalidCodeLeavesTheRestTransparent() throws {
        // 4×1: clear 1 2 3 (width now 4) then code 9 > next free 8.
        let codes = GIFLZWTests.pack([(4, 3), (1, 3), (2, 3), (3, 3), (9, 4), (5, 4)])
        let decoded = GIFTest.decode(S.still(canvas: (4, 1), frame: (0, 0, 4, 1), codes: codes))
        #expect(decoded.error == nil)
        #expect(S.pixels(try decoded.decoder.frame(at: 0)) == [S.green, S.blue, S.white, S.clear])
        #expect(decoded.decoder.warnings.contains { $0.message.contains("invalid LZW code 9") })
    }

    @Test func missingEndCodeAndExcessData() throws {
        // Codes for the 4 pixels, no end code, then junk codes and an extra sub-block.
        let codes = GIFLZWTests.pack([(4, 3), (1, 3), (2, 3), (3, 3), (0, 4), (15, 4), (15, 4)])
        var gif = S.screen(width: 4, height: 1)
        gif += [0x2C, 0, 0, 0, 0, 4, 0, 1, 0, 0x00, 0x02, UInt8(codes.count)] + codes
        gif += [0x02, 0xFF, 0xFF, 0x00, 0x3B]   // an excess sub-block, then the terminator
        let decoded = GIFTest.decode(gif)
        #expect(decoded.error == nil)
        #expect(decoded.decoder.warnings.isEmpty)
        #expect(S.pixels(try decoded.decoder.frame(at: 0)) == [S.green, S.blue, S.white, S.red])
    }

    @Test func structuralErrors() throws {
        // Trailer without an image: the canvas, empty and transparent, is the one frame (as in
        // browsers and pygif's no-data.gif), with a warning; without a canvas it is an error.
        let empty = GIFTest.decode(S.screen(width: 1, height: 1) + [0x3B])
        #expect(empty.error == nil && empty.decoder.availableFrameCount == 1)
        #expect(try empty.decoder.frame(at: 0).bytes == [0, 0, 0, 0])
        #expect(empty.decoder.warnings.count == 1)
        let nothing = GIFTest.decode(S.screen(width: 0, height: 1) + [0x3B])
        #expect((nothing.error?.reason as? GIFError) == .noImage)
        // A zero-width frame is complete at its descriptor: an invalid minimum code size after
        // it ends the stream, and the frame stays (pygif's image-zero-width.gif).
        let zeroWidth = GIFTest.decode(S.screen(width: 1, height: 1) + [0x2C, 0, 0, 0, 0, 0, 0, 1, 0, 0x00, 59, 0x3B])
        #expect(zeroWidth.error == nil && zeroWidth.decoder.availableFrameCount == 1)
        #expect(zeroWidth.decoder.stopError.map { ($0.reason as? GIFError) == .invalidMinimumCodeSize(59) } == true)
        // A zero-height frame cut inside its local colour table: one frame, marked truncated.
        let zeroHeight = GIFTest.decode(S.screen(width: 1, height: 1) + [0x2C, 0, 0, 0, 0, 1, 0, 0, 0, 0x80, 0x3B])
        #expect(zeroHeight.error == nil && zeroHeight.decoder.availableFrameCount == 1 && zeroHeight.decoder.truncation != nil)
        // Minimum code size 12 (codes would start at 13 bits).
        let wide = GIFTest.decode(S.still(canvas: (1, 1), frame: (0, 0, 1, 1), codes: [0x00], minimumCodeSize: 12))
        #expect((wide.error?.reason as? GIFError) == .invalidMinimumCodeSize(12))
        #expect(wide.error?.offset == 35)
        // Unknown block before any frame: thrown; after a frame: the stream ends there.
        let junkFirst = GIFTest.decode(S.screen(width: 1, height: 1) + [0x00, 0x3B])
        #expect((junkFirst.error?.reason as? GIFError) == .unknownBlock(introducer: 0x00))
        var gif = S.still(canvas: (4, 1), frame: (0, 0, 4, 1), codes: [0x8C, 0x06, 0x05])
        gif.removeLast()
        gif += [0x99, 0x3B]
        let junkAfter = GIFTest.decode(gif)
        #expect(junkAfter.error == nil)
        #expect(junkAfter.decoder.availableFrameCount == 1)
        #expect((junkAfter.decoder.stopError?.reason as? GIFError) == .unknownBlock(introducer: 0x99))
        // Bad signature.
        var bad = gif
        bad[0] = 0x48
        #expect((GIFTest.decode(bad).error?.reason as? GIFError) == .badSignature(found: Array("HIF89a".utf8)))
    }

    @Test func limits() throws {
        let animation = S.animation(frame1Disposal: 0)
        var options = DecodeOptions()
        options.limits.maxFrames = 2
        let tooMany = GIFTest.decode(animation, options: options)
        #expect(tooMany.error?.kind == .limitExceeded)
        options = DecodeOptions()
        options.limits.maxPixels = 3
        #expect(GIFTest.decode(animation, options: options).error?.kind == .limitExceeded)
        options = DecodeOptions(firstFrameOnly: true)
        let first = GIFTest.decode(animation, options: options)
        #expect(first.error == nil)
        #expect(first.decoder.availableFrameCount == 1)
        #expect(first.decoder.truncation == nil)
    }

    @Test func truncationAtEveryByteNeverCrashes() throws {
        let full = S.animation(frame1Disposal: 3)
        let reference = GIFTest.decode(full).decoder
        let canvases = try (0..<3).map { try reference.frame(at: $0) }
        // Offset where frame 1's image data starts (its minimum code size byte).
        let frame1Data = try #require(reference.frames.dropFirst().first?.dataOffset)
        for length in 0 ..< full.count {
            let decoded = GIFTest.decode(Array(full.prefix(length)))
            let decoder = decoded.decoder
            if let error = decoded.error {
                #expect(error.kind == .truncated)
                #expect(decoder.availableFrameCount == 0)
                continue
            }
            #expect(decoder.truncation != nil, "length \(length)")
            for i in 0 ..< decoder.availableFrameCount {
                let image = try decoder.frame(at: i)
                if i < decoder.completedFrameCount { #expect(image == canvases[i], "length \(length) frame \(i)") }
            }
            if length > frame1Data { #expect(decoder.availableFrameCount >= 2, "length \(length)") }
            #expect(decoder.completedFrameCount <= decoder.availableFrameCount)
        }
    }

    @Test func incrementalFeedingMatchesOneShot() throws {
        let full = S.animation(frame1Disposal: 2)
        let oneShot = GIFTest.decode(full).decoder
        for chunk in [1, 2, 5, 13] {
            let pieces = GIFTest.decodeIncrementally(full, chunk: chunk)
            #expect(pieces.error == nil)
            #expect(pieces.decoder.availableFrameCount == 3)
            for i in 0..<3 { #expect(try pieces.decoder.frame(at: i) == oneShot.frame(at: i)) }
        }
        // Before the input is closed, running out means waiting.
        let decoder = GIFDecoder(options: DecodeOptions())
        var input = InputBuffer(Array(full.prefix(40)))
        #expect(try decoder.advance(&input) == .needMoreInput)
        #expect(decoder.partialFrame() == nil)
        // Input ending inside frame 1's data (its sub-block size byte has arrived): frame 1 is
        // in progress and its partial image is the canvas after frame 0.
        let frame1Data = try #require(oneShot.frames.dropFirst().first?.dataOffset)
        input.append(contentsOf: full[40 ..< frame1Data + 2])
        #expect(try decoder.advance(&input) == .needMoreInput)
        #expect(decoder.completedFrameCount == 1 && decoder.availableFrameCount == 2)
        let partial = try #require(decoder.partialFrame())
        #expect(partial.frameIndex == 1 && partial.decodedRows == 1)
        #expect(partial.bitmap == (try oneShot.frame(at: 0)))
    }

    @Test func corruptedBytesNeverCrash() throws {
        let full = S.animation(frame1Disposal: 3)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        for _ in 0 ..< 2000 {
            var bytes = full
            for _ in 0 ..< 1 + next() % 4 { bytes[6 + next() % (bytes.count - 6)] = UInt8(truncatingIfNeeded: next()) }
            let decoded = GIFTest.decode(bytes)
            for i in 0 ..< decoded.decoder.availableFrameCount {
                _ = try? decoded.decoder.frame(at: i)
                _ = try? decoded.decoder.rawFrame(at: i)
            }
            _ = Inspector.inspect(bytes)
        }
    }

    @Test func inspectorListsBlocks() {
        let entries = Inspector.inspect(S.animation(frame1Disposal: 2))
        let names = entries.map(\.name)
        #expect(names.contains("Logical Screen Descriptor"))
        #expect(names.filter { $0 == "Image Descriptor" }.count == 3)
        #expect(names.filter { $0 == "Graphic Control Extension" }.count == 3)
        #expect(names.suffix(2) == ["Trailer", "end"])
        #expect(entries.contains { $0.detail.contains("loop=0") })
        #expect(entries.contains { $0.name == "Graphic Control Extension" && $0.detail.contains("disposal=2") && $0.offset == 68 })
    }

    @Test func manyFramesDecodeInLinearTime() throws {
        // 20 000 frames of 1×1 (GCE + descriptor + 1-pixel code stream each): parsing and
        // composing every frame in order must stay linear (a quadratic step would take minutes).
        var gif = S.screen(width: 1, height: 1)
        let frame: [UInt8] = [0x21, 0xF9, 0x04, 0x00, 0x02, 0x00, 0x00, 0x00,
                              0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x00, 0x02, 0x02, 0x4C, 0x01, 0x00]
        for _ in 0 ..< 20_000 { gif += frame }
        gif.append(0x3B)
        let decoded = GIFTest.decode(gif)
        #expect(decoded.error == nil)
        #expect(decoded.decoder.availableFrameCount == 20_000)
        #expect(decoded.decoder.properties?.frames.count == 20_000)
        for i in 0 ..< 20_000 { _ = try decoded.decoder.frame(at: i) }
        #expect(S.pixels(try decoded.decoder.frame(at: 19_999)) == [S.green])
    }

    @Test func incrementalImageSourceShowsProgress() throws {
        // Through the public incremental API, one byte at a time: the partial image never
        // crashes, and the final images equal the one-shot ones.
        let full = S.animation(frame1Disposal: 3)
        let oneShot = try ImageSource(bytes: full)
        let source = IncrementalImageSource()
        for i in 0 ..< full.count {
            source.append(full[i ... i], final: i == full.count - 1)
            _ = source.partialImage()
        }
        #expect(source.status == .complete)
        for i in 0 ..< 3 { #expect(try source.image(at: i) == oneShot.image(at: i)) }
        #expect(source.properties?.loopCount == 0)
    }
}
