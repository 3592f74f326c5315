// stb_image as a third opinion for JPEG, PNG and GIF, timed by the bench (issue 11).
//
// Debian's libstb-dev ships stb_image compiled into libstb.so (with its SSE2 IDCT and colour
// conversion), so this file only includes the declarations: no STB_IMAGE_IMPLEMENTATION here.
// stb_image allocates with malloc unless built with STBI_MALLOC (Debian's build is not); the
// images are still released with stbi_image_free, as its documentation asks.
//
// What stb_image produces, compared with the other reference wrappers:
//   PNG   the expanded layout of pi_ref_png_decode (RGBA8, or RGBA16 host order from
//         stbi_load_16): palette and tRNS to alpha, gray replicated, low depths scaled up.
//   JPEG  its own decoder (IDCT, upsampling and YCbCr conversion differ from libjpeg-turbo's in
//         rounding), so the pixels are close to libjpeg-turbo's, not equal.
//   GIF   every frame composed onto the logical screen (stbi_load_gif_from_memory); the frames
//         follow one another in `pixels`, frame 0 first.
#include <stdlib.h>
#include <string.h>

#include <stb/stb_image.h>

#include "reference_internal.h"

// Takes over an stb_image result (or records its failure reason when `pixels` is NULL).
static int ref_stb_finish(void *pixels, int width, int height, int channels, int bits, size_t frames,
                          PIRefImage *out)
{
    size_t total;
    if (pixels == NULL) {
        const char *reason = stbi_failure_reason();
        out->status = -1;
        pi_ref_set_message(out->message, "stb_image: %s", reason != NULL ? reason : "failed");
        return -1;
    }
    if (pi_ref_check_dimensions(width, height) != 0 ||
        pi_ref_mul_size((size_t)width * (size_t)height, (size_t)(channels * bits / 8), &total) != 0 ||
        pi_ref_mul_size(total, frames, &total) != 0) {
        stbi_image_free(pixels);
        out->status = -1;
        pi_ref_set_message(out->message, "image too large");
        return -1;
    }
    out->pixels = (uint8_t *)pixels;
    out->size = total;
    out->width = width;
    out->height = height;
    out->channels = channels;
    out->bits = bits;
    return 0;
}

int pi_ref_stb_decode(const uint8_t *data, size_t size, int channels, int bits, PIRefImage *out)
{
    int width = 0, height = 0, in_file = 0;
    void *pixels;

    if (out == NULL) {
        return -1;
    }
    pi_ref_image_reset(out);
    if (data == NULL || size == 0 || size > INT32_MAX || channels < 1 || channels > 4 ||
        (bits != 8 && bits != 16)) {
        out->status = -1;
        pi_ref_set_message(out->message, "bad arguments (empty input, > 2 GiB, channels or bits)");
        return -1;
    }
    if (bits == 16) {
        pixels = stbi_load_16_from_memory(data, (int)size, &width, &height, &in_file, channels);
    } else {
        pixels = stbi_load_from_memory(data, (int)size, &width, &height, &in_file, channels);
    }
    return ref_stb_finish(pixels, width, height, channels, bits, 1, out);
}

int pi_ref_stb_gif_decode(const uint8_t *data, size_t size, PIRefImage *out, int *frame_count)
{
    int width = 0, height = 0, frames = 0, in_file = 0;
    stbi_uc *pixels;

    if (frame_count != NULL) {
        *frame_count = 0;
    }
    if (out == NULL) {
        return -1;
    }
    pi_ref_image_reset(out);
    if (data == NULL || size == 0 || size > INT32_MAX) {
        out->status = -1;
        pi_ref_set_message(out->message, "empty input or > 2 GiB");
        return -1;
    }
    pixels = stbi_load_gif_from_memory(data, (int)size, NULL, &width, &height, &frames, &in_file, 4);
    if (ref_stb_finish(pixels, width, height, 4, 8, frames > 0 ? (size_t)frames : 1, out) != 0) {
        return -1;
    }
    if (frame_count != NULL) {
        *frame_count = frames;
    }
    return 0;
}

void pi_ref_stb_image_free(PIRefImage *image)
{
    if (image == NULL) {
        return;
    }
    stbi_image_free(image->pixels);
    image->pixels = NULL;
    image->size = 0;
}
