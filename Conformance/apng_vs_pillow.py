#!/usr/bin/env python3
"""APNG frames of `pureimage` against Pillow, an independent APNG decoder.

For every manifest row of format `apng`: frame count, loop count and every composed frame
(`pureimage decode --frame N --pixel-format rgba8`) against Pillow's `seek(N)` + RGBA.
Pillow counts a default image that is not part of the animation as an extra frame 0
(`info["default_image"]`); PureImage, like browsers and ImageIO, lists animation frames only,
so Pillow's frame 0 is skipped then.

Tolerance: blended pixels may differ by 1 (PureImage rounds the "over" operator, Pillow uses
its own fixed-point alpha compositing; 16-bit files: Pillow truncates to 8 bits, we round).
Files Pillow rejects are reported separately: PureImage shows such a file as a still image
(what browsers do with a broken animation). Exits non-zero when a file both decode disagrees
beyond the tolerance.
"""
import json, os, subprocess, sys, tempfile
import warnings
from PIL import Image

warnings.simplefilter("ignore")

tool, corpus = sys.argv[1], sys.argv[2]
rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(corpus, "manifest.tsv"))][1:]
rows = [r for r in rows if r[1] == "apng"]
exact = within_one = pillow_rejects = documented = 0
failures = []
listed = {}
for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "apng-differences.tsv")):
    if line.strip() and not line.startswith("#"):
        name, reason = line.rstrip("\n").split("\t", 1)
        listed[name] = reason

def read_pam(path):
    data = open(path, "rb").read()
    end = data.index(b"ENDHDR\n") + 7
    header = dict(line.split(" ", 1) for line in data[:end].decode().splitlines()[1:-1])
    assert header["TUPLTYPE"] == "RGB_ALPHA" and header["MAXVAL"] == "255", header
    return int(header["WIDTH"]), int(header["HEIGHT"]), data[end:]

with tempfile.TemporaryDirectory() as scratch:
    for row in rows:
        path = os.path.join(corpus, row[0])
        try:
            im = Image.open(path)
            skip = 1 if im.info.get("default_image") else 0
            loop = im.info.get("loop")
            frames = []
            # A fresh image per frame, seeked directly: converting between sequential seeks
            # disturbs Pillow's disposal bookkeeping (dispose_op_previous.png shows it).
            for index in range(skip, im.n_frames):
                with Image.open(path) as fresh:
                    fresh.seek(index)
                    frames.append(fresh.convert("RGBA").tobytes())
        except Exception as error:  # Pillow refuses the file
            pillow_rejects += 1
            continue
        run = subprocess.run([tool, "info", path, "--json"], capture_output=True, timeout=30)
        if run.returncode != 0:
            failures.append(f"{row[0]}: pureimage info exit {run.returncode}: {run.stderr[:160]!r}")
            continue
        info = json.loads(run.stdout)
        if info["frameCount"] != len(frames):
            failures.append(f"{row[0]}: {info['frameCount']} frames, Pillow {len(frames)}")
            continue
        if len(frames) > 1 and loop is not None and info["loopCount"] != loop:
            failures.append(f"{row[0]}: loop count {info['loopCount']}, Pillow {loop}")
        worst = 0
        for index, expected in enumerate(frames):
            out = os.path.join(scratch, "frame.pam")
            run = subprocess.run([tool, "decode", path, "--frame", str(index), "--pixel-format", "rgba8", "-o", out],
                                 capture_output=True, timeout=30)
            if run.returncode != 0:
                failures.append(f"{row[0]}: frame {index}: exit {run.returncode}")
                break
            _, _, ours = read_pam(out)
            if len(ours) != len(expected):
                failures.append(f"{row[0]}: frame {index}: size differs")
                break
            # Fully transparent pixels compare equal whatever their colour.
            diff = 0
            for i in range(0, len(ours), 4):
                if ours[i + 3] == 0 and expected[i + 3] == 0:
                    continue
                diff = max(diff, *(abs(ours[i + k] - expected[i + k]) for k in range(4)))
            worst = max(worst, diff)
        else:
            if worst == 0:
                exact += 1
            elif worst == 1:
                within_one += 1
            elif row[0] in listed:
                documented += 1
            else:
                failures.append(f"{row[0]}: frames differ from Pillow by up to {worst}")

print(f"apng-vs-pillow: {len(rows)} APNG files: {exact} identical, {within_one} within ±1, "
      f"{pillow_rejects} rejected by Pillow (shown as stills by PureImage), "
      f"{documented} documented Pillow deviations (Conformance/apng-differences.tsv), {len(failures)} failures")
for failure in failures:
    print("  FAIL " + failure)
sys.exit(1 if failures else 0)
