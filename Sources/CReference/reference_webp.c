// libwebp reference decoder: stills through WebPDecode (the configuration WebPDecodeRGBA uses:
// MODE_RGBA, fancy upsampling, no dithering), animations through WebPAnimDecoder (MODE_RGBA:
// straight RGBA, composed as libwebp composes them), and the bitstream features.
//
// Pixels are decoded straight into buffers malloc'd here (external memory), so the caller frees
// them with pi_ref_image_free / pi_ref_webp_animation_free.
#include <stdlib.h>
#include <string.h>

#include <webp/decode.h>
#include <webp/demux.h>

#include "reference_internal.h"

// The name of a VP8StatusCode, for messages.
static const char *ref_webp_status_name(VP8StatusCode status)
{
    switch (status) {
    case VP8_STATUS_OK: return "VP8_STATUS_OK";
    case VP8_STATUS_OUT_OF_MEMORY: return "VP8_STATUS_OUT_OF_MEMORY";
    case VP8_STATUS_INVALID_PARAM: return "VP8_STATUS_INVALID_PARAM";
    case VP8_STATUS_BITSTREAM_ERROR: return "VP8_STATUS_BITSTREAM_ERROR";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "VP8_STATUS_UNSUPPORTED_FEATURE";
    case VP8_STATUS_SUSPENDED: return "VP8_STATUS_SUSPENDED";
    case VP8_STATUS_USER_ABORT: return "VP8_STATUS_USER_ABORT";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "VP8_STATUS_NOT_ENOUGH_DATA";
    }
    return "unknown VP8StatusCode";
}

int pi_ref_webp_features(const uint8_t *data, size_t size, PIRefWebPFeatures *out)
{
    WebPBitstreamFeatures features;
    VP8StatusCode status;
    memset(out, 0, sizeof(*out));
    status = WebPGetFeatures(data, size, &features);
    if (status != VP8_STATUS_OK) {
        out->status = -1;
        pi_ref_set_message(out->message, "WebPGetFeatures: %s", ref_webp_status_name(status));
        return -1;
    }
    out->width = features.width;
    out->height = features.height;
    out->has_alpha = features.has_alpha;
    out->has_animation = features.has_animation;
    out->format = features.format;
    return 0;
}

int pi_ref_webp_decode(const uint8_t *data, size_t size, PIRefImage *out)
{
    WebPDecoderConfig config;
    VP8StatusCode status;
    size_t row_bytes, total;
    pi_ref_image_reset(out);
    if (!WebPInitDecoderConfig(&config)) {
        out->status = -1;
        pi_ref_set_message(out->message, "WebPInitDecoderConfig failed (library version mismatch)");
        return -1;
    }
    status = WebPGetFeatures(data, size, &config.input);
    if (status != VP8_STATUS_OK) {
        out->status = -1;
        pi_ref_set_message(out->message, "WebPGetFeatures: %s", ref_webp_status_name(status));
        return -1;
    }
    if (pi_ref_check_dimensions(config.input.width, config.input.height) != 0 ||
        pi_ref_mul_size((size_t)config.input.width, 4, &row_bytes) != 0 ||
        pi_ref_mul_size(row_bytes, (size_t)config.input.height, &total) != 0) {
        out->status = -1;
        pi_ref_set_message(out->message, "image too large (%d x %d)", config.input.width, config.input.height);
        return -1;
    }
    out->pixels = (uint8_t *)malloc(total);
    pi_ref_advise_huge_pages(out->pixels, total);
    if (out->pixels == NULL) {
        out->status = -1;
        pi_ref_set_message(out->message, "out of memory");
        return -1;
    }
    config.output.colorspace = MODE_RGBA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = out->pixels;
    config.output.u.RGBA.stride = (int)row_bytes;
    config.output.u.RGBA.size = total;
    status = WebPDecode(data, size, &config);
    WebPFreeDecBuffer(&config.output);
    if (status != VP8_STATUS_OK) {
        free(out->pixels);
        out->pixels = NULL;
        out->status = -1;
        pi_ref_set_message(out->message, "WebPDecode: %s", ref_webp_status_name(status));
        return -1;
    }
    out->size = total;
    out->width = config.input.width;
    out->height = config.input.height;
    out->channels = 4;
    out->bits = 8;
    out->status = 0;
    return 0;
}

int pi_ref_webp_animation_decode(const uint8_t *data, size_t size, PIRefWebPAnimation *out)
{
    WebPData webp_data;
    WebPAnimDecoderOptions options;
    WebPAnimDecoder *decoder;
    WebPAnimInfo info;
    size_t frame_bytes, total;
    int index;
    memset(out, 0, sizeof(*out));
    webp_data.bytes = data;
    webp_data.size = size;
    if (!WebPAnimDecoderOptionsInit(&options)) {
        out->status = -1;
        pi_ref_set_message(out->message, "WebPAnimDecoderOptionsInit failed (library version mismatch)");
        return -1;
    }
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    decoder = WebPAnimDecoderNew(&webp_data, &options);
    if (decoder == NULL) {
        out->status = -1;
        pi_ref_set_message(out->message, "WebPAnimDecoderNew failed (WebPDemux refused the file)");
        return -1;
    }
    if (!WebPAnimDecoderGetInfo(decoder, &info)) {
        WebPAnimDecoderDelete(decoder);
        out->status = -1;
        pi_ref_set_message(out->message, "WebPAnimDecoderGetInfo failed");
        return -1;
    }
    out->canvas_width = (int)info.canvas_width;
    out->canvas_height = (int)info.canvas_height;
    out->loop_count = (int)info.loop_count;
    out->background_color = info.bgcolor;
    out->frame_count = (int)info.frame_count;
    if (pi_ref_check_dimensions(out->canvas_width, out->canvas_height) != 0 ||
        pi_ref_mul_size((size_t)info.canvas_width * 4, info.canvas_height, &frame_bytes) != 0 ||
        pi_ref_mul_size(frame_bytes, info.frame_count, &total) != 0 || total > ((size_t)1 << 31)) {
        WebPAnimDecoderDelete(decoder);
        out->status = -1;
        pi_ref_set_message(out->message, "animation too large (%u x %u, %u frames)",
                           info.canvas_width, info.canvas_height, info.frame_count);
        return -1;
    }
    out->frames = (uint8_t *)malloc(total > 0 ? total : 1);
    pi_ref_advise_huge_pages(out->frames, total);
    out->timestamps = (int *)calloc(info.frame_count > 0 ? info.frame_count : 1, sizeof(int));
    if (out->frames == NULL || out->timestamps == NULL) {
        WebPAnimDecoderDelete(decoder);
        pi_ref_webp_animation_free(out);
        out->status = -1;
        pi_ref_set_message(out->message, "out of memory");
        return -1;
    }
    for (index = 0; index < (int)info.frame_count; ++index) {
        uint8_t *canvas = NULL;
        int timestamp = 0;
        if (!WebPAnimDecoderGetNext(decoder, &canvas, &timestamp)) {
            out->status = index > 0 ? 1 : -1;
            pi_ref_set_message(out->message, "WebPAnimDecoderGetNext failed at frame %d", index);
            break;
        }
        memcpy(out->frames + (size_t)index * frame_bytes, canvas, frame_bytes);
        out->timestamps[index] = timestamp;
        out->decoded_frames = index + 1;
    }
    WebPAnimDecoderDelete(decoder);
    return out->status < 0 ? -1 : 0;
}

void pi_ref_webp_animation_free(PIRefWebPAnimation *animation)
{
    if (animation == NULL) {
        return;
    }
    free(animation->frames);
    free(animation->timestamps);
    animation->frames = NULL;
    animation->timestamps = NULL;
    animation->decoded_frames = 0;
}

// The bench's properties row: WebPDemux walks the RIFF chunks (no bitstream decoded) and
// counts the frames, as an app does for an animation's frame count and timings.
int pi_ref_webp_demux_frames(const uint8_t *data, size_t size)
{
    WebPData input = {data, size};
    WebPDemuxer *demux = WebPDemux(&input);
    int frames;
    if (demux == NULL) {
        return -1;
    }
    frames = (int)WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
    WebPDemuxDelete(demux);
    return frames;
}
