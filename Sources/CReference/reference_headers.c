// The reference libraries' header-only calls, for the bench's properties rows: what an app gets
// from each library without decoding pixels. Each returns the image width (or, for giflib and
// libtiff, the frame / page count) and -1 when the library refuses the header.

#include <setjmp.h>
#include <stdio.h>   // jpeglib.h needs FILE and size_t declared first
#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>
#include <jpeglib.h>
#include <png.h>

#include "reference_internal.h"

// libjpeg-turbo: jpeg_read_header (markers up to the first SOS).
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
} ref_header_jpeg_error;

static void ref_header_jpeg_exit(j_common_ptr cinfo)
{
    longjmp(((ref_header_jpeg_error *)cinfo->err)->jump, 1);
}

static void ref_header_jpeg_quiet(j_common_ptr cinfo, int level)
{
    (void)cinfo;
    (void)level;
}

int pi_ref_jpeg_header_width(const uint8_t *data, size_t size)
{
    struct jpeg_decompress_struct cinfo;
    ref_header_jpeg_error err;
    int width = -1;
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = ref_header_jpeg_exit;
    err.pub.emit_message = ref_header_jpeg_quiet;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_save_markers(&cinfo, JPEG_APP0 + 1, 0xFFFF);   // EXIF, as a properties call keeps it
    jpeg_save_markers(&cinfo, JPEG_APP0 + 2, 0xFFFF);   // ICC
    if (jpeg_read_header(&cinfo, TRUE) == JPEG_HEADER_OK) {
        width = (int)cinfo.image_width;
    }
    jpeg_destroy_decompress(&cinfo);
    return width;
}

// libpng: png_read_info (every chunk up to the first IDAT).
typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
} ref_header_png_source;

static void ref_header_png_read(png_structp png, png_bytep dest, png_size_t length)
{
    ref_header_png_source *source = (ref_header_png_source *)png_get_io_ptr(png);
    if (length > source->size - source->offset) {
        png_error(png, "read past end of data");
    }
    memcpy(dest, source->data + source->offset, length);
    source->offset += length;
}

static void ref_header_png_error(png_structp png, png_const_charp text)
{
    (void)text;
    png_longjmp(png, 1);
}

static void ref_header_png_warning(png_structp png, png_const_charp text)
{
    (void)png;
    (void)text;
}

int pi_ref_png_header_width(const uint8_t *data, size_t size)
{
    ref_header_png_source source = {data, size, 0};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, ref_header_png_error, ref_header_png_warning);
    png_infop info;
    int width = -1;
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
    png_set_read_fn(png, &source, ref_header_png_read);
    png_read_info(png, info);
    width = (int)png_get_image_width(png, info);
    png_destroy_read_struct(&png, &info, NULL);
    return width;
}

// giflib: the record walk an app makes for a frame count and timings — every record read, the
// image data passed over code block by code block (DGifGetCode / DGifGetCodeNext, no LZW).
typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
} ref_header_gif_source;

static int ref_header_gif_read(GifFileType *gif, GifByteType *dest, int length)
{
    ref_header_gif_source *source = (ref_header_gif_source *)gif->UserData;
    size_t available = source->size - source->offset;
    size_t count = length < 0 ? 0 : ((size_t)length < available ? (size_t)length : available);
    memcpy(dest, source->data + source->offset, count);
    source->offset += count;
    return (int)count;
}

int pi_ref_gif_record_walk_frames(const uint8_t *data, size_t size)
{
    ref_header_gif_source source = {data, size, 0};
    int error = 0;
    int frames = 0;
    GifFileType *gif = DGifOpen(&source, ref_header_gif_read, &error);
    if (gif == NULL) {
        return -1;
    }
    for (;;) {
        GifRecordType type;
        GifByteType *block = NULL;
        int code_size = 0;
        int code = 0;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR || type == TERMINATE_RECORD_TYPE) {
            break;
        }
        if (type == IMAGE_DESC_RECORD_TYPE) {
            if (DGifGetImageDesc(gif) == GIF_ERROR || DGifGetCode(gif, &code_size, &block) == GIF_ERROR) {
                break;
            }
            while (block != NULL) {
                if (DGifGetCodeNext(gif, &block) == GIF_ERROR) {
                    block = NULL;
                }
            }
            frames++;
        } else if (type == EXTENSION_RECORD_TYPE) {
            if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) {
                break;
            }
            while (block != NULL) {
                if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) {
                    block = NULL;
                }
            }
        }
    }
    DGifCloseFile(gif, &error);
    return frames;
}
