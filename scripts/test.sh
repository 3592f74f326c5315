#!/usr/bin/env bash
# The test suite: installs what is missing, builds optimised with testing enabled (corpus tests
# decode real images; debug builds are 10-80x slower), runs every test.
# Corpus tests run when PUREIMAGE_CORPUS points at a corpus folder (.ci/run sets it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build -c release -Xswiftc -enable-testing --build-tests
swift test -c release -Xswiftc -enable-testing --skip-build "$@"
