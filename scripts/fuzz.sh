#!/usr/bin/env bash
# Fuzzes one format through the public API (Fuzz/Sources/FuzzDriver) with libFuzzer and
# AddressSanitizer, then records the run's numbers.
#
#   bash scripts/fuzz.sh FORMAT SECONDS [libFuzzer flags...]     FORMAT: png jpeg gif tiff webp any
#   bash scripts/fuzz.sh --replay [FILES or FOLDERS...]          re-run inputs without sanitizers,
#                                                                timing each (the "≤ 1 s" check)
#   bash scripts/fuzz.sh --build FORMAT...                       only build the harnesses (CI
#                                                                builds them beside its other builds)
#
# Inputs: the seed corpus built from the shared corpus (PUREIMAGE_CORPUS, default
# ../shared/corpus) by Fuzz/make_seeds.py into .fuzz/seeds, the committed regression files
# (Tests/PureImageTests/Fuzz/Regressions/FORMAT) and the growing corpus .fuzz/corpus/FORMAT
# (kept between runs, not committed). Findings go to .fuzz/findings/FORMAT/; every run appends
# a line to Fuzz/stats.tsv (executions, coverage, peak RSS), which Docs/Robustness.md sums up.
#
# Limits: -rss_limit_mb=2048 (the 2 GB bound), -timeout=10 (ASan builds run 2-4x slower than
# release; --replay checks the 1 s bound on a plain release build), -max_len=16384 (seeds are ≤ 16 KiB: small inputs run ~1400/s where 32 KiB ones ran ~880/s, with the same coverage).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
export SWIFT_BACKTRACE=enable=no   # the Swift backtracer and ASan's signal handling collide

corpus_root="${PUREIMAGE_CORPUS:-../shared/corpus}"
seeds=.fuzz/seeds
if [ ! -d "$seeds" ] && [ -d "$corpus_root" ]; then
  python3 Fuzz/make_seeds.py "$corpus_root" "$seeds"
fi

if [ "${1:-}" = "--replay" ]; then
  shift
  swift build -c release --package-path Fuzz --scratch-path Fuzz/.build-replay --product fuzz-replay 2>&1 | grep -E "error|warning: unre" || true
  exec Fuzz/.build-replay/release/fuzz-replay "$@"
fi

# Coverage: edges with inline 8-bit counters, without libFuzzer's comparison tracing
# (trace-cmp): tracing every comparison made the pixel loops 2.6x slower (336 vs 883 exec/s on
# the PNG corpus, measured), and the dictionaries in Fuzz/dictionaries supply the magic values
# (chunk types, markers, tags) that tracing would otherwise discover.
build_harness() {
  local format="$1"
  case "$format" in png|jpeg|gif|tiff|webp|any) ;; *) echo "fuzz.sh: unknown format $format" >&2; exit 2 ;; esac
  echo "== building fuzz-$format (release, -sanitize=fuzzer,address)"
  # A failed build must stop the run: the binary left from an earlier build would otherwise be
  # fuzzed as if it were this tree's. (SwiftPM has also kept a stale list of the library's
  # files in this package's build plan: a file added to Sources/PureImage was missing from the
  # compile. Touching the manifest makes it plan again, at the cost of a few seconds.)
  mkdir -p .fuzz
  touch Fuzz/Package.swift
  local build_status=0
  swift build -c release --package-path Fuzz -Xswiftc -sanitize=fuzzer,address \
    -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table --product "fuzz-$format" >".fuzz/build-$format.log" 2>&1 \
    || build_status=$?
  grep -E "error|Compiling|Build complete" ".fuzz/build-$format.log" || true
  if [ "$build_status" -ne 0 ]; then
    echo "fuzz.sh: building fuzz-$format failed (exit $build_status); see .fuzz/build-$format.log" >&2
    exit 1
  fi
}

if [ "${1:-}" = "--build" ]; then
  shift
  for format in "$@"; do build_harness "$format"; done
  exit 0
fi

format="${1:?usage: fuzz.sh FORMAT SECONDS [libFuzzer flags]}"
seconds="${2:?usage: fuzz.sh FORMAT SECONDS [libFuzzer flags]}"
shift 2
build_harness "$format"
binary=Fuzz/.build/release/fuzz-$format
[ -x "$binary" ] || { echo "fuzz.sh: $binary was not built" >&2; exit 1; }

mkdir -p ".fuzz/corpus/$format" ".fuzz/findings/$format"
inputs=(".fuzz/corpus/$format")
[ -d "$seeds/$format" ] && inputs+=("$seeds/$format")
regressions="Tests/PureImageTests/Fuzz/Regressions"
if [ "$format" = any ]; then
  for folder in "$regressions"/*/; do [ -d "$folder" ] && inputs+=("$folder"); done
elif [ -d "$regressions/$format" ]; then
  inputs+=("$regressions/$format")
fi
dictionary=".fuzz/$format.dict"
if [ "$format" = any ]; then cat Fuzz/dictionaries/*.dict > "$dictionary"; else cp "Fuzz/dictionaries/$format.dict" "$dictionary"; fi

log=".fuzz/last-$format.log"
echo "== fuzzing $format for $seconds s (log: $log)"
status=0
"$binary" "${inputs[@]}" -dict="$dictionary" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=2048 \
  -timeout=10 -max_len=16384 -print_final_stats=1 -artifact_prefix=".fuzz/findings/$format/" "$@" >"$log" 2>&1 || status=$?

# One line per run: date, format, seconds, executions, exec/s, coverage (edges), features,
# corpus units, peak RSS (MB), findings (crash/leak/timeout/oom files).
python3 - "$log" "$format" "$seconds" "$status" <<'PY'
import datetime, glob, re, sys
log, fmt, seconds, status = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
text = open(log, errors="replace").read()
def stat(name):
    found = re.findall(rf"stat::{name}:\s+(\d+)", text)
    return int(found[-1]) if found else 0
coverage = re.findall(r"cov: (\d+) ft: (\d+) corp: (\d+)", text)
cov, ft, corp = coverage[-1] if coverage else ("0", "0", "0")
findings = len(glob.glob(f".fuzz/findings/{fmt}/*"))
line = "\t".join(map(str, [datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"), fmt, seconds,
                           stat("number_of_executed_units"), stat("average_exec_per_sec"), cov, ft, corp,
                           stat("peak_rss_mb"), findings]))
path = "Fuzz/stats.tsv"
try:
    open(path).close()
except FileNotFoundError:
    open(path, "w").write("date\tformat\tseconds\texecutions\texec_per_s\tcoverage\tfeatures\tcorpus\tpeak_rss_mb\tfindings\n")
open(path, "a").write(line + "\n")
print(f"fuzz {fmt}: {stat('number_of_executed_units')} executions ({stat('average_exec_per_sec')}/s), coverage {cov}, "
      f"corpus {corp}, peak RSS {stat('peak_rss_mb')} MB, findings {findings}, libFuzzer exit {status}")
PY
if [ "$status" -ne 0 ]; then
  grep -E "FuzzDriver:|ERROR:|SUMMARY:|Test unit written" "$log" | head -20
  exit "$status"
fi
