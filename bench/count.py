#!/usr/bin/env python3
"""Writes a target's metadata for report.py: sizes, and what each tool scanned and found.

Usage: count.py WORK NAME FILES LINES DRIVERS
"""
import json
import os
import re
import sys

work, name, files, lines, drivers = sys.argv[1:6]
meta = {"name": name, "files": int(files), "lines": int(lines), "drivers": int(drivers)}


def load(suffix):
    p = os.path.join(work, f"{name}.{suffix}")
    return open(p).read() if os.path.exists(p) else None


ml = load("mongolint.json")
if ml:
    s = json.loads(ml)["summary"]
    meta.update(parsed=s["files_parsed"], mongolint_files=s["files_scanned"], mongolint_findings=s["findings"])
ag_log, ag = load("ast-grep.log"), load("ast-grep.json")
if ag_log:
    m = re.search(r"scannedFileCount=(\d+)", ag_log)
    meta["ast_grep_files"] = int(m.group(1)) if m else None
if ag:
    meta["ast_grep_findings"] = len(json.loads(ag))
sg = load("semgrep.json")
if sg:
    d = json.loads(sg)
    meta.update(semgrep_files=len(d["paths"]["scanned"]), semgrep_findings=len(d["results"]))
print(json.dumps(meta))
