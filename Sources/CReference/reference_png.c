// libpng reference decoder: expanded RGBA (8 or 16 bits), plus a header-only info call.
//
// Errors: png_error calls our error function, which records the text and png_longjmp()s to
// the setjmp in the caller. Warnings (including libpng's "benign errors", which libpng 1.6
// reports as warnings when reading, and bad CRCs in ancillary chunks) are counted and the
// first one is kept. Input comes from memory through png_set_read_fn; reading past the end of
// the buffer is a png_error.
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "reference_internal.h"

// Per-call state, reached from libpng callbacks through the io / error pointers.
typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;                       // next byte to hand to libpng
    int warnings;
    char warning[PI_REF_MESSAGE_SIZE];   // first warning text
    char error[PI_REF_MESSAGE_SIZE];     // fatal error text
} ref_png_state;

// Memory read callback: exactly `length` bytes or a png_error.
static void ref_png_read(png_structp png, png_bytep dest, png_size_t length)
{
    ref_png_state *state = (ref_png_state *)png_get_io_ptr(png);
    if (length > state->size - state->offset) {
        png_error(png, "read past end of data");
    }
    memcpy(dest, state->data + state->offset, length);
    state->offset += length;
}

// Fatal error: record the text and leave through libpng's jump buffer (must not return).
static void ref_png_error(png_structp png, png_const_charp text)
{
    ref_png_state *state = (ref_png_state *)png_get_error_ptr(png);
    pi_ref_set_message(state->error, "%s", text != NULL ? text : "libpng error");
    png_longjmp(png, 1);
}

static void ref_png_warning(png_structp png, png_const_charp text)
{
    ref_png_state *state = (ref_png_state *)png_get_error_ptr(png);
    if (state->warnings == 0) {
        pi_ref_set_message(state->warning, "%s", text != NULL ? text : "libpng warning");
    }
    state->warnings++;
}

static void ref_png_init_state(ref_png_state *state, const uint8_t *data, size_t size)
{
    memset(state, 0, sizeof(*state));
    state->data = data;
    state->size = size;
}

int pi_ref_png_decode(const uint8_t *data, size_t size, PIRefImage *out)
{
    ref_png_state state;
    png_structp png = NULL;
    png_infop info = NULL;
    // Assigned after setjmp and read after the longjmp, hence volatile.
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    png_uint_32 width, height, y;
    int bit_depth, color_type, bytes_per_sample;
    size_t row_bytes, total, row_array_size;

    if (out == NULL) {
        return -1;
    }
    pi_ref_image_reset(out);
    if (data == NULL || size == 0) {
        out->status = -1;
        pi_ref_set_message(out->message, "empty input");
        return -1;
    }

    ref_png_init_state(&state, data, size);
    png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, ref_png_error, ref_png_warning);
    if (png == NULL) {
        out->status = -1;
        pi_ref_set_message(out->message, "png_create_read_struct failed");
        return -1;
    }
    info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        out->status = -1;
        pi_ref_set_message(out->message, "png_create_info_struct failed");
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(rows);
        free(pixels);
        out->status = -1;
        out->warnings = state.warnings;
        pi_ref_set_message(out->message, "%s", state.error);
        return -1;
    }
    png_set_read_fn(png, &state, ref_png_read);

    png_read_info(png, info);
    width = png_get_image_width(png, info);
    height = png_get_image_height(png, info);
    bit_depth = png_get_bit_depth(png, info);
    color_type = png_get_color_type(png, info);
    if (pi_ref_check_dimensions((long long)width, (long long)height) != 0) {
        png_error(png, "image too large");
    }

    // Transformations: everything becomes RGBA at 8 bits, or 16 bits for 16-bit files.
    png_set_expand(png);   // palette -> RGB, gray < 8 bits -> 8 bits, tRNS -> alpha
    if ((color_type & PNG_COLOR_MASK_COLOR) == 0) {
        png_set_gray_to_rgb(png);
    }
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !png_get_valid(png, info, PNG_INFO_tRNS)) {
        // No alpha in the file: add an opaque one (libpng uses the low byte for 8 bits).
        png_set_add_alpha(png, 0xffff, PNG_FILLER_AFTER);
    }
    if (bit_depth == 16 && pi_ref_host_is_little_endian()) {
        png_set_swap(png);   // PNG stores big-endian samples; we want host order
    }
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);

    bytes_per_sample = bit_depth == 16 ? 2 : 1;
    if (png_get_channels(png, info) != 4 || png_get_bit_depth(png, info) != bytes_per_sample * 8) {
        png_error(png, "unexpected output layout after transformations");
    }
    if (pi_ref_mul_size((size_t)width, (size_t)(4 * bytes_per_sample), &row_bytes) != 0 ||
        pi_ref_mul_size(row_bytes, (size_t)height, &total) != 0 ||
        pi_ref_mul_size((size_t)height, sizeof(png_bytep), &row_array_size) != 0) {
        png_error(png, "image too large");
    }
    if (png_get_rowbytes(png, info) != row_bytes) {
        png_error(png, "unexpected row size after transformations");
    }

    pixels = (uint8_t *)malloc(total);
    pi_ref_advise_huge_pages(pixels, total);
    rows = (png_bytep *)malloc(row_array_size);
    if (pixels == NULL || rows == NULL) {
        png_error(png, "out of memory");
    }
    for (y = 0; y < height; y++) {
        rows[y] = pixels + (size_t)y * row_bytes;
    }
    png_read_image(png, rows);
    png_read_end(png, NULL);

    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    out->pixels = pixels;
    out->size = total;
    out->width = (int)width;
    out->height = (int)height;
    out->channels = 4;
    out->bits = bytes_per_sample * 8;
    out->warnings = state.warnings;
    out->status = state.warnings > 0 ? 1 : 0;
    pi_ref_set_message(out->message, "%s", state.warning);
    return out->status;
}

int pi_ref_png_info(const uint8_t *data, size_t size, int *width, int *height, int *bit_depth,
                    int *color_type, int *interlace)
{
    ref_png_state state;
    png_structp png = NULL;
    png_infop info = NULL;

    if (data == NULL || size == 0) {
        return -1;
    }
    ref_png_init_state(&state, data, size);
    png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, ref_png_error, ref_png_warning);
    if (png == NULL) {
        return -1;
    }
    info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    png_set_read_fn(png, &state, ref_png_read);
    png_read_info(png, info);   // signature, IHDR and every chunk before the first IDAT

    if (width != NULL) {
        *width = (int)png_get_image_width(png, info);
    }
    if (height != NULL) {
        *height = (int)png_get_image_height(png, info);
    }
    if (bit_depth != NULL) {
        *bit_depth = png_get_bit_depth(png, info);
    }
    if (color_type != NULL) {
        *color_type = png_get_color_type(png, info);
    }
    if (interlace != NULL) {
        *interlace = png_get_interlace_type(png, info);
    }
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}
