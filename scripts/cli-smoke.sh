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
swift build -c release -Xswiftc -enable-testing --product pureimage 2>&1 | grep -E "error|Build complete" || true
tool=.build/release/pureimage

# The generated corpus: byte-identical on two runs, and within the expectations.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
python3 Conformance/generate_corpus.py "$scratch/a" >/dev/null
python3 Conformance/generate_corpus.py "$scratch/b" >/dev/null
if ! diff -r -q "$scratch/a" "$scratch/b" >/dev/null; then
  echo "FAIL: the corpus generator is not reproducible"; diff -r -q "$scratch/a" "$scratch/b" | head; exit 1
fi
echo "generator: $(find "$scratch/a" -type f | wc -l) files, byte-identical on two runs"
"$tool" conform "$scratch/a" | tail -1
if [ -n "${PUREIMAGE_CORPUS:-}" ]; then
  # Within the expectations, and every decoder's output as the golden manifest records it.
  "$tool" conform "$PUREIMAGE_CORPUS" --golden Conformance/golden.tsv | sed -n '/^UNEXPECTED\|^golden\|^conform/p'
  python3 Conformance/cli_smoke.py "$tool" "$PUREIMAGE_CORPUS"
  python3 Conformance/apng_vs_pillow.py "$tool" "$PUREIMAGE_CORPUS"
  python3 Conformance/exif_vs_exiftool.py "$tool" "$PUREIMAGE_CORPUS"
else
  echo "cli-smoke: PUREIMAGE_CORPUS not set; corpus checks skipped"
fi

# The bench never rots: its quick subset runs on every CI run (pixels checked before timing).
bash scripts/bench.sh --quick | tail -25
