#!/usr/bin/env bash
# Builds the library's DocC documentation (Sources/PureImage/PureImage.docc plus every public
# symbol's documentation comment) into a static site, with the toolchain's own `docc` (the
# swift-docc-plugin is not needed): the symbol graph is extracted from the module that the
# release build already made, then converted. Fails on any DocC warning (a broken symbol link,
# an unknown article) and on any public symbol without a documentation comment.
#
#   bash scripts/docs.sh                 # site in .build/docs; open .build/docs/documentation/pureimage/index.html
#   bash scripts/docs.sh --output DIR    # elsewhere
set -euo pipefail
cd "$(dirname "$0")/.."
output=.build/docs
if [ "${1:-}" = "--output" ]; then
  [ -n "${2:-}" ] || { echo "usage: bash scripts/docs.sh [--output DIR]"; exit 2; }
  output="$2"
fi
# The folder is replaced: refuse one that holds anything but a previous DocC site.
if [ -d "$output" ] && [ -n "$(ls -A "$output")" ] && [ ! -f "$output/metadata.json" ]; then
  echo "docs: $output exists and is not a DocC site; choose another --output"; exit 2
fi

# The flags of scripts/test.sh, so this reuses that build instead of recompiling.
bash scripts/build.sh --target PureImage
triple="$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')"
graphs="$(mktemp -d -t pureimage-symbols.XXXXXX)"
trap 'rm -rf "$graphs"' EXIT
swift-symbolgraph-extract -module-name PureImage -I .build/release/Modules -I Sources/CZlib \
  -target "$triple" -minimum-access-level public -output-dir "$graphs"

# Every public symbol documented (compiler-synthesized conformance members excepted).
python3 - "$graphs" <<'EOF'
import glob, json, sys
undocumented, total = [], 0
for path in glob.glob(sys.argv[1] + "/*.symbols.json"):
    for symbol in json.load(open(path))["symbols"]:
        if symbol["accessLevel"] not in ("public", "open") or "SYNTHESIZED" in symbol["identifier"]["precise"]:
            continue
        if symbol["pathComponents"][-1] in ("hashValue", "hash(into:)", "==(_:_:)", "<(_:_:)"):
            continue   # Hashable/Comparable members the compiler writes; their protocols document them
        total += 1
        if not symbol.get("docComment"):
            location = symbol.get("location", {})
            undocumented.append(f'{location.get("uri", "?").split("/Sources/")[-1]}:{location.get("position", {}).get("line", 0) + 1}: '
                                f'{".".join(symbol["pathComponents"])}')
print(f"docs: {total} public symbols, {len(undocumented)} without a documentation comment")
for line in sorted(undocumented)[:50]:
    print("  undocumented: " + line)
sys.exit(1 if undocumented else 0)
EOF

rm -rf "$output"
docc convert Sources/PureImage/PureImage.docc --additional-symbol-graph-dir "$graphs" --output-path "$output" \
  --fallback-display-name PureImage --fallback-bundle-identifier org.pureimage.PureImage \
  --transform-for-static-hosting --warnings-as-errors 2>&1 | tee "$graphs/docc.log"
if grep -q "warning:" "$graphs/docc.log"; then echo "docs: FAIL: DocC warnings above"; exit 1; fi
echo "docs: site in $output ($(find "$output" -type f | wc -l) files); start at $output/documentation/pureimage/index.html"
