"""WebP part of PureImage's generated conformance corpus (issue 22), called by
generate_corpus.py as `gen_webp(cp, photo, alpha_of, quant)`.

Every file is made by Debian's `webp` tools (libwebp 1.2.4: cwebp, img2webp, gif2webp, webpmux)
from PNG sources written here with Pillow from the seeded pictures of generate_corpus.py, so
running twice gives the same bytes (the tools write no timestamps; no -mt).

  webp/lossy/      cwebp -q 0..100, -m 0..6, -sns, -f, -sharpness, -strong/-nostrong,
                   -segments, -partition_limit, -sharp_yuv, -af, presets, odd sizes from 1x1
  webp/alpha/      lossy + ALPH: -alpha_filter none/fast/best x -alpha_method 0/1, -alpha_q,
                   -exact, odd sizes
  webp/lossless/   -lossless -z 0..9, -q/-m, -near_lossless, -exact, palettes of 2..200
                   colours (colour indexing with pixel bundling), gray, odd sizes
  webp/anim/       img2webp (lossless, lossy, mixed, key-frame spacing, -min_size, loop
                   counts, durations), gif2webp of the generated GIF animations (lossless,
                   lossy, mixed), webpmux compositions (frames smaller than the canvas at
                   offsets, every dispose x blend combination, alpha frames, background colour)
  webp/corrupt/    truncations and byte flips of a lossy+alpha, a lossless and an animated file
"""
import os
import subprocess

import numpy as np
from PIL import Image

SIZES = [(1, 1), (2, 3), (3, 2), (7, 5), (16, 16), (17, 13), (33, 31), (64, 64), (255, 129), (501, 333)]


def _run(args):
    proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        raise RuntimeError("%s failed: %s" % (" ".join(args), proc.stderr.decode(errors="replace")))


def gen_webp(cp, photo, alpha_of, quant):
    sources = {}

    def png_source(name, w, h, alpha=False, seed=0, colors=None, gray=False):
        key = (name, w, h, alpha, seed, colors, gray)
        if key in sources:
            return sources[key]
        rgb = quant(photo(w, h, seed), 8)
        if colors:
            levels = np.linspace(0, 255, colors).astype(np.uint8)
            idx = (rgb.astype(np.int32).sum(-1) * colors // (3 * 256)).clip(0, colors - 1)
            rgb = np.stack([levels[idx], levels[(idx * 7) % colors], levels[(idx * 3) % colors]], -1)
        if gray:
            g = rgb.astype(np.float64) @ np.array([0.299, 0.587, 0.114])
            rgb = np.repeat(np.rint(g).astype(np.uint8)[..., None], 3, -1)
        if alpha:
            a = quant(alpha_of(w, h, seed), 8)
            img = Image.fromarray(np.dstack([rgb, a]), "RGBA")
        else:
            img = Image.fromarray(rgb, "RGB")
        path = cp.tmp("%s_%dx%d_%d%s%s%s.png" % (name, w, h, seed, "_a" if alpha else "",
                                                 "_c%d" % colors if colors else "", "_g" if gray else ""))
        img.save(path)
        sources[key] = path
        return path

    def cwebp(rel, source, args, note):
        out = cp.path(rel)
        _run(["cwebp", "-quiet"] + args + [source, "-o", out])
        cp.add(rel, "webp", "valid", note)
        return rel

    W, H = 255, 129
    rgb = png_source("photo", W, H)
    rgba = png_source("photo", W, H, alpha=True)

    # Lossy.
    for q in (0, 5, 10, 25, 50, 75, 90, 100):
        cwebp("webp/lossy/q%d_%dx%d.webp" % (q, W, H), rgb, ["-q", str(q)], "image=photo%dx%d lossy -q %d" % (W, H, q))
    for m in range(7):
        cwebp("webp/lossy/m%d.webp" % m, rgb, ["-m", str(m)], "image=photo%dx%d lossy -m %d" % (W, H, m))
    for sns in (0, 50, 100):
        cwebp("webp/lossy/sns%d.webp" % sns, rgb, ["-sns", str(sns)], "image=photo%dx%d lossy -sns %d" % (W, H, sns))
    for f in (0, 20, 60, 100):
        for strong in ("-strong", "-nostrong"):
            cwebp("webp/lossy/f%d%s.webp" % (f, strong), rgb, ["-f", str(f), strong],
                  "image=photo%dx%d lossy -f %d %s (normal / simple loop filter)" % (W, H, f, strong))
    for s in range(8):
        cwebp("webp/lossy/sharpness%d.webp" % s, rgb, ["-f", "70", "-sharpness", str(s)],
              "image=photo%dx%d lossy -f 70 -sharpness %d" % (W, H, s))
    for s in (1, 2, 3, 4):
        cwebp("webp/lossy/segments%d.webp" % s, rgb, ["-segments", str(s)], "image=photo%dx%d lossy -segments %d" % (W, H, s))
    for p in (0, 50, 100):
        cwebp("webp/lossy/partition_limit%d.webp" % p, rgb, ["-q", "95", "-partition_limit", str(p)],
              "image=photo%dx%d lossy -q 95 -partition_limit %d" % (W, H, p))
    cwebp("webp/lossy/sharp_yuv.webp", rgb, ["-sharp_yuv"], "image=photo%dx%d lossy -sharp_yuv" % (W, H))
    cwebp("webp/lossy/af.webp", rgb, ["-af"], "image=photo%dx%d lossy -af (auto filter)" % (W, H))
    for preset in ("photo", "picture", "drawing", "icon", "text"):
        cwebp("webp/lossy/preset_%s.webp" % preset, rgb, ["-preset", preset], "image=photo%dx%d lossy -preset %s" % (W, H, preset))
    for w, h in SIZES:
        cwebp("webp/lossy/size_%dx%d.webp" % (w, h), png_source("photo", w, h, seed=1), ["-q", "80"],
              "image=photo%dx%d lossy odd size" % (w, h))

    # Lossy with alpha (ALPH).
    for filt in ("none", "fast", "best"):
        for method in (0, 1):
            cwebp("webp/alpha/filter_%s_method%d.webp" % (filt, method), rgba,
                  ["-alpha_filter", filt, "-alpha_method", str(method)],
                  "image=photo%dx%d lossy+alpha -alpha_filter %s -alpha_method %d" % (W, H, filt, method))
    for aq in (0, 50, 100):
        cwebp("webp/alpha/alpha_q%d.webp" % aq, rgba, ["-alpha_q", str(aq)], "image=photo%dx%d lossy+alpha -alpha_q %d (pre-processing)" % (W, H, aq))
    cwebp("webp/alpha/exact.webp", rgba, ["-exact"], "image=photo%dx%d lossy+alpha -exact" % (W, H))
    for w, h in SIZES:
        cwebp("webp/alpha/size_%dx%d.webp" % (w, h), png_source("photo", w, h, alpha=True, seed=2), ["-q", "70"],
              "image=photo%dx%d lossy+alpha odd size" % (w, h))

    # Lossless.
    for z in range(10):
        cwebp("webp/lossless/z%d.webp" % z, rgba, ["-z", str(z)], "image=photo%dx%d lossless -z %d" % (W, H, z))
    for q, m in ((0, 0), (50, 3), (100, 6)):
        cwebp("webp/lossless/q%d_m%d.webp" % (q, m), rgb, ["-lossless", "-q", str(q), "-m", str(m)],
              "image=photo%dx%d lossless -q %d -m %d" % (W, H, q, m))
    for nl in (0, 40, 60, 80):
        cwebp("webp/lossless/near_lossless%d.webp" % nl, rgba, ["-lossless", "-near_lossless", str(nl)],
              "image=photo%dx%d -near_lossless %d" % (W, H, nl))
    cwebp("webp/lossless/exact.webp", rgba, ["-lossless", "-exact"], "image=photo%dx%d lossless -exact" % (W, H))
    for colors in (2, 3, 4, 11, 16, 17, 200):
        cwebp("webp/lossless/palette%d.webp" % colors, png_source("palette", 97, 61, colors=colors), ["-lossless"],
              "image=palette%d lossless, %d colours (colour indexing, bundling)" % (colors, colors))
    cwebp("webp/lossless/gray.webp", png_source("photo", W, H, gray=True), ["-lossless"], "image=gray lossless")
    for w, h in SIZES:
        cwebp("webp/lossless/size_%dx%d.webp" % (w, h), png_source("photo", w, h, alpha=True, seed=3), ["-lossless"],
              "image=photo%dx%d lossless odd size" % (w, h))

    # Animations: img2webp.
    frames = [png_source("frame", 64, 48, alpha=(i % 2 == 1), seed=10 + i) for i in range(4)]

    def img2webp(rel, file_options, frame_args, note):
        out = cp.path(rel)
        _run(["img2webp"] + file_options + frame_args + ["-o", out])
        cp.add(rel, "webp", "valid", note)

    def frame_list(per_frame):
        args = []
        for i, f in enumerate(frames):
            args += per_frame(i) + [f]
        return args

    img2webp("webp/anim/img2webp_lossless.webp", [], frame_list(lambda i: ["-d", str(40 + 30 * i)]),
             "animation 64x48, 4 lossless frames (2 with alpha), durations 40..130 ms")
    img2webp("webp/anim/img2webp_lossy.webp", [], frame_list(lambda i: ["-lossy", "-q", "60", "-d", "80"]),
             "animation 64x48, 4 lossy frames")
    img2webp("webp/anim/img2webp_mixed.webp", ["-mixed"], frame_list(lambda i: ["-d", "50"]),
             "animation 64x48, -mixed lossy/lossless")
    img2webp("webp/anim/img2webp_alternating.webp", ["-loop", "3"],
             frame_list(lambda i: (["-lossy", "-q", "50"] if i % 2 else ["-lossless"]) + ["-d", "10" if i == 0 else "100"]),
             "animation 64x48, alternating lossless/lossy frames, loop 3, first duration 10 ms")
    img2webp("webp/anim/img2webp_keyframes.webp", ["-kmin", "1", "-kmax", "2"], frame_list(lambda i: ["-lossy", "-d", "70"]),
             "animation 64x48, -kmin 1 -kmax 2 (sub-rectangle frames between key frames)")
    img2webp("webp/anim/img2webp_min_size.webp", ["-min_size"], frame_list(lambda i: ["-d", "60"]),
             "animation 64x48, -min_size")
    img2webp("webp/anim/img2webp_single.webp", ["-loop", "1"], ["-lossy", frames[1]], "animation of one lossy+alpha frame, loop 1")

    # gif2webp of the generated GIF animations.
    for gif in ("disposal1", "disposal2", "disposal3", "disposal_mixed", "disposal_mixed_opaque", "frame_offsets",
                "loop_5", "delay0", "delay2"):
        src = os.path.join(cp.root, "gif", gif + ".gif")
        if not os.path.exists(src):
            continue
        for mode, args in (("lossless", []), ("lossy", ["-lossy", "-q", "70"]), ("mixed", ["-mixed"])):
            rel = "webp/anim/gif2webp_%s_%s.webp" % (gif, mode)
            _run(["gif2webp", "-quiet"] + args + [src, "-o", cp.path(rel)])
            cp.add(rel, "webp", "valid", "gif2webp %s of gif/%s.gif" % (mode, gif))

    # webpmux compositions: small frames at offsets with every dispose x blend.
    parts = []
    for i, (w, h, alpha, lossless) in enumerate([(96, 64, False, False), (40, 30, True, True), (50, 20, True, False),
                                                 (30, 44, True, True), (96, 64, True, False), (22, 22, False, True)]):
        src = png_source("part", w, h, alpha=alpha, seed=20 + i)
        out = cp.tmp("part%d.webp" % i)
        _run(["cwebp", "-quiet"] + (["-lossless"] if lossless else ["-q", "70"]) + [src, "-o", out])
        parts.append(out)
    offsets = [(0, 0), (10, 8), (40, 30), (60, 12), (0, 0), (70, 40)]
    for dispose in (0, 1):
        for blend in ("+b", "-b"):
            args = []
            for i, part in enumerate(parts):
                d = dispose if i % 2 == 0 else 1 - dispose
                b = blend if i % 3 != 2 else ("-b" if blend == "+b" else "+b")
                x, y = offsets[i]
                args += ["-frame", part, "+%d+%d+%d+%d%s" % (50 + 10 * i, x, y, d, b)]
            rel = "webp/anim/webpmux_dispose%d_blend%s.webp" % (dispose, "on" if blend == "+b" else "off")
            _run(["webpmux"] + args + ["-loop", "0", "-bgcolor", "255,40,80,120", "-o", cp.path(rel)])
            cp.add(rel, "webp", "valid", "webpmux: 6 frames 96x64 canvas, offsets, dispose %d/%d, blend %s, alpha frames, "
                   "background colour" % (dispose, 1 - dispose, blend))

    # Corrupt copies: truncations and flips.
    for rel in ("webp/alpha/filter_fast_method1.webp", "webp/lossless/z5.webp", "webp/lossy/m4.webp",
                "webp/anim/webpmux_dispose1_blendon.webp"):
        data = open(cp.path(rel), "rb").read()
        stem = os.path.splitext(os.path.basename(rel))[0]
        n = len(data)
        for frac in (0.01, 0.05, 0.2, 0.5, 0.8, 0.97):
            p = max(1, min(n - 1, int(n * frac)))
            cut = "webp/corrupt/%s_%s_truncated_at_%d.webp" % (rel.split("/")[1], stem, p)
            with open(cp.path(cut), "wb") as f:
                f.write(data[:p])
            cp.add(cut, "webp", "corrupt", "truncated copy of %s: first %d of %d bytes" % (rel, p, n))
        for frac in (0.3, 0.6, 0.9):
            p = int(n * frac)
            flipped = bytearray(data)
            flipped[p] ^= 0x5A
            out = "webp/corrupt/%s_%s_flip_at_%d.webp" % (rel.split("/")[1], stem, p)
            with open(cp.path(out), "wb") as f:
                f.write(bytes(flipped))
            cp.add(out, "webp", "corrupt", "copy of %s with byte %d XOR 0x5A" % (rel, p))
