#!/usr/bin/env bash
# Makes Conformance/generated (the project's own corpus, which the tests and the conformance run
# read) when it is missing or was made from other inputs. The generators are deterministic, so
# the same inputs — the generator scripts, the versions of the tools and Python packages they
# call, and whether the JPEG sampling set's source image is there — give the same files: a
# stamp of those inputs (Conformance/generated/.inputs, a dot file the corpus walk skips) lets a
# re-run start at once instead of regenerating ~1800 files.
#
#   bash scripts/generate-corpus.sh           # generate when needed
#   bash scripts/generate-corpus.sh --force   # always
set -euo pipefail
cd "$(dirname "$0")/.."
out=Conformance/generated
jpeg_source="${PUREIMAGE_CORPUS:-../shared/corpus}/libjpeg-turbo/testorig.ppm"

inputs() {
  sha256sum Conformance/generate_corpus.py Conformance/handmade.py Conformance/generate_webp.py \
    Conformance/generate_jpeg_precision.py Conformance/generate_jpeg.sh
  dpkg-query -W libjpeg-turbo-progs imagemagick gifsicle libtiff-tools webp libtiff6 libwebp7 2>/dev/null || true
  python3 -c "import PIL, numpy, imagecodecs; print('Pillow', PIL.__version__, 'numpy', numpy.__version__, 'imagecodecs', imagecodecs.__version__)"
  if [ -f "$jpeg_source" ]; then sha256sum "$jpeg_source" | cut -d' ' -f1; else echo "no JPEG sampling source"; fi
}
want="$(inputs | sha256sum | cut -d' ' -f1)"
have="$(cat "$out/.inputs" 2>/dev/null || true)"
if [ "${1:-}" != "--force" ] && [ "$want" = "$have" ] && [ -f "$out/manifest.tsv" ]; then
  echo "   $out is current ($(find "$out" -type f ! -name '.*' | wc -l) files; made from the same inputs)"
  exit 0
fi
rm -f "$out/.inputs"
python3 Conformance/generate_corpus.py "$out" | tail -1
if [ -f "$jpeg_source" ]; then
  JPEG_SOURCE_IMAGE="$jpeg_source" sh Conformance/generate_jpeg.sh 2>/dev/null | tail -1
else
  echo "   (no $jpeg_source: the JPEG sampling files are not generated; JPEGGeneratedTests will be skipped)"
fi
echo "$want" > "$out/.inputs"
