#!/usr/bin/env bash
# Strict memory safety (Swift 6.2, SE-0458): type-checks the library with -strict-memory-safety
# and counts, file by file, the expressions that use unsafe constructs (pointers, unchecked
# buffers, C calls). Kernel files (*Kernel*.swift: IDCT, unfilter, conversion, … — each with the
# bounds argument in a comment) may use them freely. Every other file that does must be listed in
# Docs/unsafe-sites.tsv with its concern and reason, and may not exceed the count listed there:
# new unsafe code outside the kernels is a deliberate, reviewed change or it fails CI.
#
#   bash scripts/unsafe-audit.sh           # check
#   bash scripts/unsafe-audit.sh --counts  # print the current count of every file
set -euo pipefail
cd "$(dirname "$0")/.."
log="$(mktemp -t pureimage-unsafe.XXXXXX)"
trap 'rm -f "$log"' EXIT
# Type-checking is enough: the diagnostics come from the type checker (about 30 s).
swiftc -typecheck -strict-memory-safety -diagnostic-style=llvm -module-name PureImage -parse-as-library \
  -swift-version 6 -Xcc -fmodule-map-file=Sources/CZlib/module.modulemap \
  $(find Sources/PureImage -name '*.swift' | sort) >"$log" 2>&1 || { grep "error:" "$log" | head; exit 1; }
python3 - "$log" "${1:-}" <<'PY'
import collections, re, sys
log, mode = sys.argv[1], sys.argv[2]
counts = collections.Counter()
for line in open(log, encoding="utf-8", errors="replace"):
    m = re.match(r"(?:.*/)?(Sources/PureImage/[^:]+\.swift):\d+:\d+: warning: .*\[#StrictMemorySafety\]", line)
    if m:
        counts[m.group(1)] += 1
if mode == "--counts":
    for path, n in sorted(counts.items(), key=lambda item: -item[1]):
        print(f"{n}\t{path}")
    sys.exit(0)
listed = {}
for number, line in enumerate(open("Docs/unsafe-sites.tsv", encoding="utf-8"), 1):
    if line.startswith("#") or not line.strip():
        continue
    columns = line.rstrip("\n").split("\t")
    if len(columns) != 4 or not columns[1].isdigit() or not columns[3].strip():
        sys.exit(f"Docs/unsafe-sites.tsv line {number}: expected file, sites, concern and reason separated by tabs")
    listed[columns[0]] = int(columns[1])
kernel = {p: n for p, n in counts.items() if "Kernel" in p.rsplit("/", 1)[-1]}
other = {p: n for p, n in counts.items() if p not in kernel}
problems = []
for path, n in sorted(other.items()):
    if path not in listed:
        problems.append(f"{path}: {n} unsafe site(s) outside a kernel file and not listed in Docs/unsafe-sites.tsv")
    elif n > listed[path]:
        problems.append(f"{path}: {n} unsafe sites, {listed[path]} listed")
for path in sorted(set(listed) - set(other)):
    problems.append(f"{path}: listed in Docs/unsafe-sites.tsv but has no unsafe site (remove the line)")
print(f"unsafe-audit: {sum(kernel.values())} sites in {len(kernel)} kernel files; "
      f"{sum(other.values())} sites in {len(other)} other files, all listed with reasons" if not problems else
      f"unsafe-audit: {len(problems)} problem(s)")
for problem in problems:
    print("  " + problem)
sys.exit(1 if problems else 0)
PY
