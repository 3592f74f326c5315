#!/usr/bin/env bash
# Opens a `pureimage conform --report` page in headless Chromium, as a reader would (from disk,
# no server), and asserts from the live DOM that it works:
#   * the summary table, the three filters and the "outside the expectations" section exist;
#   * every linked image loads (each is forced to load, then checked for a decoded size);
#   * no image is drawn wider or taller than the viewport;
#   * choosing a verdict in the filter shows only entries of that verdict;
#   * a deep link (#file=…) shows its entry, highlighted, with the filters cleared.
# The checks are a script appended to a copy of the page (in the same folder, so the relative
# image links resolve); Chromium prints the resulting DOM and this script reads the verdict.
#
#   bash scripts/check-report.sh Conformance/out/conform.html [--screenshot top.png]
set -euo pipefail
report="$1"
screenshot="${3:-}"
[ -f "$report" ] || { echo "check-report: no such file: $report"; exit 2; }
browser="$(command -v chromium || command -v chromium-browser || true)"
[ -n "$browser" ] || { echo "check-report: chromium is not installed (scripts/install-deps.sh installs it)"; exit 2; }

folder="$(cd "$(dirname "$report")" && pwd)"
copy="$folder/.check-$(basename "$report")"
trap 'rm -f "$copy"' EXIT
{
  sed 's#</body></html>##' "$report"
  cat <<'EOF'
<script>
window.addEventListener('load', function () {
  const problems = [];
  const viewport = { width: window.innerWidth, height: window.innerHeight };
  if (!document.getElementById('summary')) problems.push('no summary table');
  for (const id of ['filter-format', 'filter-suite', 'filter-verdict'])
    if (!document.getElementById(id)) problems.push('no filter ' + id);
  if (!document.getElementById('unexpected')) problems.push('no section for files outside the expectations');
  const images = Array.from(document.querySelectorAll('img'));
  const entries = Array.from(document.querySelectorAll('.entry'));
  for (const img of images) {
    if (!img.complete || img.naturalWidth === 0) problems.push('image does not load: ' + img.getAttribute('src'));
    const box = img.getBoundingClientRect();
    if (box.width > viewport.width || box.height > viewport.height)
      problems.push('image larger than the viewport: ' + img.getAttribute('src') + ' ' + box.width + 'x' + box.height);
  }
  // The verdict filter.
  const select = document.getElementById('filter-verdict');
  let filtered = 0;
  for (const option of Array.from(select.options).map(o => o.value).filter(v => v && v !== 'unexpected')) {
    select.value = option;
    select.dispatchEvent(new Event('change'));
    for (const entry of entries) {
      if (entry.hidden) continue;
      filtered++;
      if (entry.dataset.verdict !== option) problems.push('filter ' + option + ' shows ' + entry.id);
    }
  }
  select.value = '';
  select.dispatchEvent(new Event('change'));
  // A deep link to the last entry.
  let deepLink = 'none';
  if (entries.length > 0) {
    const last = entries[entries.length - 1];
    // Hide it first with another verdict's filter: the link must clear the filters.
    select.value = Array.from(select.options).map(o => o.value).find(v => v && v !== 'unexpected' && v !== last.dataset.verdict) || '';
    select.dispatchEvent(new Event('change'));
    location.hash = last.id;
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    if (last.hidden || !last.classList.contains('target')) problems.push('deep link #' + last.id + ' does not show its entry');
    deepLink = last.id;
  }
  const result = document.createElement('pre');
  result.id = 'report-check';
  result.textContent = JSON.stringify({ entries: entries.length, images: images.length, filtered: filtered,
                                        sections: document.querySelectorAll('section').length, deepLink: deepLink,
                                        viewport: viewport, problems: problems });
  document.body.appendChild(result);
});
for (const img of document.querySelectorAll('img')) img.loading = 'eager';
</script>
</body></html>
EOF
} > "$copy"

dom="$("$browser" --headless --no-sandbox --disable-gpu --window-size=1280,900 --virtual-time-budget=60000 \
        --allow-file-access-from-files --dump-dom "file://$copy" 2>/dev/null || true)"
line="$(grep -o '<pre id="report-check">[^<]*' <<<"$dom" | sed 's/<pre id="report-check">//' | sed 's/&quot;/"/g; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g' || true)"
if [ -z "$line" ]; then echo "check-report: FAIL: the page's checks did not run (no result in the DOM)"; exit 1; fi
if [ -n "$screenshot" ]; then
  "$browser" --headless --no-sandbox --disable-gpu --window-size=1280,900 --virtual-time-budget=20000 \
    --screenshot="$screenshot" "file://$(cd "$(dirname "$report")" && pwd)/$(basename "$report")" >/dev/null 2>&1 || true
fi
python3 - "$line" <<'EOF'
import json, sys
result = json.loads(sys.argv[1])
print(f"check-report: {result['entries']} entries, {result['images']} images, {result['sections']} sections, "
      f"{result['filtered']} entries seen through the verdict filter, deep link #{result['deepLink'][:60]}")
for problem in result["problems"][:20]:
    print("  FAIL " + problem)
if result["images"] == 0 or result["entries"] == 0:
    print("  FAIL the page has no entries or no images to check")
    sys.exit(1)
sys.exit(1 if result["problems"] else 0)
EOF
