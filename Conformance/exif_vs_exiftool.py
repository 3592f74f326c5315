#!/usr/bin/env python3
"""EXIF as PureImage reads it against exiftool (issue 17): for every corpus file that carries
EXIF (JPEG APP1, PNG eXIf, WebP EXIF, a TIFF's own IFD0), every tag that both
`pureimage info --json` (its "exif" -> "tags" object) and `exiftool -j -n -G1 -D` report, matched
by directory and tag number, must have the same value. Differences that are explained are listed
with their reasons in Conformance/exif-differences.tsv; any other difference fails the run.

  python3 Conformance/exif_vs_exiftool.py .build/release/pureimage ../shared/corpus

Values are compared as exiftool prints them with -n (no conversion to words): numbers within a
relative 1e-6 (exiftool prints rationals rounded to about ten significant digits), lists of
numbers element by element (exiftool joins them with spaces), text with trailing spaces removed,
undefined bytes either as their ASCII text ("0232") or as space-joined numbers ("1 2 3 0").
Skipped: values exiftool prints as binary data, MakerNote (37500; exiftool decodes it into its
own tags), and JPEGInterchangeFormat (513), which exiftool gives as an offset in the file where
EXIF gives it in the EXIF block, SpatialFrequencyResponse (41484) and CFAPattern (41730), which
exiftool decodes into structures.

PureImage keeps values as stored, as ImageIO does; exiftool's value conversions that -n does not
turn off are applied to our value before comparing (`exiftool_value_conv`): APEX
ShutterSpeedValue → 2^-v s (0 when |v| ≥ 100), ApertureValue and MaxApertureValue → 2^(v/2);
GPS latitude, longitude and destination coordinates (degrees, minutes, seconds) → decimal
degrees; GPSTimeStamp → "h:m:s"; UserComment, GPSProcessingMethod and GPSAreaInformation → the
text after their 8-byte character-code prefix. Text bytes that are not UTF-8 are U+FFFD on our
side and "?" on exiftool's.
"""
import json, math, os, shutil, subprocess, sys

tool, corpus = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
if shutil.which("exiftool") is None:
    print("exif-vs-exiftool: exiftool is not installed (Debian libimage-exiftool-perl)")
    sys.exit(1)

GROUPS = {"TIFF": "IFD0", "Exif": "ExifIFD", "GPS": "GPS", "Interoperability": "InteropIFD", "Thumbnail": "IFD1"}
SKIPPED_TAGS = {37500, 513, 41484, 41730}


def exiftool_value_conv(directory, tag, value):
    """Our stored value as exiftool -n prints it (see the module comment)."""
    if directory == "Exif" and tag == 37377 and isinstance(value, (int, float)):
        return 2 ** (-value) if abs(value) < 100 else 0
    if directory == "Exif" and tag in (37378, 37381) and isinstance(value, (int, float)):
        try:
            return 2 ** (value / 2)
        except OverflowError:
            return math.inf
    if directory == "GPS" and tag in (2, 4, 20, 22) and isinstance(value, list) and len(value) == 3 and None not in value:
        return value[0] + value[1] / 60 + value[2] / 3600
    if directory == "GPS" and tag == 7 and isinstance(value, list) and len(value) == 3 and None not in value:
        return value
    if (directory, tag) in (("Exif", 37510), ("GPS", 27), ("GPS", 28)) and isinstance(value, list) and len(value) >= 8:
        return bytes(x & 0xFF for x in value[8:]).split(b"\0")[0].decode("utf-8", "replace").rstrip()
    return value

allowed = {}
for line in open(os.path.join(here, "exif-differences.tsv")):
    if line.startswith("#") or not line.strip():
        continue
    path, key, reason = line.rstrip("\n").split("\t")
    allowed[(path, key)] = reason


def numbers(text):
    try:
        return [float(part) for part in str(text).split()]
    except ValueError:
        return None


def same(ours, theirs):
    if isinstance(theirs, str) and theirs.startswith("(Binary data"):
        return None  # not comparable
    if isinstance(theirs, str) and theirs.lower() in ("inf", "-inf") and isinstance(ours, float):
        return math.isinf(ours)
    if isinstance(ours, list) and len(ours) == 3 and isinstance(theirs, str) and theirs.count(":") == 2:
        # GPSTimeStamp "h:m:s" against hours, minutes, seconds.
        other = numbers(theirs.replace(":", " "))
        return other is not None and all(math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-6) for a, b in zip(ours, other))
    if isinstance(ours, list) and all(isinstance(x, int) for x in ours) and isinstance(theirs, str):
        # UNDEFINED bytes (or BYTE lists): as text, or as space-joined numbers.
        text = bytes(x & 0xFF for x in ours).split(b"\0")[0].decode("latin-1").rstrip()
        if text == theirs.rstrip() or " ".join(str(x) for x in ours) == theirs:
            return True
    if isinstance(ours, str):
        return ours.replace("\ufffd", "?").rstrip() == str(theirs).rstrip()
    mine = ours if isinstance(ours, list) else [ours]
    if any(x is None for x in mine):
        return str(theirs) in ("inf", "undef", "-inf", "nan")
    other = numbers(theirs) if not isinstance(theirs, (int, float)) else [float(theirs)]
    if other is None or len(other) != len(mine):
        return False
    return all(math.isclose(float(a), b, rel_tol=1e-6, abs_tol=1e-9) for a, b in zip(mine, other))


rows = [line.rstrip("\n").split("\t") for line in open(os.path.join(corpus, "manifest.tsv"))][1:]
files = compared = agreed = skipped = explained = 0
failures = []
# Pass 1: the files whose EXIF PureImage reports. Pass 2: exiftool once over all of them (its
# start-up, about 0.1 s, paid once instead of per file), matched back by SourceFile.
with_exif = []
for row in rows:
    if row[1] not in ("jpeg", "png", "apng", "tiff", "webp"):
        continue
    path = os.path.join(corpus, row[0])
    run = subprocess.run([tool, "info", path, "--json"], capture_output=True, timeout=30)
    if run.returncode not in (0, 3):
        continue
    exif = json.loads(run.stdout).get("exif")
    if exif and exif.get("tags"):
        with_exif.append((row, path, exif))
exiftool_by_path = {}
for start in range(0, len(with_exif), 200):
    batch = [path for _, path, _ in with_exif[start:start + 200]]
    batch_run = subprocess.run(["exiftool", "-j", "-n", "-G1", "-D", *batch], capture_output=True, timeout=600)
    try:
        for record in json.loads(batch_run.stdout):
            exiftool_by_path[record.get("SourceFile")] = record
    except ValueError:
        pass
for row, path, exif in with_exif:
    theirs = exiftool_by_path.get(path)
    if theirs is None:
        continue
    by_key = {}
    for key, entry in theirs.items():
        if isinstance(entry, dict) and isinstance(entry.get("id"), int):
            by_key[(key.split(":")[0], entry["id"])] = (key, entry.get("val"))
    files += 1
    for directory, tags in exif["tags"].items():
        group = GROUPS.get(directory)
        for tag, value in tags.items():
            if int(tag) in SKIPPED_TAGS or (group, int(tag)) not in by_key:
                continue
            name, their_value = by_key[(group, int(tag))]
            verdict = same(exiftool_value_conv(directory, int(tag), value), their_value)
            if verdict is None:
                skipped += 1
                continue
            compared += 1
            if verdict:
                agreed += 1
            elif (row[0], name) in allowed:
                explained += 1
            else:
                failures.append(f"{row[0]}: {name} ({directory} {tag}): ours {json.dumps(value)[:80]}, exiftool {json.dumps(their_value)[:80]}")

print(f"exif-vs-exiftool: {files} files with EXIF, {compared} tags both report: {agreed} equal, {explained} documented "
      f"differences (Conformance/exif-differences.tsv), {len(failures)} unexplained; {skipped} binary values not compared")
for failure in failures[:40]:
    print("  FAIL " + failure)
sys.exit(1 if failures else 0)
