#!/usr/bin/env bash
# The one release build every script shares (tests, conformance, CLI smoke, bombs, docs): the same
# flags everywhere — optimised, with -enable-testing for the test target — so running one script
# after another never recompiles what did not change. Prints what it compiles; a failed build
# prints its whole log and fails the calling script.
#
#   bash scripts/build.sh --product pureimage        # any `swift build` argument passes through
#   bash scripts/build.sh --build-tests
set -euo pipefail
cd "$(dirname "$0")/.."
log="$(mktemp -t pureimage-build.XXXXXX)"
trap 'rm -f "$log"' EXIT
set +e
swift build -c release -Xswiftc -enable-testing "$@" 2>&1 | tee "$log" | grep --line-buffered -E "Compiling|error:"
status="${PIPESTATUS[0]}"   # swift build's own status (grep's says only whether it printed)
set -e
if [ "$status" -ne 0 ]; then
  echo "build failed (swift build $*):"
  tail -50 "$log"
  exit 1
fi
grep -E "Build complete|Build of .* complete|warning: " "$log" | grep -v "^\[" | tail -5 || true
