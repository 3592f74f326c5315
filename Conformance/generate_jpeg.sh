#!/bin/sh
# Generates baseline JPEGs with libjpeg-turbo's cjpeg for every sampling-factor combination
# cjpeg will write (luma H, V in 1…4, chroma 1, 2 or 4, at most 10 blocks per MCU; files with
# fractional ratios are kept: libjpeg-turbo refuses to decode them and so must we), plus
# restart intervals, grayscale, RGB (cjpeg -rgb), odd sizes and several qualities, each at four
# image sizes (227×149, 33×17, 1×1, 2×9); arithmetic-coded variants (cjpeg -arithmetic, sequential
# and progressive); and 12-bit and lossless files from generate_jpeg_precision.py.
# Output: Conformance/generated/jpeg-sampling/ (git-ignored).
#
# The source picture is libjpeg-turbo's testorig.ppm from the shared corpus (PUREIMAGE_CORPUS, or
# ../shared/corpus beside the checkout; JPEG_SOURCE_IMAGE overrides). scripts/test.sh runs this
# before the tests; JPEGGeneratedTests compares every file with libjpeg-turbo at every scale.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/generated/jpeg-sampling"
src="${JPEG_SOURCE_IMAGE:-${PUREIMAGE_CORPUS:-$here/../../shared/corpus}/libjpeg-turbo/testorig.ppm}"
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Odd-sized crops of the source (P6 PPM), to exercise partial MCUs and edge upsampling.
crop() { # width height output
    python3 - "$src" "$1" "$2" "$3" <<'PY'
import sys
src, w, h, dst = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
data = open(src, 'rb').read()
parts = data.split(maxsplit=4)
W, H = int(parts[1]), int(parts[2])
pix = parts[4]
rows = []
for y in range(h):
    sy = y % H
    row = b''.join(pix[(sy * W + (x % W)) * 3:(sy * W + (x % W)) * 3 + 3] for x in range(w))
    rows.append(row)
open(dst, 'wb').write(b'P6\n%d %d\n255\n' % (w, h) + b''.join(rows))
PY
}

crop 227 149 "$tmp/a.ppm"
crop 33 17 "$tmp/b.ppm"
crop 1 1 "$tmp/c.ppm"
crop 2 9 "$tmp/d.ppm"

n=0
for f in 1 2 3 4; do for g in 1 2 3 4; do
  for h in 1 2 4; do for v in 1 2 4; do
    # luma HxV = f x g, chroma h x v: libjpeg needs whole ratios against the maximum.
    blocks=$((f * g + 2 * h * v))
    [ "$blocks" -le 10 ] || continue
    for img in a b c d; do
      name="s${f}x${g}_${h}x${v}_$img"
      if cjpeg -quality 90 -sample "${f}x${g},${h}x${v},${h}x${v}" "$tmp/$img.ppm" > "$out/$name.jpg" 2>/dev/null; then
        n=$((n + 1))
      else
        rm -f "$out/$name.jpg"
      fi
    done
  done; done
done; done

# Different factors for Cb and Cr (libjpeg allows any whole ratios per component).
for luma in 2x2 4x1 1x4 2x1 4x2; do
  for cb in 1x1 2x1 1x2 2x2; do for cr in 1x1 2x1 1x2; do
    for img in a b; do
      name="m${luma}_${cb}_${cr}_$img"
      if cjpeg -quality 85 -sample "$luma,$cb,$cr" "$tmp/$img.ppm" > "$out/$name.jpg" 2>/dev/null; then
        n=$((n + 1))
      else
        rm -f "$out/$name.jpg"
      fi
    done
  done; done
done

for img in a b c d; do
  cjpeg -quality 75 -restart 1 "$tmp/$img.ppm" > "$out/restart1_$img.jpg"
  cjpeg -quality 75 -restart 3B "$tmp/$img.ppm" > "$out/restart3b_$img.jpg"
  cjpeg -grayscale -quality 85 "$tmp/$img.ppm" > "$out/gray_$img.jpg"
  cjpeg -rgb -quality 85 "$tmp/$img.ppm" > "$out/rgb_$img.jpg"
  cjpeg -quality 20 -sample 2x2 "$tmp/$img.ppm" > "$out/q20_420_$img.jpg"
  cjpeg -quality 100 -sample 2x1 "$tmp/$img.ppm" > "$out/q100_422_$img.jpg"
  cjpeg -quality 95 -sample 1x2 "$tmp/$img.ppm" > "$out/q95_440_$img.jpg"
  cjpeg -quality 90 -sample 1x1,1x1,1x1 -qtables /dev/null "$tmp/$img.ppm" > "$out/q90_444_$img.jpg" 2>/dev/null || rm -f "$out/q90_444_$img.jpg"
  n=$((n + 7))
done
# Arithmetic coding (cjpeg -arithmetic, SOF9; with -progressive, SOF10): sampling factors,
# restart intervals, grayscale, every image size.
for img in a b c d; do
  for sample in 1x1 2x1 1x2 2x2 4x1 4x2; do
    cjpeg -arithmetic -quality 85 -sample "$sample" "$tmp/$img.ppm" > "$out/arith_${sample}_$img.jpg"
    cjpeg -arithmetic -progressive -quality 85 -sample "$sample" "$tmp/$img.ppm" > "$out/arithprog_${sample}_$img.jpg"
    n=$((n + 2))
  done
  cjpeg -arithmetic -quality 75 -restart 1 "$tmp/$img.ppm" > "$out/arith_restart1_$img.jpg"
  cjpeg -arithmetic -progressive -quality 75 -restart 2 "$tmp/$img.ppm" > "$out/arithprog_restart2_$img.jpg"
  cjpeg -arithmetic -grayscale -quality 90 "$tmp/$img.ppm" > "$out/arith_gray_$img.jpg"
  cjpeg -arithmetic -progressive -rgb -quality 90 "$tmp/$img.ppm" > "$out/arithprog_rgb_$img.jpg"
  n=$((n + 4))
done
echo "wrote $n files to $out"

# 12-bit and lossless files (libjpeg-turbo 3's encoder, through imagecodecs).
python3 "$here/generate_jpeg_precision.py" "$(dirname "$(dirname "$src")")" "$out"
