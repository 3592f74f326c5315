// Private helpers shared by the CReference implementation files (not part of the public API).
#ifndef CREFERENCE_INTERNAL_H
#define CREFERENCE_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "CReference.h"

// Largest image (in pixels) any reference decoder will allocate for. A corrupt header can
// claim 65535 x 65535 or more; refusing such sizes keeps the tests from exhausting memory.
#define PI_REF_MAX_PIXELS ((uint64_t)1 << 28)

// Length of every message buffer in the public structs.
#define PI_REF_MESSAGE_SIZE 256

// Clears *image to "no pixels, status 0, no message".
void pi_ref_image_reset(PIRefImage *image);

// Writes a printf-style message into buf (PI_REF_MESSAGE_SIZE bytes), always terminated.
void pi_ref_set_message(char *buf, const char *format, ...);
void pi_ref_set_message_v(char *buf, const char *format, va_list args);

// *out = a * b; returns 0 on success, -1 when the product does not fit in size_t.
int pi_ref_mul_size(size_t a, size_t b, size_t *out);

// Returns 0 when width x height is positive and within PI_REF_MAX_PIXELS, else -1.
int pi_ref_check_dimensions(long long width, long long height);

// 1 when the host stores the least significant byte of a uint16_t first.
int pi_ref_host_is_little_endian(void);

#endif
