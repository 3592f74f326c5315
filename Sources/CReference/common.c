// Helpers shared by all reference decoders, and pi_ref_image_free.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference_internal.h"

void pi_ref_image_free(PIRefImage *image)
{
    if (image == NULL) {
        return;
    }
    free(image->pixels);
    image->pixels = NULL;
    image->size = 0;
}

void pi_ref_image_reset(PIRefImage *image)
{
    memset(image, 0, sizeof(*image));
}

void pi_ref_set_message_v(char *buf, const char *format, va_list args)
{
    int written = vsnprintf(buf, PI_REF_MESSAGE_SIZE, format, args);
    if (written < 0) {
        // Formatting failed: leave an empty, terminated string rather than garbage.
        buf[0] = '\0';
    }
    buf[PI_REF_MESSAGE_SIZE - 1] = '\0';
}

void pi_ref_set_message(char *buf, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    pi_ref_set_message_v(buf, format, args);
    va_end(args);
}

int pi_ref_mul_size(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a) {
        return -1;
    }
    *out = a * b;
    return 0;
}

int pi_ref_check_dimensions(long long width, long long height)
{
    if (width <= 0 || height <= 0) {
        return -1;
    }
    // Both factors are positive; compare without overflowing 64 bits.
    if ((uint64_t)width > PI_REF_MAX_PIXELS || (uint64_t)height > PI_REF_MAX_PIXELS) {
        return -1;
    }
    if ((uint64_t)width * (uint64_t)height > PI_REF_MAX_PIXELS) {
        return -1;
    }
    return 0;
}

int pi_ref_host_is_little_endian(void)
{
    const uint16_t probe = 1;
    uint8_t first;
    memcpy(&first, &probe, 1);
    return first == 1;
}
