#!/usr/bin/env bash
# Load on loopback: POST /validate (a complete fft-4p game) and POST /games against GET /health, on
# the same server in the same run, each for a bounded time. Prints requests per second, the ratios,
# and the server's own CPU time per request (user + system, from /proc), which the load generator
# sharing the machine does not blur.
#
#     bash scripts/load.sh            (DURATION=10s CONNECTIONS=32 THREADS=1 by default)
#     BIN=path/to/tarot-archive bash scripts/load.sh    (another build, to compare two side by side)
set -euo pipefail
# BIN as the caller gave it, before the change of directory.
if [ -n "${BIN:-}" ]; then BIN=$(realpath "$BIN"); fi
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-32}
THREADS=${THREADS:-1}

if ! command -v wrk >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq wrk >/dev/null
fi
if [ -z "${BIN:-}" ]; then
    cargo build -q --release -p tarot-archive
    BIN=./target/release/tarot-archive
fi

WORK=$(mktemp -d)
"$BIN" serve --addr 127.0.0.1:0 --data "$WORK/data" >"$WORK/out" 2>/dev/null &
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

cpu_ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
TICK=$(getconf CLK_TCK)

rate() { # path [lua]: "requests/s server-µs-per-request"
    local args=(-t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency)
    [ -n "${2:-}" ] && args+=(-s "$2")
    local before out after
    before=$(cpu_ticks)
    out=$(wrk "${args[@]}" "$URL$1")
    after=$(cpu_ticks)
    echo "$out" >>"$WORK/wrk.log"
    echo "$out" | awk -v ticks=$((after - before)) -v hz="$TICK" '
        /requests in/ {n = $1} /Requests\/sec/ {rps = $2}
        END {printf "%s %.1f\n", rps, ticks * 1e6 / hz / n}'
}

read -r HEALTH HEALTH_CPU <<<"$(rate /health)"
read -r VALIDATE VALIDATE_CPU <<<"$(rate /validate "$WORK/post.lua")"
read -r GAMES GAMES_CPU <<<"$(rate /games "$WORK/post.lua")"
grep -E "Non-2xx|Socket errors" "$WORK/wrk.log" && { echo "some requests failed" >&2; exit 1; }

echo "GET  /health    $HEALTH req/s                    server CPU $HEALTH_CPU µs/request"
echo "POST /validate  $VALIDATE req/s  ($(awk "BEGIN {printf \"%.2f\", $VALIDATE / $HEALTH}") of /health)  server CPU $VALIDATE_CPU µs/request"
echo "POST /games     $GAMES req/s  ($(awk "BEGIN {printf \"%.2f\", $GAMES / $HEALTH}") of /health)  server CPU $GAMES_CPU µs/request"
