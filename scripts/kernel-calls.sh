#!/usr/bin/env bash
# Fails when library code in a release binary calls a standard-library SIMD function (a
# conversion like `init(truncatingIfNeeded:)`, `pointwiseMin`, …) instead of having it inlined:
# such a call means a lane kernel runs lane by lane out of line, several times slower, and
# nothing else would notice (see Sources/PureImage/Bitmap/LaneConversions.swift).
#
#   bash scripts/kernel-calls.sh [BINARY]      default: .build/release/pureimage
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:-.build/release/pureimage}"
calls="$(objdump -d --no-show-raw-insn "$binary" | awk '
  /^[0-9a-f]+ <.*>:$/ { caller = $2 }
  /call/ && /<\$ss/ && /SIMD|pointwise/ && caller ~ /^<\$s9PureImage/ { print caller, "calls", $NF }' | sort | uniq -c)"
if [ -n "$calls" ]; then
  echo "FAIL: library functions call standard-library SIMD functions out of line:"
  echo "$calls"
  exit 1
fi
echo "kernel calls: no standard-library SIMD function is called from the library ($binary)"
