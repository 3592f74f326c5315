#!/usr/bin/env bash
# The main job: the conformance suite against the reference C libraries on the project's own
# generated corpus (and the extra corpus when there is one), then a short benchmark summary.
# Reports land in Conformance/out/ (conform.json, conform.html, bench.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

echo "== generating the project's corpus (deterministic; skipped when made from the same inputs)"
bash scripts/generate-corpus.sh

echo "== building (release; the flags of scripts/test.sh, so the two commands share one build)"
for product in pureimage pureimage-conform; do bash scripts/build.sh --product "$product"; done

extra="${PUREIMAGE_EXTRA_CORPUS:-${PUREIMAGE_CORPUS:-}}"
if [ -z "$extra" ] && [ -d ../shared/corpus ]; then extra="$(cd ../shared/corpus && pwd)"; fi
mkdir -p Conformance/out
echo "== conformance: Conformance/generated${extra:+ and $extra}"
status=0
log="$(mktemp -t pureimage-conform.XXXXXX)"
trap 'rm -f "$log"' EXIT
PUREIMAGE_EXTRA_CORPUS="$extra" .build/release/pureimage conform --golden Conformance/golden.tsv \
  --json Conformance/out/conform.json --report Conformance/out/conform.html | tee "$log" || status=$?

echo "== benchmark (quick)"
bash scripts/bench.sh --quick --json Conformance/out/bench.json | tee -a "$log" || status=$?

# The verdict last: what agreed, what moved, where to look.
echo
echo "== verdict"
grep -E "^(conform:|golden:|UNEXPECTED)" "$log" | head -20 || true
grep -F "(decode: vs the reference library)" "$log" || true
echo "report: Conformance/out/conform.html (open it from disk; images in conform.html.files/), JSON: Conformance/out/conform.json, bench: Conformance/out/bench.json"
[ "$status" -eq 0 ] && echo "result: PASS" || echo "result: FAIL (exit $status)"
exit $status
