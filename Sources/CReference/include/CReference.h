// CReference: the reference C decoders (libjpeg-turbo, libpng, giflib, libtiff, libwebp) behind one
// small "decode these bytes into this pixel layout" API, plus libspng and stb_image, which
// only the bench uses (as extra columns).
//
// Used only by the tests, the conformance runner (`pureimage conform`) and `pureimage-bench`.
// The PureImage library never links it.
//
// Every function decodes from memory, never touches the file system, never calls exit() or
// prints, and reports problems through `status` and `message`:
//   status  0  decoded cleanly
//   status  1  decoded, but the library warned (e.g. libjpeg "premature end of data",
//              "extraneous bytes"); pixels are what the library produced
//   status -1  the library rejected the input (message says why); no pixels
// message: for status -1 the error that stopped decoding; for status 1 the first warning.
// Pixel buffers are malloc'd; release them with the matching free function.
// JPEG, PNG and TIFF images larger than 2^28 pixels (as declared by the file) are refused with
// status -1 ("image too large") before any pixel buffer is allocated (GIF frames are
// allocated by giflib itself, at most 65535 x 65535).
#ifndef CREFERENCE_H
#define CREFERENCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint8_t *pixels;        // rows top to bottom, tightly packed (rowBytes = width*channels*bits/8)
    size_t size;            // bytes in pixels
    int width;
    int height;
    int channels;           // 1 gray, 3 RGB, 4 RGBA or CMYK (see the function)
    int bits;               // 8, or 16 (16-bit samples stored as host-endian uint16_t)
    int status;             // 0 ok, 1 warning, -1 error
    int warnings;           // number of warnings the library emitted
    char message[256];      // first error or warning text, "" when none
} PIRefImage;

void pi_ref_image_free(PIRefImage *image);

// ---- libjpeg-turbo ----------------------------------------------------------------------
// Decodes with libjpeg-turbo's defaults (JDCT_ISLOW, fancy upsampling, no block smoothing
// changes) into its default output colour space: JCS_GRAYSCALE (1 channel) for gray files,
// JCS_CMYK (4 channels, as stored, Adobe-inverted or not) for CMYK/YCCK files, JCS_RGB
// (3 channels) otherwise. scale_denom is 1, 2, 4 or 8 (scale_num = 1).
// Warnings (msg_level -1: "Premature end of JPEG file", "Corrupt JPEG data: N extraneous
// bytes before marker ...") give status 1. A fatal error gives status -1 even when some
// scanlines had already been decoded. Files with 2 or more than 4 components (JCS_UNKNOWN),
// 12-bit, lossless and JPEG-LS files are errors (libjpeg-turbo 2.1.5 has no support).
// Output is byte-identical to djpeg 2.1.5 (-scale 1/N) on every RGB/gray file of the corpus.
int pi_ref_jpeg_decode(const uint8_t *data, size_t size, int scale_denom, PIRefImage *out);

// Buffered-image mode (progressive files): renders the image after each completed input
// scan, calling `callback(context, scan_number, image)` once per output pass with the
// same layout as pi_ref_jpeg_decode (the image is valid only during the call).
// Returns the number of passes rendered, or -1 on error (message in out_message).
// Follows libjpeg.txt "Buffered-image mode": absorb input (jpeg_consume_input) until a scan
// completes or EOI, then one output pass for cinfo->input_scan_number; scan_number is the
// scan that pass shows. do_block_smoothing keeps libjpeg's default (TRUE), so early passes of
// progressive files are smoothed; the last pass equals pi_ref_jpeg_decode(scale 1). Sequential
// files give one pass (one per component scan for non-interleaved files). Each image's
// status/warnings/message reflect the warnings so far. On success out_message (may be NULL)
// holds the first warning or ""; on -1, callbacks may already have been made.
typedef void (*pi_ref_scan_callback)(void *context, int scan_number, const PIRefImage *image);
int pi_ref_jpeg_decode_scans(const uint8_t *data, size_t size, void *context,
                             pi_ref_scan_callback callback, char out_message[256]);

// ---- libpng -----------------------------------------------------------------------------
// Decodes to expanded RGBA: palette expanded (tRNS becomes alpha), low bit depths scaled up,
// gray replicated to RGB, tRNS colour key turned into alpha, missing alpha filled with the
// maximum. bits = 16 for 16-bit files (host-endian uint16_t), 8 otherwise. No gamma or other
// colour transformation. Interlaced files are de-interlaced by libpng. Rows are read with
// png_read_image and then png_read_end, so missing or damaged data after the image data
// (e.g. no IEND before the end of the buffer, or an IEND with a bad CRC) is an error too.
// CRC errors, with libpng 1.6's defaults (png_set_crc_action is not called; checked on the
// corpus with 1.6.39): a bad CRC in a critical chunk (IHDR, PLTE, IDAT, IEND) is an error
// (status -1, e.g. "IDAT: CRC error"); a bad CRC in an ancillary chunk (gAMA, zTXt, sRGB...) is
// only a warning ("gAMA: CRC error"): the chunk is discarded and decoding goes on (status 1).
// libpng's "benign errors" (e.g. "iCCP: known incorrect sRGB profile", "tIME: invalid",
// extra compressed data) are warnings when reading, so they give status 1 as well.
int pi_ref_png_decode(const uint8_t *data, size_t size, PIRefImage *out);

// Header only (png_read_info: signature, IHDR and the chunks before the first IDAT).
// Returns 0 and fills the non-NULL outputs with libpng's values (color_type is the PNG colour
// type 0, 2, 3, 4 or 6; interlace is 0 none or 1 Adam7), or -1 when libpng rejects the data.
int pi_ref_png_info(const uint8_t *data, size_t size, int *width, int *height, int *bit_depth,
                    int *color_type, int *interlace);

// ---- giflib ------------------------------------------------------------------------------
typedef struct {
    int left, top, width, height;   // image descriptor
    int interlaced;
    int disposal;                   // GCE disposal method 0..7, 0 when no GCE
    int transparent_index;          // -1 when none
    int delay_cs;                   // GCE delay in 1/100 s, 0 when no GCE
    int palette_count;              // entries in the active colour table (local, else global), 0 if none
    uint8_t palette[256 * 3];       // RGB triples of the active table
    uint8_t *indices;               // width*height colour indices, de-interlaced (row order)
} PIRefGIFFrame;
// Frames are as stored (not composited); left/top/width/height may reach outside the logical
// screen, and indices may exceed palette_count. giflib 5's DGifSlurp already de-interlaces
// (rows come back in display order), so the indices are giflib's rasters as they are.
// Disposal, delay and transparency come from DGifSavedExtensionToGCB (the frame's first GCE).

typedef struct {
    int width, height;              // logical screen
    int background_index;
    int loop_count;                 // NETSCAPE2.0 / ANIMEXTS1.0 value; -1 when absent
    int frame_count;
    PIRefGIFFrame *frames;
    int status;                     // 0 ok, 1 warning (e.g. a truncated last frame), -1 error
    char message[256];
} PIRefGIF;

// Reads every frame with DGifSlurp (falling back to the frames read before an error).
// When DGifSlurp fails after at least one frame decoded completely, those complete frames are
// returned with status 1 and message "DGifSlurp: <GifErrorString>"; a frame whose raster
// was cut short (truncated data, LZW error) is dropped, since giflib leaves the rest of its
// raster uninitialised. Status -1 when no frame is complete (frame_count 0, frames NULL),
// including files without any image ("No Image Descriptor detected") and zero-sized frames
// (giflib refuses them, some without an error code: "giflib error 0"). A GIF without any colour
// table is not an error for giflib: palette_count is then 0. loop_count is the first
// NETSCAPE2.0 / ANIMEXTS1.0 loop sub-block (id 1) in stream order.
// pi_ref_gif_free releases the frames (safe on a PIRefGIF with no frames).
int pi_ref_gif_decode(const uint8_t *data, size_t size, PIRefGIF *out);
void pi_ref_gif_free(PIRefGIF *gif);

// ---- GIF composition (the conformance rules, written independently of PureImage) ---------
// Composes giflib's frames onto a straight-RGBA8 canvas of the logical screen size with
// browser / ImageIO semantics: the canvas starts fully transparent; a frame's pixels replace
// the canvas inside its rectangle clipped to the canvas, except transparent-index pixels; an
// index at or beyond palette_count draws opaque black; after a frame is shown its disposal
// applies before the next frame: 2 clears the clipped rectangle to transparent, 3 (and 4, as
// Firefox and Chromium read it) restores the rectangle to what it was before the frame was
// drawn, 0, 1 and 5-7 leave the canvas.
typedef struct {
    const PIRefGIF *gif;
    int next_frame;
    uint8_t *canvas;      // width * height * 4, the image shown for the last composed frame
    uint8_t *saved;       // canvas before the last frame, when its disposal restores
    int pending_disposal; // of the last composed frame
    int px0, py0, px1, py1;
} PIRefGIFComposer;

// 0 on success; -1 when the canvas is empty or larger than 2^28 pixels.
int pi_ref_gif_composer_init(PIRefGIFComposer *composer, const PIRefGIF *gif);
// Composes the next frame; returns the canvas (valid until the next call) or NULL at the end.
const uint8_t *pi_ref_gif_composer_next(PIRefGIFComposer *composer);
void pi_ref_gif_composer_free(PIRefGIFComposer *composer);

// ---- libtiff -----------------------------------------------------------------------------
// All three functions open the buffer with TIFFClientOpenExt (memory callbacks; per-call
// error/warning handlers; libtiff's largest single allocation limited to 2 GiB). The global
// libtiff handlers are replaced once by ones that only record, so libtiff never prints.
// status 1 means libtiff reported something while opening, selecting the page or decoding
// and still succeeded: a warning (this includes "Unknown field with tag ..." notices and the
// like, so many valid files give status 1) or an error it recovered from. warnings counts both
// kinds; message is the first error, else the first warning. For status -1 the message is the
// libtiff error raised by the failing step (or our own reason, e.g. "no such page").

// Number of directories (pages), or -1 when libtiff cannot open the data.
// An IFD loop ends the count where libtiff detects it.
int pi_ref_tiff_page_count(const uint8_t *data, size_t size);

// Header-only calls (beside each library's decode), the bench's properties rows:
// jpeg_read_header (image width, -1 when refused) and giflib's record walk with the image data
// passed over code block by code block (frames found, -1 when refused). libpng's is
// pi_ref_png_info, libtiff's pi_ref_tiff_page_count (TIFFReadDirectory over the chain).
int pi_ref_jpeg_header_width(const uint8_t *data, size_t size);
int pi_ref_gif_record_walk_frames(const uint8_t *data, size_t size);
// WebPDemux: the frame count (1 for a still) from the RIFF chunks, -1 when refused.
int pi_ref_webp_demux_frames(const uint8_t *data, size_t size);

// TIFFReadRGBAImageOriented(ORIENTATION_TOPLEFT) of page `page`: 4 channels R,G,B,A in
// memory order, 8 bits, premultiplied when the file has unassociated alpha (libtiff's rule).
// Pages are numbered from 0. Images TIFFRGBAImageOK refuses (e.g. 12/24/32-bit, float
// samples) are errors with its reason. stop_on_error is 0, so libtiff keeps going past a bad
// strip or tile: such images come back with status 1, and the parts libtiff could not decode
// hold what libtiff put there (0 where it wrote nothing; it may reuse its strip buffer).
int pi_ref_tiff_decode_rgba(const uint8_t *data, size_t size, int page, PIRefImage *out);

// The decoded samples of page `page` as stored (TIFFReadEncodedStrip / TIFFReadEncodedTile,
// assembled into full rows; planar configuration 2 interleaved into chunky order):
// channels = SamplesPerPixel, bits = BitsPerSample (8 or 16 supported, else error).
// Samples are exactly what libtiff decodes: palette indices, min-is-white gray, YCbCr, Lab,
// CMYK, extra samples are not converted; 16-bit samples are host-endian (libtiff swaps them).
// Exception: JPEG-compressed YCbCr (compression 7) is read with TIFFTAG_JPEGCOLORMODE =
// JPEGCOLORMODE_RGB, so it comes back as RGB. Other chroma-subsampled YCbCr layouts (e.g.
// uncompressed or LZW with YCbCrSubsampling 2x2, and old-style JPEG) do not form whole rows of
// width*spp samples and are refused ("unsupported sample layout ..."). A strip or tile that
// libtiff fails to decode makes the whole call fail (status -1); one that decodes short gives
// status 1 with the missing samples left 0.
int pi_ref_tiff_decode_native(const uint8_t *data, size_t size, int page, PIRefImage *out);

// The decoded samples of page `page` at any depth (1 to 64 bits), for comparing decoders below
// the photometric interpretation: TIFFReadEncodedStrip / TIFFReadEncodedTile after the
// predictor, assembled into rows of ceil(width * SamplesPerPixel * BitsPerSample / 8) bytes,
// samples interleaved (separate planes are interleaved, bit by bit for sub-byte depths),
// packed most significant bit first, row padding bits zero; 16/24/32/64-bit samples in host
// byte order (libtiff swaps them). channels = SamplesPerPixel, bits = BitsPerSample,
// *sample_format = SampleFormat. JPEG-compressed YCbCr is read as RGB (JPEGCOLORMODE_RGB).
// Chroma-subsampled YCbCr otherwise has no per-pixel layout: *chunked = 1 and the bytes are
// each strip's or tile's decoded data units, chunk after chunk. A strip or tile libtiff fails
// to decode fails the call (status -1).
int pi_ref_tiff_decode_samples(const uint8_t *data, size_t size, int page, PIRefImage *out,
                               int *sample_format, int *chunked);

// ---- libwebp (Debian libwebp 1.2.4: libwebp + libwebpdemux) --------------------------------
// What WebPGetFeatures reports: canvas (VP8X) or bitstream size, has_alpha, has_animation,
// format (0 mixed/undefined, 1 lossy, 2 lossless). status 0, or -1 with the VP8StatusCode name.
typedef struct {
    int width, height;
    int has_alpha, has_animation, format;
    int status;
    char message[256];
} PIRefWebPFeatures;
int pi_ref_webp_features(const uint8_t *data, size_t size, PIRefWebPFeatures *out);

// A still image as WebPDecodeRGBA decodes it (WebPDecode with MODE_RGBA and libwebp's default
// options: fancy upsampling, no dithering, no cropping or scaling): 4 channels R, G, B, A,
// straight (not premultiplied), 8 bits. Animated files are refused by libwebp
// (VP8_STATUS_UNSUPPORTED_FEATURE); decode them with pi_ref_webp_animation_decode. Status 0,
// or -1 with "WebPDecode: <VP8StatusCode>" (libwebp has no warnings; a truncated file fails).
int pi_ref_webp_decode(const uint8_t *data, size_t size, PIRefImage *out);

// An animation (or any WebP) through WebPAnimDecoder with MODE_RGBA and no threads: every
// frame composed on the canvas as libwebp composes it, canvas_width * canvas_height * 4 bytes
// per frame, frames one after another; timestamps[i] is the end time of frame i in
// milliseconds (the sum of the durations so far). loop_count and background_color (the ANIM
// chunk's bytes B, G, R, A read little-endian, i.e. 0xAARRGGBB) come from WebPAnimDecoderGetInfo.
// status 0 when every frame decoded; 1 when WebPAnimDecoderGetNext failed after at least one
// frame (decoded_frames < frame_count, message says where); -1 when WebPAnimDecoderNew refused
// the file or the first frame failed. Release with pi_ref_webp_animation_free.
typedef struct {
    int canvas_width, canvas_height;
    int loop_count;
    uint32_t background_color;
    int frame_count;          // as WebPDemux counts them
    int decoded_frames;       // frames in `frames`
    uint8_t *frames;
    int *timestamps;
    int status;
    char message[256];
} PIRefWebPAnimation;
int pi_ref_webp_animation_decode(const uint8_t *data, size_t size, PIRefWebPAnimation *out);
void pi_ref_webp_animation_free(PIRefWebPAnimation *animation);

// ---- libspng (second PNG library, for the bench) ------------------------------------------
// The layout of pi_ref_png_decode: RGBA8 for files of 1 to 8 bits per sample, RGBA16 (host
// order) for 16-bit files; palettes, gray and tRNS expanded (SPNG_DECODE_TRNS), no gamma.
// libspng's defaults otherwise (CRC and Adler-32 checked). Status 0, or -1 with
// "spng: <spng_strerror>"; libspng has no warnings.
int pi_ref_spng_decode(const uint8_t *data, size_t size, PIRefImage *out);

// ---- stb_image (third opinion for JPEG, PNG and GIF, for the bench) -----------------------
// stbi_load_from_memory (bits 8) or stbi_load_16_from_memory (bits 16) converted to
// `channels` (1 to 4) samples per pixel. For PNG with channels 4 this is the layout of
// pi_ref_png_decode. stb_image's JPEG decoder is its own: its pixels are close to
// libjpeg-turbo's but not equal. Status 0, or -1 with "stb_image: <stbi_failure_reason>".
// Release with pi_ref_stb_image_free.
int pi_ref_stb_decode(const uint8_t *data, size_t size, int channels, int bits, PIRefImage *out);

// stbi_load_gif_from_memory: every frame composed onto the logical screen as RGBA8, frames one
// after another in pixels (size = width * height * 4 * frames); *frame_count receives the
// number of frames. Release with pi_ref_stb_image_free.
int pi_ref_stb_gif_decode(const uint8_t *data, size_t size, PIRefImage *out, int *frame_count);
void pi_ref_stb_image_free(PIRefImage *image);

// ---- Versions and digests (the golden-digest manifest, Conformance/golden.tsv) -------------
// "libpng 1.6.39; libjpeg-turbo 2.1.5; giflib 5.2.1; libtiff 4.5.0; libwebp 1.2.4": the
// versions of the libraries this build uses (libpng, libtiff and libwebp as the loaded library
// reports them; libjpeg-turbo and giflib, which have no run-time query, from their headers).
void pi_ref_library_versions(char *buffer, size_t size);

// zlib's crc32 (ISO 3309, the CRC of PNG and gzip) continued over `size` bytes; start from 0.
uint32_t pi_ref_crc32(uint32_t crc, const uint8_t *data, size_t size);

// ---- The bench's allocator --------------------------------------------------------------
// glibc only: fixes malloc's mmap threshold at `mmap_bytes` and its trim threshold at
// `trim_bytes` (mallopt M_MMAP_THRESHOLD and M_TRIM_THRESHOLD), which also turns off glibc's
// dynamic thresholds. Every allocation of at least `mmap_bytes` is then mapped fresh from the
// kernel and unmapped when freed, and free heap memory at the top is returned to the kernel only
// past `trim_bytes` — the same in every process and at every point of a run, instead of whatever
// the allocation history so far made glibc do. Returns 1 when both settings took, 0 otherwise
// (a value over INT_MAX, glibc's refusal, or another C library).
int pi_bench_fixed_malloc_thresholds(size_t mmap_bytes, size_t trim_bytes);

// The huge-page advice PureImage gives its own output (PixelMemory in
// Sources/PureImage/Bitmap/PixelMemoryKernel.swift), for a reference decoder's output buffer
// just allocated (malloc or calloc) and not yet written: when the environment has
// PUREIMAGE_HUGE_PAGES=1 (PureImage's opt-in), the 2 MiB-aligned interior of a buffer of 4 MiB or
// more is advised MADV_HUGEPAGE. Page faults on a fresh image-sized buffer cost as much as a
// fast decode's arithmetic; giving both sides the same memory keeps the bench's ratios about
// the decoders. Buffers the libraries
// allocate themselves (stb_image's output, giflib's rasters, row buffers) keep ordinary pages.
// NULL is ignored.
void pi_ref_advise_huge_pages(void *memory, size_t size);

#ifdef __cplusplus
}
#endif

#endif
