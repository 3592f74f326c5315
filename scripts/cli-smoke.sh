#!/usr/bin/env bash
# Command-line checks on a clean build: `pureimage info` on every corpus file names its format
# and never crashes or hangs; `pureimage decode` writes PNG files that pngcheck accepts and PAM
# files that read back identically; APNG frames agree with Pillow.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product pureimage >/dev/null
tool=.build/release/pureimage
if [ -n "${PUREIMAGE_CORPUS:-}" ]; then
  python3 Conformance/cli_smoke.py "$tool" "$PUREIMAGE_CORPUS"
  python3 Conformance/apng_vs_pillow.py "$tool" "$PUREIMAGE_CORPUS"
else
  echo "cli-smoke: PUREIMAGE_CORPUS not set; corpus checks skipped"
fi
