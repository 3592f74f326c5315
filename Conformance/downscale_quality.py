#!/usr/bin/env python3
"""Quality of `pureimage downscale` against Pillow's LANCZOS resize of the full decode.

    python3 Conformance/downscale_quality.py .build/release/pureimage ../shared/corpus/photos

Photos: every PNG and JPEG under PATH, plus each PNG re-encoded by Pillow as JPEG (quality 90
4:2:0 and quality 75 4:4:4) so the DCT-domain reduction is exercised on detailed content.
Each photo is downscaled at limits that keep 1/3 … 1/1500 of its pixels (the large-image
limits and thumbnail-sized results). Per result: PSNR over RGB against
`Image.resize(size, LANCZOS)` of Pillow's full decode; for JPEG also with `--no-dct-scaling`,
to show what the DCT-domain reduction costs.

Targets (issue: downscaler):
  - PSNR >= 38 dB everywhere.
  - DCT pre-scaling costs <= 1 dB. Our full-size path matches Pillow to the 8-bit rounding
    floor (55-62 dB, MSE ~0.1), where one extra rounding flip in a few pixels is a dB, so the
    cost is also reported as added mean squared error; a result passes when it costs <= 1 dB
    or adds < 0.5 (half a squared level: a rounding-level change).
Prints the worst cases and a summary; exits non-zero when a target is missed.
"""
import math, os, subprocess, sys, tempfile
import numpy as np
from PIL import Image

tool, root = sys.argv[1], sys.argv[2]
FRACTIONS = [3, 6, 12, 30, 80, 150, 400, 1500]


def mse(a, b):
    return float(np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2))


def db(error):
    return 99.0 if error == 0 else 10 * math.log10(255 * 255 / error)


def downscale(path, limit, flags, out):
    run = subprocess.run([tool, "downscale", path, "--limit-bytes", str(limit), "-o", out] + flags, capture_output=True)
    if run.returncode != 0:
        raise RuntimeError(f"{path}: exit {run.returncode}: {run.stderr[:200]!r}")
    return Image.open(out).convert("RGB")


with tempfile.TemporaryDirectory() as scratch:
    photos = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs
                    if f.lower().endswith((".png", ".jpg", ".jpeg")))
    for path in [p for p in photos if p.lower().endswith(".png")]:
        image = Image.open(path).convert("RGB")
        stem = os.path.splitext(os.path.basename(path))[0]
        for name, arguments in [("q90-420", dict(quality=90)), ("q75-444", dict(quality=75, subsampling=0))]:
            encoded = os.path.join(scratch, f"{stem}-{name}.jpg")
            image.save(encoded, **arguments)
            photos.append(encoded)

    out = os.path.join(scratch, "out.png")
    results, failures = [], []
    for path in photos:
        source = Image.open(path).convert("RGB")
        is_jpeg = path.lower().endswith((".jpg", ".jpeg"))
        for fraction in FRACTIONS:
            limit = source.width * source.height * 4 // fraction
            ours = downscale(path, limit, [], out)
            reference = np.asarray(source.resize(ours.size, Image.LANCZOS))
            error = mse(np.asarray(ours), reference)
            name = os.path.relpath(path, root) if path.startswith(root) else os.path.basename(path)
            result = dict(name=name, size=ours.size, psnr=db(error), cost_db=0.0, added=0.0)
            if is_jpeg:
                full = mse(np.asarray(downscale(path, limit, ["--no-dct-scaling"], out)), reference)
                result.update(cost_db=db(full) - db(error), added=error - full, full_psnr=db(full))
            results.append(result)
            if result["psnr"] < 38.0:
                failures.append(result)
            elif result["cost_db"] > 1.0 and result["added"] >= 0.5:
                failures.append(result)


def describe(r):
    line = f"{r['name']} -> {r['size'][0]}x{r['size'][1]}: {r['psnr']:.2f} dB"
    if "full_psnr" in r:
        line += f" (full-size resample {r['full_psnr']:.2f} dB; DCT pre-scaling costs {r['cost_db']:.2f} dB, adds MSE {r['added']:.3f})"
    return line


print("lowest PSNR:")
for r in sorted(results, key=lambda r: r["psnr"])[:5]:
    print("  " + describe(r))
print("largest DCT pre-scaling cost:")
for r in sorted(results, key=lambda r: -r["added"])[:5]:
    print("  " + describe(r))
jpeg = [r for r in results if "full_psnr" in r]
within_db = sum(1 for r in jpeg if r["cost_db"] <= 1.0)
print(f"downscale-quality: {len(photos)} photos, {len(results)} results; worst PSNR {min(r['psnr'] for r in results):.2f} dB "
      f"(target >= 38); DCT pre-scaling: {within_db}/{len(jpeg)} cost <= 1 dB, worst {max(r['cost_db'] for r in jpeg):.2f} dB, "
      f"worst added MSE {max(r['added'] for r in jpeg):.3f} (target: <= 1 dB or < 0.5); {len(failures)} failures")
for r in failures:
    print("  FAIL " + describe(r))
sys.exit(1 if failures else 0)
