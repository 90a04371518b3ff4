#!/usr/bin/env bash
# `tarot-archive validate` over many files (FILES=100000 simulated fft-4p games by default) on one
# core and on every core (RAYON_NUM_THREADS), verdicts to /dev/null. Prints the wall time of each
# and the speed-up.
#
#     bash scripts/bench_validate.sh
#     BIN=path/to/tarot-archive FILES=20000 bash scripts/bench_validate.sh
set -euo pipefail
if [ -n "${BIN:-}" ]; then BIN=$(realpath "$BIN"); fi
cd "$(dirname "$0")/.."
FILES=${FILES:-100000}
if [ -z "${BIN:-}" ]; then
    cargo build -q --release -p tarot-archive
    BIN=./target/release/tarot-archive
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$BIN" simulate --ruleset fft-4p --games "$FILES" --seed 2 --out "$WORK/games" 2>/dev/null
# Read once so that both runs find the files in the page cache.
find "$WORK/games" -type f -exec cat {} + >/dev/null

run() { # threads: seconds
    local start end
    start=$(date +%s.%N)
    RAYON_NUM_THREADS=$1 "$BIN" validate "$WORK/games" >/dev/null
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" 'BEGIN {printf "%.2f", e - s}'
}
# In turns, RUNS times each, keeping the fastest of each: on a machine shared with other work, the
# fastest run is the one least slowed down by it.
RUNS=${RUNS:-3}
ONE=999999
ALL=999999
for _ in $(seq "$RUNS"); do
    ONE=$(awk -v a="$ONE" -v b="$(run 1)" 'BEGIN {print (b < a ? b : a)}')
    ALL=$(awk -v a="$ALL" -v b="$(run "$(nproc)")" 'BEGIN {print (b < a ? b : a)}')
done
echo "validate $FILES files (fastest of $RUNS): 1 core $ONE s, $(nproc) cores $ALL s: $(awk -v a="$ONE" -v b="$ALL" 'BEGIN {printf "%.2f", a / b}') times as fast"
