#!/usr/bin/env python3
"""How close the peers' rules come to mongolint's: each tool on corpus/, scored against its inline
`expect: rule-id` annotations. A finding of the same rule hits an expectation when its reported
range covers the expected line (peers report a whole call or array where mongolint reports the key).

Usage: peer_recall.py [CORPUS]   (needs bench/.venv with the peers; run from the repository root)
"""

import collections
import json
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(here)
venv = os.path.join(here, ".venv", "bin")
RULES = ["unbounded-push", "dynamic-collection-name", "lookup-chain", "counter-inc", "skip-paging"]


def family(rule_id):
    """Map a peer rule id (`unbounded-push-document-ts`, `populate-chain`) to a mission rule."""
    rid = rule_id.rsplit(".", 1)[-1]
    if rid.startswith(("unbounded-push", "mongoengine-push")):
        return "unbounded-push"
    if rid.startswith(("lookup-chain", "populate-chain")):
        return "lookup-chain"
    for r in RULES:
        if rid.startswith(r):
            return r
    return None


def expectations(root):
    want = set()
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            if not p.endswith((".js", ".ts", ".tsx", ".py", ".rs", ".mjs")):
                continue
            for i, line in enumerate(open(p, encoding="utf-8"), 1):
                m = re.search(r"(//|#)\s*expect:\s*(.*)$", line)
                if m:
                    for rid in m.group(2).split(","):
                        rid = rid.split()[0] if rid.split() else ""
                        if rid in RULES:
                            want.add((os.path.relpath(p, repo), i, rid))
    return want


def mongolint(root):
    out = subprocess.run([os.path.join(repo, "target", "release", "mongolint"), "check", root,
                          "--format", "json"], capture_output=True, text=True, cwd=repo).stdout
    got = set()
    for f in json.loads(out)["findings"]:
        got.add((f["path"], f["start"]["line"], f["start"]["line"], f["rule"]))
    return got


def ast_grep(root):
    out = subprocess.run([os.path.join(venv, "ast-grep"), "scan", "-c",
                          os.path.join(here, "peers", "ast-grep", "sgconfig.yml"), "--json=compact", root],
                         capture_output=True, text=True, cwd=repo).stdout
    return {(r["file"], r["range"]["start"]["line"] + 1, r["range"]["end"]["line"] + 1, family(r["ruleId"]))
            for r in json.loads(out)}


def semgrep(root):
    out = subprocess.run([os.path.join(venv, "semgrep"), "scan", "--metrics=off", "--disable-version-check",
                          "--config", os.path.join(here, "peers", "semgrep"), "--json", root],
                         capture_output=True, text=True, cwd=repo).stdout
    return {(r["path"], r["start"]["line"], r["end"]["line"], family(r["check_id"]))
            for r in json.loads(out)["results"]}


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "corpus"
    want = expectations(os.path.join(repo, root))
    print(f"{len(want)} expected findings in {root}/\n")
    print("| tool | rule | expected found | flagged elsewhere |")
    print("|---|---|---|---|")
    for name, fn in [("mongolint", mongolint), ("ast-grep", ast_grep), ("semgrep", semgrep)]:
        got = fn(root)
        for r in RULES:
            w = {k for k in want if k[2] == r}
            g = {k for k in got if k[3] == r}
            hit = {k for k in w if any(x[0] == k[0] and x[1] <= k[1] <= x[2] for x in g)}
            stray = {x for x in g if not any(x[0] == k[0] and x[1] <= k[1] <= x[2] for k in w)}
            print(f"| {name} | {r} | {len(hit)}/{len(w)} | {len(stray)} |")


if __name__ == "__main__":
    main()
