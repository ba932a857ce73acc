#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs the pinned external validators, then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-test-tools.sh
cargo test --all-targets
# The cross-file suite again as the binary is built (release, fat LTO): rustc 1.95 miscompiled a
# closure there that a debug build ran correctly (rust-lang/rust#155241, see
# `module_member_name` in src/lang/javascript.rs).
cargo test --release --test collections
