"""12-bit and lossless JPEGs for the conformance suite, written by libjpeg-turbo 3's encoder as
the imagecodecs wheel exposes it (jpeg8_encode: Huffman-coded, sequential): Debian's cjpeg
2.1.5 writes neither. The source is libjpeg-turbo's 16-bit monkey16.png from the shared corpus,
shifted to each precision, at full size and cropped to odd sizes.

    python3 Conformance/generate_jpeg_precision.py CORPUS_ROOT OUTPUT_FOLDER

12-bit: 4:4:4, 4:2:2, 4:2:0, 4:4:0 and gray, at three qualities. Lossless: every predictor 1-7,
precisions 2-16, gray and RGB. Deterministic; JPEGGeneratedTests compares every file with
libjpeg-turbo 3 (CReferenceJPEG3).
"""
import os
import sys

import imagecodecs
import numpy as np

corpus, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
source = imagecodecs.png_decode(open(os.path.join(corpus, "libjpeg-turbo", "monkey16.png"), "rb").read())
crops = {"a": source, "b": source[:17, :33], "c": source[:1, :1], "d": source[:9, :2]}
written = 0


def encode(image, **options):
    # A fresh array with standard strides (slices of one row or column keep odd ones).
    packed = np.frombuffer(image.tobytes(), dtype=image.dtype).reshape(image.shape)
    return imagecodecs.jpeg8_encode(packed, **options)


def write(name, data):
    global written
    with open(os.path.join(out, name + ".jpg"), "wb") as f:
        f.write(data)
    written += 1


for key, image in crops.items():
    twelve = (image >> 4).astype(np.uint16)
    for subsampling in ["444", "422", "420", "440"]:
        for quality in [30, 75, 95]:
            write(f"p12_{subsampling}_q{quality}_{key}", encode(twelve, level=quality, subsampling=subsampling, bitspersample=12))
    write(f"p12_gray_{key}", encode(twelve[..., 0], level=85, colorspace="GRAY", bitspersample=12))
    for predictor in range(1, 8):
        write(f"ll_p{predictor}_16_gray_{key}", encode(image[..., 1], lossless=True, predictor=predictor, bitspersample=16))
    for bits in [2, 5, 8, 9, 12, 13]:
        shifted = image >> (16 - bits)
        data = shifted.astype(np.uint8 if bits <= 8 else np.uint16)
        write(f"ll_p1_{bits}_gray_{key}", encode(data[..., 2], lossless=True, predictor=1, bitspersample=bits))
        write(f"ll_p6_{bits}_rgb_{key}", encode(data, lossless=True, predictor=6, bitspersample=bits, colorspace="RGB"))
print(f"wrote {written} 12-bit and lossless files to {out}")
