#!/usr/bin/env bash
# Installs the external tools the test suite uses into .tools/ of the repository:
#   - Microsoft SARIF Multitool (npm), used by tests/sarif_multitool.rs to validate our SARIF
#     with the "Sarif" and "Ghas" (GitHub Advanced Security ingestion) rule kinds.
# Idempotent: does nothing when the pinned version is already installed.
set -euo pipefail

SARIF_MULTITOOL_VERSION="5.7.0"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="$root/.tools/node"

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
  exit 0
fi

command -v npm >/dev/null || { echo "npm is required (install Node.js)" >&2; exit 1; }
mkdir -p "$prefix"
# The package ships its native binaries in per-platform optional dependencies declared with a
# caret range; pin the platform package too so the installed validator never drifts.
npm install --prefix "$prefix" --no-audit --no-fund --save-exact \
  "@microsoft/sarif-multitool@$SARIF_MULTITOOL_VERSION" \
  "@microsoft/sarif-multitool-$platform@$SARIF_MULTITOOL_VERSION"
echo "installed sarif-multitool $SARIF_MULTITOOL_VERSION in $prefix"
