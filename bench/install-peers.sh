#!/usr/bin/env bash
# Installs the benchmark's peers at pinned versions: semgrep and ast-grep into bench/.venv (gitignored),
# hyperfine from Debian (or crates.io if apt is unavailable), GNU time from Debian (measure.py reads
# each command's peak RSS through it; without it, the figures include measure.py's own ~13 MB).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
SEMGREP_VERSION=1.185.0
AST_GREP_VERSION=0.51.1
HYPERFINE_CRATE_VERSION=1.19.0

if [ ! -x "$here/.venv/bin/python" ]; then
  python3 -m venv "$here/.venv"
fi
"$here/.venv/bin/pip" install --quiet --disable-pip-version-check \
  "semgrep==$SEMGREP_VERSION" "ast-grep-cli==$AST_GREP_VERSION"

if ! command -v hyperfine >/dev/null; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq hyperfine >/dev/null
  fi
fi
if [ ! -x /usr/bin/time ] && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  apt-get install -y -qq time >/dev/null || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
fi
if ! command -v hyperfine >/dev/null; then
  cargo install hyperfine --locked --version "$HYPERFINE_CRATE_VERSION"
fi
"$here/.venv/bin/semgrep" --version
"$here/.venv/bin/ast-grep" --version
hyperfine --version
