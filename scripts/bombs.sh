#!/usr/bin/env bash
# Decompression bombs and lying headers (Conformance/make_bombs.py), each run through
# `pureimage decode`, `thumbnail`, `downscale` and `inspect` (which decodes every frame) with the default limits: every run must end
# within 10 s and 2 GB of peak memory with an image or a typed error (exit 0, 1 or 3), never a
# crash. Prints the table Docs/Robustness.md shows. Also replays the fuzz regression files
# (Tests/PureImageTests/Fuzz/Regressions) the same way.
#
#   bash scripts/bombs.sh            # builds pureimage (release) if needed
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh --product pureimage
tool=.build/release/pureimage
work="$(mktemp -d -t pureimage-bombs.XXXXXX)"
trap 'rm -rf "$work"' EXIT
python3 Conformance/make_bombs.py "$work/bombs"

files=("$work"/bombs/*)
if [ -d Tests/PureImageTests/Fuzz/Regressions ]; then
  while IFS= read -r file; do files+=("$file"); done < <(find Tests/PureImageTests/Fuzz/Regressions -type f ! -name '*.tsv' | sort)
fi

failures=0
printf '| file | bytes | command | exit | seconds | peak RSS (MB) | outcome |\n|---|---:|---|---:|---:|---:|---|\n'
for file in "${files[@]}"; do
  for command in decode thumbnail downscale inspect; do
    case "$command" in
      decode) args=(decode "$file" -o "$work/out.pam") ;;
      thumbnail) args=(thumbnail "$file" -o "$work/out.png" --max-pixel-size 256) ;;
      downscale) args=(downscale "$file" -o "$work/out.png") ;;
      inspect) args=(inspect "$file") ;;
    esac
    run() {
      status=0
      SWIFT_BACKTRACE=enable=no /usr/bin/time -f "%e %M" -o "$work/time" timeout 20 "$tool" "${args[@]}" >/dev/null 2>"$work/err" || status=$?
      # /usr/bin/time writes "Command exited with non-zero status N" first when the command fails.
      read -r seconds kilobytes < <(tail -n 1 "$work/time") || { seconds=20; kilobytes=0; }
    }
    run
    # Wall time on a shared 2-core machine varies by up to 1.5x between identical runs (the
    # same downscale measured 6.4 s and 9.3 s in two CI runs): a run over the time bound alone
    # is timed once more, and both times are printed. Crashes and memory are never re-run.
    if [ "$status" -le 3 ] && [ "$((kilobytes / 1024))" -le 2000 ] && awk "BEGIN { exit !($seconds > 10) }"; then
      first="$seconds"
      run
      seconds="$seconds (first run $first)"
    fi
    outcome="$( (grep -v '^Command' "$work/err" || true) | head -1 | sed "s|$work/bombs/||; s|pureimage: ||" | cut -c1-110)"
    [ -z "$outcome" ] && outcome="$([ "$command" = inspect ] && echo "structure listed" || echo "image written")"
    megabytes=$((kilobytes / 1024))
    verdict=""
    if [ "$status" -gt 3 ] || awk "BEGIN { exit !(${seconds%% *} > 10) }" || [ "$megabytes" -gt 2000 ]; then
      verdict=" **FAIL**"
      failures=$((failures + 1))
    fi
    printf '| %s | %s | %s | %s | %s | %s | %s%s |\n' "$(basename "$file")" "$(stat -c %s "$file")" "$command" "$status" "$seconds" "$megabytes" "$outcome" "$verdict"
  done
done
echo
echo "bombs: ${#files[@]} files x 4 commands, $failures over 10 s / 2 GB or crashed"
[ "$failures" -eq 0 ]
