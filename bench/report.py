#!/usr/bin/env python3
"""Render the benchmark's markdown table from measure.py results.

Usage: report.py WORK NAME [NAME ...]   (reads WORK/NAME.json and WORK/NAME.meta.json)
"""

import json
import os
import sys

TOOLS = ["mongolint", "mongolint-1t", "floor", "floor-1t", "floor-walk", "floor-extract", "ast-grep", "semgrep"]


def fmt_s(x):
    return f"{x:.2f}" if x < 10 else f"{x:.1f}"


def main():
    work, names = sys.argv[1], sys.argv[2:]
    out = []
    load = open(os.path.join(work, "load.txt")).read().strip().replace("\n", "; ")
    out.append(f"Medians; {load}. CPU = user + system. Ratios: other / mongolint (higher = mongolint faster), "
               "except `/ floor` = mongolint / floor (`floor-walk`: the floor that also reads every node of each parsed tree; `floor-extract`: the floor that also runs mongolint's frontends on each parsed file, so that `floor-extract / floor` is what the frontends cost and `mongolint / floor-extract` the rest: prefilter, files parsed beyond the driver files, link, model, rules, report) and `1t / 2t` = mongolint 1 thread / 2 threads.\n")
    for name in names:
        meta = json.load(open(os.path.join(work, f"{name}.meta.json")))
        res = json.load(open(os.path.join(work, f"{name}.json")))["commands"]
        out.append(f"### {name}\n")
        g = meta.get
        out.append(f"{meta['files']} files, {meta['lines']} lines; driver files (the floor parses them): "
                   f"{meta['drivers']}; parsed by mongolint after its prefilter: {g('parsed', '-')}. "
                   f"Files scanned: mongolint {g('mongolint_files', '-')}, ast-grep {g('ast_grep_files', '-')}, "
                   f"semgrep {g('semgrep_files', '-')}. Findings: mongolint {g('mongolint_findings', '-')}, "
                   f"ast-grep {g('ast_grep_findings', '-')}, semgrep {g('semgrep_findings', '-')}.\n")
        out.append("| tool | runs | wall s | CPU s | peak RSS MB | wall ratio | CPU ratio |")
        out.append("|---|---|---|---|---|---|---|")
        ml = res["mongolint"]
        for t in TOOLS:
            if t not in res:
                continue
            r = res[t]
            if t in ("ast-grep", "semgrep"):
                wr, cr = r["wall"] / ml["wall"], r["cpu"] / ml["cpu"]
                ratio = (f"{wr:.1f}x slower", f"{cr:.1f}x")
            elif t == "floor":
                ratio = (f"mongolint / floor = {ml['wall'] / r['wall']:.2f}",
                         f"{ml['cpu'] / r['cpu']:.2f}")
            elif t in ("floor-walk", "floor-extract"):
                fl = res["floor"]
                ratio = (f"{t} / floor = {r['wall'] / fl['wall']:.2f}; mongolint / {t} = {ml['wall'] / r['wall']:.2f}",
                         f"{r['cpu'] / fl['cpu']:.2f}; {ml['cpu'] / r['cpu']:.2f}")
            elif t == "mongolint-1t":
                ratio = (f"1t / 2t = {r['wall'] / ml['wall']:.2f}", "")
            elif t == "floor-1t":
                ratio = (f"1t / 2t = {r['wall'] / res['floor']['wall']:.2f}", "")
            else:
                ratio = ("", "")
            out.append(f"| {t} | {len(r['runs'])} | {fmt_s(r['wall'])} | {fmt_s(r['cpu'])} | "
                       f"{r['maxrss_mb']:.0f} | {ratio[0]} | {ratio[1]} |")
        for t in TOOLS:
            counts = [r.get("findings") for r in res.get(t, {}).get("runs", []) if "findings" in r]
            # semgrep's own runs differ by a few findings (17,262 and 17,306 on the 30k-file
            # repository); one that stopped early found half (8,192).
            known = [c for c in counts if c is not None]
            if len(known) != len(counts) or (known and min(known) < 0.95 * max(known)):
                out.append(f"**Warning: {t}'s runs disagree on the findings ({', '.join(map(str, counts))}): "
                           "a run that stopped early makes its time meaningless; rerun it.**\n")
        ir_path = os.path.join(work, f"{name}.instructions.json")
        if os.path.exists(ir_path):
            ir = json.load(open(ir_path))
            stages = "".join(f", {t} {ir[t] / 1e6:,.1f} M ({ir[t] / ir['floor']:.3f})"
                             for t in ("floor-walk", "floor-extract") if t in ir)
            out.append(f"Instructions (callgrind, 1 thread): mongolint {ir['mongolint'] / 1e6:,.1f} M, "
                       f"floor {ir['floor'] / 1e6:,.1f} M{stages}: mongolint / floor = "
                       f"**{ir['mongolint'] / ir['floor']:.3f}**.\n")
        out.append("")
    print("\n".join(out))


if __name__ == "__main__":
    main()
