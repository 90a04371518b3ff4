#!/usr/bin/env bash
# Conformance of the server to its OpenAPI document: schemathesis (from PyPI, in a virtual environment
# under target/) against the real server, on a loopback port with a fresh data directory, with every
# check and every phase (examples, coverage, fuzzing, and the stateful tests that follow the document's
# links: create a game, read its events, append to it). Bounded: at most MAX_EXAMPLES cases per
# operation (default 30) and MAX_TIME seconds in all (default 180, which is what ends the run: with
# 600, it ran 11,347 cases in 600 s). Zero failures, or it exits non-zero.
#
#   bash scripts/schemathesis.sh                 # builds the debug binary if needed
#   BIN=target/release/tarot-archive bash scripts/schemathesis.sh
set -euo pipefail
cd "$(dirname "$0")/.."

MAX_EXAMPLES="${MAX_EXAMPLES:-30}"
MAX_TIME="${MAX_TIME:-180}"
VENV="target/schemathesis-venv"
BIN="${BIN:-target/debug/tarot-archive}"

bash scripts/setup.sh schemathesis
[ -x "$BIN" ] || cargo build --quiet -p tarot-archive

DATA="$(mktemp -d)"
OUT="$DATA/server.out"
"$BIN" serve --addr 127.0.0.1:0 --data "$DATA/data" >"$OUT" 2>"$DATA/server.log" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null; rm -rf "$DATA"' EXIT
for _ in $(seq 100); do
    grep -q "^listening on " "$OUT" 2>/dev/null && break
    sleep 0.1
done
BASE="$(sed -n 's/^listening on //p' "$OUT")"
[ -n "$BASE" ] || { echo "the server did not start:" >&2; cat "$DATA/server.log" >&2; exit 1; }
echo "schemathesis against $BASE (at most $MAX_EXAMPLES cases per operation, $MAX_TIME s)" >&2

SCHEMATHESIS_HOOKS=scripts/schemathesis_hooks.py timeout "$((MAX_TIME + 60))" "$VENV/bin/schemathesis" --config-file scripts/schemathesis.toml run "$BASE/openapi.json" \
    --checks all --max-examples "$MAX_EXAMPLES" --max-time "$MAX_TIME" --seed "${SEED:-1}" \
    --suppress-health-check too_slow,large_base_example,filter_too_much \
    --report junit --report-dir target/schemathesis-report "$@"
