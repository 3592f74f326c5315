#!/usr/bin/env bash
# Command-line checks on a clean build: `pureimage info` on every corpus file names its format
# and never crashes or hangs; `pureimage decode` writes PNG files that pngcheck accepts and PAM
# files that read back identically; APNG frames agree with Pillow; EXIF tags agree with
# exiftool; the corpus generator is
# reproducible and `pureimage conform` meets the expectations on the generated corpus and on the
# shared one, where every output must also match the golden digests (Conformance/golden.tsv).
set -euo pipefail
cd "$(dirname "$0")/.."
# The same flags as scripts/test.sh, so the two share one build instead of recompiling each other's.
for product in pureimage pureimage-conform; do bash scripts/build.sh --product "$product"; done
tool=.build/release/pureimage
# Every lane kernel inlined: no call from the library into a standard-library SIMD function.
bash scripts/kernel-calls.sh "$tool"

# The command-line tool links the library and zlib only; the reference libraries belong to
# pureimage-conform (which `pureimage conform` runs).
links="$(ldd "$tool" | awk '{print $1}')"
if grep -E "lib(jpeg|png|gif|tiff|webp|spng|stb)" <<<"$links"; then
  echo "FAIL: $tool links the reference libraries above"; exit 1
fi
echo "pureimage links: $(tr '\n' ' ' <<<"$links")"

# The generated corpus: byte-identical on two runs, and within the expectations. The first run is
# Conformance/generated (made by scripts/test.sh earlier in CI; made here when missing or made
# from other inputs), which also holds the JPEG sampling set and its stamp: every file of the
# second run must be there, byte for byte.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
bash scripts/generate-corpus.sh >/dev/null
python3 Conformance/generate_corpus.py "$scratch/a" >/dev/null
if diff -r -q "$scratch/a" Conformance/generated | grep -v "^Only in Conformance/generated"; then
  echo "FAIL: the corpus generator is not reproducible (above: what differs from Conformance/generated)"; exit 1
fi
echo "generator: $(find "$scratch/a" -type f | wc -l) files, byte-identical on two runs"
if [ -z "${PUREIMAGE_CORPUS:-}" ]; then "$tool" conform "$scratch/a" | tail -1; fi
if [ -n "${PUREIMAGE_CORPUS:-}" ]; then
  # The shared and the generated corpus: within the expectations, every decoder's output as the
  # golden manifest records it (the generated files are not in it: counted, not judged), and a
  # report that works in a browser.
  "$tool" conform "$PUREIMAGE_CORPUS" "$scratch/a" --golden Conformance/golden.tsv --json "$scratch/whole.json" \
    --report "$scratch/report.html" | sed -n '/^UNEXPECTED\|^golden\|^conform/p'
  bash scripts/check-report.sh "$scratch/report.html"
  # Split into 3 shards and merged again: the same JSON, byte for byte, as the one run.
  for k in 1 2 3; do "$tool" conform "$PUREIMAGE_CORPUS" "$scratch/a" --shard "$k/3" --json "$scratch/shard$k.json" >/dev/null 2>&1; done
  "$tool" conform --merge "$scratch/shard2.json" "$scratch/shard3.json" "$scratch/shard1.json" --json "$scratch/merged.json" >/dev/null
  if ! cmp -s "$scratch/whole.json" "$scratch/merged.json"; then echo "FAIL: 3 merged shards differ from one run"; exit 1; fi
  echo "shards: 3 shards merged = one run ($(grep -o '"path"' "$scratch/merged.json" | wc -l) files)"
  python3 Conformance/cli_smoke.py "$tool" "$PUREIMAGE_CORPUS"
  python3 Conformance/apng_vs_pillow.py "$tool" "$PUREIMAGE_CORPUS"
  python3 Conformance/exif_vs_exiftool.py "$tool" "$PUREIMAGE_CORPUS"
else
  echo "cli-smoke: PUREIMAGE_CORPUS not set; corpus checks skipped"
fi

# The bench never rots: its quick subset runs on every CI run (pixels checked before timing), from
# the build the tests made (the numbers are a smoke test here; scripts/conform.sh times its own).
bash scripts/bench.sh --quick --shared-build | tail -25
