// libjpeg-turbo reference decoder: whole-image decode and buffered-image (per-scan) decode.
//
// Errors: libjpeg reports fatal errors through error_exit, which must not return. Ours
// longjmps back to the setjmp in the calling function, which destroys the decompressor and
// frees whatever was allocated. Warnings (emit_message with msg_level -1, e.g. "Premature end
// of JPEG file") are counted and the first one is kept; decoding goes on.
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>   // jpeglib.h needs FILE and size_t declared first
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "reference_internal.h"

// Rows handed to jpeg_read_scanlines per call (libjpeg returns at most rec_outbuf_height).
#define REF_JPEG_ROWS_PER_CALL 16

// libjpeg's error manager extended with our per-call state. `pub` must stay first so that
// cinfo->err (a struct jpeg_error_mgr *) can be cast back to this type.
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;                        // where error_exit returns to
    int warnings;                        // warnings seen so far
    char warning[PI_REF_MESSAGE_SIZE];   // first warning text, "" when none
    char error[PI_REF_MESSAGE_SIZE];     // fatal error text
} ref_jpeg_error;

// Fatal error: keep the library's text and jump back to the caller's setjmp.
static void ref_jpeg_error_exit(j_common_ptr cinfo)
{
    ref_jpeg_error *err = (ref_jpeg_error *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    pi_ref_set_message(err->error, "%s", text);
    longjmp(err->jump, 1);
}

// Warnings (msg_level -1) are counted, the first is recorded; trace messages (>= 0) ignored.
static void ref_jpeg_emit_message(j_common_ptr cinfo, int msg_level)
{
    ref_jpeg_error *err = (ref_jpeg_error *)cinfo->err;
    if (msg_level >= 0) {
        return;
    }
    cinfo->err->num_warnings++;   // keep libjpeg's own counter consistent too
    if (err->warnings == 0) {
        char text[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, text);
        pi_ref_set_message(err->warning, "%s", text);
    }
    err->warnings++;
}

// Never print anything (only reachable if libjpeg called it directly).
static void ref_jpeg_output_message(j_common_ptr cinfo)
{
    (void)cinfo;
}

// Our own fatal error (bad argument, unsupported layout, size limit): same path as libjpeg's.
static void ref_jpeg_fail(ref_jpeg_error *err, const char *text)
{
    pi_ref_set_message(err->error, "%s", text);
    longjmp(err->jump, 1);
}

static void ref_jpeg_init_error(ref_jpeg_error *err)
{
    memset(err, 0, sizeof(*err));
    jpeg_std_error(&err->pub);
    err->pub.error_exit = ref_jpeg_error_exit;
    err->pub.emit_message = ref_jpeg_emit_message;
    err->pub.output_message = ref_jpeg_output_message;
}

// Applies the decoding parameters shared by both entry points, after jpeg_read_header:
// default output colour space (YCbCr forced to RGB), scaling 1/scale_denom, ISLOW IDCT, fancy
// upsampling. Then checks the output size against the pixel limit.
static void ref_jpeg_configure(j_decompress_ptr cinfo, ref_jpeg_error *err, int scale_denom)
{
    switch (cinfo->out_color_space) {
    case JCS_GRAYSCALE:
    case JCS_RGB:
    case JCS_CMYK:
        break;   // libjpeg's default is what we want
    case JCS_YCbCr:
        cinfo->out_color_space = JCS_RGB;   // never the default in practice; be explicit
        break;
    default:
        // JCS_UNKNOWN: 2 components or more than 4, which libjpeg cannot colour-convert.
        ref_jpeg_fail(err, "unsupported JPEG colour space (not gray, RGB/YCbCr or CMYK/YCCK)");
        break;
    }
    cinfo->scale_num = 1;
    cinfo->scale_denom = (unsigned int)scale_denom;
    cinfo->dct_method = JDCT_ISLOW;
    cinfo->do_fancy_upsampling = TRUE;

    jpeg_calc_output_dimensions(cinfo);
    if (pi_ref_check_dimensions((long long)cinfo->output_width,
                                (long long)cinfo->output_height) != 0) {
        ref_jpeg_fail(err, "image too large");
    }
}

// Checks the arguments common to both entry points; returns NULL or the problem.
static const char *ref_jpeg_check_input(const uint8_t *data, size_t size)
{
    if (data == NULL || size == 0) {
        return "empty input";
    }
    if ((unsigned long long)size > (unsigned long long)ULONG_MAX) {
        return "input too large";
    }
    return NULL;
}

// Reads every output scanline of the current pass into `pixels` (rows of row_bytes).
static void ref_jpeg_read_rows(j_decompress_ptr cinfo, ref_jpeg_error *err, uint8_t *pixels,
                               size_t row_bytes)
{
    JSAMPROW rows[REF_JPEG_ROWS_PER_CALL];
    while (cinfo->output_scanline < cinfo->output_height) {
        JDIMENSION first = cinfo->output_scanline;
        JDIMENSION count = cinfo->output_height - first;
        JDIMENSION i;
        JDIMENSION got;
        if (count > REF_JPEG_ROWS_PER_CALL) {
            count = REF_JPEG_ROWS_PER_CALL;
        }
        for (i = 0; i < count; i++) {
            rows[i] = pixels + (size_t)(first + i) * row_bytes;
        }
        got = jpeg_read_scanlines(cinfo, rows, count);
        if (got == 0) {
            // Only a suspending data source returns 0; the memory source never suspends.
            ref_jpeg_fail(err, "libjpeg returned no scanlines");
        }
    }
}

// Allocates the output buffer for the current output dimensions; returns its size in *size.
static uint8_t *ref_jpeg_alloc_output(j_decompress_ptr cinfo, ref_jpeg_error *err,
                                      size_t *row_bytes, size_t *size)
{
    uint8_t *pixels;
    if (pi_ref_mul_size((size_t)cinfo->output_width, (size_t)cinfo->output_components,
                        row_bytes) != 0 ||
        pi_ref_mul_size(*row_bytes, (size_t)cinfo->output_height, size) != 0) {
        ref_jpeg_fail(err, "image too large");
    }
    pixels = (uint8_t *)malloc(*size);
    pi_ref_advise_huge_pages(pixels, *size);
    if (pixels == NULL) {
        ref_jpeg_fail(err, "out of memory");
    }
    return pixels;
}

int pi_ref_jpeg_decode(const uint8_t *data, size_t size, int scale_denom, PIRefImage *out)
{
    struct jpeg_decompress_struct cinfo;
    ref_jpeg_error err;
    // Assigned after setjmp and read after longjmp, hence volatile.
    uint8_t *volatile pixels = NULL;
    volatile int created = 0;
    const char *problem;
    size_t row_bytes = 0;
    size_t total = 0;

    if (out == NULL) {
        return -1;
    }
    pi_ref_image_reset(out);
    problem = ref_jpeg_check_input(data, size);
    if (problem == NULL && scale_denom != 1 && scale_denom != 2 && scale_denom != 4 &&
        scale_denom != 8) {
        problem = "scale_denom must be 1, 2, 4 or 8";
    }
    if (problem != NULL) {
        out->status = -1;
        pi_ref_set_message(out->message, "%s", problem);
        return -1;
    }

    ref_jpeg_init_error(&err);
    cinfo.err = &err.pub;
    if (setjmp(err.jump)) {
        // Fatal error anywhere below: no pixels, the error text as message.
        if (created) {
            jpeg_destroy_decompress(&cinfo);
        }
        free(pixels);
        pi_ref_image_reset(out);
        out->status = -1;
        out->warnings = err.warnings;
        pi_ref_set_message(out->message, "%s", err.error);
        return -1;
    }

    jpeg_create_decompress(&cinfo);
    created = 1;
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    ref_jpeg_configure(&cinfo, &err, scale_denom);
    jpeg_start_decompress(&cinfo);

    pixels = ref_jpeg_alloc_output(&cinfo, &err, &row_bytes, &total);
    ref_jpeg_read_rows(&cinfo, &err, pixels, row_bytes);
    jpeg_finish_decompress(&cinfo);

    out->pixels = pixels;
    out->size = total;
    out->width = (int)cinfo.output_width;
    out->height = (int)cinfo.output_height;
    out->channels = cinfo.output_components;
    out->bits = 8;
    out->warnings = err.warnings;
    out->status = err.warnings > 0 ? 1 : 0;
    pi_ref_set_message(out->message, "%s", err.warning);
    jpeg_destroy_decompress(&cinfo);
    return out->status;
}

// Buffered-image mode, following libjpeg.txt "Buffered-image mode": after
// jpeg_start_decompress, repeatedly absorb input until a scan completes (or EOI), then run an
// output pass for the latest input scan and hand the rendered image to the callback. The last
// pass is the one made after the input is complete.
int pi_ref_jpeg_decode_scans(const uint8_t *data, size_t size, void *context,
                             pi_ref_scan_callback callback, char out_message[256])
{
    struct jpeg_decompress_struct cinfo;
    ref_jpeg_error err;
    uint8_t *volatile pixels = NULL;
    volatile int created = 0;
    volatile int passes = 0;
    const char *problem;
    size_t row_bytes = 0;
    size_t total = 0;
    PIRefImage image;

    if (out_message != NULL) {
        out_message[0] = '\0';
    }
    problem = ref_jpeg_check_input(data, size);
    if (problem != NULL) {
        if (out_message != NULL) {
            pi_ref_set_message(out_message, "%s", problem);
        }
        return -1;
    }

    ref_jpeg_init_error(&err);
    cinfo.err = &err.pub;
    if (setjmp(err.jump)) {
        if (created) {
            jpeg_destroy_decompress(&cinfo);
        }
        free(pixels);
        if (out_message != NULL) {
            pi_ref_set_message(out_message, "%s", err.error);
        }
        return -1;
    }

    jpeg_create_decompress(&cinfo);
    created = 1;
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    ref_jpeg_configure(&cinfo, &err, 1);
    cinfo.buffered_image = TRUE;
    // do_block_smoothing keeps its default (TRUE), as the brief for this API asks.
    jpeg_start_decompress(&cinfo);

    pixels = ref_jpeg_alloc_output(&cinfo, &err, &row_bytes, &total);

    do {
        int status;
        // Absorb input until a whole scan is in the coefficient buffer or the input ends.
        do {
            status = jpeg_consume_input(&cinfo);
        } while (status != JPEG_SCAN_COMPLETED && status != JPEG_REACHED_EOI &&
                 status != JPEG_SUSPENDED);
        if (status == JPEG_SUSPENDED) {
            ref_jpeg_fail(&err, "libjpeg suspended on in-memory input");
        }
        // EOI reached with nothing new since the last pass: the final image is already shown.
        if (status == JPEG_REACHED_EOI && passes > 0 &&
            cinfo.output_scan_number == cinfo.input_scan_number) {
            break;
        }

        jpeg_start_output(&cinfo, cinfo.input_scan_number);
        ref_jpeg_read_rows(&cinfo, &err, pixels, row_bytes);
        jpeg_finish_output(&cinfo);
        passes++;

        if (callback != NULL) {
            pi_ref_image_reset(&image);
            image.pixels = pixels;
            image.size = total;
            image.width = (int)cinfo.output_width;
            image.height = (int)cinfo.output_height;
            image.channels = cinfo.output_components;
            image.bits = 8;
            image.warnings = err.warnings;
            image.status = err.warnings > 0 ? 1 : 0;
            pi_ref_set_message(image.message, "%s", err.warning);
            callback(context, cinfo.output_scan_number, &image);
        }
    } while (!jpeg_input_complete(&cinfo));

    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    free(pixels);
    if (out_message != NULL) {
        pi_ref_set_message(out_message, "%s", err.warning);
    }
    return passes;
}

// The bench's properties row: jpeg_read_header alone (markers up to the first SOS), keeping
// APP1 and APP2 as a properties call keeps EXIF and ICC. Returns the width, -1 when refused.
int pi_ref_jpeg_header_width(const uint8_t *data, size_t size)
{
    struct jpeg_decompress_struct cinfo;
    ref_jpeg_error err;
    volatile int width = -1;
    if (ref_jpeg_check_input(data, size) != NULL) {
        return -1;
    }
    ref_jpeg_init_error(&err);
    cinfo.err = &err.pub;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_save_markers(&cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&cinfo, JPEG_APP0 + 2, 0xFFFF);
    if (jpeg_read_header(&cinfo, TRUE) == JPEG_HEADER_OK) {
        width = (int)cinfo.image_width;
    }
    jpeg_destroy_decompress(&cinfo);
    return width;
}
