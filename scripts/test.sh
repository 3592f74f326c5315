#!/usr/bin/env bash
# The test suite: installs what is missing, generates the project's own corpus (the tests read
# Conformance/generated), builds optimised with testing enabled (corpus tests decode real
# images; debug builds are 10-80x slower), runs every test and prints how many ran and how many
# were skipped, naming each skipped test and its reason.
#
# Corpus tests run when PUREIMAGE_CORPUS points at the shared corpus (.ci/run sets it). With
# the corpus present, a skipped test is a failure: every test that needs an input must then
# have it, so nothing passes by not running.
#
#   bash scripts/test.sh                 # everything
#   bash scripts/test.sh --filter GIF    # any `swift test` argument passes through
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

echo "== generating Conformance/generated (deterministic)"
python3 Conformance/generate_corpus.py Conformance/generated | tail -1
jpeg_source="${PUREIMAGE_CORPUS:-../shared/corpus}/libjpeg-turbo/testorig.ppm"
if [ -f "$jpeg_source" ]; then
  JPEG_SOURCE_IMAGE="$jpeg_source" sh Conformance/generate_jpeg.sh 2>/dev/null | tail -1
else
  echo "   (no $jpeg_source: the JPEG sampling files are not generated; JPEGGeneratedTests will be skipped)"
fi

echo "== building (release, testing enabled)"
swift build -c release -Xswiftc -enable-testing --build-tests 2>&1 | grep -E "error|warning: |Compiling|Build complete" || true
log="$(mktemp -t pureimage-tests.XXXXXX)"
trap 'rm -f "$log"' EXIT
echo "== testing"
status=0
swift test -c release -Xswiftc -enable-testing --skip-build "$@" 2>&1 | tee "$log" || status=$?

passed=$(grep -c '^✔ Test .* passed' "$log" || true)
failed=$(grep -c '^✘ Test .* failed' "$log" || true)
skipped=$(grep -c '^➜ Test .* skipped' "$log" || true)
echo
echo "tests: $passed passed, $failed failed, $skipped skipped"
grep '^➜ Test .* skipped' "$log" | sed 's/^➜ /  skipped: /' || true
if [ -n "${PUREIMAGE_CORPUS:-}" ] && [ "$skipped" -gt 0 ]; then
  echo "FAIL: the corpus is present (PUREIMAGE_CORPUS), so no test may be skipped"
  status=1
fi
exit "$status"
