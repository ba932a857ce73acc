#!/usr/bin/env python3
"""Run several commands in interleaved rounds and report median wall time, CPU time and peak RSS.

Interleaving (round 1: A B C, round 2: B C A, ...) means a burst of load from elsewhere on the machine
hits every command alike, which matters on a shared 2-core machine. Each run's CPU time comes
from wait4(2): user + system time of the process and all its waited-for descendants; peak RSS is the
largest single process of the tree (semgrep's Python driver and its semgrep-core are not summed), as
GNU time reports it for the command it runs (see `GNU_TIME`).

Usage: measure.py --runs N [--runs-for NAME=N] [--findings NAME=REPORT ...] --out results.json
                  NAME=COMMAND [NAME=COMMAND ...]
Each COMMAND is run through `sh -c`, with stdout and stderr discarded. With `--findings NAME=REPORT`,
the JSON report the command writes (mongolint's, ast-grep's or semgrep's) is read after each of its
runs and its number of findings kept with the run: a run that stops early (semgrep once ended after
74.8 s with 8,192 of its 17,262 findings, exit status 0) then shows as runs that disagree.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


# GNU time, through which each command runs to have its peak RSS measured from a small process:
# `ru_maxrss` of a child of this Python process counts the memory this process had resident
# when it forked (Linux records the old image's peak at exec), so no command measured below
# about 13 MB here. Through `time`, a command starts from `time`'s own 2 MB.
GNU_TIME = "/usr/bin/time"


def run_once(cmd):
    devnull = subprocess.DEVNULL
    argv = ["sh", "-c", cmd]
    rss_file = None
    if os.access(GNU_TIME, os.X_OK):
        fd, rss_file = tempfile.mkstemp(prefix="measure-rss-")
        os.close(fd)
        argv = [GNU_TIME, "-f", "%M", "-o", rss_file] + argv
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=devnull, stderr=devnull)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    maxrss_kb = ru.ru_maxrss
    if rss_file:
        with open(rss_file) as fh:
            lines = [line for line in fh.read().split("\n") if line.strip()]
        os.remove(rss_file)
        # (`time` writes "Command exited with non-zero status N" before the figure.)
        if lines and lines[-1].strip().isdigit():
            maxrss_kb = int(lines[-1])
    return {
        "wall": wall,
        "user": ru.ru_utime,
        "sys": ru.ru_stime,
        "cpu": ru.ru_utime + ru.ru_stime,
        "maxrss_kb": maxrss_kb,
        "exit": p.returncode,
    }


def count_findings(path):
    """The number of findings in a JSON report of mongolint, ast-grep or semgrep; None if unreadable.

    Counted in a child process: a large report read here would stay in this process's memory,
    and every command forked after it would start with that memory resident, which `ru_maxrss`
    counts as the command's (the floor measured 291 MB instead of 13 MB)."""
    out = subprocess.run([sys.executable, __file__, "--count-findings", path],
                         capture_output=True, text=True).stdout.strip()
    return int(out) if out.isdigit() else None


def count_findings_here(path):
    try:
        with open(path) as fh:
            d = json.load(fh)
    except (OSError, ValueError):
        return None
    if isinstance(d, list):  # ast-grep
        return len(d)
    if "results" in d:  # semgrep
        return len(d["results"])
    return len(d.get("findings", []))  # mongolint


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs-for", action="append", default=[], help="NAME=N: fewer runs for a slow command")
    ap.add_argument("--findings", action="append", default=[],
                    help="NAME=REPORT: count the findings of the report NAME writes, after each run")
    ap.add_argument("commands", nargs="+", help="NAME=COMMAND")
    a = ap.parse_args()
    cmds = []
    for c in a.commands:
        name, _, cmd = c.partition("=")
        cmds.append((name, cmd))
    limit = {k: int(v) for k, _, v in (x.partition("=") for x in a.runs_for)}
    reports = {k: v for k, _, v in (x.partition("=") for x in a.findings)}
    for name, cmd in cmds:
        if name in limit:
            continue  # a slow command with few runs gets no warm-up run: the others warm the cache
        for _ in range(a.warmup):
            r = run_once(cmd)
            if r["exit"] not in (0, 1):
                print(f"warning: {name} exited {r['exit']}: {cmd}", file=sys.stderr)
    runs = {name: [] for name, _ in cmds}
    for i in range(a.runs):
        order = cmds[i % len(cmds):] + cmds[: i % len(cmds)]
        for name, cmd in order:
            if len(runs[name]) >= limit.get(name, a.runs):
                continue
            if name in reports and os.path.exists(reports[name]):
                os.remove(reports[name])  # a run that writes nothing must not count the last one's
            r = run_once(cmd)
            found = ""
            if name in reports:
                r["findings"] = count_findings(reports[name])
                found = f", {r['findings']} findings"
            runs[name].append(r)
            print(f"  round {i + 1}/{a.runs} {name}: {r['wall']:.3f}s wall, {r['cpu']:.3f}s cpu, "
                  f"{r['maxrss_kb'] / 1024:.0f} MB{found}", file=sys.stderr)
    result = {"load_before": os.getloadavg(), "commands": {}}
    for name, cmd in cmds:
        rs = runs[name]
        result["commands"][name] = {
            "command": cmd,
            "runs": rs,
            "wall": statistics.median(r["wall"] for r in rs),
            "cpu": statistics.median(r["cpu"] for r in rs),
            "maxrss_mb": statistics.median(r["maxrss_kb"] for r in rs) / 1024,
        }
    with open(a.out, "w") as fh:
        json.dump(result, fh, indent=1)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--count-findings":
        n = count_findings_here(sys.argv[2])
        print("" if n is None else n)
    else:
        main()
