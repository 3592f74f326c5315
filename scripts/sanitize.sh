#!/usr/bin/env bash
# The test suite under a sanitizer, in a build folder of its own (.build-SANITIZER), optimised
# like scripts/test.sh (the corpus tests decode hundreds of megapixels; unoptimised they would
# take hours under a sanitizer). Any report fails the run.
#
#   bash scripts/sanitize.sh address      # AddressSanitizer (+ LeakSanitizer): Swift and C code
#   bash scripts/sanitize.sh undefined    # UndefinedBehaviorSanitizer on the C targets (the
#                                         # reference wrappers); swiftc refuses -sanitize=undefined
#                                         # on Linux, and Swift traps on overflow and out-of-bounds
#                                         # indexing in every build (Docs/Robustness.md)
#   bash scripts/sanitize.sh thread       # ThreadSanitizer: ImageSource shared between threads
#   bash scripts/sanitize.sh thread --build-only   # only build (CI builds it beside its other builds)
#   ... any further argument goes to `swift test` (e.g. --filter PNG)
#
# Corpus tests run when PUREIMAGE_CORPUS is set, as in scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizer="${1:?usage: sanitize.sh address|undefined|thread [swift test arguments]}"
shift
case "$sanitizer" in address|undefined|thread) ;; *) echo "sanitize.sh: unknown sanitizer $sanitizer" >&2; exit 2 ;; esac
build_only=no
if [ "${1:-}" = "--build-only" ]; then build_only=yes; shift; fi
bash scripts/install-deps.sh
# The tests read Conformance/generated; a build alone does not (and must not write it while
# scripts/test.sh may be generating it beside this build).
[ "$build_only" = yes ] || bash scripts/generate-corpus.sh

scratch=".build-$sanitizer"
if [ "$sanitizer" = undefined ]; then
  # C code only: clang instruments it, and the link (swiftc driving clang) pulls in the runtime.
  flags=(-c release -Xswiftc -enable-testing --scratch-path "$scratch"
         -Xcc -fsanitize=undefined -Xcc -fno-omit-frame-pointer
         -Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined)
else
  flags=(-c release -Xswiftc -enable-testing --sanitize="$sanitizer" --scratch-path "$scratch")
fi
echo "== building with -sanitize=$sanitizer in $scratch"
build_status=0
swift build "${flags[@]}" --build-tests 2>&1 | { grep -E "error|Compiling|Build complete" || true; } || build_status=$?
# A failed build stops here: `swift test --skip-build` would otherwise run an older binary.
if [ "$build_status" -ne 0 ]; then echo "sanitize $sanitizer: the build failed (exit $build_status)"; exit "$build_status"; fi
if [ "$build_only" = yes ]; then exit 0; fi
export SWIFT_BACKTRACE=enable=no          # the Swift backtracer and the sanitizers' handlers collide
export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1}"
export PUREIMAGE_SANITIZER="$sanitizer"   # the tests' time limits grow (TestTime.sanitizerFactor)
log="$(mktemp -t pureimage-sanitize.XXXXXX)"
trap 'rm -f "$log"' EXIT
status=0
swift test "${flags[@]}" --skip-build "$@" 2>&1 | tee "$log" || status=$?
# One line per report: ASan/LSan "==PID==ERROR", TSan "WARNING: ThreadSanitizer", UBSan "runtime error:".
reports=$(grep -cE "^==[0-9]+==ERROR|^WARNING: ThreadSanitizer|runtime error:" "$log" || true)
echo
passed=$(grep -c '^✔ Test .* passed' "$log" || true)
echo "sanitize $sanitizer: $passed passed, $(grep -c '^✘ Test .* failed' "$log" || true) failed, $reports sanitizer report(s)"
[ "$reports" -eq 0 ] || status=1
# A build that failed runs nothing: that is a failure, never a clean pass.
[ "$passed" -gt 0 ] || { echo "sanitize $sanitizer: no test ran"; status=1; }
exit "$status"
