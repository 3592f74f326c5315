// libspng reference decoder: the same expanded RGBA layout as pi_ref_png_decode, so the bench
// can time a second PNG library against the same pixels (issue 11).
//
// libspng does the whole job in one call: spng_decode_image with SPNG_FMT_RGBA8 (or RGBA16
// for 16-bit files) expands palettes, low bit depths and gray to RGBA, and SPNG_DECODE_TRNS
// turns tRNS into alpha, which is what the libpng wrapper asks of libpng with its transforms.
// No gamma flag, so samples are not changed. Interlaced images come back de-interlaced.
#include <stdlib.h>
#include <string.h>

#include <spng.h>

#include "reference_internal.h"

int pi_ref_spng_decode(const uint8_t *data, size_t size, PIRefImage *out)
{
    spng_ctx *context;
    struct spng_ihdr header;
    size_t total = 0;
    int format, status;
    uint8_t *pixels;

    if (out == NULL) {
        return -1;
    }
    pi_ref_image_reset(out);
    if (data == NULL || size == 0) {
        out->status = -1;
        pi_ref_set_message(out->message, "empty input");
        return -1;
    }
    context = spng_ctx_new(0);
    if (context == NULL) {
        out->status = -1;
        pi_ref_set_message(out->message, "spng_ctx_new failed");
        return -1;
    }
    // Reads the signature and IHDR (and the chunks before IDAT) from the caller's buffer.
    status = spng_set_png_buffer(context, data, size);
    if (status == 0) {
        status = spng_get_ihdr(context, &header);
    }
    if (status == 0 && pi_ref_check_dimensions(header.width, header.height) != 0) {
        spng_ctx_free(context);
        out->status = -1;
        pi_ref_set_message(out->message, "image too large");
        return -1;
    }
    format = status == 0 && header.bit_depth == 16 ? SPNG_FMT_RGBA16 : SPNG_FMT_RGBA8;
    if (status == 0) {
        status = spng_decoded_image_size(context, format, &total);
    }
    if (status != 0) {
        out->status = -1;
        pi_ref_set_message(out->message, "spng: %s", spng_strerror(status));
        spng_ctx_free(context);
        return -1;
    }
    pixels = (uint8_t *)malloc(total);
    pi_ref_advise_huge_pages(pixels, total);
    if (pixels == NULL) {
        spng_ctx_free(context);
        out->status = -1;
        pi_ref_set_message(out->message, "out of memory");
        return -1;
    }
    status = spng_decode_image(context, pixels, total, format, SPNG_DECODE_TRNS);
    spng_ctx_free(context);
    if (status != 0) {
        free(pixels);
        out->status = -1;
        pi_ref_set_message(out->message, "spng: %s", spng_strerror(status));
        return -1;
    }
    out->pixels = pixels;
    out->size = total;
    out->width = (int)header.width;
    out->height = (int)header.height;
    out->channels = 4;
    out->bits = format == SPNG_FMT_RGBA16 ? 16 : 8;
    return 0;
}
