#!/usr/bin/env bash
# Runs every fuzz target for a set time (default 60 s each), seeded from corpus/ and the regression
# inputs in tests/data/fuzz/. Uses cargo-fuzz (libFuzzer + AddressSanitizer). cargo-fuzz needs a
# nightly compiler; with only a stable toolchain, RUSTC_BOOTSTRAP=1 unlocks the nightly flags it passes.
#
#   bash scripts/fuzz.sh [seconds-per-target] [target...]
#
# FUZZ_KEEP_GOING=1 keeps fuzzing after a crash (libFuzzer fork mode), to collect several at once.
# Crashes, timeouts and OOMs land in fuzz/artifacts/<target>/; turn each into a regression test
# (tests/data/fuzz/<target>-<name> + tests/fuzz_regressions.rs picks it up automatically).
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(fuzz_javascript fuzz_typescript fuzz_python fuzz_rust fuzz_doc_macro)
fi
command -v cargo-fuzz >/dev/null || { echo "cargo-fuzz missing: cargo install cargo-fuzz" >&2; exit 2; }
export RUSTC_BOOTSTRAP=1

seed() { # seed <target> <find -name patterns...>
  local dir="fuzz/corpus/$1"; shift
  mkdir -p "$dir"
  find corpus -type f \( "$@" \) -size -64k -exec cp -n {} "$dir/" \; 2>/dev/null || true
}

for t in "${targets[@]}"; do
  case "$t" in
    fuzz_javascript) seed "$t" -name '*.js' -o -name '*.mjs' -o -name '*.cjs' -o -name '*.jsx' ;;
    fuzz_typescript) seed "$t" -name '*.ts' -o -name '*.tsx' ;;
    fuzz_python) seed "$t" -name '*.py' ;;
    fuzz_rust) seed "$t" -name '*.rs' ;;
    fuzz_doc_macro)
      mkdir -p "fuzz/corpus/$t"
      printf '%s' '"_id": id' > "fuzz/corpus/$t/id"
      printf '%s' '"$push": { "items": { "$each": [1, 2], "$slice": -10 } }' > "fuzz/corpus/$t/push"
      printf '%s' '"$match": { "a": { "$in": ["x", 2.5, -1, true, null] } }, "b": [ { "c": format!("{}", x) } ]' > "fuzz/corpus/$t/match"
      printf '%s' '"$inc": { "n": 1i64 }, "$set": { "d": DateTime::now(), "e": r#"raw"# }' > "fuzz/corpus/$t/inc"
      ;;
    *) echo "unknown target $t" >&2; exit 2 ;;
  esac
  # regression inputs for this target (and the plain-language files for the language targets)
  for f in tests/data/fuzz/"$t"-*; do
    [ -e "$f" ] && cp -n "$f" "fuzz/corpus/$t/" || true
  done
  extra=()
  if [ "${FUZZ_KEEP_GOING:-0}" = 1 ]; then
    extra=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  fi
  echo "== $t: ${secs}s"
  # -timeout: one input may take at most 30 s (a hang is a bug); -rss_limit_mb: 2 GB (an OOM is a bug).
  (cd fuzz && cargo fuzz run -O "$t" "corpus/$t" -- \
      -max_total_time="$secs" -timeout=30 -rss_limit_mb=2048 -max_len="${FUZZ_MAX_LEN:-16384}" -print_final_stats=1 "${extra[@]}")
done
