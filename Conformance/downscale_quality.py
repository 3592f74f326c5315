#!/usr/bin/env python3
"""Quality of `pureimage downscale` against Pillow's LANCZOS resize of the full decode.

For every photo under PATH (PNG and JPEG files), at a limit that scales it to about a quarter of
its pixels (and for JPEG also to ~1/40, where the DCT-domain reduction kicks in): PSNR of our
output against `Image.resize(size, Image.LANCZOS)` of Pillow's full decode, over RGB. For
JPEG, also without the DCT-domain reduction (`--no-dct-scaling`), to show what it costs.
Targets (issue: downscaler): PSNR >= 38 dB; DCT pre-scaling costs <= 1 dB.
Prints one line per file and a summary; exits non-zero when a target is missed.
"""
import math, os, subprocess, sys, tempfile
import numpy as np
from PIL import Image

tool, root = sys.argv[1], sys.argv[2]
files = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs
               if f.lower().endswith((".png", ".jpg", ".jpeg")))
worst, worst_cost, failures = 99.0, 0.0, []

def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)

with tempfile.TemporaryDirectory() as scratch:
    out = os.path.join(scratch, "out.png")
    for path in files:
        source = Image.open(path)
        source.load()
        pixels = source.width * source.height
        limits = [pixels]            # 4 bytes per pixel → about a quarter of the pixels
        if path.lower().endswith((".jpg", ".jpeg")):
            limits.append(pixels // 10)
        for limit in limits:
            results = {}
            for flag in ([], ["--no-dct-scaling"]) if path.lower().endswith((".jpg", ".jpeg")) else ([],):
                run = subprocess.run([tool, "downscale", path, "--limit-bytes", str(limit), "-o", out] + flag, capture_output=True)
                if run.returncode != 0:
                    failures.append(f"{path}: exit {run.returncode}: {run.stderr[:200]!r}")
                    break
                ours = Image.open(out).convert("RGB")
                reference = source.convert("RGB").resize(ours.size, Image.LANCZOS)
                results[tuple(flag)] = psnr(np.asarray(ours), np.asarray(reference))
            if not results:
                continue
            value = results[()]
            worst = min(worst, value)
            line = f"{os.path.relpath(path, root)} limit {limit}: {ours.size[0]}x{ours.size[1]} PSNR {value:.2f} dB"
            if ("--no-dct-scaling",) in results:
                cost = results[("--no-dct-scaling",)] - value
                worst_cost = max(worst_cost, cost)
                line += f" (full-size resample {results[('--no-dct-scaling',)]:.2f} dB, DCT pre-scaling costs {cost:.2f} dB)"
                if cost > 1.0:
                    failures.append(line)
            if value < 38.0:
                failures.append(line)
            print(line)

print(f"downscale-quality: {len(files)} photos; worst PSNR {worst:.2f} dB (target >= 38); "
      f"worst DCT pre-scaling cost {worst_cost:.2f} dB (target <= 1); {len(failures)} failures")
for failure in failures:
    print("  FAIL " + failure)
sys.exit(1 if failures else 0)
