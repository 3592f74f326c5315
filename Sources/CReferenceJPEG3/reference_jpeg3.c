// libjpeg-turbo 3.x loaded at run time (see CReferenceJPEG3.h). Errors follow the pattern of
// CReference's reference_jpeg.c: libjpeg's error_exit longjmps back to the setjmp of the call,
// which destroys the decompressor; warnings are counted and the first one kept.
#include <dlfcn.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>   // jpeglib.h needs FILE and size_t declared first
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>   // with this target's jpeg80/jconfig.h: the libjpeg 8 struct layouts

#include "CReferenceJPEG3.h"

#if JPEG_LIB_VERSION != 80
#error "jpeg80/jconfig.h must come first on the include path"
#endif

// The sample types of libjpeg-turbo 3's 12- and 16-bit APIs (jmorecfg.h of 3.x).
typedef short J12SAMPLE;
typedef J12SAMPLE *J12SAMPROW;
typedef unsigned short J16SAMPLE;
typedef J16SAMPLE *J16SAMPROW;

#define MESSAGE_SIZE 256
#define ROWS_PER_CALL 16
#define MAX_PIXELS ((unsigned long long)1 << 28)

// The entry points used, resolved by name from the loaded library.
static struct {
    int state;   // 0 not tried, 1 loaded, -1 failed
    char failure[MESSAGE_SIZE];
    struct jpeg_error_mgr *(*std_error)(struct jpeg_error_mgr *);
    void (*create_decompress)(j_decompress_ptr, int, size_t);
    void (*destroy_decompress)(j_decompress_ptr);
    void (*mem_src)(j_decompress_ptr, const unsigned char *, unsigned long);
    int (*read_header)(j_decompress_ptr, boolean);
    void (*calc_output_dimensions)(j_decompress_ptr);
    boolean (*start_decompress)(j_decompress_ptr);
    boolean (*finish_decompress)(j_decompress_ptr);
    int (*consume_input)(j_decompress_ptr);
    boolean (*start_output)(j_decompress_ptr, int);
    boolean (*finish_output)(j_decompress_ptr);
    JDIMENSION (*read_scanlines)(j_decompress_ptr, JSAMPARRAY, JDIMENSION);
    JDIMENSION (*read_scanlines12)(j_decompress_ptr, J12SAMPROW *, JDIMENSION);
    JDIMENSION (*read_scanlines16)(j_decompress_ptr, J16SAMPROW *, JDIMENSION);
} lib;

static void set_message(char *buffer, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(buffer, MESSAGE_SIZE, format, args);
    va_end(args);
}

int pi_ref_jpeg3_load(const char *path, char *message)
{
    if (lib.state == 0) {
        void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            set_message(lib.failure, "cannot load libjpeg-turbo 3 from %s: %s", path, dlerror());
            lib.state = -1;
        } else {
#define RESOLVE(field, name)                                                   \
            *(void **)(&lib.field) = dlsym(handle, name);                      \
            if (lib.field == NULL && lib.state == 0) {                         \
                set_message(lib.failure, "%s has no %s", path, name);          \
                lib.state = -1;                                                \
            }
            RESOLVE(std_error, "jpeg_std_error")
            RESOLVE(create_decompress, "jpeg_CreateDecompress")
            RESOLVE(destroy_decompress, "jpeg_destroy_decompress")
            RESOLVE(mem_src, "jpeg_mem_src")
            RESOLVE(read_header, "jpeg_read_header")
            RESOLVE(calc_output_dimensions, "jpeg_calc_output_dimensions")
            RESOLVE(start_decompress, "jpeg_start_decompress")
            RESOLVE(finish_decompress, "jpeg_finish_decompress")
            RESOLVE(consume_input, "jpeg_consume_input")
            RESOLVE(start_output, "jpeg_start_output")
            RESOLVE(finish_output, "jpeg_finish_output")
            RESOLVE(read_scanlines, "jpeg_read_scanlines")
            RESOLVE(read_scanlines12, "jpeg12_read_scanlines")
            RESOLVE(read_scanlines16, "jpeg16_read_scanlines")
#undef RESOLVE
            if (lib.state == 0) lib.state = 1;
        }
    }
    if (lib.state < 0) {
        if (message != NULL) set_message(message, "%s", lib.failure);
        return -1;
    }
    return 0;
}

typedef struct {
    struct jpeg_error_mgr pub;   // first, so that cinfo->err can be cast back
    jmp_buf jump;
    int warnings;
    char warning[MESSAGE_SIZE];
    char error[MESSAGE_SIZE];
} jpeg3_error;

static void jpeg3_error_exit(j_common_ptr cinfo)
{
    jpeg3_error *err = (jpeg3_error *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    set_message(err->error, "%s", text);
    longjmp(err->jump, 1);
}

static void jpeg3_emit_message(j_common_ptr cinfo, int msg_level)
{
    jpeg3_error *err = (jpeg3_error *)cinfo->err;
    if (msg_level >= 0) return;
    cinfo->err->num_warnings++;
    if (err->warnings == 0) {
        char text[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, text);
        set_message(err->warning, "%s", text);
    }
    err->warnings++;
}

static void jpeg3_output_message(j_common_ptr cinfo)
{
    (void)cinfo;
}

static void jpeg3_fail(jpeg3_error *err, const char *text)
{
    set_message(err->error, "%s", text);
    longjmp(err->jump, 1);
}

// Every output row of the current pass into `pixels`, through the entry point for the frame's
// precision.
static void read_rows(j_decompress_ptr cinfo, jpeg3_error *err, uint8_t *pixels, size_t row_bytes)
{
    while (cinfo->output_scanline < cinfo->output_height) {
        JDIMENSION first = cinfo->output_scanline;
        JDIMENSION count = cinfo->output_height - first;
        JDIMENSION got;
        void *rows[ROWS_PER_CALL];
        if (count > ROWS_PER_CALL) count = ROWS_PER_CALL;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = pixels + (size_t)(first + i) * row_bytes;
        if (cinfo->data_precision <= 8) {
            got = lib.read_scanlines(cinfo, (JSAMPARRAY)rows, count);
        } else if (cinfo->data_precision <= 12) {
            got = lib.read_scanlines12(cinfo, (J12SAMPROW *)rows, count);
        } else {
            got = lib.read_scanlines16(cinfo, (J16SAMPROW *)rows, count);
        }
        if (got == 0) jpeg3_fail(err, "libjpeg returned no scanlines");
    }
}

int pi_ref_jpeg3_decode(const uint8_t *data, size_t size, int scale_denom, int as_stored, PIRefImage *out, int *precision)
{
    struct jpeg_decompress_struct cinfo;
    jpeg3_error err;
    // volatile: modified between setjmp and a possible longjmp.
    uint8_t *volatile pixels = NULL;
    volatile int created = 0;

    memset(out, 0, sizeof(*out));
    *precision = 0;
    if (lib.state != 1) {
        out->status = -1;
        set_message(out->message, "libjpeg-turbo 3 is not loaded");
        return -1;
    }
    if (data == NULL || size == 0 || (unsigned long long)size > (unsigned long long)ULONG_MAX ||
        (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8)) {
        out->status = -1;
        set_message(out->message, "empty or oversized input, or a scale other than 1/1, 1/2, 1/4, 1/8");
        return -1;
    }
    memset(&err, 0, sizeof(err));
    lib.std_error(&err.pub);
    err.pub.error_exit = jpeg3_error_exit;
    err.pub.emit_message = jpeg3_emit_message;
    err.pub.output_message = jpeg3_output_message;
    cinfo.err = &err.pub;

    if (setjmp(err.jump)) {
        if (created) lib.destroy_decompress(&cinfo);
        free(pixels);
        memset(out, 0, sizeof(*out));
        out->status = -1;
        out->warnings = err.warnings;
        set_message(out->message, "%s", err.error);
        return -1;
    }
    lib.create_decompress(&cinfo, JPEG_LIB_VERSION, sizeof(struct jpeg_decompress_struct));
    created = 1;
    lib.mem_src(&cinfo, data, (unsigned long)size);
    lib.read_header(&cinfo, TRUE);
    *precision = cinfo.data_precision;

    if (as_stored) cinfo.out_color_space = cinfo.jpeg_color_space;
    switch (cinfo.out_color_space) {
    case JCS_GRAYSCALE:
    case JCS_RGB:
    case JCS_CMYK:
        break;
    case JCS_YCbCr:
    case JCS_YCCK:
        if (!as_stored) cinfo.out_color_space = cinfo.jpeg_color_space == JCS_YCCK ? JCS_CMYK : JCS_RGB;
        break;
    default:
        jpeg3_fail(&err, "unsupported JPEG colour space (not gray, RGB/YCbCr or CMYK/YCCK)");
    }
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int)scale_denom;
    cinfo.dct_method = JDCT_ISLOW;
    cinfo.do_fancy_upsampling = TRUE;
    lib.calc_output_dimensions(&cinfo);
    if (cinfo.output_width == 0 || cinfo.output_height == 0 ||
        (unsigned long long)cinfo.output_width * cinfo.output_height > MAX_PIXELS) {
        jpeg3_fail(&err, "image too large");
    }
    lib.start_decompress(&cinfo);

    int bits = cinfo.data_precision <= 8 ? 8 : 16;
    size_t channels = (size_t)cinfo.output_components;
    size_t row_bytes = (size_t)cinfo.output_width * channels * (size_t)(bits / 8);
    size_t total = row_bytes * cinfo.output_height;
    pixels = (uint8_t *)malloc(total > 0 ? total : 1);
    pi_ref_advise_huge_pages(pixels, total);
    if (pixels == NULL) jpeg3_fail(&err, "out of memory");

    read_rows(&cinfo, &err, pixels, row_bytes);
    lib.finish_decompress(&cinfo);
    out->pixels = pixels;
    out->size = total;
    out->width = (int)cinfo.output_width;
    out->height = (int)cinfo.output_height;
    out->channels = (int)channels;
    out->bits = bits;
    out->warnings = err.warnings;
    out->status = err.warnings > 0 ? 1 : 0;
    if (err.warnings > 0) set_message(out->message, "%s", err.warning);
    lib.destroy_decompress(&cinfo);
    return out->status;
}

int pi_ref_jpeg3_decode_scans(const uint8_t *data, size_t size, void *context, pi_ref_scan_callback callback, char *out_message)
{
    struct jpeg_decompress_struct cinfo;
    jpeg3_error err;
    uint8_t *volatile pixels = NULL;
    volatile int created = 0;
    volatile int passes = 0;

    if (out_message != NULL) out_message[0] = '\0';
    if (lib.state != 1 || data == NULL || size == 0 || (unsigned long long)size > (unsigned long long)ULONG_MAX) {
        if (out_message != NULL) set_message(out_message, "libjpeg-turbo 3 not loaded, or no input");
        return -1;
    }
    memset(&err, 0, sizeof(err));
    lib.std_error(&err.pub);
    err.pub.error_exit = jpeg3_error_exit;
    err.pub.emit_message = jpeg3_emit_message;
    err.pub.output_message = jpeg3_output_message;
    cinfo.err = &err.pub;
    if (setjmp(err.jump)) {
        if (created) lib.destroy_decompress(&cinfo);
        free(pixels);
        if (out_message != NULL) set_message(out_message, "%s", err.error);
        return -1;
    }
    lib.create_decompress(&cinfo, JPEG_LIB_VERSION, sizeof(struct jpeg_decompress_struct));
    created = 1;
    lib.mem_src(&cinfo, data, (unsigned long)size);
    lib.read_header(&cinfo, TRUE);
    if (cinfo.out_color_space == JCS_YCbCr) cinfo.out_color_space = JCS_RGB;
    cinfo.dct_method = JDCT_ISLOW;
    cinfo.do_fancy_upsampling = TRUE;
    cinfo.buffered_image = TRUE;   // do_block_smoothing keeps its default (TRUE)
    lib.start_decompress(&cinfo);

    size_t row_bytes = (size_t)cinfo.output_width * (size_t)cinfo.output_components * (cinfo.data_precision <= 8 ? 1 : 2);
    size_t total = row_bytes * cinfo.output_height;
    if (total == 0 || (unsigned long long)cinfo.output_width * cinfo.output_height > MAX_PIXELS) jpeg3_fail(&err, "image too large");
    pixels = (uint8_t *)malloc(total);
    pi_ref_advise_huge_pages(pixels, total);
    if (pixels == NULL) jpeg3_fail(&err, "out of memory");
    for (;;) {
        int status;
        // Take in input until a scan is complete or the data ends, then show it.
        do {
            status = lib.consume_input(&cinfo);
        } while (status != JPEG_SCAN_COMPLETED && status != JPEG_REACHED_EOI && status != JPEG_SUSPENDED);
        if (status == JPEG_SUSPENDED) jpeg3_fail(&err, "libjpeg suspended on in-memory input");
        if (status == JPEG_REACHED_EOI && passes > 0 && cinfo.output_scan_number == cinfo.input_scan_number) break;
        lib.start_output(&cinfo, cinfo.input_scan_number);
        read_rows(&cinfo, &err, pixels, row_bytes);
        lib.finish_output(&cinfo);
        passes++;
        if (callback != NULL) {
            PIRefImage image;
            memset(&image, 0, sizeof(image));
            image.pixels = pixels;
            image.size = total;
            image.width = (int)cinfo.output_width;
            image.height = (int)cinfo.output_height;
            image.channels = cinfo.output_components;
            image.bits = cinfo.data_precision <= 8 ? 8 : 16;
            callback(context, cinfo.output_scan_number, &image);
        }
        if (status == JPEG_REACHED_EOI) break;
    }
    lib.destroy_decompress(&cinfo);
    free(pixels);
    return passes;
}
