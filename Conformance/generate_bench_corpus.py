#!/usr/bin/env python3
"""Generates the benchmark corpus for `pureimage-bench` (issue 11).

    python3 Conformance/generate_bench_corpus.py [--out Conformance/bench-corpus] [--quick-only]

Writes four folders:

    bench-corpus/default/   large photo-like images, ~2-12 megapixels (the default bench run),
                            WebP included (cwebp lossy / lossy+alpha / lossless, gif2webp)
    bench-corpus/downscale/ four huge images for the downscaler rows (default run only):
                            12000x8000 baseline and progressive 4:2:0 JPEGs, a 9000x6000 RGB8 PNG and the same
                            pixels as a 9000x6000 TIFF with LZW + horizontal predictor
    bench-corpus/quick/     the same recipes at 640x480, a smoke subset (`pureimage-bench --quick`)
    bench-corpus/playback/  one 300-frame 480x360 animation as GIF and as APNG, for the
                            animation-memory row (every run, --quick included)

Everything is deterministic: the pixels come from seeded numpy generators (PCG64), and the
encoders are fixed command-line tools (cjpeg from libjpeg-turbo-progs, ImageMagick `convert`,
tiffcp from libtiff-tools) or Pillow with explicit settings. Metadata that would carry a date
(ImageMagick's date:create / tIME chunks) is suppressed, so two runs on the same machine give
the same files.

File names are `<format>-<variant>-<width>x<height>.<ext>`; the bench shows the stem as the
case's variant. A file `VERSION` holds the SHA-256 of this script: scripts/bench.sh regenerates
the corpus when the script changes.

"Photo-like" means: a sum of smooth random fields at several scales with a 1/f amplitude
falloff (luminance stronger than chroma, as in real photos), a few hard-edged blended shapes
(edges and flat regions), and fine Gaussian grain. JPEG at quality 90 then lands near 2-3 bits
per pixel and PNG compresses to roughly 55-70 % of the raw size, both typical of photographs.
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageDraw


# --------------------------------------------------------------------------------------------
# Pixel synthesis


def smooth_field(rng, width, height, cells_x, cells_y):
    """A float32 field in [0, 1] interpolated (bicubic) from a cells_x x cells_y random grid."""
    small = rng.random((cells_y, cells_x), dtype=np.float32)
    image = Image.fromarray(small, mode="F").resize((width, height), Image.BICUBIC)
    return np.asarray(image, dtype=np.float32)


def fractal_field(rng, width, height, octaves=6, base_cells=3):
    """Sum of smooth fields with 1/f amplitudes, normalised to mean 0, roughly unit range."""
    total = np.zeros((height, width), dtype=np.float32)
    aspect = width / height
    amplitude = 1.0
    for octave in range(octaves):
        cells_y = base_cells * (2 ** octave)
        cells_x = max(2, int(round(cells_y * aspect)))
        total += amplitude * (smooth_field(rng, width, height, cells_x, cells_y) - 0.5)
        amplitude *= 0.55
    return total


def photo(width, height, seed):
    """An RGB uint8 array (height, width, 3) that compresses like a photograph."""
    rng = np.random.default_rng(seed)
    luma = 0.5 + 0.9 * fractal_field(rng, width, height)
    chroma_a = 0.25 * fractal_field(rng, width, height, octaves=4)
    chroma_b = 0.25 * fractal_field(rng, width, height, octaves=4)
    rgb = np.stack([luma + chroma_a, luma - 0.5 * chroma_a - 0.5 * chroma_b, luma + chroma_b], axis=2)
    rgb = np.clip(rgb * 255.0, 0, 255).astype(np.uint8)

    # Hard edges: blended ellipses and rectangles in flat colours.
    image = Image.fromarray(rgb, mode="RGB")
    overlay = image.copy()
    draw = ImageDraw.Draw(overlay)
    for _ in range(40):
        x0, y0 = int(rng.integers(0, width)), int(rng.integers(0, height))
        w, h = int(rng.integers(width // 40, width // 6)), int(rng.integers(height // 40, height // 6))
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        if rng.random() < 0.5:
            draw.ellipse([x0, y0, x0 + w, y0 + h], fill=colour)
        else:
            draw.rectangle([x0, y0, x0 + w, y0 + h], fill=colour)
    image = Image.blend(image, overlay, 0.45)

    # Sensor-like grain.
    pixels = np.asarray(image, dtype=np.int16)
    grain = rng.normal(0.0, 3.0, size=(height, width, 1)).astype(np.int16)
    pixels = np.clip(pixels + grain, 0, 255).astype(np.uint8)
    return pixels


def alpha_mask(width, height, seed):
    """A smooth uint8 alpha field with fully opaque, fully transparent and soft regions."""
    rng = np.random.default_rng(seed)
    field = 0.5 + 1.6 * fractal_field(rng, width, height, octaves=3)
    return np.clip(field * 255.0, 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------------------------
# Encoders


def run(*command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def save_ppm(rgb, path):
    Image.fromarray(rgb, mode="RGB").save(path, format="PPM")


def write_jpegs(rgb, folder, variants, scratch):
    """cjpeg at quality 90 from a PPM; variants name the cjpeg options used."""
    h, w = rgb.shape[:2]
    ppm = os.path.join(scratch, "source.ppm")
    save_ppm(rgb, ppm)
    options = {
        "baseline420": ["-sample", "2x2"],
        "baseline422": ["-sample", "2x1"],
        "baseline444": ["-sample", "1x1"],
        "gray": ["-grayscale"],
        "progressive420": ["-sample", "2x2", "-progressive"],
        "restart420": ["-sample", "2x2", "-restart", "1"],   # a restart marker every MCU row
        "arith420": ["-sample", "2x2", "-arithmetic"],         # SOF9, T.81 Annex D
    }
    for variant in variants:
        out = os.path.join(folder, f"jpeg-{variant}-{w}x{h}.jpg")
        run("cjpeg", "-quality", "90", *options[variant], "-outfile", out, ppm)


def write_precision_jpegs(rgb, folder):
    """12-bit (4:2:0, quality 90) and 16-bit lossless gray JPEGs by libjpeg-turbo 3's encoder
    (the imagecodecs wheel; Debian's cjpeg 2.1.5 writes neither), from the 8-bit photo spread to
    the wider range with its low bits filled from a fixed dither."""
    import imagecodecs
    h, w = rgb.shape[:2]
    noise = np.random.Generator(np.random.PCG64(7)).integers(0, 256, size=rgb.shape, dtype=np.uint16)
    wide = (rgb.astype(np.uint16) << 8) | noise
    data = imagecodecs.jpeg8_encode(np.ascontiguousarray(wide >> 4), level=90, subsampling="420", bitspersample=12)
    open(os.path.join(folder, f"jpeg-12bit420-{w}x{h}.jpg"), "wb").write(data)
    gray = np.ascontiguousarray(wide[..., 1])
    data = imagecodecs.jpeg8_encode(gray, lossless=True, predictor=6, bitspersample=16)
    open(os.path.join(folder, f"jpeg-lossless16gray-{w}x{h}.jpg"), "wb").write(data)


def write_pngs(rgb, folder, variants, seed, scratch):
    h, w = rgb.shape[:2]
    for variant in variants:
        out = os.path.join(folder, f"png-{variant}-{w}x{h}.png")
        if variant == "rgb8":
            Image.fromarray(rgb, "RGB").save(out, compress_level=6)
        elif variant == "rgba8":
            rgba = np.dstack([rgb, alpha_mask(w, h, seed + 1)])
            Image.fromarray(rgba, "RGBA").save(out, compress_level=6)
        elif variant == "gray8":
            Image.fromarray(rgb, "RGB").convert("L").save(out, compress_level=6)
        elif variant == "graya8":
            gray = np.asarray(Image.fromarray(rgb, "RGB").convert("L"))
            Image.fromarray(np.dstack([gray, alpha_mask(w, h, seed + 3)]), "LA").save(out, compress_level=6)
        elif variant == "rgba16":
            # ImageMagick, from a 16-bit PAM: the photo spread over 16 bits as for rgb16, and the
            # alpha field with deterministic low bytes (opaque where the 8-bit field is).
            rng = np.random.default_rng(seed + 4)
            deep = rgb.astype(np.int32) * 257 + rng.integers(0, 256, rgb.shape) - 128
            alpha8 = alpha_mask(w, h, seed + 1).astype(np.int32)
            alpha = np.where(alpha8 == 255, 65535, alpha8 * 257 + rng.integers(0, 256, alpha8.shape))
            deep = np.clip(np.dstack([deep, alpha]), 0, 65535).astype(">u2")
            source = os.path.join(scratch, "source-rgba16.pam")
            with open(source, "wb") as f:
                f.write(f"P7\nWIDTH {w}\nHEIGHT {h}\nDEPTH 4\nMAXVAL 65535\nTUPLTYPE RGB_ALPHA\nENDHDR\n".encode())
                f.write(deep.tobytes())
            run("convert", source, "-depth", "16", "-strip", "-define", "png:exclude-chunks=date,time",
                "-define", "png:compression-level=6", out)
        elif variant == "palette8":
            quantized = Image.fromarray(rgb, "RGB").quantize(256, method=Image.Quantize.MEDIANCUT)
            quantized.save(out, compress_level=6)
        elif variant in ("rgb16", "adam7"):
            # ImageMagick: 16-bit samples from a 16-bit PPM; Adam7 with -interlace PNG.
            source = os.path.join(scratch, f"source-{variant}.ppm")
            if variant == "rgb16":
                # Spread the 8-bit photo over 16 bits with deterministic low-byte noise.
                rng = np.random.default_rng(seed + 2)
                deep = rgb.astype(np.uint16) * 257 + rng.integers(0, 256, rgb.shape, dtype=np.uint16) - 128
                deep = np.clip(deep.astype(np.int32), 0, 65535).astype(">u2")
                with open(source, "wb") as f:
                    f.write(f"P6\n{w} {h}\n65535\n".encode())
                    f.write(deep.tobytes())
                extra = ["-depth", "16"]
            else:
                save_ppm(rgb, source)
                extra = ["-depth", "8", "-interlace", "PNG"]
            run("convert", source, *extra, "-strip", "-define", "png:exclude-chunks=date,time",
                "-define", "png:compression-level=6", out)
        else:
            raise ValueError(variant)


def write_gifs(rgb, folder, variants, seed, frames):
    h, w = rgb.shape[:2]
    for variant in variants:
        if variant == "still":
            out = os.path.join(folder, f"gif-still-{w}x{h}.gif")
            Image.fromarray(rgb, "RGB").quantize(256, method=Image.Quantize.MEDIANCUT).save(out)
        elif variant == "animated":
            # A photo background with a moving bright disc: frames after the first change only a
            # region (Pillow stores them cropped to the changed bounding box, disposal "none").
            out = os.path.join(folder, f"gif-animated{frames}-{w}x{h}.gif")
            background = Image.fromarray(rgb, "RGB")
            palette_image = background.quantize(256, method=Image.Quantize.MEDIANCUT)
            images = []
            radius = max(8, min(w, h) // 8)
            for index in range(frames):
                frame = background.copy()
                cx = radius + (w - 2 * radius) * index // max(1, frames - 1)
                cy = h // 2
                ImageDraw.Draw(frame).ellipse([cx - radius, cy - radius, cx + radius, cy + radius], fill=(250, 240, 40))
                images.append(frame.quantize(palette=palette_image, dither=Image.Dither.NONE))
            images[0].save(out, save_all=True, append_images=images[1:], duration=80, loop=0, disposal=1)
        else:
            raise ValueError(variant)


def write_webps(rgb, folder, variants, seed, scratch, gif_folder=None):
    """cwebp (Debian `webp`, libwebp 1.2.4) at its defaults, deterministic (no -mt)."""
    h, w = rgb.shape[:2]
    source = os.path.join(scratch, "webp-source.png")
    for variant in variants:
        if variant == "lossy":
            Image.fromarray(rgb, "RGB").save(source)
            run("cwebp", "-quiet", source, "-o", os.path.join(folder, f"webp-lossy-{w}x{h}.webp"))
        elif variant == "lossy-alpha":
            Image.fromarray(np.dstack([rgb, alpha_mask(w, h, seed)]), "RGBA").save(source)
            run("cwebp", "-quiet", source, "-o", os.path.join(folder, f"webp-lossy-alpha-{w}x{h}.webp"))
        elif variant == "lossless":
            Image.fromarray(rgb, "RGB").save(source)
            run("cwebp", "-quiet", "-lossless", source, "-o", os.path.join(folder, f"webp-lossless-{w}x{h}.webp"))
        elif variant.startswith("animated"):
            # The GIF animation of the same set, through gif2webp (lossy frames, key frames as
            # gif2webp places them).
            gif = [n for n in os.listdir(gif_folder) if n.startswith("gif-animated")][0]
            run("gif2webp", "-quiet", "-lossy", os.path.join(gif_folder, gif),
                "-o", os.path.join(folder, gif.replace("gif-", "webp-").replace(".gif", ".webp")))
        else:
            raise ValueError(variant)


def write_tiffs(rgb, folder, variants, scratch):
    h, w = rgb.shape[:2]
    raw = os.path.join(scratch, "source.tif")
    Image.fromarray(rgb, "RGB").save(raw, compression="raw")
    options = {
        "none": ["-c", "none"],
        "lzw": ["-c", "lzw"],
        "lzw-predictor": ["-c", "lzw:2"],
        "deflate": ["-c", "zip"],
        "packbits": ["-c", "packbits"],
        "tiled-lzw": ["-c", "lzw", "-t", "-w", "256", "-l", "256"],
        "bigtiff-lzw": ["-c", "lzw", "-8"],
    }
    for variant in variants:
        out = os.path.join(folder, f"tiff-{variant}-{w}x{h}.tif")
        run("tiffcp", *options[variant], raw, out)


def scanned_page(width, height, seed):
    """A bilevel "scanned document": lines of word-like blocks and glyphs, a ruled table, a
    signature scrawl and scanner speckle — the run lengths of real fax pages, not a photo's."""
    rng = np.random.default_rng(seed)
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    margin = width // 12
    y = margin
    while y < height * 0.62:
        x = margin
        while x < width - margin:
            word = int(rng.integers(40, 260))
            glyph_height = int(rng.integers(22, 30))
            for g in range(0, word, 18):      # glyph strokes inside the word
                draw.rectangle([x + g, y, x + g + int(rng.integers(3, 12)), y + glyph_height], fill=0)
                draw.rectangle([x + g, y + glyph_height // 2, x + g + 14, y + glyph_height // 2 + 3], fill=0)
            x += word + int(rng.integers(18, 40))
        y += int(rng.integers(44, 60))
    for row in range(8):                       # a ruled table
        ty = int(height * 0.66) + row * 70
        draw.line([margin, ty, width - margin, ty], fill=0, width=3)
    for col in range(5):
        tx = margin + col * (width - 2 * margin) // 4
        draw.line([tx, int(height * 0.66), tx, int(height * 0.66) + 7 * 70], fill=0, width=3)
    points = [(margin + 40 * i, int(height * 0.9) + int(30 * np.sin(i * 0.7))) for i in range(30)]
    draw.line(points, fill=0, width=5)
    bits = np.array(page) > 127
    speckle = rng.random(bits.shape) < 0.0015
    return np.where(speckle, ~bits, bits)


def write_fax(folder, scratch, width, height, seed, variants):
    """CCITT pages written by tiffcp from a 1-bit min-is-white page."""
    raw = os.path.join(scratch, "page.tif")
    Image.fromarray(scanned_page(width, height, seed)).convert("1").save(raw, compression="raw")
    options = {"g4": ["-c", "g4"], "g3-2d": ["-c", "g3:2d:fill"]}
    for variant in variants:
        run("tiffcp", *options[variant], raw, os.path.join(folder, f"tiff-fax-{variant}-{width}x{height}.tif"))


# --------------------------------------------------------------------------------------------
# The two sets


def generate_default(folder, scratch):
    big = photo(3000, 2000, seed=11)         # 6 MP: every JPEG variant
    write_jpegs(big, folder, ["baseline420", "baseline422", "baseline444", "gray", "progressive420", "restart420", "arith420"], scratch)
    write_precision_jpegs(photo(2000, 1500, seed=14), folder)   # 3 MP, against libjpeg-turbo 3
    write_jpegs(photo(4000, 3000, seed=12), folder, ["baseline420"], scratch)   # 12 MP
    write_jpegs(photo(1600, 1200, seed=13), folder, ["baseline420"], scratch)   # 1.9 MP
    medium = photo(2000, 1500, seed=21)      # 3 MP: PNG, GIF still, TIFF
    write_pngs(medium, folder, ["rgb8", "rgba8", "gray8", "graya8", "palette8", "rgb16", "rgba16", "adam7"], 21, scratch)
    write_pngs(photo(4000, 3000, seed=22), folder, ["rgb8"], 22, scratch)      # 12 MP
    write_gifs(medium, folder, ["still"], 21, 0)
    write_gifs(photo(1000, 750, seed=23), folder, ["animated"], 23, frames=12)
    write_tiffs(medium, folder, ["none", "lzw", "lzw-predictor", "deflate", "packbits", "tiled-lzw", "bigtiff-lzw"], scratch)
    write_fax(folder, scratch, 2500, 3300, seed=24, variants=["g4", "g3-2d"])   # an A4 page at 300 dpi
    write_webps(big, folder, ["lossy"], 11, scratch)                            # 6 MP
    write_webps(medium, folder, ["lossy-alpha", "lossless"], 21, scratch)       # 3 MP
    write_webps(medium, folder, ["animated"], 23, scratch, gif_folder=folder)   # the 1000x750 GIF animation


def generate_playback(folder, scratch):
    # The animation-memory row: one animation of 300 frames of 480x360 (a photo with a moving
    # disc), stored as GIF and as APNG (frame 0 is the default image), played to its end by
    # PureImage in a child process each. Pillow writes both from the same RGB frames.
    w, h, frames = 480, 360, 300
    background = Image.fromarray(photo(w, h, seed=41), "RGB")
    radius = 40
    images = []
    for index in range(frames):
        frame = background.copy()
        cx = radius + (w - 2 * radius) * index // (frames - 1)
        cy = radius + (h - 2 * radius) * ((index * 7) % frames) // (frames - 1)
        ImageDraw.Draw(frame).ellipse([cx - radius, cy - radius, cx + radius, cy + radius], fill=(250, 240, 40))
        images.append(frame)
    images[0].save(os.path.join(folder, f"anim{frames}-{w}x{h}.png"), save_all=True, append_images=images[1:], duration=40, loop=0)
    palette = background.quantize(256, method=Image.Quantize.MEDIANCUT)
    indexed = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in images]
    indexed[0].save(os.path.join(folder, f"anim{frames}-{w}x{h}.gif"), save_all=True, append_images=indexed[1:],
                    duration=40, loop=0, disposal=1)


def generate_downscale(folder, scratch):
    # Above the downscaler's 15 728 640-pixel threshold (60 MB of RGBA), so that
    # decodedAndScaledDown(limitBytes: 0) scales them all: the JPEGs to 4857x3238 from full size
    # (a DCT-domain reduction must leave 4x the destination), the PNG and TIFF (54 MP) to
    # 4857x3238 as well. The progressive JPEG is the baseline one's picture: its 288 MB of
    # coefficients are what the banded progressive decode (JPEG CoefficientBands) avoids holding.
    write_jpegs(photo(12000, 8000, seed=41), folder, ["baseline420", "progressive420"], scratch)
    wide = photo(9000, 6000, seed=42)
    write_pngs(wide, folder, ["rgb8"], 42, scratch)
    # LZW with the predictor, as photo TIFFs are usually written (plain LZW grows the grain).
    write_tiffs(wide, folder, ["lzw-predictor"], scratch)


def generate_quick(folder, scratch):
    small = photo(640, 480, seed=31)
    write_jpegs(small, folder, ["baseline420", "baseline444", "gray", "progressive420", "arith420"], scratch)
    write_pngs(small, folder, ["rgb8", "rgba8", "palette8", "rgb16", "adam7"], 31, scratch)
    write_gifs(small, folder, ["still"], 31, 0)
    write_gifs(photo(320, 240, seed=32), folder, ["animated"], 32, frames=6)
    write_tiffs(small, folder, ["lzw"], scratch)
    write_fax(folder, scratch, 850, 1100, seed=33, variants=["g4"])
    write_webps(small, folder, ["lossy", "lossy-alpha", "lossless"], 31, scratch)
    write_webps(small, folder, ["animated"], 32, scratch, gif_folder=folder)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(here, "bench-corpus"))
    parser.add_argument("--quick-only", action="store_true", help="only the small smoke set")
    args = parser.parse_args()

    for tool in ("cjpeg", "convert", "tiffcp", "cwebp", "gif2webp"):
        if shutil.which(tool) is None:
            sys.exit(f"generate_bench_corpus.py: `{tool}` not found (see scripts/install-deps.sh)")

    with open(os.path.abspath(__file__), "rb") as f:
        version = hashlib.sha256(f.read()).hexdigest()
    sets = [("quick", generate_quick), ("playback", generate_playback)]
    if not args.quick_only:
        sets += [("default", generate_default), ("downscale", generate_downscale)]
    with tempfile.TemporaryDirectory() as scratch:
        for name, generate in sets:
            folder = os.path.join(args.out, name)
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder)
            generate(folder, scratch)
            count = len(os.listdir(folder))
            size = sum(os.path.getsize(os.path.join(folder, n)) for n in os.listdir(folder))
            print(f"bench corpus: {folder}: {count} files, {size / 1e6:.1f} MB")
    with open(os.path.join(args.out, "VERSION"), "w") as f:
        f.write(version + ("-quick" if args.quick_only else "") + "\n")


if __name__ == "__main__":
    main()
