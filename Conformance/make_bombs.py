#!/usr/bin/env python3
"""Writes the decompression bombs and lying headers of Docs/Robustness.md into a folder.

    python3 Conformance/make_bombs.py OUT

Every file is small and claims far more than it holds: huge dimensions over tiny data, tens of
thousands of frames, billions of strips, IFD chains that loop or run deep, EXIF offsets that
point back at themselves. `scripts/bombs.sh` decodes, thumbnails and downscales each with the
default limits and checks that every run ends within 10 s and 2 GB with an image or a typed
error. Deterministic: the same bytes on every run (cjpeg makes the JPEG starting points).
"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, color_type, rows, extra=b""):
    ihdr = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + rows + chunk(b"IEND", b"")


def png_huge():
    """100000 x 100000 RGBA (4e10 bytes) with an IDAT of 64 zero rows: over maxPixels."""
    idat = zlib.compress(b"\0" * (64 * (1 + 100000 * 4)), 9)
    return png(100000, 100000, 6, chunk(b"IDAT", idat))


def png_at_the_limit():
    """16384 x 16384 gray (2^28 pixels, the default maxPixels) whose IDAT holds 16 rows."""
    idat = zlib.compress(b"\0" * (16 * (1 + 16384)), 9)
    return png(16384, 16384, 0, chunk(b"IDAT", idat))


def apng(frames, size):
    """`frames` frames of size x size RGBA, each an fdAT of all-zero rows (a few hundred bytes)."""
    raw = zlib.compress(b"\0" * (size * (1 + size * 4)), 9)
    body = chunk(b"acTL", struct.pack(">II", frames, 0))
    sequence = 0
    for index in range(frames):
        control = struct.pack(">IIIIIHHBB", sequence, size, size, 0, 0, 1, 100, 0, 0)
        body += chunk(b"fcTL", control)
        sequence += 1
        if index == 0:
            body += chunk(b"IDAT", raw)
        else:
            body += chunk(b"fdAT", struct.pack(">I", sequence) + raw)
            sequence += 1
    return png(size, size, 6, body)


def gif_many_frames(width, height, frames):
    """A width x height screen and `frames` 1x1 frames (each a clear, a literal and the end code)."""
    out = b"GIF89a" + struct.pack("<HH", width, height) + bytes([0x80, 0, 0]) + b"\0\0\0\xff\xff\xff"
    out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    for index in range(frames):
        out += b"\x21\xf9\x04\x04\x01\x00\x00\x00"                       # GCE: delay 1, dispose 1
        out += b"\x2c" + struct.pack("<HHHH", index % width, (index // width) % height, 1, 1) + b"\x00"
        out += b"\x02\x02\x44\x01\x00"                                     # min code 2: clear, 1, end
    return out + b"\x3b"


def cjpeg(args, width=64, height=64):
    """A small JPEG from cjpeg (a gray ramp), to patch into a lying one."""
    with tempfile.TemporaryDirectory() as work:
        source = os.path.join(work, "in.pgm")
        with open(source, "wb") as handle:
            handle.write(b"P5 %d %d 255\n" % (width, height) + bytes((x * 4 + y) & 255 for y in range(height) for x in range(width)))
        extra = []
        if "scans" in args:
            script = os.path.join(work, "scans.txt")
            with open(script, "w") as handle:
                handle.write("0: 0-0, 0, 0;\n")                           # DC only, one scan
            extra = ["-scans", script]
            args = [a for a in args if a != "scans"]
        return subprocess.run(["cjpeg", *args, *extra, source], check=True, capture_output=True).stdout


def jpeg_with_size(data, width, height, keep=None):
    """Patches the frame header's size, then keeps the first `keep` bytes of the whole file."""
    at = 2
    while at + 4 <= len(data):
        marker, length = data[at + 1], struct.unpack(">H", data[at + 2:at + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            data = data[:at + 5] + struct.pack(">HH", height, width) + data[at + 9:]
            break
        at += 2 + length
    return data[:keep] if keep else data


def tiff(entries, data=b"", next_ifd=0):
    """Little-endian classic TIFF: header, one IFD at 8 with `entries` (tag, type, count, value),
    then `data` (values beyond 4 bytes are placed by the caller)."""
    out = b"II*\0" + struct.pack("<I", 8) + struct.pack("<H", len(entries))
    for tag, kind, count, value in sorted(entries):
        out += struct.pack("<HHII", tag, kind, count, value)
    return out + struct.pack("<I", next_ifd) + data


def tiff_one_column(height, with_strip):
    """1 x height gray: one strip claiming all rows; its data is 64 bytes, or none at all."""
    end = 8 + 2 + 9 * 12 + 4
    entries = [(256, 4, 1, 1), (257, 4, 1, height), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
               (273, 4, 1, end), (277, 3, 1, 1), (278, 4, 1, height), (279, 4, 1, height)]
    return tiff(entries, b"\x80" * 64 if with_strip else b"")


def tiff_big_with_small_strip():
    """16384 x 16384 gray in one strip, of which 64 bytes are in the file."""
    end = 8 + 2 + 9 * 12 + 4
    entries = [(256, 4, 1, 16384), (257, 4, 1, 16384), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
               (273, 4, 1, end), (277, 3, 1, 1), (278, 4, 1, 16384), (279, 4, 1, 16384 * 16384)]
    return tiff(entries, b"\x80" * 64)


def tiff_many_strips():
    """65535 x 65535 with RowsPerStrip 1 declared against StripOffsets of 2^31 - 1 entries."""
    entries = [(256, 4, 1, 65535), (257, 4, 1, 65535), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
               (273, 4, 0x7FFFFFFF, 8), (277, 3, 1, 1), (278, 4, 1, 1), (279, 4, 0x7FFFFFFF, 8)]
    return tiff(entries)


def tiff_many_samples(width, height, samples):
    """width x height 16-bit gray with `samples` samples a pixel (the rest unused extra
    samples), Deflate, one row a strip, every strip the same 4 bytes that do not inflate: each
    strip declares width x samples x 2 bytes and decodes to none."""
    end = 8 + 2 + 10 * 12 + 4
    offsets, counts = end, end + 4 * height
    data_at = counts + 4 * height
    entries = [(256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, 16), (259, 3, 1, 8), (262, 3, 1, 1),
               (273, 4, height, offsets), (277, 3, 1, samples), (278, 4, 1, 1), (279, 4, height, counts), (284, 3, 1, 1)]
    data = struct.pack("<%dI" % height, *([data_at] * height)) + struct.pack("<%dI" % height, *([4] * height))
    return tiff(entries, data + b"\x01\x02\x03\x04")


def tiff_chain(pages, loop):
    """`pages` one-pixel IFDs chained; with `loop` the last points back at the first."""
    out = bytearray(b"II*\0" + struct.pack("<I", 8))
    size = 2 + 9 * 12 + 4 + 1
    for page in range(pages):
        at = 8 + page * size
        following = 8 if loop and page == pages - 1 else (0 if page == pages - 1 else at + size)
        entries = [(256, 4, 1, 1), (257, 4, 1, 1), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
                   (273, 4, 1, at + size - 1), (277, 3, 1, 1), (278, 4, 1, 1), (279, 4, 1, 1)]
        out += struct.pack("<H", len(entries))
        for tag, kind, count, value in entries:
            out += struct.pack("<HHII", tag, kind, count, value)
        out += struct.pack("<I", following) + b"\x7f"
    return bytes(out)


def jpeg_exif_loop(base):
    """A JPEG whose EXIF IFD0 points its next-IFD and its Exif sub-IFD back at itself."""
    ifd = struct.pack("<H", 2) + struct.pack("<HHII", 0x0112, 3, 1, 6) + struct.pack("<HHII", 0x8769, 4, 1, 8) + struct.pack("<I", 8)
    exif = b"Exif\0\0" + b"II*\0" + struct.pack("<I", 8) + ifd
    app1 = b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif
    return base[:2] + app1 + base[2:]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    baseline = cjpeg(["-quality", "50"])
    files = {
        "png-100000x100000-tiny-idat.png": png_huge(),
        "png-16384x16384-16-rows.png": png_at_the_limit(),
        "apng-10000-frames-64x64.png": apng(10000, 64),
        "apng-1000-frames-1024x1024.png": apng(1000, 1024),
        "gif-65535x65535-10000-frames.gif": gif_many_frames(65535, 65535, 10000),
        "gif-16384x16384-10000-frames.gif": gif_many_frames(16384, 16384, 10000),
        "jpeg-baseline-16384x16384-truncated.jpg": jpeg_with_size(baseline, 16384, 16384, keep=len(baseline) // 2),
        "jpeg-progressive-dc-only-16384x16384.jpg": jpeg_with_size(cjpeg(["-progressive", "scans"]), 16384, 16384),
        "jpeg-progressive-dc-only-65500x65500.jpg": jpeg_with_size(cjpeg(["-progressive", "scans"]), 65500, 65500),
        "jpeg-exif-ifd-loop.jpg": jpeg_exif_loop(baseline),
        "tiff-1x4294967295.tif": tiff_one_column(0xFFFFFFFF, with_strip=False),
        "tiff-1x268435456-no-data.tif": tiff_one_column(1 << 28, with_strip=False),
        "tiff-1x268435456-64-bytes.tif": tiff_one_column(1 << 28, with_strip=True),
        "tiff-16384x16384-64-byte-strip.tif": tiff_big_with_small_strip(),
        "tiff-2^31-strips.tif": tiff_many_strips(),
        "tiff-4096x4096-1000-samples-8mb-strips.tif": tiff_many_samples(4096, 4096, 1000),
        "tiff-100000-chained-ifds.tif": tiff_chain(100000, loop=False),
        "tiff-ifd-loop.tif": tiff_chain(3, loop=True),
    }
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as handle:
            handle.write(data)
    print(f"wrote {len(files)} bombs to {out} ({sum(len(d) for d in files.values())} bytes in all)")


if __name__ == "__main__":
    main()
