#!/usr/bin/env python3
"""Checks the `pureimage` command-line contract on a corpus (issue: foundation acceptance).

For every file in manifest.tsv:
  * `pureimage info FILE --json` (headers only) exits 0 (described), 1 (invalid/unsupported
    header, one line on stderr naming the problem) or 3 (the container is truncated) -- never a
    signal, never a hang (20 s limit); `pureimage info FILE --frames` (the text form) exits
    with the same status; a file described with `decodable: false` is refused by `decode`;
  * for image formats (jpeg, png, apng, gif, tiff) the JSON `format` (exit 0/3) or the error
    line (exit 1) names the manifest's format ("apng" is reported as png).
For a sample of described files: `pureimage decode` exits 0, 3 (truncated, image written) or 1
(data refused, one line on stderr); its .png passes `pngcheck`, and decoding that PNG again gives
the same PAM bytes as decoding the original.
Prints a summary line and exits non-zero on any violation.
"""
import json, os, subprocess, sys, tempfile

tool, corpus = sys.argv[1], sys.argv[2]
image_formats = {"jpeg": "jpeg", "png": "png", "apng": "png", "gif": "gif", "tiff": "tiff"}
failures, counts = [], {0: 0, 1: 0, 3: 0}
rows = [line.rstrip("\n").split("\t") for line in open(os.path.join(corpus, "manifest.tsv"))][1:]
decoded_ok = []
undecodable = 0   # described with decodable: false (JPEG-LS, TIFF compressions without a codec, over the limits)

for row in rows:
    path, fmt = os.path.join(corpus, row[0]), row[1]
    try:
        run = subprocess.run([tool, "info", path, "--json"], capture_output=True, timeout=20)
    except subprocess.TimeoutExpired:
        failures.append(f"{row[0]}: info hung (> 20 s)")
        continue
    if run.returncode not in (0, 1, 3):
        failures.append(f"{row[0]}: info exit status {run.returncode}")
        continue
    # The human-readable form prints the same facts through other code (exposure times, sRGB
    # intents...): it must end the same way.
    text = subprocess.run([tool, "info", path, "--frames"], capture_output=True, timeout=20)
    if text.returncode != run.returncode:
        failures.append(f"{row[0]}: info exit status {text.returncode}, with --json {run.returncode}")
    counts[run.returncode] += 1
    stderr = run.stderr.decode("utf-8", "replace").strip()
    if run.returncode == 1:
        lines = stderr.splitlines()
        if len(lines) != 1 or not lines[0].startswith(f"pureimage: {path}: "):
            failures.append(f"{row[0]}: error output is not one line: {stderr[:200]!r}")
        elif fmt in image_formats and image_formats[fmt] not in lines[0].lower() and not (
                row[2] == "corrupt" and ": unknown format at byte 0:" in lines[0]):
            # A corrupt file whose signature is gone altogether may be called unknown.
            failures.append(f"{row[0]}: error does not name the format {fmt}: {lines[0][:200]}")
        continue
    info = json.loads(run.stdout)
    if fmt in image_formats and info["format"] != image_formats[fmt]:
        failures.append(f"{row[0]}: info says {info['format']}, manifest says {fmt}")
    if not info["decodable"]:
        # Headers shown, pixels refused up front: the decode must refuse them too.
        undecodable += 1
        with tempfile.TemporaryDirectory() as scratch:
            dec = subprocess.run([tool, "decode", path, "-o", os.path.join(scratch, "x.pam")], capture_output=True, timeout=60)
        if dec.returncode != 1:
            failures.append(f"{row[0]}: info says not decodable ({info['notDecodableBecause']}), decode exits {dec.returncode}")
        continue
    if run.returncode == 0 and fmt in image_formats:
        decoded_ok.append(path)

# Writers: every 7th decodable file (a deterministic sample across suites).
checked_writers = decode_refused = 0
with tempfile.TemporaryDirectory() as scratch:
    for index, path in enumerate(decoded_ok[::7]):
        out_png, out_pam, again_pam = (os.path.join(scratch, name) for name in ("a.png", "a.pam", "b.pam"))
        refused = False
        for out in (out_png, out_pam):
            run = subprocess.run([tool, "decode", path, "-o", out], capture_output=True, timeout=60)
            if run.returncode == 1:
                # `info` reads the headers only: the image data may still be refused, with one
                # line on stderr naming the file.
                lines = run.stderr.decode("utf-8", "replace").strip().splitlines()
                if len(lines) != 1 or not lines[0].startswith(f"pureimage: {path}: "):
                    failures.append(f"{path}: decode error output is not one line: {run.stderr[:200]!r}")
                refused = True
                break
            if run.returncode not in (0, 3):
                failures.append(f"{path}: decode -o {os.path.basename(out)} exit {run.returncode}: {run.stderr[:200]!r}")
        if refused:
            decode_refused += 1
            continue
        if not os.path.exists(out_png):
            continue
        check = subprocess.run(["pngcheck", "-q", out_png], capture_output=True)
        if check.returncode != 0:
            failures.append(f"{path}: pngcheck rejects our PNG: {check.stdout[:200]!r}")
        run = subprocess.run([tool, "decode", out_png, "-o", again_pam], capture_output=True, timeout=60)
        if run.returncode != 0 or open(out_pam, "rb").read() != open(again_pam, "rb").read():
            failures.append(f"{path}: PNG written by pureimage does not read back to the same pixels")
        checked_writers += 1

print(f"cli-smoke: {len(rows)} corpus files: info exit 0: {counts[0]}, exit 1: {counts[1]}, exit 3: {counts[3]} "
      f"({undecodable} described as not decodable, and their decode refused); "
      f"writers checked on {checked_writers} files ({decode_refused} whose headers read but whose data the decode refuses); "
      f"{len(failures)} failures")
for failure in failures[:50]:
    print("  FAIL " + failure)
sys.exit(1 if failures else 0)
