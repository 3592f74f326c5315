// libtiff reference decoder: page count, TIFFReadRGBAImageOriented, and the stored samples.
//
// Input: TIFFClientOpenExt over the caller's buffer (read / seek / size / close / map
// callbacks; the buffer is "mapped" directly, libtiff never writes to it in read mode).
// Messages: per-call error and warning handlers installed through TIFFOpenOptions record the
// first text of each kind and count them, and stop libtiff from passing them on. A few
// messages are raised without a TIFF handle (or through the older global API); the global
// handlers are replaced, once, by functions that record into the state of the call running on
// the same thread (thread-local), so nothing is ever printed.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tiffio.h>

#include "reference_internal.h"

// Largest single allocation libtiff may make for us (strip/tile buffers and the like).
#define REF_TIFF_MAX_SINGLE_ALLOC ((tmsize_t)1 << 31)

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define REF_THREAD_LOCAL _Thread_local
#elif defined(__GNUC__) || defined(__clang__)
#define REF_THREAD_LOCAL __thread
#else
#define REF_THREAD_LOCAL   // single-threaded fallback: thread safety is not required
#endif

// Per-call state: the memory "file" and the messages libtiff produced.
typedef struct {
    const uint8_t *data;
    size_t size;
    uint64_t offset;                     // current position (may lie past the end)
    int errors;
    int warnings;
    char error[PI_REF_MESSAGE_SIZE];     // first error text
    char last_error[PI_REF_MESSAGE_SIZE];  // latest error text (the cause of a failure)
    char warning[PI_REF_MESSAGE_SIZE];   // first warning text
} ref_tiff_state;

// State of the call in progress on this thread, for the global (handle-less) handlers.
static REF_THREAD_LOCAL ref_tiff_state *ref_tiff_current = NULL;

// ---- message capture ---------------------------------------------------------------------

// Formats "module: text" like libtiff's own stderr handler.
static void ref_tiff_format(char *buf, const char *module, const char *format, va_list args)
{
    char text[PI_REF_MESSAGE_SIZE];
    pi_ref_set_message_v(text, format, args);
    if (module != NULL && module[0] != '\0') {
        pi_ref_set_message(buf, "%s: %s", module, text);
    } else {
        pi_ref_set_message(buf, "%s", text);
    }
}

// Keeps the latest error, and the first one.
static void ref_tiff_record_error(ref_tiff_state *state, const char *module, const char *format,
                                  va_list args)
{
    ref_tiff_format(state->last_error, module, format, args);
    if (state->errors == 0) {
        memcpy(state->error, state->last_error, sizeof(state->error));
    }
    state->errors++;
}

// Records an error of our own (no libtiff format string involved).
static void ref_tiff_note_error(ref_tiff_state *state, const char *text)
{
    pi_ref_set_message(state->last_error, "%s", text);
    if (state->errors == 0) {
        pi_ref_set_message(state->error, "%s", text);
    }
    state->errors++;
}

// Keeps the first warning.
static void ref_tiff_record_warning(ref_tiff_state *state, const char *module,
                                    const char *format, va_list args)
{
    if (state->warnings == 0) {
        ref_tiff_format(state->warning, module, format, args);
    }
    state->warnings++;
}

static int ref_tiff_error_handler(TIFF *tif, void *user_data, const char *module,
                                  const char *format, va_list args)
{
    (void)tif;
    ref_tiff_record_error((ref_tiff_state *)user_data, module, format, args);
    return 1;   // handled: do not pass the message on to the global handlers
}

static int ref_tiff_warning_handler(TIFF *tif, void *user_data, const char *module,
                                    const char *format, va_list args)
{
    (void)tif;
    ref_tiff_record_warning((ref_tiff_state *)user_data, module, format, args);
    return 1;
}

static void ref_tiff_global_error(const char *module, const char *format, va_list args)
{
    ref_tiff_state *state = ref_tiff_current;
    if (state != NULL) {
        ref_tiff_record_error(state, module, format, args);
    }
}

static void ref_tiff_global_warning(const char *module, const char *format, va_list args)
{
    ref_tiff_state *state = ref_tiff_current;
    if (state != NULL) {
        ref_tiff_record_warning(state, module, format, args);
    }
}

// ---- memory client procedures ------------------------------------------------------------

static tmsize_t ref_tiff_read(thandle_t handle, void *dest, tmsize_t length)
{
    ref_tiff_state *state = (ref_tiff_state *)handle;
    uint64_t available;
    uint64_t wanted;
    if (length <= 0 || state->offset >= (uint64_t)state->size) {
        return 0;
    }
    available = (uint64_t)state->size - state->offset;
    wanted = (uint64_t)length < available ? (uint64_t)length : available;
    memcpy(dest, state->data + state->offset, (size_t)wanted);
    state->offset += wanted;
    return (tmsize_t)wanted;
}

static tmsize_t ref_tiff_write(thandle_t handle, void *source, tmsize_t length)
{
    (void)handle;
    (void)source;
    (void)length;
    return 0;   // read-only
}

static toff_t ref_tiff_seek(thandle_t handle, toff_t offset, int whence)
{
    ref_tiff_state *state = (ref_tiff_state *)handle;
    uint64_t base;
    switch (whence) {
    case SEEK_SET:
        base = 0;
        break;
    case SEEK_CUR:
        base = state->offset;
        break;
    case SEEK_END:
        base = (uint64_t)state->size;
        break;
    default:
        return (toff_t)-1;
    }
    // Positions past the end are allowed (reads there return 0 bytes); wrapping is not.
    if (offset > (toff_t)INT64_MAX || base > (uint64_t)INT64_MAX - offset) {
        return (toff_t)-1;
    }
    state->offset = base + offset;
    return (toff_t)state->offset;
}

static int ref_tiff_close(thandle_t handle)
{
    (void)handle;
    return 0;
}

static toff_t ref_tiff_size(thandle_t handle)
{
    ref_tiff_state *state = (ref_tiff_state *)handle;
    return (toff_t)state->size;
}

static int ref_tiff_map(thandle_t handle, void **base, toff_t *size)
{
    ref_tiff_state *state = (ref_tiff_state *)handle;
    *base = (void *)state->data;   // read-only use: libtiff does not write in "r" mode
    *size = (toff_t)state->size;
    return 1;
}

static void ref_tiff_unmap(thandle_t handle, void *base, toff_t size)
{
    (void)handle;
    (void)base;
    (void)size;
}

// Opens `data` with per-call handlers; NULL when libtiff refuses it (message in state).
static TIFF *ref_tiff_open(ref_tiff_state *state, const uint8_t *data, size_t size)
{
    TIFFOpenOptions *options;
    TIFF *tif;

    memset(state, 0, sizeof(*state));
    state->data = data;
    state->size = size;
    ref_tiff_current = state;
    // Idempotent: the default global handlers print to stderr; ours only record.
    TIFFSetErrorHandler(ref_tiff_global_error);
    TIFFSetWarningHandler(ref_tiff_global_warning);

    if (data == NULL || size == 0) {
        ref_tiff_note_error(state, "empty input");
        return NULL;
    }
    options = TIFFOpenOptionsAlloc();
    if (options == NULL) {
        ref_tiff_note_error(state, "out of memory");
        return NULL;
    }
    TIFFOpenOptionsSetErrorHandlerExtR(options, ref_tiff_error_handler, state);
    TIFFOpenOptionsSetWarningHandlerExtR(options, ref_tiff_warning_handler, state);
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, REF_TIFF_MAX_SINGLE_ALLOC);
    tif = TIFFClientOpenExt("memory", "r", (thandle_t)state, ref_tiff_read, ref_tiff_write,
                            ref_tiff_seek, ref_tiff_close, ref_tiff_size, ref_tiff_map,
                            ref_tiff_unmap, options);
    TIFFOpenOptionsFree(options);   // libtiff copied what it needs
    if (tif == NULL && state->errors == 0) {
        ref_tiff_note_error(state, "TIFFClientOpen failed");
    }
    return tif;
}

// Ends a call: closes the handle (if any) and detaches the thread-local state.
static void ref_tiff_close_handle(TIFF *tif)
{
    if (tif != NULL) {
        TIFFClose(tif);
    }
    ref_tiff_current = NULL;
}

// Marks `out` as failed. The message is the latest libtiff error when libtiff reported one
// after `errors_before` errors (i.e. during the step that failed), else `fallback`.
static int ref_tiff_fail(PIRefImage *out, const ref_tiff_state *state, int errors_before,
                         const char *fallback)
{
    pi_ref_image_free(out);
    pi_ref_image_reset(out);
    out->status = -1;
    out->warnings = state->warnings + state->errors;
    if (state->errors > errors_before) {
        pi_ref_set_message(out->message, "%s", state->last_error);
    } else {
        pi_ref_set_message(out->message, "%s", fallback);
    }
    return -1;
}

// Success: status 1 when libtiff reported anything (warnings, or errors it recovered from).
static int ref_tiff_finish(PIRefImage *out, const ref_tiff_state *state)
{
    out->warnings = state->warnings + state->errors;
    out->status = out->warnings > 0 ? 1 : 0;
    if (state->errors > 0) {
        pi_ref_set_message(out->message, "%s", state->error);
    } else {
        pi_ref_set_message(out->message, "%s", state->warning);
    }
    return out->status;
}

// Selects page `page` (page 0 is current after opening). Returns 0 or -1.
static int ref_tiff_select_page(TIFF *tif, int page)
{
    if (page < 0) {
        return -1;
    }
    if (page == 0) {
        return 0;
    }
    return TIFFSetDirectory(tif, (tdir_t)page) ? 0 : -1;
}

// ---- public API --------------------------------------------------------------------------

int pi_ref_tiff_page_count(const uint8_t *data, size_t size)
{
    ref_tiff_state state;
    TIFF *tif = ref_tiff_open(&state, data, size);
    tdir_t count;
    if (tif == NULL) {
        ref_tiff_close_handle(NULL);
        return -1;
    }
    // libtiff walks the IFD chain and stops (with an error message) at a loop.
    count = TIFFNumberOfDirectories(tif);
    ref_tiff_close_handle(tif);
    return count > (tdir_t)INT32_MAX ? INT32_MAX : (int)count;
}

int pi_ref_tiff_decode_rgba(const uint8_t *data, size_t size, int page, PIRefImage *out)
{
    ref_tiff_state state;
    TIFF *tif;
    char reason[1024];
    int before;
    uint32_t width = 0, height = 0;
    uint32_t *raster;
    uint8_t *bytes;
    size_t count, total, i;

    if (out == NULL) {
        return -1;
    }
    pi_ref_image_reset(out);
    tif = ref_tiff_open(&state, data, size);
    if (tif == NULL) {
        ref_tiff_close_handle(NULL);
        return ref_tiff_fail(out, &state, 0, "cannot open TIFF data");
    }
    before = state.errors;
    if (ref_tiff_select_page(tif, page) != 0) {
        ref_tiff_close_handle(tif);
        return ref_tiff_fail(out, &state, before, "no such page");
    }
    reason[0] = '\0';
    if (!TIFFRGBAImageOK(tif, reason)) {
        ref_tiff_close_handle(tif);
        return ref_tiff_fail(out, &state, state.errors,
                             reason[0] != '\0' ? reason : "TIFFRGBAImageOK refused the image");
    }
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &width) ||
        !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &height) ||
        pi_ref_check_dimensions((long long)width, (long long)height) != 0) {
        ref_tiff_close_handle(tif);
        return ref_tiff_fail(out, &state, state.errors, "image too large or empty");
    }
    count = (size_t)width * (size_t)height;   // <= PI_REF_MAX_PIXELS, cannot overflow
    if (pi_ref_mul_size(count, sizeof(uint32_t), &total) != 0) {
        ref_tiff_close_handle(tif);
        return ref_tiff_fail(out, &state, state.errors, "image too large");
    }
    // Zeroed, so pixels libtiff skips (it keeps going past bad strips) are deterministic.
    raster = (uint32_t *)calloc(count, sizeof(uint32_t));
    pi_ref_advise_huge_pages(raster, count * sizeof(uint32_t));
    if (raster == NULL) {
        ref_tiff_close_handle(tif);
        return ref_tiff_fail(out, &state, state.errors, "out of memory");
    }
    before = state.errors;
    if (!TIFFReadRGBAImageOriented(tif, width, height, raster, ORIENTATION_TOPLEFT, 0)) {
        free(raster);
        ref_tiff_close_handle(tif);
        return ref_tiff_fail(out, &state, before, "TIFFReadRGBAImageOriented failed");
    }
    ref_tiff_close_handle(tif);

    // Each ABGR-packed uint32 becomes the bytes R, G, B, A in place (same 4 bytes).
    bytes = (uint8_t *)raster;
    for (i = 0; i < count; i++) {
        uint32_t pixel = raster[i];
        bytes[i * 4 + 0] = (uint8_t)TIFFGetR(pixel);
        bytes[i * 4 + 1] = (uint8_t)TIFFGetG(pixel);
        bytes[i * 4 + 2] = (uint8_t)TIFFGetB(pixel);
        bytes[i * 4 + 3] = (uint8_t)TIFFGetA(pixel);
    }
    out->pixels = bytes;
    out->size = total;
    out->width = (int)width;
    out->height = (int)height;
    out->channels = 4;
    out->bits = 8;
    return ref_tiff_finish(out, &state);
}

// Layout of the page being read natively.
typedef struct {
    uint32_t width, height;
    uint16_t spp;             // samples per pixel
    uint16_t bytes;           // bytes per sample (1 or 2)
    int separate;             // PLANARCONFIG_SEPARATE
    size_t pixel_bytes;       // spp * bytes
    size_t row_bytes;         // width * pixel_bytes (output row)
} ref_tiff_layout;

// Copies `rows` x `cols` pixels (one plane, or all samples when contiguous) from a decoded
// strip/tile buffer with `src_row_bytes` per row into the output at (x0, y0).
static void ref_tiff_copy_block(const ref_tiff_layout *layout, uint8_t *pixels,
                                const uint8_t *src, size_t src_row_bytes, uint32_t x0,
                                uint32_t y0, uint32_t cols, uint32_t rows, uint16_t plane)
{
    uint32_t r, c;
    for (r = 0; r < rows; r++) {
        const uint8_t *s = src + (size_t)r * src_row_bytes;
        uint8_t *d = pixels + (size_t)(y0 + r) * layout->row_bytes +
                     (size_t)x0 * layout->pixel_bytes;
        if (!layout->separate) {
            memcpy(d, s, (size_t)cols * layout->pixel_bytes);
            continue;
        }
        d += (size_t)plane * layout->bytes;
        for (c = 0; c < cols; c++) {
            memcpy(d, s, layout->bytes);
            d += layout->pixel_bytes;
            s += layout->bytes;
        }
    }
}

// Records a short strip/tile as a warning of our own (the missing part stays zero).
static void ref_tiff_short_read(ref_tiff_state *state, const char *what, uint32_t index,
                                tmsize_t got, size_t wanted)
{
    if (state->warnings == 0) {
        pi_ref_set_message(state->warning, "%s %u: %lld of %llu bytes decoded", what,
                           (unsigned)index, (long long)got, (unsigned long long)wanted);
    }
    state->warnings++;
}

// Reads every strip into `pixels`. Returns 0, or -1 after a libtiff read error.
static int ref_tiff_read_strips(TIFF *tif, ref_tiff_state *state,
                                const ref_tiff_layout *layout, uint8_t *pixels,
                                const char **problem)
{
    uint32_t rows_per_strip = 0;
    uint32_t strips_per_plane, strip, nstrips;
    uint16_t planes = layout->separate ? layout->spp : 1;
    uint16_t plane;
    size_t strip_row_bytes = layout->separate ? (size_t)layout->width * layout->bytes
                                              : layout->row_bytes;
    size_t buffer_size;
    uint8_t *buffer;

    if (TIFFScanlineSize64(tif) != (uint64_t)strip_row_bytes) {
        *problem = "unsupported sample layout (scanline size mismatch, e.g. YCbCr subsampling)";
        return -1;
    }
    TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
    if (rows_per_strip == 0 || rows_per_strip > layout->height) {
        rows_per_strip = layout->height;
    }
    strips_per_plane = (layout->height - 1) / rows_per_strip + 1;
    nstrips = TIFFNumberOfStrips(tif);
    if ((uint64_t)nstrips < (uint64_t)strips_per_plane * planes) {
        *problem = "fewer strips than the image needs";
        return -1;
    }
    if (pi_ref_mul_size(strip_row_bytes, rows_per_strip, &buffer_size) != 0) {
        *problem = "strip too large";
        return -1;
    }
    buffer = (uint8_t *)malloc(buffer_size);
    if (buffer == NULL) {
        *problem = "out of memory";
        return -1;
    }
    for (plane = 0; plane < planes; plane++) {
        for (strip = 0; strip < strips_per_plane; strip++) {
            uint32_t y0 = strip * rows_per_strip;
            uint32_t rows = layout->height - y0 < rows_per_strip ? layout->height - y0
                                                                 : rows_per_strip;
            size_t wanted = strip_row_bytes * rows;
            uint32_t index = plane * strips_per_plane + strip;
            tmsize_t got;
            memset(buffer, 0, wanted);
            got = TIFFReadEncodedStrip(tif, index, buffer, (tmsize_t)wanted);
            if (got < 0) {
                free(buffer);
                return -1;
            }
            if ((size_t)got < wanted) {
                ref_tiff_short_read(state, "strip", index, got, wanted);
            }
            ref_tiff_copy_block(layout, pixels, buffer, strip_row_bytes, 0, y0, layout->width,
                                rows, plane);
        }
    }
    free(buffer);
    return 0;
}

// Reads every tile into `pixels`, clipping the tiles at the right and bottom edges.
static int ref_tiff_read_tiles(TIFF *tif, ref_tiff_state *state, const ref_tiff_layout *layout,
                               uint8_t *pixels, const char **problem)
{
    uint32_t tile_width = 0, tile_height = 0, x, y, ntiles;
    uint16_t planes = layout->separate ? layout->spp : 1;
    uint16_t plane;
    size_t tile_row_bytes, tile_bytes;
    uint8_t *buffer;

    if (!TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tile_width) ||
        !TIFFGetField(tif, TIFFTAG_TILELENGTH, &tile_height) ||
        pi_ref_check_dimensions((long long)tile_width, (long long)tile_height) != 0) {
        *problem = "bad tile size";
        return -1;
    }
    tile_row_bytes = (size_t)tile_width * (layout->separate ? layout->bytes : layout->pixel_bytes);
    if (TIFFTileRowSize64(tif) != (uint64_t)tile_row_bytes) {
        *problem = "unsupported sample layout (tile row size mismatch, e.g. YCbCr subsampling)";
        return -1;
    }
    if (pi_ref_mul_size(tile_row_bytes, tile_height, &tile_bytes) != 0) {
        *problem = "tile too large";
        return -1;
    }
    buffer = (uint8_t *)malloc(tile_bytes);
    if (buffer == NULL) {
        *problem = "out of memory";
        return -1;
    }
    ntiles = TIFFNumberOfTiles(tif);
    // Image and tile sizes are both <= PI_REF_MAX_PIXELS (2^28), so x + tile_width and
    // y + tile_height cannot wrap around.
    for (plane = 0; plane < planes; plane++) {
        for (y = 0; y < layout->height; y += tile_height) {
            uint32_t rows = layout->height - y < tile_height ? layout->height - y : tile_height;
            for (x = 0; x < layout->width; x += tile_width) {
                uint32_t cols = layout->width - x < tile_width ? layout->width - x : tile_width;
                uint32_t tile = TIFFComputeTile(tif, x, y, 0, plane);
                tmsize_t got;
                if (tile >= ntiles) {
                    free(buffer);
                    *problem = "fewer tiles than the image needs";
                    return -1;
                }
                memset(buffer, 0, tile_bytes);
                got = TIFFReadEncodedTile(tif, tile, buffer, (tmsize_t)tile_bytes);
                if (got < 0) {
                    free(buffer);
                    return -1;
                }
                if ((size_t)got < tile_bytes) {
                    ref_tiff_short_read(state, "tile", tile, got, tile_bytes);
                }
                ref_tiff_copy_block(layout, pixels, buffer, tile_row_bytes, x, y, cols, rows,
                                    plane);
            }
        }
    }
    free(buffer);
    return 0;
}

int pi_ref_tiff_decode_native(const uint8_t *data, size_t size, int page, PIRefImage *out)
{
    ref_tiff_state state;
    ref_tiff_layout layout;
    TIFF *tif;
    uint16_t bits = 1, planar = PLANARCONFIG_CONTIG, photometric = 0, compression = 0;
    uint8_t *pixels;
    size_t total;
    const char *problem = NULL;
    int result;
    int before;

    if (out == NULL) {
        return -1;
    }
    pi_ref_image_reset(out);
    memset(&layout, 0, sizeof(layout));
    tif = ref_tiff_open(&state, data, size);
    if (tif == NULL) {
        ref_tiff_close_handle(NULL);
        return ref_tiff_fail(out, &state, 0, "cannot open TIFF data");
    }
    before = state.errors;
    if (ref_tiff_select_page(tif, page) != 0) {
        ref_tiff_close_handle(tif);
        return ref_tiff_fail(out, &state, before, "no such page");
    }

    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &layout.spp);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
    TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric);
    if (bits != 8 && bits != 16) {
        ref_tiff_close_handle(tif);
        return ref_tiff_fail(out, &state, state.errors, "unsupported bits per sample");
    }
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &layout.width) ||
        !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &layout.height) ||
        pi_ref_check_dimensions((long long)layout.width, (long long)layout.height) != 0 ||
        layout.spp == 0) {
        ref_tiff_close_handle(tif);
        return ref_tiff_fail(out, &state, state.errors, "image too large or empty");
    }
    // JPEG-compressed YCbCr: let libjpeg convert to RGB (the only way the decoded samples
    // form whole rows when the chroma is subsampled), as libtiff's own tools do.
    if (photometric == PHOTOMETRIC_YCBCR && compression == COMPRESSION_JPEG) {
        TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
    }

    layout.bytes = (uint16_t)(bits / 8);
    layout.separate = planar == PLANARCONFIG_SEPARATE;
    layout.pixel_bytes = (size_t)layout.spp * layout.bytes;
    if (pi_ref_mul_size((size_t)layout.width, layout.pixel_bytes, &layout.row_bytes) != 0 ||
        pi_ref_mul_size(layout.row_bytes, (size_t)layout.height, &total) != 0 ||
        (uint64_t)total > (uint64_t)PI_REF_MAX_PIXELS * 8) {
        ref_tiff_close_handle(tif);
        return ref_tiff_fail(out, &state, state.errors, "image too large");
    }
    pixels = (uint8_t *)calloc(total, 1);
    if (pixels == NULL) {
        ref_tiff_close_handle(tif);
        return ref_tiff_fail(out, &state, state.errors, "out of memory");
    }

    before = state.errors;
    if (TIFFIsTiled(tif)) {
        result = ref_tiff_read_tiles(tif, &state, &layout, pixels, &problem);
    } else {
        result = ref_tiff_read_strips(tif, &state, &layout, pixels, &problem);
    }
    ref_tiff_close_handle(tif);
    if (result != 0) {
        free(pixels);
        if (problem != NULL) {
            return ref_tiff_fail(out, &state, state.errors, problem);
        }
        return ref_tiff_fail(out, &state, before, "strip or tile read failed");
    }
    out->pixels = pixels;
    out->size = total;
    out->width = (int)layout.width;
    out->height = (int)layout.height;
    out->channels = layout.spp;
    out->bits = bits;
    return ref_tiff_finish(out, &state);
}

// ---- decoded samples, any depth ----------------------------------------------------------

// Copies `count` bits from `src` at bit `sbit` to `dst` at bit `dbit` (most significant bit
// first); whole bytes when both offsets and the count are byte-aligned.
static void ref_tiff_copy_bits(uint8_t *dst, uint64_t dbit, const uint8_t *src, uint64_t sbit,
                               uint64_t count)
{
    uint64_t i;
    if ((dbit & 7) == 0 && (sbit & 7) == 0 && (count & 7) == 0) {
        memcpy(dst + (dbit >> 3), src + (sbit >> 3), (size_t)(count >> 3));
        return;
    }
    for (i = 0; i < count; i++) {
        uint64_t s = sbit + i, d = dbit + i;
        uint8_t mask = (uint8_t)(0x80 >> (d & 7));
        if ((src[s >> 3] >> (7 - (s & 7))) & 1) {
            dst[d >> 3] |= mask;
        } else {
            dst[d >> 3] &= (uint8_t)~mask;
        }
    }
}

// Places `rows` x `cols` pixels of one decoded chunk (rows of `src_row_bytes`; one plane, or
// every sample when contiguous) at (x0, y0) of the output, whose rows are `row_bytes` long.
static void ref_tiff_place(uint8_t *pixels, uint64_t row_bytes, const uint8_t *src,
                           uint64_t src_row_bytes, uint32_t x0, uint32_t y0, uint32_t cols,
                           uint32_t rows, uint16_t bits, uint16_t spp, int separate,
                           uint16_t plane)
{
    uint32_t r, c;
    for (r = 0; r < rows; r++) {
        const uint8_t *s = src + (uint64_t)r * src_row_bytes;
        uint8_t *d = pixels + (uint64_t)(y0 + r) * row_bytes;
        if (!separate) {
            ref_tiff_copy_bits(d, (uint64_t)x0 * spp * bits, s, 0, (uint64_t)cols * spp * bits);
            continue;
        }
        for (c = 0; c < cols; c++) {
            ref_tiff_copy_bits(d, ((uint64_t)(x0 + c) * spp + plane) * bits, s, (uint64_t)c * bits,
                               bits);
        }
    }
}

int pi_ref_tiff_decode_samples(const uint8_t *data, size_t size, int page, PIRefImage *out,
                               int *sample_format, int *chunked)
{
    ref_tiff_state state;
    TIFF *tif;
    uint32_t width = 0, height = 0;
    uint16_t bits = 1, spp = 1, planar = PLANARCONFIG_CONTIG, photometric = 0;
    uint16_t compression = 0, format = SAMPLEFORMAT_UINT, sub_h = 1, sub_v = 1;
    uint64_t row_bytes, total;
    uint8_t *pixels = NULL, *buffer = NULL;
    int separate, subsampled, before;
    uint16_t planes, plane;
    uint32_t nchunks, i;

    if (out == NULL || sample_format == NULL || chunked == NULL) {
        return -1;
    }
    pi_ref_image_reset(out);
    *sample_format = 1;
    *chunked = 0;
    tif = ref_tiff_open(&state, data, size);
    if (tif == NULL) {
        ref_tiff_close_handle(NULL);
        return ref_tiff_fail(out, &state, 0, "cannot open TIFF data");
    }
    before = state.errors;
    if (ref_tiff_select_page(tif, page) != 0) {
        ref_tiff_close_handle(tif);
        return ref_tiff_fail(out, &state, before, "no such page");
    }
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric);
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &width) ||
        !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &height) ||
        pi_ref_check_dimensions((long long)width, (long long)height) != 0 || spp == 0 ||
        bits == 0 || bits > 64) {
        ref_tiff_close_handle(tif);
        return ref_tiff_fail(out, &state, state.errors, "image too large, empty or of unknown depth");
    }
    *sample_format = format;
    separate = planar == PLANARCONFIG_SEPARATE && spp > 1;
    if (photometric == PHOTOMETRIC_YCBCR && compression == COMPRESSION_JPEG) {
        // libjpeg converts to RGB: the only way the samples form whole rows when subsampled.
        TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
    }
    TIFFGetFieldDefaulted(tif, TIFFTAG_YCBCRSUBSAMPLING, &sub_h, &sub_v);
    // Old-style JPEG has no JPEGCOLORMODE: libtiff hands out its raw data units too.
    subsampled = photometric == PHOTOMETRIC_YCBCR && compression != COMPRESSION_JPEG &&
                 !separate && (sub_h != 1 || sub_v != 1);
    nchunks = TIFFIsTiled(tif) ? TIFFNumberOfTiles(tif) : TIFFNumberOfStrips(tif);

    if (subsampled) {
        // Data units (h x v luma samples, Cb, Cr) have no per-pixel layout: every chunk's
        // decoded bytes, in file order.
        tmsize_t chunk_size = TIFFIsTiled(tif) ? TIFFTileSize(tif) : TIFFStripSize(tif);
        uint64_t used = 0;
        if (chunk_size <= 0 || (uint64_t)chunk_size * nchunks > ((uint64_t)1 << 31)) {
            ref_tiff_close_handle(tif);
            return ref_tiff_fail(out, &state, state.errors, "data units too large");
        }
        pixels = (uint8_t *)calloc((size_t)chunk_size * nchunks + 1, 1);
        if (pixels == NULL) {
            ref_tiff_close_handle(tif);
            return ref_tiff_fail(out, &state, state.errors, "out of memory");
        }
        before = state.errors;
        for (i = 0; i < nchunks; i++) {
            tmsize_t got = TIFFIsTiled(tif) ? TIFFReadEncodedTile(tif, i, pixels + used, chunk_size)
                                            : TIFFReadEncodedStrip(tif, i, pixels + used, chunk_size);
            if (got < 0) {
                free(pixels);
                ref_tiff_close_handle(tif);
                return ref_tiff_fail(out, &state, before, "strip or tile read failed");
            }
            used += (uint64_t)got;
        }
        ref_tiff_close_handle(tif);
        *chunked = 1;
        out->pixels = pixels;
        out->size = (size_t)used;
        out->width = (int)width;
        out->height = (int)height;
        out->channels = spp;
        out->bits = bits;
        return ref_tiff_finish(out, &state);
    }

    row_bytes = ((uint64_t)width * spp * bits + 7) / 8;
    total = row_bytes * height;
    if (total > ((uint64_t)1 << 31)) {
        ref_tiff_close_handle(tif);
        return ref_tiff_fail(out, &state, state.errors, "image too large");
    }
    pixels = (uint8_t *)calloc((size_t)total + 1, 1);
    if (pixels == NULL) {
        ref_tiff_close_handle(tif);
        return ref_tiff_fail(out, &state, state.errors, "out of memory");
    }
    planes = separate ? spp : 1;
    before = state.errors;
    if (TIFFIsTiled(tif)) {
        uint32_t tile_width = 0, tile_height = 0, x, y;
        uint64_t tile_row_bytes, tile_bytes;
        if (!TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tile_width) ||
            !TIFFGetField(tif, TIFFTAG_TILELENGTH, &tile_height) ||
            pi_ref_check_dimensions((long long)tile_width, (long long)tile_height) != 0) {
            free(pixels);
            ref_tiff_close_handle(tif);
            return ref_tiff_fail(out, &state, state.errors, "bad tile size");
        }
        tile_row_bytes = ((uint64_t)tile_width * (separate ? 1 : spp) * bits + 7) / 8;
        tile_bytes = tile_row_bytes * tile_height;
        if ((uint64_t)TIFFTileRowSize64(tif) != tile_row_bytes || tile_bytes > ((uint64_t)1 << 31) ||
            (buffer = (uint8_t *)malloc((size_t)tile_bytes)) == NULL) {
            free(pixels);
            ref_tiff_close_handle(tif);
            return ref_tiff_fail(out, &state, state.errors, "unsupported tile layout");
        }
        for (plane = 0; plane < planes; plane++) {
            for (y = 0; y < height; y += tile_height) {
                uint32_t rows = height - y < tile_height ? height - y : tile_height;
                for (x = 0; x < width; x += tile_width) {
                    uint32_t cols = width - x < tile_width ? width - x : tile_width;
                    uint32_t tile = TIFFComputeTile(tif, x, y, 0, plane);
                    tmsize_t got;
                    memset(buffer, 0, (size_t)tile_bytes);
                    got = tile < nchunks ? TIFFReadEncodedTile(tif, tile, buffer, (tmsize_t)tile_bytes) : -1;
                    if (got < 0) {
                        free(buffer);
                        free(pixels);
                        ref_tiff_close_handle(tif);
                        return ref_tiff_fail(out, &state, before, "tile read failed");
                    }
                    ref_tiff_place(pixels, row_bytes, buffer, tile_row_bytes, x, y, cols, rows,
                                   bits, spp, separate, plane);
                }
            }
        }
    } else {
        uint32_t rows_per_strip = 0, strips_per_plane, strip;
        uint64_t strip_row_bytes = ((uint64_t)width * (separate ? 1 : spp) * bits + 7) / 8;
        uint64_t buffer_size;
        TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
        if (rows_per_strip == 0 || rows_per_strip > height) {
            rows_per_strip = height;
        }
        strips_per_plane = (height - 1) / rows_per_strip + 1;
        buffer_size = strip_row_bytes * rows_per_strip;
        if ((uint64_t)TIFFScanlineSize64(tif) != strip_row_bytes ||
            (uint64_t)nchunks < (uint64_t)strips_per_plane * planes || buffer_size > ((uint64_t)1 << 31) ||
            (buffer = (uint8_t *)malloc((size_t)buffer_size + 1)) == NULL) {
            free(pixels);
            ref_tiff_close_handle(tif);
            return ref_tiff_fail(out, &state, state.errors, "unsupported strip layout");
        }
        for (plane = 0; plane < planes; plane++) {
            for (strip = 0; strip < strips_per_plane; strip++) {
                uint32_t y0 = strip * rows_per_strip;
                uint32_t rows = height - y0 < rows_per_strip ? height - y0 : rows_per_strip;
                tmsize_t got;
                memset(buffer, 0, (size_t)buffer_size);
                got = TIFFReadEncodedStrip(tif, plane * strips_per_plane + strip, buffer,
                                           (tmsize_t)(strip_row_bytes * rows));
                if (got < 0) {
                    free(buffer);
                    free(pixels);
                    ref_tiff_close_handle(tif);
                    return ref_tiff_fail(out, &state, before, "strip read failed");
                }
                ref_tiff_place(pixels, row_bytes, buffer, strip_row_bytes, 0, y0, width, rows, bits,
                               spp, separate, plane);
            }
        }
    }
    free(buffer);
    ref_tiff_close_handle(tif);
    // Row padding bits are zero (the placement never writes past the last sample).
    out->pixels = pixels;
    out->size = (size_t)total;
    out->width = (int)width;
    out->height = (int)height;
    out->channels = spp;
    out->bits = bits;
    return ref_tiff_finish(out, &state);
}
