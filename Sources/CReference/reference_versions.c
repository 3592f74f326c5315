// Which reference libraries this build runs, for the golden-digest manifest: a digest that
// changes together with a library version is the library's change, not PureImage's.
#include <stdio.h>   // jpeglib.h needs FILE and size_t declared first
#include <string.h>

#include <gif_lib.h>
#include <jpeglib.h>
#include <png.h>
#include <tiffio.h>
#include <webp/decode.h>
#include <zlib.h>

#include "CReference.h"

#define PI_REF_STRINGIFY_(x) #x
#define PI_REF_STRINGIFY(x) PI_REF_STRINGIFY_(x)

void pi_ref_library_versions(char *buffer, size_t size)
{
    if (buffer == NULL || size == 0) {
        return;
    }
    // TIFFGetVersion() is "LIBTIFF, Version 4.5.0\nCopyright ...": keep the number only.
    char tiff[32] = "?";
    const char *tiffVersion = strstr(TIFFGetVersion(), "Version ");
    if (tiffVersion != NULL) {
        size_t length = strcspn(tiffVersion + 8, "\n");
        if (length >= sizeof(tiff)) {
            length = sizeof(tiff) - 1;
        }
        memcpy(tiff, tiffVersion + 8, length);
        tiff[length] = '\0';
    }
    int webp = WebPGetDecoderVersion();   // 0xMMmmpp
    snprintf(buffer, size, "libpng %s; libjpeg-turbo %s; giflib %d.%d.%d; libtiff %s; libwebp %d.%d.%d",
             png_get_libpng_ver(NULL), PI_REF_STRINGIFY(LIBJPEG_TURBO_VERSION),
             GIFLIB_MAJOR, GIFLIB_MINOR, GIFLIB_RELEASE, tiff,
             (webp >> 16) & 0xFF, (webp >> 8) & 0xFF, webp & 0xFF);
}

uint32_t pi_ref_crc32(uint32_t crc, const uint8_t *data, size_t size)
{
    // zlib takes uInt lengths: feed large buffers in pieces.
    while (size > 0) {
        uInt piece = size > 0x40000000u ? 0x40000000u : (uInt)size;
        crc = (uint32_t)crc32(crc, data, piece);
        data += piece;
        size -= piece;
    }
    return crc;
}
