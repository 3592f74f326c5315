// Reference GIF composition for the conformance suite (rules in CReference.h). Written
// separately from PureImage's Swift compositor so the two can check each other.
#include <stdlib.h>
#include <string.h>
#include "CReference.h"

int pi_ref_gif_composer_init(PIRefGIFComposer *c, const PIRefGIF *gif) {
    memset(c, 0, sizeof *c);
    c->gif = gif;
    if (gif->width <= 0 || gif->height <= 0) return -1;
    size_t pixels = (size_t)gif->width * (size_t)gif->height;
    if (pixels > ((size_t)1 << 28)) return -1;
    c->canvas = calloc(pixels, 4);
    pi_ref_advise_huge_pages(c->canvas, pixels * 4);
    c->saved = calloc(pixels, 4);
    if (!c->canvas || !c->saved) { pi_ref_gif_composer_free(c); return -1; }
    return 0;
}

static void copy_rect(uint8_t *dst, const uint8_t *src, int width, int x0, int y0, int x1, int y1) {
    for (int y = y0; y < y1; y++) {
        size_t at = ((size_t)y * width + x0) * 4;
        memcpy(dst + at, src + at, (size_t)(x1 - x0) * 4);
    }
}

const uint8_t *pi_ref_gif_composer_next(PIRefGIFComposer *c) {
    const PIRefGIF *gif = c->gif;
    if (!c->canvas || c->next_frame >= gif->frame_count) return NULL;
    int W = gif->width, H = gif->height;

    // The previous frame's disposal.
    if (c->px1 > c->px0 && c->py1 > c->py0) {
        if (c->pending_disposal == 2) {
            for (int y = c->py0; y < c->py1; y++)
                memset(c->canvas + ((size_t)y * W + c->px0) * 4, 0, (size_t)(c->px1 - c->px0) * 4);
        } else if (c->pending_disposal == 3 || c->pending_disposal == 4) {
            copy_rect(c->canvas, c->saved, W, c->px0, c->py0, c->px1, c->py1);
        }
    }

    const PIRefGIFFrame *f = &gif->frames[c->next_frame++];
    // The rectangle clipped to the canvas (frames may reach past it).
    int x0 = f->left < 0 ? 0 : (f->left > W ? W : f->left);
    int y0 = f->top < 0 ? 0 : (f->top > H ? H : f->top);
    long xe = (long)f->left + f->width, ye = (long)f->top + f->height;
    int x1 = xe > W ? W : (int)xe, y1 = ye > H ? H : (int)ye;
    if (x1 < x0) x1 = x0;
    if (y1 < y0) y1 = y0;
    if (f->disposal == 3 || f->disposal == 4) copy_rect(c->saved, c->canvas, W, x0, y0, x1, y1);

    for (int y = y0; y < y1; y++) {
        for (int x = x0; x < x1; x++) {
            int index = f->indices[(size_t)(y - f->top) * f->width + (x - f->left)];
            if (index == f->transparent_index) continue;
            uint8_t *p = c->canvas + ((size_t)y * W + x) * 4;
            if (index < f->palette_count) {
                p[0] = f->palette[index * 3]; p[1] = f->palette[index * 3 + 1]; p[2] = f->palette[index * 3 + 2];
            } else {
                p[0] = p[1] = p[2] = 0;
            }
            p[3] = 255;
        }
    }
    c->pending_disposal = f->disposal;
    c->px0 = x0; c->py0 = y0; c->px1 = x1; c->py1 = y1;
    return c->canvas;
}

void pi_ref_gif_composer_free(PIRefGIFComposer *c) {
    free(c->canvas);
    free(c->saved);
    c->canvas = NULL;
    c->saved = NULL;
}
