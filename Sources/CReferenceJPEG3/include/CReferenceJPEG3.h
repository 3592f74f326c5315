// CReferenceJPEG3: libjpeg-turbo 3.x as the reference for what Debian's libjpeg-turbo 2.1.5
// cannot decode — 12-bit lossy JPEG (SOF1/2/9/10 with P = 12) and lossless JPEG (SOF3,
// 2–16 bits) — and as a second opinion on everything else.
//
// libjpeg-turbo 3 is not a Debian bookworm package. The `imagecodecs` wheel from PyPI ships it
// as a shared library (imagecodecs.libs/libjpeg-<hash>.so.8.x), which this target loads at run
// time with dlopen, so nothing links against it and a machine without it still builds; callers
// find the file (PUREIMAGE_LIBJPEG_TURBO3, or the wheel's folder) and call pi_ref_jpeg3_load.
//
// Used only by the tests, the conformance runner and the bench, never by the library.
#ifndef CREFERENCE_JPEG3_H
#define CREFERENCE_JPEG3_H

#include <stddef.h>
#include <stdint.h>

#include "CReference.h"

#ifdef __cplusplus
extern "C" {
#endif

// Loads libjpeg-turbo 3 from `path` (once; later calls return the first result). 0 when it is
// ready, -1 with the reason in `message` (256 bytes) otherwise.
int pi_ref_jpeg3_load(const char *path, char *message);


// Decodes as pi_ref_jpeg_decode does (JDCT_ISLOW, fancy upsampling, default output colour
// space with YCbCr -> RGB, 1/scale_denom), at the file's precision: 2-8 bits through
// jpeg_read_scanlines (out->bits = 8), 9-12 through jpeg12_read_scanlines and 13-16 through
// jpeg16_read_scanlines (out->bits = 16, host-order uint16 samples holding the file's values,
// e.g. 0...4095 for 12-bit data). *precision receives the frame's P. Status and messages as
// for pi_ref_jpeg_decode; -1 also when the library is not loaded. With as_stored set, the
// output colour space is the stored one (libjpeg's null conversion: YCbCr planes as they are),
// which is how libjpeg-turbo hands out lossless YCbCr files (it converts no lossless colours).
int pi_ref_jpeg3_decode(const uint8_t *data, size_t size, int scale_denom, int as_stored, PIRefImage *out, int *precision);

// Buffered-image mode (progressive files): the image after each completed input scan, as
// pi_ref_jpeg_decode_scans gives it for 8-bit files (block smoothing on, YCbCr -> RGB), at the
// frame's precision. Returns the number of passes, or -1 (message in out_message, 256 bytes).
int pi_ref_jpeg3_decode_scans(const uint8_t *data, size_t size, void *context, pi_ref_scan_callback callback, char *out_message);

#ifdef __cplusplus
}
#endif

#endif
