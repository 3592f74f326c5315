#!/usr/bin/env bash
# The side-by-side benchmark (issue 11): PureImage against libjpeg-turbo, libpng, giflib and
# libtiff (with libspng and stb_image as extra columns, and the downscaler rows measured in
# child processes). Installs what is missing, generates the bench corpus when it is missing or
# older than its generator, builds pureimage-bench optimised and runs it. See Docs/Performance.md.
#
#   bash scripts/bench.sh                      # default run (< 5 min on 2 cores), table on stdout
#   bash scripts/bench.sh --quick              # smoke subset, < 1 min
#   bash scripts/bench.sh --quick --shared-build   # the same from the build scripts/build.sh shares
#                                              # (-enable-testing: what CI runs, to check the bench
#                                              # works without a second release build; not for numbers)
#   bash scripts/bench.sh --json out.json      # any pureimage-bench argument passes through
#   bash scripts/bench.sh --stability [ARGS]   # two consecutive runs, then the largest ratio drifts:
#                                              # vs the reference (exit status 1 beyond ±5 %) and,
#                                              # for information, vs each extra library
#
# Environment:
#   PUREIMAGE_EXTRA_CORPUS  more images for the default run (default: ../shared/corpus/photos
#                           when that folder exists)
#   PUREIMAGE_BUILD_PATH    the build folder (default .build-bench: the bench is timed without
#                           -enable-testing, and building it in .build would recompile the
#                           package that scripts/test.sh and conform.sh build with it)
set -euo pipefail
cd "$(dirname "$0")/.."

build_path="${PUREIMAGE_BUILD_PATH:-.build-bench}"
corpus=Conformance/bench-corpus
generator=Conformance/generate_bench_corpus.py

stability=0
quick=0
shared_build=0
args=()
for argument in "$@"; do
  case "$argument" in
    --stability) stability=1 ;;
    --shared-build) shared_build=1 ;;
    --quick) quick=1; args+=("$argument") ;;
    *) args+=("$argument") ;;
  esac
done

bash scripts/install-deps.sh
if ! python3 -c "import numpy" >/dev/null 2>&1; then
  echo "installing: numpy (PyPI)"
  python3 -m pip install --quiet --disable-pip-version-check numpy
fi

# The corpus is current when VERSION holds the generator's SHA-256 ("-quick" when only the
# small set was made, which is enough for --quick).
want="$(sha256sum "$generator" | cut -d' ' -f1)"
have="$(cat "$corpus/VERSION" 2>/dev/null || true)"
if [ "$have" != "$want" ] && { [ "$quick" -eq 0 ] || [ "$have" != "$want-quick" ]; }; then
  if [ "$quick" -eq 1 ]; then
    python3 "$generator" --quick-only
  else
    python3 "$generator"
  fi
fi

if [ -z "${PUREIMAGE_EXTRA_CORPUS+set}" ] && [ -d ../shared/corpus/photos ]; then
  export PUREIMAGE_EXTRA_CORPUS="$(cd ../shared/corpus/photos && pwd)"
fi
export PUREIMAGE_SWIFT_VERSION="$(swift --version 2>/dev/null | head -n 1)"

if [ "$shared_build" -eq 1 ]; then
  bash scripts/build.sh --product pureimage-bench
  bench=.build/release/pureimage-bench
else
  swift build -c release --product pureimage-bench --scratch-path "$build_path"
  bench="$build_path/release/pureimage-bench"
fi

if [ "$stability" -eq 0 ]; then
  exec "$bench" "${args[@]}"
fi

# --stability: the acceptance check "two consecutive runs agree on every ratio within ±5 %".
scratch="$(mktemp -d -t pureimage-bench.XXXXXX)"
echo "stability: the two runs' JSON go to $scratch/first.json and $scratch/second.json"
"$bench" "${args[@]}" --json "$scratch/first.json"
"$bench" "${args[@]}" --json "$scratch/second.json"
python3 - "$scratch/first.json" "$scratch/second.json" <<'EOF'
import json, sys

def ratios(document):
    """Every ratio of a run: PureImage/reference per row, and PureImage/each extra library."""
    found = {}
    for case in document["cases"]:
        if case["ratio"] is not None:
            found[(case["file"], case["kind"], "ref")] = case["ratio"]
        for name, other in (case.get("others") or {}).items():
            if other.get("ratio") is not None:
                found[(case["file"], case["kind"], name)] = other["ratio"]
    return found

first, second = (ratios(json.load(open(path))) for path in sys.argv[1:3])
drifts = sorted(((abs(second[key] / first[key] - 1), key, first[key], second[key]) for key in first.keys() & second.keys()),
                reverse=True)

def show(title, selected):
    print(f"\nstability, {title}: {len(selected)} ratios compared between two consecutive runs")
    for drift, (name, kind, against), a, b in selected[:8]:
        print(f"  {drift * 100:5.1f} %  {name} ({kind}, vs {against}): {a:.3f} -> {b:.3f}")
    outside = [d for d in selected if d[0] > 0.05]
    if selected:
        print(f"largest drift {selected[0][0] * 100:.1f} %; {len(outside)} outside ±5 %")
    return outside

# The acceptance is on the ratios against the reference libraries. The extra columns (libspng,
# stb_image) are reported the same way, but stb_image's JPEG time moves by up to ~10 % from one
# process to the next whatever the estimator (Docs/Performance.md, "Stability"), so they do not
# decide the exit status.
outside = show("PureImage / reference", [d for d in drifts if d[1][2] == "ref"])
show("PureImage / extra libraries (informative)", [d for d in drifts if d[1][2] != "ref"])
if not drifts:
    print("nothing to compare")
sys.exit(1 if outside or not drifts else 0)
EOF
