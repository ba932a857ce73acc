#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs the pinned external validators, then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-test-tools.sh
cargo test --all-targets
