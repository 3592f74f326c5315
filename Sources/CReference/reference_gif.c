// giflib reference decoder: every frame's colour indices, palette and graphics control data.
//
// DGifOpen reads from memory through an input function; DGifSlurp reads the whole stream.
// giflib 5 (checked on 5.2.1) already de-interlaces in DGifSlurp: interlaced frames come back
// in display row order with ImageDesc.Interlace still set, so the rasters are used as they are
// (reordering them again would scramble them).
//
// When DGifSlurp fails part-way, SavedImages holds every image descriptor seen so far, but the
// raster of the last one may be only partly written (the rest is uninitialised memory). A
// second, read-only pass with giflib's record API counts how many frames decode completely,
// and only those are kept.
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>

#include "reference_internal.h"

#if GIFLIB_MAJOR < 5
#error "CReference needs giflib 5 (DGifOpen with an error out-parameter, de-interlacing DGifSlurp)"
#endif

// Memory source for DGifOpen, reached through GifFileType.UserData.
typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
} ref_gif_source;

// giflib input function: copies up to `length` bytes, returning how many were copied
// (giflib treats a short count as a read error).
static int ref_gif_read(GifFileType *gif, GifByteType *dest, int length)
{
    ref_gif_source *source = (ref_gif_source *)gif->UserData;
    size_t available = source->size - source->offset;
    size_t wanted = length > 0 ? (size_t)length : 0;
    if (wanted > available) {
        wanted = available;
    }
    if (wanted > 0) {
        memcpy(dest, source->data + source->offset, wanted);
        source->offset += wanted;
    }
    return (int)wanted;
}

// Text for a giflib error code (GifErrorString returns NULL for codes it does not know, e.g.
// 0, which DGifSlurp leaves when it refuses a zero-sized frame).
static void ref_gif_error_message(char *buf, const char *what, int code)
{
    const char *text = GifErrorString(code);
    if (text != NULL) {
        pi_ref_set_message(buf, "%s: %s", what, text);
    } else {
        pi_ref_set_message(buf, "%s: giflib error %d", what, code);
    }
}

// Second pass after a DGifSlurp failure: how many image descriptors are followed by a raster
// that giflib decodes completely (every row returned by DGifGetLine).
static int ref_gif_count_complete_frames(const uint8_t *data, size_t size)
{
    ref_gif_source source;
    GifFileType *gif;
    GifPixelType *row = NULL;
    size_t row_capacity = 0;
    int error = 0;
    int complete = 0;
    int done = 0;

    source.data = data;
    source.size = size;
    source.offset = 0;
    gif = DGifOpen(&source, ref_gif_read, &error);
    if (gif == NULL) {
        return 0;
    }
    while (!done) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) {
            break;
        }
        switch (type) {
        case IMAGE_DESC_RECORD_TYPE: {
            int width, height, y;
            if (DGifGetImageDesc(gif) == GIF_ERROR) {
                done = 1;
                break;
            }
            width = gif->Image.Width;
            height = gif->Image.Height;
            // Same refusal as DGifSlurp for empty or oversized frames.
            if (width <= 0 || height <= 0 || width > INT_MAX / height) {
                done = 1;
                break;
            }
            if ((size_t)width > row_capacity) {
                GifPixelType *bigger = (GifPixelType *)realloc(row, (size_t)width);
                if (bigger == NULL) {
                    done = 1;
                    break;
                }
                row = bigger;
                row_capacity = (size_t)width;
            }
            for (y = 0; y < height; y++) {
                if (DGifGetLine(gif, row, width) == GIF_ERROR) {
                    break;
                }
            }
            if (y < height) {
                done = 1;
            } else {
                complete++;
            }
            break;
        }
        case EXTENSION_RECORD_TYPE: {
            int code;
            GifByteType *block = NULL;
            if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) {
                done = 1;
                break;
            }
            while (block != NULL) {
                if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) {
                    done = 1;
                    break;
                }
            }
            break;
        }
        default:   // TERMINATE_RECORD_TYPE (or anything giflib did not reject)
            done = 1;
            break;
        }
    }
    free(row);
    DGifCloseFile(gif, &error);
    return complete;
}

// Looks for a NETSCAPE2.0 / ANIMEXTS1.0 application extension in one list of saved
// extension blocks. giflib 5 stores the application identifier block (11 bytes) with
// APPLICATION_EXT_FUNC_CODE and each following data sub-block as a CONTINUE_EXT_FUNC_CODE
// block; the loop sub-block has id 1 and a little-endian 16-bit count.
// Returns the loop count, or -1 when the list has none.
static int ref_gif_find_loop(const ExtensionBlock *blocks, int count)
{
    int i, j;
    for (i = 0; i < count; i++) {
        const ExtensionBlock *app = &blocks[i];
        if (app->Function != APPLICATION_EXT_FUNC_CODE || app->ByteCount < 11 ||
            app->Bytes == NULL) {
            continue;
        }
        if (memcmp(app->Bytes, "NETSCAPE2.0", 11) != 0 &&
            memcmp(app->Bytes, "ANIMEXTS1.0", 11) != 0) {
            continue;
        }
        for (j = i + 1; j < count && blocks[j].Function == CONTINUE_EXT_FUNC_CODE; j++) {
            const ExtensionBlock *sub = &blocks[j];
            if (sub->ByteCount >= 3 && sub->Bytes != NULL && sub->Bytes[0] == 1) {
                return (int)sub->Bytes[1] | ((int)sub->Bytes[2] << 8);
            }
        }
    }
    return -1;
}

// Fills frame `index` of `out` from giflib's saved image, taking ownership of its raster.
static void ref_gif_fill_frame(GifFileType *gif, int index, PIRefGIFFrame *frame)
{
    SavedImage *saved = &gif->SavedImages[index];
    const ColorMapObject *map;
    GraphicsControlBlock gcb;
    int i;

    memset(frame, 0, sizeof(*frame));
    frame->left = saved->ImageDesc.Left;
    frame->top = saved->ImageDesc.Top;
    frame->width = saved->ImageDesc.Width;
    frame->height = saved->ImageDesc.Height;
    frame->interlaced = saved->ImageDesc.Interlace ? 1 : 0;
    frame->transparent_index = -1;
    if (DGifSavedExtensionToGCB(gif, index, &gcb) == GIF_OK) {
        frame->disposal = gcb.DisposalMode;
        frame->transparent_index = gcb.TransparentColor;   // NO_TRANSPARENT_COLOR is -1
        frame->delay_cs = gcb.DelayTime;
    }

    // Active colour table: the frame's local one, else the global one.
    map = saved->ImageDesc.ColorMap != NULL ? saved->ImageDesc.ColorMap : gif->SColorMap;
    if (map != NULL && map->Colors != NULL) {
        int count = map->ColorCount;
        if (count > 256) {
            count = 256;
        }
        if (count < 0) {
            count = 0;
        }
        for (i = 0; i < count; i++) {
            frame->palette[i * 3 + 0] = map->Colors[i].Red;
            frame->palette[i * 3 + 1] = map->Colors[i].Green;
            frame->palette[i * 3 + 2] = map->Colors[i].Blue;
        }
        frame->palette_count = count;
    }

    // giflib allocated the raster with malloc (reallocarray) and frees it with free in
    // DGifCloseFile; taking the pointer and clearing it avoids copying the indices.
    frame->indices = saved->RasterBits;
    saved->RasterBits = NULL;
}

int pi_ref_gif_decode(const uint8_t *data, size_t size, PIRefGIF *out)
{
    ref_gif_source source;
    GifFileType *gif;
    int error = 0;
    int usable;
    int slurp_failed;
    int i;

    if (out == NULL) {
        return -1;
    }
    memset(out, 0, sizeof(*out));
    out->loop_count = -1;
    if (data == NULL || size == 0) {
        out->status = -1;
        pi_ref_set_message(out->message, "empty input");
        return -1;
    }

    source.data = data;
    source.size = size;
    source.offset = 0;
    gif = DGifOpen(&source, ref_gif_read, &error);
    if (gif == NULL) {
        out->status = -1;
        ref_gif_error_message(out->message, "DGifOpen", error);
        return -1;
    }

    slurp_failed = DGifSlurp(gif) != GIF_OK;
    usable = gif->ImageCount;
    if (slurp_failed) {
        int complete;
        ref_gif_error_message(out->message, "DGifSlurp", gif->Error);
        complete = usable > 0 ? ref_gif_count_complete_frames(data, size) : 0;
        if (complete < usable) {
            usable = complete;
        }
        // A frame DGifSlurp could not even allocate has no raster, whatever the count says.
        for (i = 0; i < usable; i++) {
            if (gif->SavedImages == NULL || gif->SavedImages[i].RasterBits == NULL) {
                usable = i;
                break;
            }
        }
    }
    if (usable <= 0 || gif->SavedImages == NULL) {
        if (!slurp_failed) {
            pi_ref_set_message(out->message, "no image in the GIF");
        }
        DGifCloseFile(gif, &error);
        out->status = -1;
        return -1;
    }

    out->frames = (PIRefGIFFrame *)calloc((size_t)usable, sizeof(PIRefGIFFrame));
    if (out->frames == NULL) {
        DGifCloseFile(gif, &error);
        out->status = -1;
        pi_ref_set_message(out->message, "out of memory");
        return -1;
    }
    out->width = gif->SWidth;
    out->height = gif->SHeight;
    out->background_index = gif->SBackGroundColor;
    out->frame_count = usable;
    for (i = 0; i < usable; i++) {
        ref_gif_fill_frame(gif, i, &out->frames[i]);
    }

    // Loop count: the first NETSCAPE2.0 / ANIMEXTS1.0 extension in stream order. Extensions
    // are attached to the image they precede; those after the last image stay on the file.
    for (i = 0; i < gif->ImageCount && out->loop_count < 0; i++) {
        out->loop_count = ref_gif_find_loop(gif->SavedImages[i].ExtensionBlocks,
                                            gif->SavedImages[i].ExtensionBlockCount);
    }
    if (out->loop_count < 0) {
        out->loop_count = ref_gif_find_loop(gif->ExtensionBlocks, gif->ExtensionBlockCount);
    }

    DGifCloseFile(gif, &error);
    out->status = slurp_failed ? 1 : 0;
    return out->status;
}

void pi_ref_gif_free(PIRefGIF *gif)
{
    int i;
    if (gif == NULL) {
        return;
    }
    if (gif->frames != NULL) {
        for (i = 0; i < gif->frame_count; i++) {
            free(gif->frames[i].indices);
        }
        free(gif->frames);
    }
    gif->frames = NULL;
    gif->frame_count = 0;
}

// The bench's properties row: the record walk an app makes for a frame count and timings —
// every record read, the image data passed over code block by code block (DGifGetCode /
// DGifGetCodeNext, no LZW decoding). Returns the frames found, -1 when DGifOpen refuses.
int pi_ref_gif_record_walk_frames(const uint8_t *data, size_t size)
{
    ref_gif_source source = {data, size, 0};
    int error = 0;
    int frames = 0;
    GifFileType *gif = DGifOpen(&source, ref_gif_read, &error);
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
