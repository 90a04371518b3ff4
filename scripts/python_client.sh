#!/usr/bin/env bash
# The OpenAPI document as a client generator reads it: openapi-python-client (from PyPI, pinned, in a
# virtual environment under target/) generates a Python client from the document the real server
# serves, with openapi/python-client.yaml, into target/python-client (never committed); any error or
# warning of the generator fails. Then scripts/python_client_workflow.py runs a client's workflow
# through the generated client against that server (a loopback port, a fresh data directory, no
# write token): validate, store, append each move `next` offers, read back, list, compare, a
# ruleset's options, statistics, a session, a bulk import.
#
#   bash scripts/python_client.sh                 # builds the debug binary if needed
#   BIN=target/release/tarot-archive bash scripts/python_client.sh
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="target/python-client-venv"
BIN="${BIN:-target/debug/tarot-archive}"
OUT_DIR="target/python-client"

# scripts/setup.sh installs the pinned generator once, in the venv it keeps.
bash scripts/setup.sh python-client
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

# The server builds its document before it answers (seconds, on a debug build): the generator, which
# waits 5 s for it, is started once the server answers.
"$VENV/bin/python" -c 'import sys, httpx; httpx.get(sys.argv[1], timeout=180).raise_for_status()' "$BASE/health"

# The generator's hooks (ruff) are in the venv. It says "Warning" or "Error" where it left something
# out, and may exit 0 all the same.
echo "generating the Python client from $BASE/openapi.json" >&2
rm -rf "$OUT_DIR"
if ! PATH="$PWD/$VENV/bin:$PATH" "$VENV/bin/openapi-python-client" generate --url "$BASE/openapi.json" \
    --config openapi/python-client.yaml --output-path "$OUT_DIR" >"$DATA/generate.log" 2>&1 ||
    grep -qiE "warning|error|skipping" "$DATA/generate.log"; then
    cat "$DATA/generate.log" >&2
    echo "openapi-python-client did not generate the client cleanly" >&2
    exit 1
fi

PYTHONPATH="$OUT_DIR" "$VENV/bin/python" scripts/python_client_workflow.py "$BASE"
