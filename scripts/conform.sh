#!/usr/bin/env bash
# The main job: the conformance suite against the reference C libraries on the project's own
# generated corpus (and the extra corpus when there is one), then a short benchmark summary.
# Reports land in Conformance/out/ (conform.json, conform.html, bench.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

echo "== generating the project's corpus (deterministic)"
python3 Conformance/generate_corpus.py Conformance/generated | tail -1

echo "== building (release; the flags of scripts/test.sh, so the two commands share one build)"
swift build -c release -Xswiftc -enable-testing --product pureimage 2>&1 | grep -E "error|Compiling|Build complete" || true

extra="${PUREIMAGE_EXTRA_CORPUS:-${PUREIMAGE_CORPUS:-}}"
if [ -z "$extra" ] && [ -d ../shared/corpus ]; then extra="$(cd ../shared/corpus && pwd)"; fi
mkdir -p Conformance/out
echo "== conformance: Conformance/generated${extra:+ and $extra}"
status=0
PUREIMAGE_EXTRA_CORPUS="$extra" .build/release/pureimage conform --golden Conformance/golden.tsv \
  --json Conformance/out/conform.json --report Conformance/out/conform.html || status=$?
echo "report: Conformance/out/conform.html"

echo "== benchmark (quick)"
bash scripts/bench.sh --quick --json Conformance/out/bench.json || status=$?
exit $status
