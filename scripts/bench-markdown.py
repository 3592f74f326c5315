#!/usr/bin/env python3
"""Markdown tables of a `pureimage-bench --json FILE` run (schema pureimage-bench/2), as
Docs/Performance.md's "Latest default run" shows them: the headline (geometric means per
format and kind), the downscaler rows, and every case.

    python3 scripts/bench-markdown.py run.json > tables.md
"""
import json
import math
import sys
from collections import defaultdict

REFERENCE = {"png": "libpng 1.6", "jpeg": "libjpeg-turbo 2.1.5 (3.x: 12-bit, lossless)", "gif": "giflib 5",
             "tiff": "libtiff `TIFFReadRGBAImage`", "webp": "libwebp"}


def geomean(values):
    values = [v for v in values if v]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def number(value, digits=3):
    if value is None:
        return "–"
    if value >= 100:
        return f"{value:.0f}"
    return f"{value:.{digits}g}"


def main(path):
    run = json.load(open(path))
    cases = [c for c in run["cases"] if c["status"] == "timed" and c.get("ratio")]
    settings, machine = run["settings"], run["machine"]
    print(f"Run on {run['date']} with `pureimage-bench` (settings: clock `{settings['clock']}`, "
          f"{settings['warmups']} warm-ups, {settings['passes']} passes, iterations {settings['iterations']}, "
          f"**memory {settings['memory']}**; {settings['wall_seconds']:.0f} s for {len(run['cases'])} cases). "
          f"Machine: {machine['cpu']}, {machine['logical_cpus']} logical CPUs, {machine['kernel']}; "
          f"load average {machine['load_average_start']} at the start, {machine['load_average_end']} at the end. "
          f"{run['toolchain']['swift']}.\n")
    # Headline: decode rows per format.
    print("Headline (geometric mean of `ratio` = PureImage time / other library's time over the decode rows; "
          "< 1: PureImage is faster):\n")
    print("| decoder | against the reference | against libspng | against stb_image | cases |")
    print("|---|---|---|---|--:|")
    by_format = defaultdict(list)
    for c in cases:
        if c["kind"] == "decode":
            by_format[c["format"]].append(c)
    for fmt in ["png", "jpeg", "gif", "tiff", "webp"]:
        rows = by_format.get(fmt)
        if not rows:
            continue
        ref = geomean([c["ratio"] for c in rows])
        spng = geomean([c["others"].get("spng", {}).get("ratio") for c in rows])
        stb = geomean([c["others"].get("stb", {}).get("ratio") for c in rows])
        print(f"| {fmt.upper()} | {REFERENCE[fmt]}: **{ref:.2f}** | {('**%.2f**' % spng) if spng else '–'} | "
              f"{('**%.2f**' % stb) if stb else '–'} | {len(rows)} |")
    kinds = defaultdict(list)
    for c in cases:
        if c["kind"] not in ("decode",) and not c["kind"].startswith("downscale"):
            kinds[(c["kind"], c["format"])].append(c["ratio"])
    if kinds:
        parts = [f"{kind} ({fmt}, {len(r)}): {geomean(r):.2f}" for (kind, fmt), r in sorted(kinds.items())]
        print("\nOther kinds (geometric mean of `ratio`): " + "; ".join(parts) + ".")
    # Downscaler rows.
    down = [c for c in run["cases"] if c["kind"].startswith("downscale") and c["status"] == "timed"]
    if down:
        print("\n| file | source → destination | PureImage downscale ms | PureImage peak RSS MB (before the call) "
              "| reference full decode ms | reference peak RSS MB (before) | full RGBA8 MB | ratio (time) | runs |")
        print("|---|---|--:|--:|--:|--:|--:|--:|--:|")
        for c in down:
            d = c["downscale"]
            print(f"| `{c['file']}` | {c['width']}×{c['height']} → {d['destination_width']}×{d['destination_height']} | "
                  f"{number(c['ours_min_ms'])} | **{d['ours_peak_rss_mb']:.0f}** ({d['ours_input_rss_mb']:.0f}) | "
                  f"{number(c['ref_min_ms'])} | {d['ref_peak_rss_mb']:.0f} ({d['ref_input_rss_mb']:.0f}) | "
                  f"{d['full_rgba_mb']:.0f} | {c['ratio']:.2f} | {c['iterations']} |")
    # Every case.
    print("\n| file | kind | layout (ours \\| reference) | MP | ours ms (min) | ref ms (min) | ratio | med r | spread "
          "| n | spng min | r spng | stb min | r stb |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for c in cases:
        if c["kind"].startswith("downscale"):
            continue
        spng, stb = c["others"].get("spng", {}), c["others"].get("stb", {})
        layout = c["layout"].replace("|", "\\|")
        print(f"| `{c['file']}` | {c['kind']} | {layout} | {c['pixels'] / 1e6:.1f} | "
              f"{number(c['ours_ms'])} ({number(c['ours_min_ms'])}) | {number(c['ref_ms'])} ({number(c['ref_min_ms'])}) | "
              f"**{c['ratio']:.2f}** | {c['ratio_median']:.2f} | {100 * c['spread']:.1f} % | {c['iterations']} | "
              f"{number(spng.get('min_ms'))} | {number(spng.get('ratio'), 2)} | {number(stb.get('min_ms'))} | {number(stb.get('ratio'), 2)} |")


if __name__ == "__main__":
    main(sys.argv[1])
