#!/usr/bin/env python3
"""Deterministic generator of PureImage's own conformance corpus.

Usage:  python3 Conformance/generate_corpus.py [OUTDIR]      (default: Conformance/generated)

Layout of OUTDIR (everything below it is rewritten on every run):
  png/       PNG files from our own chunk writer (zlib + struct, full control over filters,
             interlacing, chunk order and IDAT splitting) plus a few written by Pillow
  jpeg/      JPEG files from cjpeg (libjpeg-turbo) fed with PPM/PGM files we synthesise,
             plus CMYK/YCCK files from Pillow/ImageMagick; jpeg/scans/*.txt are the cjpeg
             scan scripts used by the `-scans` files (not images, not in the manifest)
  gif/       GIF files from our own writer and LZW encoder, plus a few from Pillow and gifsicle
  tiff/      TIFF files: one uncompressed base file per image from our own writer, converted by
             tiffcp into every compression x strips/tiles x planar x byte order combination
  webp/      WebP files from cwebp, img2webp, gif2webp and webpmux (Conformance/generate_webp.py)
  <format>/corrupt/   truncated and byte-flipped copies of one small file per format
  handmade/  hand-built edge cases from Conformance/handmade.py (one commented field per line)
  manifest.tsv        path, format, expectation (valid | corrupt | unknown), notes

Reproducibility rules (running twice must give byte-identical trees):
  * every random source is a numpy Generator seeded from fixed numbers (never from time);
  * no timestamps anywhere: our PNG/GIF/TIFF writers emit none (no tIME except one with a
    fixed date, no DateTime tag), ImageMagick runs with -strip and without date properties,
    cjpeg/tiffcp/gifsicle/Pillow write none;
  * files are produced in a fixed order and the manifest is written in that order;
  * the only external inputs are the installed tools (cjpeg 2.1.5, ImageMagick 6, gifsicle,
    tiffcp 4.5, Pillow 13, the system zlib); another tool version may produce other bytes.

Variants of the same picture carry the same `image=` tag in their notes, so a test can check
that all lossless variants (notes contain `lossless`) decode to the same pixels.
"""
import io
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import warnings
import zlib

import numpy as np
import PIL
from PIL import Image, ImageCms

warnings.simplefilter("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # keep Conformance/ free of __pycache__
import handmade  # noqa: E402  (lives next to this file)
import generate_webp  # noqa: E402  (lives next to this file)

SIZES = [(1, 1), (2, 3), (7, 5), (17, 13), (33, 31), (64, 64), (255, 129), (501, 333)]


# --------------------------------------------------------------------------------------------
# Output bookkeeping
# --------------------------------------------------------------------------------------------
class Corpus:
    """Collects files under `root` and their manifest rows, in generation order."""

    def __init__(self, root):
        self.root = root
        self.rows = []
        self.scratch = tempfile.mkdtemp(prefix="corpus-scratch-")

    def path(self, rel):
        full = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        return full

    def write(self, rel, data, fmt, expectation, notes):
        with open(self.path(rel), "wb") as f:
            f.write(data)
        self.add(rel, fmt, expectation, notes)

    def add(self, rel, fmt, expectation, notes):
        assert expectation in ("valid", "corrupt", "unknown")
        self.rows.append((rel, fmt, expectation, notes))

    def tmp(self, name):
        return os.path.join(self.scratch, name)

    def finish(self):
        with open(os.path.join(self.root, "manifest.tsv"), "w") as f:
            f.write("path\tformat\texpectation\tnotes\n")
            for row in self.rows:
                f.write("\t".join(row) + "\n")
        shutil.rmtree(self.scratch, ignore_errors=True)


def run(args, check=True):
    """Runs a tool; returns True on success (raises when check is set)."""
    proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and proc.returncode != 0:
        raise RuntimeError("%s failed: %s" % (" ".join(args), proc.stderr.decode(errors="replace")))
    return proc.returncode == 0


# --------------------------------------------------------------------------------------------
# Source pictures: smooth gradients + hard edges + noise, all seeded
# --------------------------------------------------------------------------------------------
def photo(w, h, seed=0):
    """Float RGB picture in [0, 1], shape (h, w, 3): photo-like so that every filter/DCT path
    is exercised (smooth areas, sharp edges, fine lines, sensor-like noise)."""
    rng = np.random.default_rng([seed, w, h])
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    u, v = (x + 0.5) / w, (y + 0.5) / h
    img = np.stack([0.15 + 0.7 * u, 0.2 + 0.6 * v, 0.5 + 0.35 * np.sin(3.0 * (u + v) + seed)], -1)
    img[(u > 0.55) & (u < 0.85) & (v > 0.15) & (v < 0.45)] = (0.95, 0.9, 0.1)   # rectangle
    img[(u + 2 * v) < 0.45] = (0.05, 0.1, 0.4)                                    # half-plane
    img[(u - 0.3) ** 2 + (v - 0.7) ** 2 < 0.03] = (0.85, 0.15, 0.2)               # disc
    img[(x % 9 == 4) & (u > 0.6) & (v > 0.6)] = (0.0, 0.0, 0.0)                   # thin lines
    img += rng.normal(0.0, 0.025, img.shape)
    return np.clip(img, 0.0, 1.0)


def alpha_of(w, h, seed=0):
    """Float alpha in [0, 1], shape (h, w): a ramp with a fully transparent band at the top,
    a fully opaque band at the bottom and a transparent hole."""
    rng = np.random.default_rng([seed, w, h, 7])
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    u, v = (x + 0.5) / w, (y + 0.5) / h
    a = 0.15 + 0.8 * u * (0.4 + 0.6 * v) + rng.normal(0.0, 0.02, (h, w))
    a[v < 0.12] = 0.0
    a[v > 0.88] = 1.0
    a[(u - 0.7) ** 2 + (v - 0.5) ** 2 < 0.01] = 0.0
    return np.clip(a, 0.0, 1.0)


def gray_of(rgb):
    return rgb @ np.array([0.299, 0.587, 0.114])


def quant(f, bits):
    return np.rint(f * ((1 << bits) - 1)).astype(np.uint16 if bits > 8 else np.uint8)


def to_palette(rgb8, colors):
    """Median-cut palette (deterministic, no dithering): (indices (h, w), palette (n, 3))."""
    im = Image.fromarray(rgb8, "RGB").quantize(colors=colors, method=Image.Quantize.MEDIANCUT,
                                               dither=Image.Dither.NONE)
    idx = np.asarray(im).astype(np.uint8)
    n = int(idx.max()) + 1
    pal = np.array(im.getpalette()[:3 * n], np.uint8).reshape(n, 3)
    return idx, pal


def palette_alphas(idx, alpha8, n):
    """Per-entry alpha: the mean alpha of the pixels using that entry (255 when unused)."""
    sums = np.bincount(idx.ravel(), weights=alpha8.ravel().astype(np.float64), minlength=n)
    counts = np.bincount(idx.ravel(), minlength=n)
    out = np.full(n, 255, np.uint8)
    used = counts > 0
    out[used] = np.rint(sums[used] / counts[used]).astype(np.uint8)
    return out


# --------------------------------------------------------------------------------------------
# PNG writer
# --------------------------------------------------------------------------------------------
PNG_SIG = b"\x89PNG\r\n\x1a\n"
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
CTYPE_NAME = {0: "gray", 2: "rgb", 3: "palette", 4: "gray+alpha", 6: "rgba"}


def chunk(ctype, data):
    return struct.pack(">I", len(data)) + ctype + data + struct.pack(">I", zlib.crc32(ctype + data))


def pack_rows(a, depth):
    """(h, w, c) samples -> (h, rowbytes) uint8, big-endian, sub-byte samples packed MSB first."""
    h, w, c = a.shape
    if depth == 16:
        return np.ascontiguousarray(a.astype(">u2")).view(np.uint8).reshape(h, w * c * 2)
    if depth == 8:
        return a.astype(np.uint8).reshape(h, w * c)
    per = 8 // depth
    flat = a.reshape(h, w).astype(np.uint8)
    pad = (-w) % per
    flat = np.concatenate([flat, np.zeros((h, pad), np.uint8)], 1).reshape(h, -1, per)
    shifts = (depth * (per - 1 - np.arange(per))).astype(np.uint8)
    return np.bitwise_or.reduce(flat << shifts, axis=2).astype(np.uint8)


def apply_filter(f, row, prev, bpp):
    r, p = row.astype(np.int16), prev.astype(np.int16)
    z = np.zeros(bpp, np.int16)
    left, upleft = np.concatenate([z, r[:-bpp]])[:len(r)], np.concatenate([z, p[:-bpp]])[:len(r)]
    if f == 0:
        out = r
    elif f == 1:
        out = r - left
    elif f == 2:
        out = r - p
    elif f == 3:
        out = r - (left + p) // 2
    else:
        pa, pb, pc = np.abs(p - upleft), np.abs(left - upleft), np.abs(left + p - 2 * upleft)
        pred = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, p, upleft))
        out = r - pred
    return (out & 0xFF).astype(np.uint8)


def filter_rows(rows, bpp, strategy, offset):
    """strategy: 'cycle' (row y uses filter (y+offset)%5), an int 0..4, or 'adaptive'
    (minimum sum of absolute signed differences, the libpng heuristic)."""
    out = bytearray()
    prev = np.zeros(rows.shape[1], np.uint8)
    for y, row in enumerate(rows):
        if strategy == "cycle":
            f = (y + offset) % 5
            data = apply_filter(f, row, prev, bpp)
        elif strategy == "adaptive":
            best = None
            for f in range(5):
                cand = apply_filter(f, row, prev, bpp)
                score = int(np.abs(cand.astype(np.int8).astype(np.int32)).sum())
                if best is None or score < best[0]:
                    best = (score, f, cand)
            _, f, data = best
        else:
            f = strategy
            data = apply_filter(f, row, prev, bpp)
        out.append(f)
        out += data.tobytes()
        prev = row
    return bytes(out)


def png_file(samples, ctype, depth, interlace=0, palette=None, trns=None, filt="cycle",
             pre=(), mid=(), post=(), idat_sizes=None, zlevel=9, zwbits=15, zstrategy=0):
    """A PNG from samples (h, w, c). pre: chunks between IHDR and PLTE; mid: between PLTE and
    IDAT; post: between the last IDAT and IEND. idat_sizes: None (one IDAT) or a list of chunk
    lengths used cyclically (0 allowed: an empty IDAT)."""
    h, w, c = samples.shape
    bpp = max(1, c * depth // 8)
    raw = b""
    if interlace:
        for i, (x0, y0, dx, dy) in enumerate(ADAM7):
            sub = samples[y0::dy, x0::dx]
            if sub.size:
                raw += filter_rows(pack_rows(sub, depth), bpp, filt, i)
    else:
        raw = filter_rows(pack_rows(samples, depth), bpp, filt, 0)
    comp = zlib.compressobj(zlevel, zlib.DEFLATED, zwbits, 9, zstrategy)
    z = comp.compress(raw) + comp.flush()
    out = PNG_SIG + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, interlace))
    for t, d in pre:
        out += chunk(t, d)
    if palette is not None:
        out += chunk(b"PLTE", palette.astype(np.uint8).tobytes())
    if trns is not None:
        out += chunk(b"tRNS", trns)
    for t, d in mid:
        out += chunk(t, d)
    if idat_sizes is None:
        out += chunk(b"IDAT", z)
    else:
        pos, i = 0, 0
        while pos < len(z):
            n = idat_sizes[i % len(idat_sizes)]
            out += chunk(b"IDAT", z[pos:pos + n])
            pos, i = pos + n, i + 1
    for t, d in post:
        out += chunk(t, d)
    return out + chunk(b"IEND", b"")


def png_samples(w, h, ctype, depth, seed=0):
    """Samples and palette for one colour type / depth of the standard picture."""
    rgb, a = photo(w, h, seed), alpha_of(w, h, seed)
    palette = None
    if ctype == 0:
        s = quant(gray_of(rgb), depth)[..., None]
    elif ctype == 2:
        s = quant(rgb, depth)
    elif ctype == 4:
        s = np.stack([quant(gray_of(rgb), depth), quant(a, depth)], -1)
    elif ctype == 6:
        s = np.concatenate([quant(rgb, depth), quant(a, depth)[..., None]], -1)
    else:
        idx, palette = to_palette(quant(rgb, 8), 1 << depth)
        s = idx[..., None]
    return s, palette


def srgb_icc():
    """lcms's sRGB profile with its creation date pinned (lcms stamps the current time)."""
    prof = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    prof[24:36] = struct.pack(">6H", 2000, 1, 1, 0, 0, 0)
    prof[84:100] = bytes(16)  # profile ID: zero = not computed
    return bytes(prof)


PNG_TYPES = [(0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (2, 8), (2, 16), (3, 1), (3, 2), (3, 4),
             (3, 8), (4, 8), (4, 16), (6, 8), (6, 16)]


def gen_png(cp):
    # 1. every colour type x bit depth x interlace x size
    for ctype, depth in PNG_TYPES:
        for (w, h) in SIZES:
            if (w, h) == (501, 333) and (ctype, depth) not in ((2, 8), (6, 8), (3, 8), (0, 16)):
                continue
            s, pal = png_samples(w, h, ctype, depth)
            for il in (0, 1):
                name = "png/%s%d_%dx%d%s.png" % (CTYPE_NAME[ctype].replace("+", ""), depth, w, h,
                                                  "_adam7" if il else "")
                cp.write(name, png_file(s, ctype, depth, il, pal), "png", "valid",
                         "image=photo%dx%d; %s %d-bit; %s; filters=cycle0-4; lossless" %
                         (w, h, CTYPE_NAME[ctype], depth, "adam7" if il else "non-interlaced"))
    # 2. each filter type alone and the adaptive heuristic
    for ctype, depth in ((2, 8), (6, 16), (0, 2), (3, 4)):
        s, pal = png_samples(64, 64, ctype, depth)
        for filt in (0, 1, 2, 3, 4, "adaptive"):
            for il in (0, 1):
                cp.write("png/filter_%s_%s%d%s.png" % (filt, CTYPE_NAME[ctype].replace("+", ""), depth,
                                                       "_adam7" if il else ""),
                         png_file(s, ctype, depth, il, pal, filt=filt), "png", "valid",
                         "image=photo64x64; %s %d-bit; filter=%s for all rows; %s; lossless" %
                         (CTYPE_NAME[ctype], depth, filt, "adam7" if il else "non-interlaced"))
    # 3. tRNS in every form
    w, h = 33, 31
    for depth in (1, 2, 4, 8, 16):
        s, _ = png_samples(w, h, 0, depth)
        key = int(s[h // 2, w // 2, 0])
        for il in (0, 1):
            cp.write("png/trns_gray%d_key%d%s.png" % (depth, key, "_adam7" if il else ""),
                     png_file(s, 0, depth, il, trns=struct.pack(">H", key)), "png", "valid",
                     "image=photo33x31; gray %d-bit; tRNS gray key=%d (present in image)" % (depth, key))
    for depth in (8, 16):
        s, _ = png_samples(w, h, 2, depth)
        s[4:9, 4:12] = s[h // 2, w // 2]  # make sure the key colour covers a visible patch
        key = [int(v) for v in s[h // 2, w // 2]]
        for il in (0, 1):
            cp.write("png/trns_rgb%d_key%s.png" % (depth, "_adam7" if il else ""),
                     png_file(s, 2, depth, il, trns=struct.pack(">HHH", *key)), "png", "valid",
                     "image=photo33x31-keypatch; rgb %d-bit; tRNS rgb key=%s" % (depth, key))
    a8 = quant(alpha_of(w, h), 8)
    for depth in (1, 2, 4, 8):
        s, pal = png_samples(w, h, 3, depth)
        alphas = palette_alphas(s[..., 0], a8, len(pal))
        for form, t in (("full", alphas), ("partial", alphas[:max(1, len(alphas) // 2)]),
                        ("one", alphas[:1] * 0)):
            for il in (0, 1):
                cp.write("png/trns_palette%d_%s%s.png" % (depth, form, "_adam7" if il else ""),
                         png_file(s, 3, depth, il, pal, trns=t.tobytes()), "png", "valid",
                         "image=photo33x31; palette %d-bit (%d entries); tRNS %d alphas (%s)" %
                         (depth, len(pal), len(t), form))
    # 4. chunk orders the spec allows, ancillary chunks, IDAT splitting, deflate variants
    s, pal = png_samples(w, h, 3, 8)
    rgb, _ = png_samples(w, h, 2, 8)
    icc = srgb_icc()
    gama = (b"gAMA", struct.pack(">I", 45455))
    chrm = (b"cHRM", struct.pack(">8I", 31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000))
    srgb = (b"sRGB", b"\x00")
    iccp = (b"iCCP", b"sRGB IEC61966-2.1\x00\x00" + zlib.compress(icc, 9))
    text = (b"tEXt", b"Comment\x00written by generate_corpus.py")
    ztxt = (b"zTXt", b"Description\x00\x00" + zlib.compress(b"a zTXt chunk " * 20, 9))
    itxt = (b"iTXt", b"Title\x00\x00\x00en\x00Titel\x00" + "Ünïcödé title".encode())
    itxtz = (b"iTXt", b"Comment\x00\x01\x00de\x00Kommentar\x00" + zlib.compress("Grüße ".encode() * 9))
    priv = (b"prVt", b"private ancillary, safe to copy")
    time_ = (b"tIME", struct.pack(">HBBBBB", 2000, 1, 1, 0, 0, 0))
    phys = (b"pHYs", struct.pack(">IIB", 2835, 2835, 1))
    hist = (b"hIST", np.bincount(s.ravel(), minlength=len(pal)).clip(0, 65535).astype(">u2").tobytes())
    splt = (b"sPLT", b"six\x00\x08" + b"".join(struct.pack(">BBBBH", *p, 255, 10 * i)
                                                for i, p in enumerate(pal[:6].tolist())))
    orders = [
        ("text_before_idat", rgb, 2, None, dict(pre=[text], mid=[ztxt, itxt])),
        ("text_after_idat", rgb, 2, None, dict(post=[text, ztxt, itxt, itxtz])),
        ("text_both_sides", rgb, 2, None, dict(pre=[text, itxtz], post=[ztxt, text])),
        ("colorimetry_srgb_before_plte", s, 3, pal, dict(pre=[gama, chrm, srgb])),
        ("colorimetry_iccp_before_plte", s, 3, pal, dict(pre=[gama, chrm, iccp])),
        ("iccp_rgb", rgb, 2, None, dict(pre=[iccp])),
        ("ancillary_all_palette", s, 3, pal,
         dict(pre=[gama, chrm, srgb, (b"sBIT", b"\x08\x08\x08"), phys, time_, text],
              mid=[(b"bKGD", b"\x03"), hist, splt, priv], post=[priv, itxt])),
        ("ancillary_all_rgb", rgb, 2, None,
         dict(pre=[gama, (b"sBIT", b"\x05\x06\x05"), phys],
              mid=[(b"bKGD", struct.pack(">HHH", 10, 200, 30)), splt, priv], post=[time_, text])),
        ("private_chunks_everywhere", rgb, 2, None, dict(pre=[priv], mid=[priv], post=[priv, priv])),
        ("idat_1byte_chunks", rgb, 2, None, dict(idat_sizes=[1])),
        ("idat_split_odd_sizes", rgb, 2, None, dict(idat_sizes=[7, 1, 300, 2, 64, 13])),
        ("idat_with_empty_chunks", rgb, 2, None, dict(idat_sizes=[100, 0, 0, 50])),
        ("zlib_level0_stored", rgb, 2, None, dict(zlevel=0)),
        ("zlib_level1", rgb, 2, None, dict(zlevel=1)),
        ("zlib_window512", rgb, 2, None, dict(zwbits=9)),
        ("zlib_huffman_only", rgb, 2, None, dict(zstrategy=zlib.Z_HUFFMAN_ONLY)),
        ("zlib_rle", rgb, 2, None, dict(zstrategy=zlib.Z_RLE)),
        ("zlib_fixed_huffman", rgb, 2, None, dict(zstrategy=zlib.Z_FIXED)),
        ("zlib_level0_idat_1byte", s, 3, pal, dict(zlevel=0, idat_sizes=[1])),
    ]
    for name, smp, ctype, p, kw in orders:
        for il in (0, 1):
            cp.write("png/chunks_%s%s.png" % (name, "_adam7" if il else ""),
                     png_file(smp, ctype, 8, il, p, **kw), "png", "valid",
                     "image=photo33x31; %s 8-bit; %s; lossless" % (CTYPE_NAME[ctype], name.replace("_", " ")))
    # 5. an independent encoder: Pillow
    base = quant(photo(255, 129, 3), 8)
    alpha = quant(alpha_of(255, 129, 3), 8)
    pillow = [
        ("L", Image.fromarray(quant(gray_of(photo(255, 129, 3)), 8), "L")),
        ("RGB", Image.fromarray(base, "RGB")),
        ("RGBA", Image.fromarray(np.dstack([base, alpha]), "RGBA")),
        ("P", Image.fromarray(base, "RGB").quantize(64, method=Image.Quantize.MEDIANCUT,
                                                    dither=Image.Dither.NONE)),
        ("I16", Image.fromarray(quant(gray_of(photo(255, 129, 3)), 16))),
        ("1", Image.fromarray(quant(gray_of(photo(255, 129, 3)), 8), "L").convert(
            "1", dither=Image.Dither.NONE)),
    ]
    for mode, im in pillow:
        rel = "png/pillow_%s_255x129.png" % mode
        im.save(cp.path(rel), optimize=True)
        cp.add(rel, "png", "valid", "image=photo255x129s3; written by Pillow (mode %s, optimize)" % mode)


# --------------------------------------------------------------------------------------------
# JPEG (cjpeg)
# --------------------------------------------------------------------------------------------
SCAN_SCRIPTS = {
    # DC of all components first, then AC in spectral bands, no successive approximation.
    "spectral_bands": ("0,1,2: 0-0, 0, 0;\n0: 1-5, 0, 0;\n1: 1-63, 0, 0;\n2: 1-63, 0, 0;\n"
                       "0: 6-20, 0, 0;\n0: 21-63, 0, 0;\n"),
    # libjpeg's standard progressive script (jcparam.c): successive approximation in DC and AC.
    "libjpeg_standard": ("0,1,2: 0-0, 0, 1;\n0: 1-5, 0, 2;\n2: 1-63, 0, 1;\n1: 1-63, 0, 1;\n"
                         "0: 6-63, 0, 2;\n0: 1-63, 2, 1;\n0,1,2: 0-0, 1, 0;\n2: 1-63, 1, 0;\n"
                         "1: 1-63, 1, 0;\n0: 1-63, 1, 0;\n"),
    # Non-interleaved DC in reverse component order, high AC band before the low one.
    "reverse_order": ("2: 0-0, 0, 0;\n1: 0-0, 0, 0;\n0: 0-0, 0, 0;\n0: 33-63, 0, 0;\n0: 1-32, 0, 0;\n"
                      "2: 1-63, 0, 0;\n1: 1-63, 0, 0;\n"),
    # Deep successive approximation: DC in 4 steps, AC in 4 steps, interleaved with bands.
    "deep_refinement": ("0,1,2: 0-0, 0, 3;\n0: 1-63, 0, 3;\n1: 1-63, 0, 2;\n2: 1-63, 0, 2;\n"
                        "0,1,2: 0-0, 3, 2;\n0: 1-63, 3, 2;\n0,1,2: 0-0, 2, 1;\n0: 1-63, 2, 1;\n"
                        "1: 1-63, 2, 1;\n0,1,2: 0-0, 1, 0;\n2: 1-63, 2, 1;\n2: 1-63, 1, 0;\n"
                        "1: 1-63, 1, 0;\n0: 1-63, 1, 0;\n"),
    # Sequential (baseline) but one non-interleaved scan per component.
    "sequential_noninterleaved": "0: 0-63, 0, 0;\n1: 0-63, 0, 0;\n2: 0-63, 0, 0;\n",
    # Sequential, luma alone then both chromas interleaved.
    "sequential_y_then_cbcr": "0: 0-63, 0, 0;\n1,2: 0-63, 0, 0;\n",
}
GRAY_SCAN_SCRIPTS = {
    "gray_progressive": "0: 0-0, 0, 1;\n0: 1-9, 0, 0;\n0: 10-63, 0, 1;\n0: 0-0, 1, 0;\n0: 10-63, 1, 0;\n",
}
SAMPLING_CANDIDATES = ["1x1", "2x1", "1x2", "2x2", "4x1", "1x4", "4x2", "2x4", "3x1", "1x3", "3x2",
                       "2x3", "3x3", "4x4", "1x1,2x2,1x1", "2x2,1x1,1x1", "2x1,1x2,1x1",
                       "1x2,2x1,1x1", "2x2,2x1,1x1", "1x1,2x1,1x1", "2x2,1x1,2x1", "4x1,2x1,1x1",
                       "2x2,1x2,2x1", "3x1,1x1,1x1", "4x2,2x2,1x1", "1x1,1x1,2x2"]


def gen_jpeg(cp):
    work = cp.tmp("jpeg")
    os.makedirs(work, exist_ok=True)
    sources = {}

    def source(w, h, gray=False, seed=0):
        key = (w, h, gray, seed)
        if key not in sources:
            rgb = photo(w, h, seed)
            p = os.path.join(work, "src_%dx%d_%d_%d.%s" % (w, h, gray, seed, "pgm" if gray else "ppm"))
            if gray:
                Image.fromarray(quant(gray_of(rgb), 8), "L").save(p)
            else:
                Image.fromarray(quant(rgb, 8), "RGB").save(p)
            sources[key] = p
        return sources[key]

    def cjpeg(rel, args, w, h, gray=False, expectation="valid", note=""):
        out = cp.path(rel)
        run(["cjpeg"] + args + ["-outfile", out, source(w, h, gray)])
        cp.add(rel, "jpeg", expectation, "image=photo%dx%d%s; cjpeg %s%s" %
               (w, h, "-gray" if gray else "", " ".join(args) or "(defaults: q75 2x2)", note))

    for w, h in SIZES:
        cjpeg("jpeg/default_%dx%d.jpg" % (w, h), [], w, h)
        cjpeg("jpeg/gray_%dx%d.jpg" % (w, h), ["-grayscale"], w, h, gray=True)
    # sampling factors: keep exactly what cjpeg+djpeg accept
    accepted, rejected = [], []
    for samp in SAMPLING_CANDIDATES:
        probe = os.path.join(work, "probe.jpg")
        ok = run(["cjpeg", "-sample", samp, "-outfile", probe, source(33, 31)], check=False) and \
            run(["djpeg", "-outfile", os.devnull, probe], check=False)
        (accepted if ok else rejected).append(samp)
    for samp in accepted:
        tag = samp.replace(",", "_")
        for w, h in ((33, 31), (7, 5), (64, 64)):
            cjpeg("jpeg/sample_%s_%dx%d.jpg" % (tag, w, h), ["-sample", samp], w, h)
        cjpeg("jpeg/sample_%s_progressive_33x31.jpg" % tag, ["-sample", samp, "-progressive"], 33, 31)
    cjpeg("jpeg/gray_sample2x2_33x31.jpg", ["-grayscale", "-sample", "2x2"], 33, 31, gray=True,
          note="; single component with 2x2 sampling factors")
    for q in (1, 10, 50, 75, 90, 100):
        for w, h in ((64, 64), (255, 129)):
            cjpeg("jpeg/quality%d_%dx%d.jpg" % (q, w, h), ["-quality", str(q)], w, h)
    cjpeg("jpeg/quality90_40_33x31.jpg", ["-quality", "90,40"], 33, 31, note="; separate chroma table")
    cjpeg("jpeg/quality100_444_255x129.jpg", ["-quality", "100", "-sample", "1x1"], 255, 129)
    for r in ("1", "3B", "1B", "2"):
        for w, h in ((33, 31), (255, 129)):
            cjpeg("jpeg/restart%s_%dx%d.jpg" % (r, w, h), ["-restart", r], w, h)
        cjpeg("jpeg/restart%s_progressive_33x31.jpg" % r, ["-restart", r, "-progressive"], 33, 31)
    cjpeg("jpeg/restart1_gray_33x31.jpg", ["-restart", "1", "-grayscale"], 33, 31, gray=True)
    for w, h in ((1, 1), (7, 5), (33, 31), (255, 129), (501, 333)):
        cjpeg("jpeg/rgb_%dx%d.jpg" % (w, h), ["-rgb"], w, h, note="; RGB components, no colour transform")
        cjpeg("jpeg/optimize_%dx%d.jpg" % (w, h), ["-optimize"], w, h)
        cjpeg("jpeg/progressive_%dx%d.jpg" % (w, h), ["-progressive"], w, h)
        cjpeg("jpeg/progressive_gray_%dx%d.jpg" % (w, h), ["-progressive", "-grayscale"], w, h, gray=True)
        cjpeg("jpeg/arithmetic_%dx%d.jpg" % (w, h), ["-arithmetic"], w, h, note="; arithmetic coding")
        cjpeg("jpeg/arithmetic_progressive_%dx%d.jpg" % (w, h), ["-arithmetic", "-progressive"], w, h,
              note="; arithmetic coding")
    cjpeg("jpeg/rgb_progressive_33x31.jpg", ["-rgb", "-progressive"], 33, 31)
    cjpeg("jpeg/smooth50_64x64.jpg", ["-smooth", "50"], 64, 64)
    cjpeg("jpeg/dct_fast_64x64.jpg", ["-dct", "fast"], 64, 64)
    plain = os.path.join(work, "plain.jpg")
    run(["cjpeg", "-outfile", plain, source(64, 64)])
    with open(cp.path("jpeg/comment_64x64.jpg"), "wb") as f:
        f.write(subprocess.run(["wrjpgcom", "-comment", "a COM marker written by wrjpgcom", plain],
                               stdout=subprocess.PIPE, check=True).stdout)
    cp.add("jpeg/comment_64x64.jpg", "jpeg", "valid",
           "image=photo64x64; cjpeg defaults + wrjpgcom COM marker")
    icc_path = os.path.join(work, "srgb.icc")
    with open(icc_path, "wb") as f:
        f.write(srgb_icc())
    run(["cjpeg", "-icc", icc_path, "-outfile", cp.path("jpeg/icc_64x64.jpg"), source(64, 64)])
    cp.add("jpeg/icc_64x64.jpg", "jpeg", "valid", "image=photo64x64; cjpeg -icc <lcms sRGB profile>; "
           "embedded ICC (APP2)")
    # custom scan scripts
    scans_dir = cp.path("jpeg/scans/x")[:-1]
    for name, script in list(SCAN_SCRIPTS.items()) + list(GRAY_SCAN_SCRIPTS.items()):
        sp = os.path.join(scans_dir, name + ".txt")
        with open(sp, "w") as f:
            f.write(script)
        gray = name.startswith("gray")
        for w, h in ((33, 31), (255, 129)):
            out = "jpeg/scans_%s_%dx%d.jpg" % (name, w, h)
            run(["cjpeg"] + (["-grayscale"] if gray else []) + ["-scans", sp, "-outfile", cp.path(out),
                                                                source(w, h, gray)])
            cp.add(out, "jpeg", "valid", "image=photo%dx%d%s; cjpeg -scans jpeg/scans/%s.txt" %
                   (w, h, "-gray" if gray else "", name))
    # CMYK (Adobe, transform 0) from Pillow, YCCK (Adobe transform 2) from ImageMagick
    for w, h in ((33, 31), (64, 64), (255, 129)):
        rgb = photo(w, h)
        k = 1.0 - rgb.max(-1)
        cmy = (1.0 - rgb - k[..., None]) / np.maximum(1.0 - k[..., None], 1e-6)
        cmyk = quant(np.concatenate([cmy, k[..., None]], -1), 8)
        rel = "jpeg/cmyk_adobe_%dx%d.jpg" % (w, h)
        Image.frombytes("CMYK", (w, h), cmyk.tobytes()).save(cp.path(rel), quality=90)
        cp.add(rel, "jpeg", "valid", "image=photo%dx%d; Pillow CMYK q90; Adobe APP14 transform=0 "
               "(inverted CMYK, Photoshop convention)" % (w, h))
        rel = "jpeg/ycck_imagemagick_%dx%d.jpg" % (w, h)
        run(["convert", source(w, h), "-strip", "+set", "date:create", "+set", "date:modify",
             "-colorspace", "CMYK", "-quality", "90", cp.path(rel)])
        cp.add(rel, "jpeg", "valid", "image=photo%dx%d; ImageMagick -colorspace CMYK q90; Adobe "
               "APP14 transform=2 (YCCK)" % (w, h))
    return accepted, rejected


# --------------------------------------------------------------------------------------------
# GIF writer with our own LZW encoder
# --------------------------------------------------------------------------------------------
def lzw_encode(indices, min_size, mode="standard", clear_every=None, initial_clear=True):
    """GIF LZW (LSB-first, variable width 3..12 bits).
    mode 'standard': emit a clear code when the 4096-entry table is full (what giflib does).
    mode 'deferred': fill the table and keep emitting 12-bit codes without a clear code.
    clear_every=N: emit a clear code after every N data codes.
    Width rule: the decoder adds an entry one code later than the encoder, so after the encoder
    adds entry i the width must grow when i == 1 << width; before a clear/end code, which adds no
    entry, it grows when the next free entry == 1 << width."""
    clear, eoi = 1 << min_size, (1 << min_size) + 1
    acc = nbits = 0
    out = bytearray()
    width, next_code, table = min_size + 1, eoi + 1, {}

    def emit(code):
        nonlocal acc, nbits
        acc |= code << nbits
        nbits += width
        while nbits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            nbits -= 8

    def emit_control(code):
        nonlocal width
        if next_code == (1 << width) and width < 12:
            width += 1
        emit(code)

    if initial_clear:
        emit(clear)
    data = [int(v) for v in np.asarray(indices).ravel()]
    prefix, emitted = data[0], 0
    for p in data[1:]:
        key = (prefix, p)
        if key in table:
            prefix = table[key]
            continue
        emit(prefix)
        emitted += 1
        prefix = p
        if (clear_every and emitted % clear_every == 0) or (next_code == 4096 and mode == "standard"):
            emit_control(clear)
            width, next_code, table = min_size + 1, eoi + 1, {}
        elif next_code < 4096:
            table[key] = next_code
            if next_code == (1 << width) and width < 12:
                width += 1
            next_code += 1
    emit(prefix)
    emit_control(eoi)
    if nbits:
        out.append(acc & 0xFF)
    return bytes(out)


def sub_blocks(data, size=255):
    out = bytearray()
    for i in range(0, len(data), size):
        part = data[i:i + size]
        out.append(len(part))
        out += part
    return bytes(out) + b"\x00"


def color_table(pal):
    """Palette padded to a power of two >= 2; returns (bytes, size field)."""
    n = max(2, len(pal))
    field = max(0, (n - 1).bit_length() - 1)
    padded = np.zeros((2 << field, 3), np.uint8)
    padded[:len(pal)] = pal
    return padded.tobytes(), field


INTERLACE_ORDER = [(0, 8), (4, 8), (2, 4), (1, 2)]


def gif_frame(indices, left=0, top=0, lct=None, interlace=False, disposal=0, delay=0,
              transparent=None, gce=True, min_size=None, lzw_mode="standard", clear_every=None,
              initial_clear=True, block=255):
    h, w = indices.shape
    out = b""
    if gce:
        packed = (disposal << 2) | (1 if transparent is not None else 0)
        out += b"\x21\xF9\x04" + struct.pack("<BHB", packed, delay, transparent or 0) + b"\x00"
    flags = 0x40 if interlace else 0
    table = b""
    if lct is not None:
        table, field = color_table(lct)
        flags |= 0x80 | field
    out += b"\x2C" + struct.pack("<HHHHB", left, top, w, h, flags) + table
    rows = indices
    if interlace:
        rows = np.concatenate([indices[start::step] for start, step in INTERLACE_ORDER])
    if min_size is None:
        ncolors = len(lct) if lct is not None else 256
        min_size = max(2, (max(int(indices.max()) + 1, ncolors) - 1).bit_length())
    lzw = lzw_encode(rows, min_size, lzw_mode, clear_every, initial_clear)
    return out + bytes([min_size]) + sub_blocks(lzw, block)


def gif_file(w, h, gct, frames, loop=None, bg=0, version=b"GIF89a", extra=b""):
    flags, table = 0, b""
    if gct is not None:
        table, field = color_table(gct)
        flags = 0x80 | (7 << 4) | field
    out = version + struct.pack("<HHBBB", w, h, flags, bg, 0) + table
    if loop is not None:
        out += b"\x21\xFF\x0BNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00"
    out += extra
    for fr in frames:
        out += fr
    return out + b"\x3B"


def gen_gif(cp):
    W, H = 40, 30
    idx, pal = to_palette(quant(photo(W, H, 1), 8), 32)
    idx2, pal2 = to_palette(quant(photo(20, 15, 2), 8), 16)
    idx3, pal3 = to_palette(quant(photo(20, 15, 5), 8), 8)

    def anim(disposals, transparent=True):
        """4 frames: full canvas, two overlapping sub-rectangles with local palettes and a
        transparent index, then a small frame; frame i uses disposals[i]."""
        t2 = idx2.copy()
        t2[5:10, 6:14] = 15  # transparent hole
        t3 = idx3.copy()
        t3[:4, :] = 7
        return [
            gif_frame(idx, disposal=disposals[0], delay=10),
            gif_frame(t2, 5, 4, lct=pal2, disposal=disposals[1], delay=10,
                      transparent=15 if transparent else None),
            gif_frame(t3, 12, 10, lct=pal3, disposal=disposals[2], delay=10,
                      transparent=7 if transparent else None),
            gif_frame(idx2[:6, :6], 30, 2, lct=pal2, disposal=disposals[3], delay=10),
        ]

    for d in range(4):
        cp.write("gif/disposal%d.gif" % d, gif_file(W, H, pal, anim([d] * 4), loop=0), "gif", "valid",
                 "40x30; 4 frames, all disposal=%d; local palettes; transparency; offsets" % d)
    cp.write("gif/disposal_mixed.gif", gif_file(W, H, pal, anim([1, 2, 3, 0]), loop=0), "gif", "valid",
             "40x30; 4 frames, disposal 1,2,3,0; local palettes; transparency")
    cp.write("gif/disposal_mixed_opaque.gif", gif_file(W, H, pal, anim([3, 3, 2, 1], False), loop=0),
             "gif", "valid", "40x30; 4 frames, disposal 3,3,2,1; no transparency")
    cp.write("gif/disposal4to7_reserved.gif", gif_file(W, H, pal, anim([4, 5, 6, 7]), loop=0), "gif",
             "unknown", "40x30; disposal values 4-7 (reserved by the spec)")
    # every colour-table size, global and local
    for bits in range(1, 9):
        n = 1 << bits
        i, p = to_palette(quant(photo(64, 48, bits), 8), n)
        cp.write("gif/gct%d.gif" % n, gif_file(64, 48, p, [gif_frame(i, gce=False)]), "gif", "valid",
                 "64x48; global colour table %d entries (%d used)" % (n, len(p)))
        cp.write("gif/lct%d.gif" % n, gif_file(64, 48, None, [gif_frame(i, lct=p, gce=False)]), "gif",
                 "valid", "64x48; no global table; local colour table %d entries" % n)
    # interlacing at every small height (pass boundaries)
    for w, h in SIZES[:6] + [(16, 9), (3, 8), (5, 4)]:
        i, p = to_palette(quant(photo(w, h), 8), 64)
        for il in (False, True):
            cp.write("gif/%s_%dx%d.gif" % ("interlaced" if il else "plain", w, h),
                     gif_file(w, h, p, [gif_frame(i, interlace=il)]), "gif", "valid",
                     "image=gif%dx%d; %s" % (w, h, "interlaced" if il else "non-interlaced"))
    # loops and delays
    two = [gif_frame(idx, delay=20), gif_frame(idx2, 10, 8, lct=pal2, delay=20)]
    for loop in (0, 1, 5, None):
        tag = "absent" if loop is None else str(loop)
        cp.write("gif/loop_%s.gif" % tag, gif_file(W, H, pal, two, loop), "gif", "valid",
                 "40x30; 2 frames; NETSCAPE2.0 loop=%s" % tag)
    for delay in (0, 1, 2, 10, 100):
        frames = [gif_frame(idx, delay=delay), gif_frame(idx2, 10, 8, lct=pal2, delay=delay)]
        cp.write("gif/delay%d.gif" % delay, gif_file(W, H, pal, frames, 0), "gif", "valid",
                 "40x30; 2 frames; delay=%d (1/100 s)" % delay)
    # frames at offsets and beyond the canvas
    cp.write("gif/frame_offsets.gif",
             gif_file(W, H, pal, [gif_frame(idx2, 0, 0, lct=pal2), gif_frame(idx3, 20, 15, lct=pal3),
                                  gif_frame(idx3[:1, :1], 39, 29, lct=pal3)], 0), "gif", "valid",
             "40x30 canvas; frames at (0,0), (20,15) touching the corner, 1x1 at (39,29)")
    cp.write("gif/frame_beyond_canvas.gif",
             gif_file(W, H, pal, [gif_frame(idx), gif_frame(idx2, 30, 20, lct=pal2)], 0), "gif", "unknown",
             "40x30 canvas; second frame 20x15 at (30,20) extends beyond the canvas (clip expected)")
    cp.write("gif/frame_larger_than_canvas.gif", gif_file(20, 15, pal, [gif_frame(idx)], 0), "gif",
             "unknown", "20x15 canvas; single 40x30 frame at (0,0) larger than the canvas")
    cp.write("gif/frame_outside_canvas.gif",
             gif_file(W, H, pal, [gif_frame(idx), gif_frame(idx2, 100, 100, lct=pal2)], 0), "gif",
             "unknown", "40x30 canvas; second frame placed entirely outside the canvas")
    cp.write("gif/background_index5.gif", gif_file(W, H, pal, [gif_frame(idx2, 10, 8, lct=pal2)], bg=5),
             "gif", "valid", "40x30 canvas with background index 5; one 20x15 frame at (10,8)")
    # transparency
    t = idx.copy()
    t[10:20, 10:30] = 3
    cp.write("gif/transparent_single.gif", gif_file(W, H, pal, [gif_frame(t, transparent=3)]), "gif",
             "valid", "40x30; single frame; transparent index 3")
    cp.write("gif/transparent_index_unused.gif", gif_file(W, H, pal, [gif_frame(idx, transparent=255)]),
             "gif", "valid", "40x30; transparent index 255 not used by any pixel")
    # LZW variants
    big_i, big_p = to_palette(quant(photo(200, 160, 9), 8), 256)
    noise = np.random.default_rng(1234).integers(0, 256, (160, 200)).astype(np.uint8)
    lz = [
        ("standard", big_i, big_p, {}),
        ("deferred_clear", big_i, big_p, {"lzw_mode": "deferred"}),
        ("noise_standard", noise, big_p, {}),
        ("noise_deferred_clear", noise, big_p, {"lzw_mode": "deferred"}),
        ("clear_every_100", big_i, big_p, {"clear_every": 100}),
        ("clear_every_1", idx, pal, {"clear_every": 1}),
        ("no_initial_clear", idx, pal, {"initial_clear": False}),
        ("min_code_size_8_for_32_colours", idx, pal, {"min_size": 8}),
        ("subblocks_1byte", idx, pal, {"block": 1}),
        ("subblocks_100bytes", big_i, big_p, {"block": 100}),
    ]
    for name, i, p, kw in lz:
        h, w = i.shape
        cp.write("gif/lzw_%s.gif" % name, gif_file(w, h, p, [gif_frame(i, **kw)]), "gif", "valid",
                 "image=gif-lzw%dx%d; LZW %s" % (w, h, name.replace("_", " ")))
    i2, p2 = to_palette(quant(photo(64, 48, 1), 8), 2)
    cp.write("gif/two_colours_mincode2.gif", gif_file(64, 48, p2, [gif_frame(i2)]), "gif", "valid",
             "64x48; 2 colours, LZW minimum code size 2")
    cp.write("gif/gif87a.gif", gif_file(W, H, pal, [gif_frame(idx, gce=False)], version=b"GIF87a"),
             "gif", "valid", "GIF87a header, no extensions")
    ext = (b"\x21\xFE" + sub_blocks(b"a comment extension") +
           b"\x21\x01\x0C" + struct.pack("<HHHHBBBB", 0, 0, 40, 8, 8, 8, 1, 0) + sub_blocks(b"plain text") +
           b"\x21\xFF\x0BXMP DataXMP" + sub_blocks(b"<x:xmpmeta/>") +
           b"\x21\xFF\x0BUNKNOWNX1.0" + sub_blocks(b"\x01\x02\x03"))
    cp.write("gif/extensions.gif", gif_file(W, H, pal, [gif_frame(idx)], 0, extra=ext), "gif", "valid",
             "40x30; comment, plain-text, XMP and unknown application extensions before the frame")
    # independent encoders: Pillow and gifsicle
    frames = [Image.fromarray(quant(photo(64, 48, s), 8), "RGB").quantize(
        64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE) for s in range(4)]
    for disposal in (1, 2):
        rel = "gif/pillow_anim_disposal%d.gif" % disposal
        frames[0].save(cp.path(rel), save_all=True, append_images=frames[1:], duration=[50, 60, 70, 80],
                       loop=0, disposal=disposal)
        cp.add(rel, "gif", "valid", "64x48; 4 frames; written by Pillow (disposal=%d)" % disposal)
    rel = "gif/pillow_single.gif"
    frames[0].save(cp.path(rel))
    cp.add(rel, "gif", "valid", "64x48; single frame written by Pillow")
    src = cp.tmp("anim.gif")
    frames[0].save(src, save_all=True, append_images=frames[1:], duration=50, loop=3)
    for name, args in (("gifsicle_O3", ["-O3"]), ("gifsicle_interlace", ["--interlace"]),
                       ("gifsicle_colors16", ["--colors", "16"]),
                       ("gifsicle_crop_offsets", ["-O2", "--crop", "8,6+40x30"])):
        rel = "gif/%s.gif" % name
        run(["gifsicle"] + args + [src, "-o", cp.path(rel)])
        cp.add(rel, "gif", "valid", "64x48 Pillow animation re-encoded by gifsicle %s" % " ".join(args))


def libtiff_pixarlog(path, samples, bits, photometric, sample_format=1, separate=False, big_endian=False,
                     rows_per_strip=7, extra=None):
    """A PixarLog (32909) TIFF written by libtiff itself through ctypes (no tool writes PixarLog):
    samples (h, w, c) as uint8, uint16 or float32. Returns False when libtiff is not there."""
    import ctypes
    import ctypes.util
    name = ctypes.util.find_library("tiff")
    if not name:
        return False
    lib = ctypes.CDLL(name)
    lib.TIFFOpen.restype = ctypes.c_void_p
    lib.TIFFOpen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    lib.TIFFWriteEncodedStrip.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_ssize_t]
    lib.TIFFWriteEncodedStrip.restype = ctypes.c_ssize_t
    lib.TIFFClose.argtypes = [ctypes.c_void_p]
    h, w, c = samples.shape
    tif = lib.TIFFOpen(path.encode(), b"wb" if big_endian else b"wl")
    if not tif:
        return False

    def field(tag, *values):
        lib.TIFFSetField(ctypes.c_void_p(tif), ctypes.c_uint32(tag), *values)
    field(256, ctypes.c_uint32(w))
    field(257, ctypes.c_uint32(h))
    field(258, ctypes.c_int(bits))
    field(277, ctypes.c_int(c))
    field(259, ctypes.c_int(32909))
    field(262, ctypes.c_int(photometric))
    field(284, ctypes.c_int(2 if separate else 1))
    field(278, ctypes.c_uint32(rows_per_strip))
    field(339, ctypes.c_int(sample_format))
    if extra is not None:
        kinds = (ctypes.c_uint16 * 1)(extra)
        field(338, ctypes.c_int(1), kinds)
    planes = [samples[..., k:k + 1] for k in range(c)] if separate else [samples]
    strip = 0
    for plane in planes:
        for top in range(0, h, rows_per_strip):
            data = np.ascontiguousarray(plane[top:top + rows_per_strip]).tobytes()
            if lib.TIFFWriteEncodedStrip(ctypes.c_void_p(tif), strip, data, len(data)) < 0:
                lib.TIFFClose(ctypes.c_void_p(tif))
                return False
            strip += 1
    lib.TIFFClose(ctypes.c_void_p(tif))
    return True


# --------------------------------------------------------------------------------------------
# TIFF: our own uncompressed base writer, then tiffcp
# --------------------------------------------------------------------------------------------
def tiff_file(samples, bits, photometric, extra=None, colormap=None, big_endian=False, ink=False,
              separate=False, tile=None, deflate=False, predictor=False):
    """Our own TIFF writer: samples (h, w, c). One strip per sample plane (one strip in all when
    contiguous), or `tile` x `tile` tiles; optionally Adobe deflate (8) with horizontal
    differencing (Predictor=2). No DateTime/Software tags. It exists because tiffcp 4.5.0 cannot
    turn contiguous >8-bit data into separate planes and writes wrong 16-bit separate tiles."""
    h, w, c = samples.shape
    e = ">" if big_endian else "<"
    planes = [samples[..., i:i + 1] for i in range(c)] if separate else [samples]
    chunks = []
    for plane in planes:
        pieces = [plane]
        if tile:
            th, tw = -(-h // tile), -(-w // tile)
            padded = np.zeros((th * tile, tw * tile, plane.shape[2]), plane.dtype)
            padded[:h, :w] = plane
            pieces = [padded[j * tile:(j + 1) * tile, i * tile:(i + 1) * tile]
                      for j in range(th) for i in range(tw)]
        for piece in pieces:
            if predictor:  # horizontal differencing, per sample, modulo 2^bits
                piece = piece.astype(np.int64)
                piece[:, 1:] = piece[:, 1:] - piece[:, :-1]
                piece %= 1 << bits
            if samples.dtype.kind in "fi":  # IEEE floats (16/32 bits) or signed integers
                kind = "f" if samples.dtype.kind == "f" else "i"
                raw = np.ascontiguousarray(piece.astype(e + kind + str(bits // 8))).tobytes()
            elif bits == 16:
                raw = np.ascontiguousarray(piece.astype(e + "u2")).tobytes()
            elif bits == 8:
                raw = np.ascontiguousarray(piece.astype(np.uint8)).tobytes()
            else:  # 1-bit or 4-bit single channel: rows padded to a byte
                raw = pack_rows(piece, bits).tobytes()
            chunks.append(zlib.compress(raw, 9) if deflate else raw)
    data = b"".join(chunks)
    offsets = [8 + sum(len(x) for x in chunks[:i]) for i in range(len(chunks))]
    tags = [(256, 4, [w]), (257, 4, [h]), (258, 3, [bits] * c), (259, 3, [8 if deflate else 1]),
            (262, 3, [photometric]), (277, 3, [c]), (282, 5, [72, 1]), (283, 5, [72, 1]),
            (284, 3, [2 if separate else 1]), (296, 3, [2])]
    if tile:
        tags += [(322, 3, [tile]), (323, 3, [tile]), (324, 4, offsets), (325, 4, [len(x) for x in chunks])]
    else:
        tags += [(273, 4, offsets), (278, 4, [h]), (279, 4, [len(x) for x in chunks])]
    if predictor:
        tags.append((317, 3, [2]))
    if colormap is not None:
        tags.append((320, 3, colormap))
    if ink:
        tags.append((332, 3, [1]))
    if extra is not None:
        tags.append((338, 3, [extra]))
    if samples.dtype.kind in "fi":  # SampleFormat: 3 IEEE float, 2 signed integer
        tags.append((339, 3, [3 if samples.dtype.kind == "f" else 2] * c))
    tags.sort()
    ifd_off = 8 + len(data) + (len(data) & 1)
    extra_off = ifd_off + 2 + 12 * len(tags) + 4
    entries, blobs = b"", b""
    for tag, typ, vals in tags:
        fmt = {3: "H", 4: "I", 5: "I"}[typ]
        payload = struct.pack(e + fmt * len(vals), *vals)
        count = len(vals) // 2 if typ == 5 else len(vals)
        if len(payload) <= 4:
            field = payload.ljust(4, b"\x00")
        else:
            field = struct.pack(e + "I", extra_off + len(blobs))
            blobs += payload + (b"\x00" if len(payload) & 1 else b"")
        entries += struct.pack(e + "HHI", tag, typ, count) + field
    head = (b"MM\x00\x2A" if big_endian else b"II\x2A\x00") + struct.pack(e + "I", ifd_off)
    return (head + data + (b"\x00" if len(data) & 1 else b"") + struct.pack(e + "H", len(tags)) +
            entries + struct.pack(e + "I", 0) + blobs)


COMPRESSIONS = [("none", "none"), ("packbits", "packbits"), ("lzw", "lzw"), ("lzw_pred2", "lzw:2"),
                ("deflate", "zip"), ("deflate_pred2", "zip:2"), ("jpeg", "jpeg:90"),
                ("jpeg_rgb", "jpeg:r:90")]
LOSSLESS = [c for c in COMPRESSIONS if not c[0].startswith("jpeg")]
OWN_CODECS = ("none", "deflate", "deflate_pred2")   # what tiff_file itself can write
CCITT = [("g3", "g3"), ("g3_2d", "g3:2d"), ("g3_2d_fill", "g3:2d:fill"), ("g4", "g4")]   # 1-bit only
LAYOUTS = [("strips_r7", ["-s", "-r", "7"]), ("tiles16", ["-t", "-w", "16", "-l", "16"])]
JPEG_STRIPS = ("strips_r16", ["-s", "-r", "16"])    # JPEG strips must hold a multiple of 8/16 rows
ORDERS = [("big", "-B"), ("little", "-L")]


def gen_tiff(cp):
    W, H = 45, 37
    rgb, a = photo(W, H, 4), alpha_of(W, H, 4)
    failed = []

    def variants(name, image, desc, bits, comps, planars, build):
        """Every compression x layout x planar configuration x byte order of one picture.
        build(**kw) -> TIFF bytes from tiff_file; its uncompressed output is the tiffcp input.
        16- and 32-bit separate tiles come from build itself: tiffcp 4.5.0 garbles them."""
        bases = {}
        for planar in planars:
            bases[planar] = cp.tmp("%s_%s.tif" % (name, planar))
            with open(bases[planar], "wb") as f:
                f.write(build(separate=planar == "separate"))
        base_files[name] = bases
        for cname, carg in comps:
            for lname, largs in LAYOUTS:
                if cname.startswith("jpeg") and lname == "strips_r7":
                    lname, largs = JPEG_STRIPS
                for planar in planars:
                    for oname, oarg in ORDERS:
                        if cname.endswith("fpred") and oname == "big":
                            # libtiff 4.5 swaps big-endian float samples before its floating-
                            # point predictor shuffles their bytes, so tiffcp's big-endian files
                            # hold other values (libtiff reads them back as swapped floats).
                            continue
                        rel = "tiff/%s_%s_%s_%s_%s.tif" % (name, cname, lname, planar, oname)
                        if bits >= 16 and planar == "separate" and lname == "tiles16":
                            if cname not in OWN_CODECS:
                                failed.append(rel)
                                continue
                            tool = "generate_corpus.py (tiffcp 4.5.0 garbles 16/32-bit separate tiles)"
                            with open(cp.path(rel), "wb") as f:
                                f.write(build(big_endian=oname == "big", separate=True, tile=16,
                                              deflate=cname != "none", predictor=cname == "deflate_pred2"))
                        else:
                            tool = "tiffcp"
                            args = ["tiffcp", "-c", carg] + largs + ["-p", planar, oarg, bases[planar]]
                            if not run(args + [cp.path(rel)], check=False):
                                failed.append(rel)
                                if os.path.exists(cp.path(rel)):
                                    os.remove(cp.path(rel))
                                continue
                        layout = "16x16" if lname == "tiles16" else "no(rows=%s)" % largs[-1]
                        cp.add(rel, "tiff", "valid",
                               "image=tiff-%s; %s; compression=%s tiles=%s planar=%s order=%s bits=%d; "
                               "%s; written by %s" % (image, desc, carg, layout, planar, oname, bits,
                                                      "lossy" if cname.startswith("jpeg") else "lossless",
                                                      tool))

    both = ["contig", "separate"]
    base_files = {}
    for bits in (8, 16):
        s = quant(rgb, bits)
        variants("rgb%d" % bits, "rgb%d" % bits, "rgb %d-bit %dx%d" % (bits, W, H), bits,
                 COMPRESSIONS if bits == 8 else LOSSLESS, both,
                 lambda **kw: tiff_file(s, bits, 2, **kw))
        g = quant(gray_of(rgb), bits)[..., None]
        variants("gray%d" % bits, "gray%d" % bits, "gray min-is-black %d-bit" % bits, bits,
                 COMPRESSIONS[:7] if bits == 8 else LOSSLESS, ["contig"],
                 lambda **kw: tiff_file(g, bits, 1, **kw))
    g8 = quant(gray_of(rgb), 8)[..., None]
    variants("gray8_white", "gray8", "gray min-is-white 8-bit (same pixels as gray8)", 8,
             [("none", "none"), ("lzw", "lzw")], ["contig"], lambda **kw: tiff_file(255 - g8, 8, 0, **kw))
    bilevel = (gray_of(rgb) > 0.5).astype(np.uint8)[..., None]
    one_bit = [c for c in COMPRESSIONS if c[0] in ("none", "packbits", "lzw")] + CCITT
    variants("bilevel", "bilevel", "bilevel 1-bit min-is-black", 1, one_bit, ["contig"],
             lambda **kw: tiff_file(bilevel, 1, 1, **kw))
    variants("bilevel_white", "bilevel", "bilevel 1-bit min-is-white (same pixels as bilevel)", 1,
             one_bit[:1] + CCITT, ["contig"], lambda **kw: tiff_file(1 - bilevel, 1, 0, **kw))
    # Modified Huffman (compression 2): tiffcp cannot write it, Pillow's libtiff writer can.
    for white in (False, True):
        name = "bilevel_white_mh_strips.tif" if white else "bilevel_mh_strips.tif"
        pixels = ((1 - bilevel[..., 0]) if white else bilevel[..., 0]).astype(np.uint8) * 255
        buf = io.BytesIO()
        Image.fromarray(pixels).convert("1").save(buf, format="TIFF", compression="tiff_ccitt")
        data = buf.getvalue()
        if white:   # Pillow writes min-is-black; the same bits under min-is-white invert the picture
            data = data.replace(struct.pack("<HHIH", 262, 3, 1, 1), struct.pack("<HHIH", 262, 3, 1, 0), 1)
        cp.write("tiff/" + name, data, "tiff", "valid",
                 "image=tiff-bilevel; bilevel 1-bit min-is-%s; compression=CCITT RLE (2) tiles=no planar=contig "
                 "order=little bits=1; lossless; written by Pillow %s (libtiff)" % ("white" if white else "black",
                                                                                  PIL.__version__))
    # FillOrder 2 and BigTIFF copies of a few variants (tiffcp -f lsb2msb / -8).
    for rel, source, args, desc in [
            ("bilevel_g4_fill2", "bilevel", ["-c", "g4", "-f", "lsb2msb", "-r", "7"], "CCITT G4, FillOrder 2"),
            ("bilevel_g3_2d_fill2", "bilevel", ["-c", "g3:2d:fill", "-f", "lsb2msb"], "CCITT G3 2-D, FillOrder 2, one strip"),
            ("bilevel_g3_fill2", "bilevel", ["-c", "g3", "-f", "lsb2msb"], "CCITT G3 1-D, FillOrder 2, one strip"),
            ("bilevel_g4_bigtiff", "bilevel", ["-c", "g4", "-8", "-r", "7"], "CCITT G4 in BigTIFF"),
            ("rgb8_lzw_bigtiff", "rgb8", ["-c", "lzw", "-8", "-r", "7"], "rgb 8-bit LZW in BigTIFF"),
            ("rgb8_deflate_tiles16_bigtiff_big", "rgb8", ["-c", "zip", "-8", "-B", "-t", "-w", "16", "-l", "16"],
             "rgb 8-bit Deflate tiles in big-endian BigTIFF"),
            ("gray16_lzw_pred2_strips_r7_bigtiff", "gray16", ["-c", "lzw:2", "-8", "-r", "7"], "gray 16-bit LZW predictor 2 in BigTIFF")]:
        out = "tiff/%s.tif" % rel
        if run(["tiffcp"] + args + [base_files[source]["contig"], cp.path(out)], check=False):
            cp.add(out, "tiff", "valid", "image=tiff-%s; %s; lossless; written by tiffcp %s" % (source, desc, " ".join(args)))
        else:
            failed.append(out)
    for pbits in (4, 8):
        idx, pal = to_palette(quant(rgb, 8), 1 << pbits)
        cmap = np.zeros((3, 1 << pbits), np.uint16)
        cmap[:, :len(pal)] = pal.T.astype(np.uint16) * 257
        variants("palette%d" % pbits, "palette%d" % pbits, "palette %d-bit" % pbits, pbits,
                 [("none", "none"), ("packbits", "packbits"), ("lzw", "lzw"), ("deflate", "zip")], ["contig"],
                 lambda **kw: tiff_file(idx[..., None], pbits, 3, colormap=cmap.ravel().tolist(), **kw))
    alpha_comps = [("none", "none"), ("lzw_pred2", "lzw:2"), ("deflate_pred2", "zip:2")]
    for bits in (8, 16):
        straight = np.concatenate([quant(rgb, bits), quant(a, bits)[..., None]], -1)
        premul = np.concatenate([quant(rgb * a[..., None], bits), quant(a, bits)[..., None]], -1)
        variants("rgba_unassoc%d" % bits, "rgba_unassoc%d" % bits,
                 "rgba unassociated alpha (ExtraSamples=2) %d-bit" % bits, bits, alpha_comps, both,
                 lambda **kw: tiff_file(straight, bits, 2, extra=2, **kw))
        variants("rgba_assoc%d" % bits, "rgba_assoc%d" % bits,
                 "rgba associated (premultiplied) alpha (ExtraSamples=1) %d-bit" % bits, bits, alpha_comps,
                 both, lambda **kw: tiff_file(premul, bits, 2, extra=1, **kw))
    # WebP compression (50001): libtiff's codec, lossy (p75) and lossless (p100), a short last
    # strip and tiles reaching past the image.
    for rel, source, args, desc in [
            ("rgb8_webp_lossy_strips_r7", "rgb8", ["-c", "webp:p75", "-r", "7"], "rgb 8-bit WebP lossy strips; lossy"),
            ("rgb8_webp_lossless_tiles16", "rgb8", ["-c", "webp:p100", "-t", "-w", "16", "-l", "16"],
             "rgb 8-bit WebP lossless tiles; lossless"),
            ("rgba_unassoc8_webp_lossy_tiles16", "rgba_unassoc8", ["-c", "webp:p75", "-t", "-w", "16", "-l", "16"],
             "rgba 8-bit WebP lossy tiles (ALPH); lossy"),
            ("rgba_unassoc8_webp_lossless_strips_r7", "rgba_unassoc8", ["-c", "webp:p100", "-r", "7"],
             "rgba 8-bit WebP VP8L strips (the encoder does not keep colour under alpha 0); lossy")]:
        out = "tiff/%s.tif" % rel
        if run(["tiffcp"] + args + [base_files[source]["contig"], cp.path(out)], check=False):
            cp.add(out, "tiff", "valid", "image=tiff-%s; %s; written by tiffcp %s" % (source, desc, " ".join(args)))
        else:
            failed.append(out)
    # PixarLog (32909): libtiff's own encoder (companded 11-bit tokens, so lossy), 8- and 16-bit
    # and float, contiguous and separate, both byte orders, with and without alpha.
    rgba8 = np.concatenate([quant(rgb, 8), quant(a, 8)[..., None]], -1)
    for rel, samples, bits, photometric, fmt, kw, desc in [
            ("gray8", quant(gray_of(rgb), 8)[..., None], 8, 1, 1, {}, "gray 8-bit"),
            ("rgb8", quant(rgb, 8), 8, 2, 1, {}, "rgb 8-bit"),
            ("rgb8_separate_big", quant(rgb, 8), 8, 2, 1, dict(separate=True, big_endian=True),
             "rgb 8-bit, separate planes, big-endian"),
            ("rgba8", rgba8, 8, 2, 1, dict(extra=2), "rgba 8-bit unassociated alpha"),
            ("rgb16_big", quant(rgb, 16), 16, 2, 1, dict(big_endian=True), "rgb 16-bit, big-endian"),
            ("gray16", quant(gray_of(rgb), 16)[..., None], 16, 1, 1, {}, "gray 16-bit"),
            ("float32rgb", (rgb * 1.25 - 0.1).astype(np.float32), 32, 2, 3, {}, "rgb 32-bit float")]:
        out = "tiff/pixarlog_%s.tif" % rel
        if libtiff_pixarlog(cp.path(out), samples, bits, photometric, sample_format=fmt, **kw):
            cp.add(out, "tiff", "valid", "image=tiff-pixarlog-%s; %s PixarLog (32909), strips of 7 rows; lossy; "
                   "written by libtiff's PixarLog encoder" % (rel, desc))
        else:
            failed.append(out)
    k = 1.0 - rgb.max(-1)
    cmy = (1.0 - rgb - k[..., None]) / np.maximum(1.0 - k[..., None], 1e-6)
    for bits in (8, 16):
        cmyk = quant(np.concatenate([cmy, k[..., None]], -1), bits)
        variants("cmyk%d" % bits, "cmyk%d" % bits, "separated CMYK (InkSet=1) %d-bit" % bits, bits,
                 [("none", "none"), ("lzw", "lzw"), ("deflate_pred2", "zip:2")], both,
                 lambda **kw: tiff_file(cmyk, bits, 5, ink=True, **kw))
    # Floating point (SampleFormat 3) and signed samples: every variant must give the same
    # native pixels; tiffcp's :3 is the floating-point predictor (Technical Note 3).
    float_comps = [("none", "none"), ("lzw", "lzw"), ("lzw_pred2", "lzw:2"), ("lzw_fpred", "lzw:3"),
                   ("deflate_fpred", "zip:3")]
    f32 = (rgb * 1.25 - 0.1).astype(np.float32)          # some values outside 0…1, as HDR data has
    variants("float32rgb", "float32rgb", "rgb 32-bit IEEE float", 32, float_comps, both,
             lambda **kw: tiff_file(f32, 32, 2, **kw))
    variants("float32gray", "float32gray", "gray 32-bit IEEE float", 32, float_comps, ["contig"],
             lambda **kw: tiff_file(gray_of(f32)[..., None].astype(np.float32), 32, 1, **kw))
    variants("float16gray", "float16gray", "gray 16-bit IEEE half float", 16,
             [c for c in float_comps if c[0] != "lzw_pred2"], ["contig"],
             lambda **kw: tiff_file(gray_of(rgb)[..., None].astype(np.float16), 16, 1, **kw))
    i16 = (quant(gray_of(rgb), 16).astype(np.int64) - 32768).astype(np.int16)[..., None]
    variants("gray16signed", "gray16signed", "gray 16-bit signed", 16, [("none", "none"), ("lzw_pred2", "lzw:2")],
             ["contig"], lambda **kw: tiff_file(i16, 16, 1, **kw))
    # CIELab from ImageMagick (-strip: no timestamps), 8 and 16 bits, and LZW copies.
    source_png = cp.tmp("lab_source.png")
    Image.fromarray(quant(rgb, 8).astype(np.uint8)).save(source_png)
    for depth in (8, 16):
        rel = "tiff/lab%d_imagemagick.tif" % depth
        if run(["convert", source_png, "-depth", str(depth), "-strip", "-colorspace", "Lab", cp.path(rel)], check=False):
            cp.add(rel, "tiff", "valid", "image=tiff-lab%d; CIELab %d-bit (photometric 8); written by ImageMagick "
                   "convert -colorspace Lab" % (depth, depth))
            lzw = "tiff/lab%d_imagemagick_lzw_tiles16.tif" % depth
            if run(["tiffcp", "-c", "lzw", "-t", "-w", "16", "-l", "16", cp.path(rel), cp.path(lzw)], check=False):
                cp.add(lzw, "tiff", "valid", "image=tiff-lab%d; CIELab %d-bit, LZW tiles; lossless; written by tiffcp"
                       % (depth, depth))
        else:
            failed.append(rel)
    # our writer's own files: one strip, both byte orders
    for big in (False, True):
        order = "big" if big else "little"
        cp.write("tiff/base_rgb8_single_strip_%s.tif" % order, tiff_file(quant(rgb, 8), 8, 2, big_endian=big),
                 "tiff", "valid", "image=tiff-rgb8; rgb 8-bit; compression=none tiles=no(single strip) "
                 "planar=contig order=%s bits=8; lossless; written by generate_corpus.py" % order)
    return failed


# --------------------------------------------------------------------------------------------
# Corrupt copies
# --------------------------------------------------------------------------------------------
TRUNCATE_AT = (0.004, 0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 0.97, 0.995)


def truncation_points(n):
    pts = sorted({min(n - 1, max(1, int(round(n * f)))) for f in TRUNCATE_AT} | {8, n - 1})
    return [p for p in pts if 0 < p < n]


def tiff_strips(data):
    """(offsets, counts) of the first IFD of a classic TIFF (enough for our own files)."""
    e = "<" if data[:2] == b"II" else ">"
    ifd = struct.unpack(e + "I", data[4:8])[0]
    n = struct.unpack(e + "H", data[ifd:ifd + 2])[0]
    found = {}
    for i in range(n):
        tag, typ, count, val = struct.unpack(e + "HHII", data[ifd + 2 + 12 * i:ifd + 14 + 12 * i])
        if tag in (273, 279, 324, 325):
            fmt = "H" if typ == 3 else "I"
            size = count * struct.calcsize(fmt)
            where = ifd + 10 + 12 * i if size <= 4 else val
            vals = struct.unpack(e + fmt * count, data[where:where + size])
            found[tag] = vals
    return found.get(273, found.get(324)), found.get(279, found.get(325))


def flip_regions(fmt, data):
    """Byte ranges of compressed/entropy-coded data where a flipped byte damages the image."""
    if fmt == "png":
        p = data.index(b"IDAT") + 4
        n = struct.unpack(">I", data[p - 8:p - 4])[0]
        return p, p + n
    if fmt == "jpeg":
        sos = data.index(b"\xff\xda")
        start = sos + 2 + struct.unpack(">H", data[sos + 2:sos + 4])[0]
        return start, data.rindex(b"\xff\xd9")
    if fmt == "gif":
        return data.index(b"\x2C") + 12, len(data) - 2
    offs, counts = tiff_strips(data)
    return offs[0], offs[0] + counts[0]


def gen_corrupt(cp, sources):
    for fmt, rel in sources:
        data = open(os.path.join(cp.root, rel), "rb").read()
        stem = os.path.splitext(os.path.basename(rel))[0]
        ext = os.path.splitext(rel)[1]
        for p in truncation_points(len(data)):
            cp.write("%s/corrupt/%s_truncated_at_%d%s" % (fmt, stem, p, ext), data[:p], fmt, "corrupt",
                     "truncated copy of %s: first %d of %d bytes" % (rel, p, len(data)))
        start, end = flip_regions(fmt, data)
        for frac in (0.2, 0.5, 0.8):
            pos = start + int((end - start) * frac)
            if fmt == "gif" and (pos - start) % 256 == 0:  # keep sub-block length bytes intact
                pos += 1
            if fmt == "jpeg" and (data[pos] == 0xFF or data[pos - 1] == 0xFF):
                pos += 2
            flipped = bytearray(data)
            flipped[pos] ^= 0x5A
            cp.write("%s/corrupt/%s_flip_at_%d%s" % (fmt, stem, pos, ext), bytes(flipped), fmt, "corrupt",
                     "copy of %s with byte %d XOR 0x5A (compressed data); a decoder may still "
                     "produce an image" % (rel, pos))
            if fmt == "png":  # same flip with the IDAT CRC repaired: zlib/filter must catch it
                p = data.index(b"IDAT")
                n = struct.unpack(">I", data[p - 4:p])[0]
                flipped[p + 4 + n:p + 8 + n] = struct.pack(">I", zlib.crc32(bytes(flipped[p:p + 4 + n])))
                cp.write("png/corrupt/%s_flip_at_%d_crc_fixed.png" % (stem, pos), bytes(flipped), "png",
                         "corrupt", "copy of %s with byte %d XOR 0x5A and the IDAT CRC recomputed" %
                         (rel, pos))


# --------------------------------------------------------------------------------------------
def main():
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "generated"))
    for sub in ("png", "jpeg", "gif", "tiff", "webp", "handmade", "manifest.tsv"):
        target = os.path.join(out, sub)
        if os.path.isdir(target):
            shutil.rmtree(target)
        elif os.path.exists(target):
            os.remove(target)
    os.makedirs(out, exist_ok=True)
    cp = Corpus(out)
    gen_png(cp)
    accepted, rejected = gen_jpeg(cp)
    gen_gif(cp)
    failed = gen_tiff(cp)
    generate_webp.gen_webp(cp, photo, alpha_of, quant)
    gen_corrupt(cp, [("png", "png/rgb8_33x31.png"), ("jpeg", "jpeg/default_33x31.jpg"),
                     ("gif", "gif/disposal_mixed.gif"),
                     ("tiff", "tiff/rgb8_lzw_strips_r7_contig_little.tif")])
    for rel, fmt, expectation, notes in handmade.write_all(os.path.join(out, "handmade")):
        cp.add("handmade/" + rel, fmt, expectation, notes)
    cp.finish()
    counts = {}
    for _, fmt, expectation, _ in cp.rows:
        counts.setdefault(fmt, {}).setdefault(expectation, 0)
        counts[fmt][expectation] += 1
    print("cjpeg -sample accepted: %s; rejected: %s; tiffcp refused: %d combination(s)%s" %
          (" ".join(accepted), " ".join(rejected) or "none", len(failed),
           (" (" + ", ".join(os.path.basename(f) for f in failed) + ")") if failed else ""))
    summary = "; ".join("%s %s" % (fmt, " ".join("%s=%d" % kv for kv in sorted(c.items())))
                        for fmt, c in sorted(counts.items()))
    print("wrote %d files to %s: %s" % (len(cp.rows), out, summary))


if __name__ == "__main__":
    main()
