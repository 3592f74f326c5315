#!/usr/bin/env bash
# The test suite: installs what is missing, generates the project's own corpus (the tests read
# Conformance/generated), builds optimised with testing enabled (corpus tests decode real
# images; debug builds are 10-80x slower), runs every test and prints how many ran and how many
# were skipped, naming each skipped test and its reason.
#
# Corpus tests run when PUREIMAGE_CORPUS points at the shared corpus (.ci/run sets it). With
# the corpus present, a skipped test is a failure: every test that needs an input must then
# have it, so nothing passes by not running. The one exception is a skip whose reason starts
# with "machine: " — a property of the host, not an input (PixelMemoryTests' huge-page check
# where the kernel has transparent huge pages off); those are listed, not failed.
#
#   bash scripts/test.sh                 # everything
#   bash scripts/test.sh --filter GIF    # any `swift test` argument passes through
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

echo "== generating Conformance/generated (deterministic; skipped when made from the same inputs)"
bash scripts/generate-corpus.sh

echo "== building (release, testing enabled)"
bash scripts/build.sh --build-tests
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
input_skips=$(grep '^➜ Test .* skipped' "$log" | grep -vc 'skipped: "machine: ' || true)
if [ -n "${PUREIMAGE_CORPUS:-}" ] && [ "$input_skips" -gt 0 ]; then
  echo "FAIL: the corpus is present (PUREIMAGE_CORPUS), so no test may be skipped"
  status=1
fi
exit "$status"
