#!/usr/bin/env bash
# Load on loopback: POST /validate (a complete fft-4p game) and POST /games against GET /health, on
# the same server in the same run, each for a bounded time. Prints requests per second and the ratios.
#
#     bash scripts/load.sh            (DURATION=10s CONNECTIONS=32 THREADS=1 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-32}
THREADS=${THREADS:-1}

if ! command -v wrk >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq wrk >/dev/null
fi
cargo build -q --release -p tarot-archive

WORK=$(mktemp -d)
./target/release/tarot-archive serve --addr 127.0.0.1:0 --data "$WORK/data" >"$WORK/out" 2>/dev/null &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$WORK/out" 2>/dev/null && break; sleep 0.1; done
URL=$(sed -n 's/^listening on //p' "$WORK/out")

GAME=fixtures/worked/fft-deal1.json
cat >"$WORK/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("$GAME", "r")
wrk.body = f:read("*a")
f:close()
LUA

rate() { # path [lua]
    local args=(-t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency)
    [ -n "${2:-}" ] && args+=(-s "$2")
    wrk "${args[@]}" "$URL$1" | tee -a "$WORK/wrk.log" | awk '/Requests\/sec/ {print $2}'
}

HEALTH=$(rate /health)
VALIDATE=$(rate /validate "$WORK/post.lua")
GAMES=$(rate /games "$WORK/post.lua")
grep -E "Non-2xx|Socket errors" "$WORK/wrk.log" && { echo "some requests failed" >&2; exit 1; }

echo "GET  /health    $HEALTH req/s"
echo "POST /validate  $VALIDATE req/s  ($(awk "BEGIN {printf \"%.2f\", $VALIDATE / $HEALTH}") of /health)"
echo "POST /games     $GAMES req/s  ($(awk "BEGIN {printf \"%.2f\", $GAMES / $HEALTH}") of /health)"
