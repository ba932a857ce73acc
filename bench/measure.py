#!/usr/bin/env python3
"""Run several commands in interleaved rounds and report median wall time, CPU time and peak RSS.

Interleaving (round 1: A B C, round 2: B C A, ...) means a burst of load from elsewhere on the machine
hits every command alike, which matters on a shared 2-core machine. Each run's CPU time and peak RSS
come from wait4(2): user + system time of the process and all its waited-for descendants; peak RSS is
the largest single process of the tree (semgrep's Python driver and its semgrep-core are not summed).

Usage: measure.py --runs N [--runs-for NAME=N] --out results.json NAME=COMMAND [NAME=COMMAND ...]
Each COMMAND is run through `sh -c`, with stdout and stderr discarded.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def run_once(cmd):
    devnull = subprocess.DEVNULL
    t0 = time.perf_counter()
    p = subprocess.Popen(["sh", "-c", cmd], stdout=devnull, stderr=devnull)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    return {
        "wall": wall,
        "user": ru.ru_utime,
        "sys": ru.ru_stime,
        "cpu": ru.ru_utime + ru.ru_stime,
        "maxrss_kb": ru.ru_maxrss,
        "exit": p.returncode,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs-for", action="append", default=[], help="NAME=N: fewer runs for a slow command")
    ap.add_argument("commands", nargs="+", help="NAME=COMMAND")
    a = ap.parse_args()
    cmds = []
    for c in a.commands:
        name, _, cmd = c.partition("=")
        cmds.append((name, cmd))
    limit = {k: int(v) for k, _, v in (x.partition("=") for x in a.runs_for)}
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
            r = run_once(cmd)
            runs[name].append(r)
            print(f"  round {i + 1}/{a.runs} {name}: {r['wall']:.3f}s wall, {r['cpu']:.3f}s cpu, "
                  f"{r['maxrss_kb'] / 1024:.0f} MB", file=sys.stderr)
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
    main()
