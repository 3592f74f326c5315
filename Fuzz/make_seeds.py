#!/usr/bin/env python3
"""Builds the fuzzers' seed corpora from the shared corpus (never copied into the repository).

    python3 Fuzz/make_seeds.py CORPUS OUT [--max-bytes N]

For each format (png, jpeg, gif, tiff, webp) OUT/<format>/ receives the corpus files of that format
(by manifest.tsv, APNG counted as PNG) no larger than --max-bytes (default 16 KiB: small inputs
run thousands of times a second and still reach every parser branch); OUT/any/ receives every
one of them. Files are hard-linked when possible, copied otherwise. Also writes OUT/seeds.tsv,
the list used (path, format, size, SHA-256), so a run's seeds can be named exactly.
"""
import hashlib
import os
import shutil
import sys

FORMATS = {"png": "png", "apng": "png", "jpeg": "jpeg", "gif": "gif", "tiff": "tiff", "webp": "webp"}


def main() -> None:
    args = sys.argv[1:]
    max_bytes = 16 << 10
    if "--max-bytes" in args:
        index = args.index("--max-bytes")
        max_bytes = int(args[index + 1])
        del args[index:index + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    corpus, out = args
    rows = []
    with open(os.path.join(corpus, "manifest.tsv"), encoding="utf-8") as manifest:
        next(manifest)
        for line in manifest:
            columns = line.rstrip("\n").split("\t")
            if len(columns) < 2 or columns[1] not in FORMATS:
                continue
            path = os.path.join(corpus, columns[0])
            try:
                size = os.path.getsize(path)
            except OSError:
                continue
            if size <= max_bytes:
                rows.append((columns[0], FORMATS[columns[1]], size, path))
    for folder in list(set(FORMATS.values())) + ["any"]:
        os.makedirs(os.path.join(out, folder), exist_ok=True)
    with open(os.path.join(out, "seeds.tsv"), "w", encoding="utf-8") as listing:
        listing.write("path\tformat\tbytes\tsha256\n")
        for relative, fmt, size, path in sorted(rows):
            with open(path, "rb") as handle:
                digest = hashlib.sha256(handle.read()).hexdigest()
            listing.write(f"{relative}\t{fmt}\t{size}\t{digest}\n")
            name = digest[:16] + os.path.splitext(relative)[1]
            for folder in (fmt, "any"):
                target = os.path.join(out, folder, name)
                if os.path.exists(target):
                    continue
                try:
                    os.link(path, target)
                except OSError:
                    shutil.copyfile(path, target)
    counts = {fmt: sum(1 for row in rows if row[1] == fmt) for fmt in sorted(set(FORMATS.values()))}
    print("seeds: " + ", ".join(f"{fmt} {count}" for fmt, count in counts.items()) + f" (any {len(rows)}), each ≤ {max_bytes} bytes")


if __name__ == "__main__":
    main()
