#!/usr/bin/env bash
# Installs the external tools the test suite uses into .tools/ of the repository, at pinned versions:
#   - Microsoft SARIF Multitool (npm), used by tests/sarif_multitool.rs to validate our SARIF
#     with the "Sarif" and "Ghas" (GitHub Advanced Security ingestion) rule kinds;
#   - check-jsonschema, sarif-tools and pre-commit (PyPI), in a virtual environment at .tools/py,
#     used by tests/sarif_schema.rs (SARIF against the official 2.1.0 JSON schema, and read by
#     sarif-tools) and tests/pre_commit.rs (the hook, through `pre-commit try-repo`).
# Idempotent: does nothing for a tool whose pinned version is already installed.
set -euo pipefail

SARIF_MULTITOOL_VERSION="5.7.0"
CHECK_JSONSCHEMA_VERSION="0.39.0"
SARIF_TOOLS_VERSION="3.0.5"
PRE_COMMIT_VERSION="4.7.0"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

install_multitool() {
  local prefix="$root/.tools/node" platform
  case "$(uname -s)" in
    Linux) platform=linux ;;
    Darwin) platform=darwin ;;
    MINGW* | MSYS* | CYGWIN*) platform=win32 ;;
    *) echo "unsupported platform: $(uname -s)" >&2; exit 1 ;;
  esac

  installed_version() {
    local manifest="$prefix/node_modules/$1/package.json"
    [ -f "$manifest" ] && node -p "require(process.argv[1]).version" "$manifest" 2>/dev/null || true
  }

  if [ "$(installed_version @microsoft/sarif-multitool)" = "$SARIF_MULTITOOL_VERSION" ] &&
     [ "$(installed_version "@microsoft/sarif-multitool-$platform")" = "$SARIF_MULTITOOL_VERSION" ]; then
    echo "sarif-multitool $SARIF_MULTITOOL_VERSION already installed in $prefix"
    return
  fi

  command -v npm >/dev/null || { echo "npm is required (install Node.js)" >&2; exit 1; }
  mkdir -p "$prefix"
  # The package ships its native binaries in per-platform optional dependencies declared with a
  # caret range; pin the platform package too so the installed validator never drifts.
  npm install --prefix "$prefix" --no-audit --no-fund --save-exact \
    "@microsoft/sarif-multitool@$SARIF_MULTITOOL_VERSION" \
    "@microsoft/sarif-multitool-$platform@$SARIF_MULTITOOL_VERSION"
  echo "installed sarif-multitool $SARIF_MULTITOOL_VERSION in $prefix"
}

install_python_tools() {
  local venv="$root/.tools/py"
  local wanted="check-jsonschema==$CHECK_JSONSCHEMA_VERSION sarif-tools==$SARIF_TOOLS_VERSION pre-commit==$PRE_COMMIT_VERSION"
  local stamp="$venv/.installed"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ] && [ -x "$venv/bin/pre-commit" ]; then
    echo "python tools already installed in $venv ($wanted)"
    return
  fi
  local python
  python="$(command -v python3 || command -v python)" || { echo "python3 is required" >&2; exit 1; }
  rm -rf "$venv"
  "$python" -m venv "$venv"
  # shellcheck disable=SC2086 # $wanted is a list of requirement specifiers
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $wanted
  echo "$wanted" > "$stamp"
  echo "installed $wanted in $venv"
}

install_multitool
install_python_tools
