#!/usr/bin/env bash
# The mongolint benchmark: mongolint, the floor, ast-grep and semgrep side by side on the same files.
#
#   bash bench/run.sh [--runs N] [--semgrep-runs N] [--semgrep-runs-synthetic N] [--files N]
#                     [--no-semgrep] [--no-hyperfine] [--instructions] [PATH...]
#
# 1. installs the pinned peers (bench/install-peers.sh) and builds mongolint and the floor (release);
# 2. generates the synthetic repository (bench/gen_repo.py: 30k files, ~3M lines) and a 1M-line one;
# 3. stages each PATH: copies exactly the files mongolint scans (its walker: .gitignore, no
#    node_modules/build/vendor, no tests, no minified bundles) into a work folder, so that every tool
#    sees the same files whatever its own ignore rules;
# 4. lists the driver files (files where mongolint finds an operation or a collection reference) for
#    the floor;
# 5. runs every tool in interleaved rounds (bench/measure.py) and, for wall time, hyperfine;
#    the floor also runs in two further stages, floor-walk (reading every node of each tree) and
#    floor-extract (mongolint's frontends on each driver file), which split mongolint's time beyond
#    the floor into what its frontends cost and what the rest costs;
#    with --instructions, also counts the instructions of mongolint and of the floor (and of its
#    two stages), 1 thread each, under valgrind's callgrind: ratios that the machine's load cannot move;
# 6. writes the table of medians and ratios to $WORK/results.md (bench/report.py) and prints it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
RUNS=5
SEMGREP_RUNS=3
SEMGREP_RUNS_SYNTHETIC=2 # 4-15 minutes a run on the 30k-file repository; two, so that a run that stops early shows (report.py)
HYPERFINE_RUNS=3
FILES=30000
SEMGREP=1
HYPERFINE=1
INSTRUCTIONS=0
SYN=${MONGOLINT_BENCH_DIR:-/tmp/mongolint-bench}
SYN1M=${SYN}-1m
WORK=${MONGOLINT_BENCH_WORK:-/tmp/mongolint-bench-work}
paths=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --semgrep-runs) SEMGREP_RUNS=$2; shift 2 ;;
    --semgrep-runs-synthetic) SEMGREP_RUNS_SYNTHETIC=$2; shift 2 ;;
    --files) FILES=$2; shift 2 ;;
    --no-semgrep) SEMGREP=0; shift ;;
    --no-hyperfine) HYPERFINE=0; shift ;;
    --instructions) INSTRUCTIONS=1; shift ;;
    -h|--help) sed -n 2,19p "$0"; exit 0 ;;
    *) paths+=("$(cd "$1" && pwd)"); shift ;;
  esac
done

if [ "$INSTRUCTIONS" = 1 ] && ! command -v valgrind >/dev/null; then
  echo "run.sh: --instructions needs valgrind (Debian package valgrind)" >&2
  exit 2
fi
[ -x "$here/.venv/bin/semgrep" ] && [ -x "$here/.venv/bin/ast-grep" ] && command -v hyperfine >/dev/null \
  || bash "$here/install-peers.sh"
export PATH="$here/.venv/bin:$PATH"
(cd "$repo" && cargo build --release --quiet --bin mongolint --example floor)
ML="$repo/target/release/mongolint"
FLOOR="$repo/target/release/examples/floor"
SGCONF="$here/peers/ast-grep/sgconfig.yml"
SEMCONF="$here/peers/semgrep"
mkdir -p "$WORK"

# The instructions a command retires (`--instructions`), 1 thread: callgrind's total is the same
# run after run, whatever else the machine is doing. (mongolint exits 1 when it finds something;
# valgrind passes that on.)
irs() {
  { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null || true; } |
    sed -n 's/.*I *refs: *//p' | tr -d ,
}

generate() { # dest files seed
  local stamp="$1/.bench-stamp" want
  want="$(sha1sum "$here/gen_repo.py" | cut -c1-12) files=$2 seed=$3"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return; fi
  python3 "$here/gen_repo.py" --dest "$1" --files "$2" --seed "$3" >&2
  echo "$want" > "$stamp"
}
generate "$SYN" "$FILES" 6
generate "$SYN1M" 10000 7

targets=("synthetic=$SYN" "synthetic-1M=$SYN1M")
for p in "${paths[@]}"; do
  name=$(basename "$p")
  dest="$WORK/stage/$name"
  rm -rf "$dest"; mkdir -p "$dest"
  "$FLOOR" list-files "$p" | sed "s|^$p/||" > "$WORK/$name.files"
  (cd "$p" && tar cf - -T "$WORK/$name.files") | (cd "$dest" && tar xf -)
  targets+=("$name=$dest")
done

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$WORK/load.txt"
results=()
for t in "${targets[@]}"; do
  name=${t%%=*}; dir=${t#*=}
  echo "== $name ($dir)" >&2
  "$FLOOR" list-drivers "$dir" > "$WORK/$name.drivers"
  files=$("$FLOOR" list-files "$dir" | tee "$WORK/$name.all" | wc -l)
  lines=$(tr '\n' '\0' < "$WORK/$name.all" | xargs -0 cat | wc -l)
  drivers=$(wc -l < "$WORK/$name.drivers")
  rm -f "$WORK/$name".{mongolint,ast-grep,semgrep}.json "$WORK/$name.ast-grep.log"
  # The measured commands keep their reports, to count what each tool scanned and found.
  cmds=(
    "mongolint=$ML check $dir --format json -o $WORK/$name.mongolint.json"
    "mongolint-1t=$ML check --threads 1 $dir --format json -o /dev/null"
    "floor=$FLOOR run --drivers $WORK/$name.drivers $dir"
    "floor-1t=$FLOOR run --threads 1 --drivers $WORK/$name.drivers $dir"
    "floor-walk=$FLOOR run --walk --drivers $WORK/$name.drivers $dir"
    "floor-extract=$FLOOR run --extract --drivers $WORK/$name.drivers $dir"
  )
  if [ "$name" != "synthetic-1M" ]; then
    cmds+=("ast-grep=ast-grep scan -c $SGCONF --inspect summary --json=compact $dir > $WORK/$name.ast-grep.json 2> $WORK/$name.ast-grep.log")
    if [ "$SEMGREP" = 1 ]; then
      cmds+=("semgrep=semgrep scan --metrics=off --disable-version-check --config $SEMCONF -j 2 --max-target-bytes 4194304 --json -o $WORK/$name.semgrep.json $dir")
    fi
  fi
  sruns=$SEMGREP_RUNS
  [ "$name" = synthetic ] && sruns=$SEMGREP_RUNS_SYNTHETIC
  python3 "$here/measure.py" --runs "$RUNS" --runs-for "semgrep=$sruns" --out "$WORK/$name.json" \
    --findings "mongolint=$WORK/$name.mongolint.json" --findings "ast-grep=$WORK/$name.ast-grep.json" \
    --findings "semgrep=$WORK/$name.semgrep.json" "${cmds[@]}"
  python3 "$here/count.py" "$WORK" "$name" "$files" "$lines" "$drivers" > "$WORK/$name.meta.json"
  if [ "$HYPERFINE" = 1 ]; then
    hf=(hyperfine --style basic --warmup 1 --runs "$HYPERFINE_RUNS" -i --export-json "$WORK/$name.hyperfine.json"
        -n mongolint "$ML check $dir --format json -o /dev/null"
        -n floor "$FLOOR run --drivers $WORK/$name.drivers $dir")
    [ "$name" != "synthetic-1M" ] && hf+=(-n ast-grep "ast-grep scan -c $SGCONF --json=compact $dir")
    "${hf[@]}" > "$WORK/$name.hyperfine.txt" 2>&1 || true
  fi
  if [ "$INSTRUCTIONS" = 1 ]; then
    # mongolint against the floor on the same files.
    ml_ir=$(irs "$ML" check --threads 1 "$dir" --format json -o /dev/null)
    floor_ir=$(irs "$FLOOR" run --threads 1 --drivers "$WORK/$name.drivers" "$dir")
    walk_ir=$(irs "$FLOOR" run --walk --threads 1 --drivers "$WORK/$name.drivers" "$dir")
    extract_ir=$(irs "$FLOOR" run --extract --threads 1 --drivers "$WORK/$name.drivers" "$dir")
    echo "{\"mongolint\": $ml_ir, \"floor\": $floor_ir, \"floor-walk\": $walk_ir, \"floor-extract\": $extract_ir}" \
      > "$WORK/$name.instructions.json"
  else
    rm -f "$WORK/$name.instructions.json"
  fi
  results+=("$name")
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$WORK/load.txt"
python3 "$here/report.py" "$WORK" "${results[@]}" | tee "$WORK/results.md"
