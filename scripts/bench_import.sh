#!/usr/bin/env bash
# Bulk import, durable, of simulated fft-4p games: `tarot-archive import games` of one NDJSON file
# into a fresh sled directory, then into a fresh PostgreSQL database (a cluster made with initdb and
# started with pg_ctl on a temporary directory and port, stopped after). Prints games per second of
# wall time for each (the whole command: reading, refereeing on every core, storing, the last batch
# on disk), then the same import again, which must store nothing new. Beside it, the CPU time the
# import used (user + system, GNU time's), which other work on a shared machine slows down less than
# the wall time.
#
#     bash scripts/bench_import.sh           (GAMES=20000 by default; a release build)
#     BIN=path/to/tarot-archive bash scripts/bench_import.sh
set -euo pipefail
if [ -n "${BIN:-}" ]; then BIN=$(realpath "$BIN"); fi
[ -x /usr/bin/time ] || { echo "needs GNU time (Debian: apt-get install time)" >&2; exit 2; }
cd "$(dirname "$0")/.."
GAMES=${GAMES:-20000}
if [ -z "${BIN:-}" ]; then
    cargo build -q --release -p tarot-archive
    BIN=./target/release/tarot-archive
fi

WORK=$(mktemp -d)
# PostgreSQL runs as its own user, who must reach its directory inside.
chmod 755 "$WORK"
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
AS_PG=()
[ "$(id -u)" -eq 0 ] && AS_PG=(runuser -u postgres --)
cleanup() {
    [ -d "$WORK/pg" ] && "${AS_PG[@]}" "$PGBIN/pg_ctl" stop -m immediate -D "$WORK/pg/data" >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

"$BIN" simulate --ruleset fft-4p --games "$GAMES" --seed 1 --out "$WORK/games" 2>/dev/null
python3 -c '
import json, os, sys
d = sys.argv[1]
with open(sys.argv[2], "w") as out:
    for name in sorted(os.listdir(d)):
        out.write(json.dumps(json.load(open(os.path.join(d, name))), separators=(",", ":")) + "\n")
' "$WORK/games" "$WORK/games.ndjson"
rm -rf "$WORK/games"

import_rate() { # label store-args...: "label: N games in S s: R games/s (CPU C s)"
    local label=$1
    shift
    local start end
    start=$(date +%s.%N)
    /usr/bin/time -f "%U %S" -o "$WORK/cpu" "$BIN" import games "$WORK/games.ndjson" "$@" >"$WORK/out.ndjson" 2>"$WORK/err"
    end=$(date +%s.%N)
    local new
    new=$(grep -c '"new":true' "$WORK/out.ndjson" || true)
    awk -v n="$GAMES" -v s="$start" -v e="$end" -v l="$label" -v new="$new" -v c="$(awk '{print $1 + $2}' "$WORK/cpu")" \
        'BEGIN {printf "%-22s %d games (%d new) in %.2f s: %.0f games/s (CPU %.2f s, %.0f µs a game)\n", l, n, new, e - s, n / (e - s), c, c * 1e6 / n}'
}

import_rate "sled" --data "$WORK/sled"
import_rate "sled, again" --data "$WORK/sled"

mkdir -p "$WORK/pg"
[ "$(id -u)" -eq 0 ] && chown postgres:postgres "$WORK/pg"
"${AS_PG[@]}" "$PGBIN/initdb" -A trust -U postgres -E UTF8 -D "$WORK/pg/data" >/dev/null
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${AS_PG[@]}" "$PGBIN/pg_ctl" start -w -l "$WORK/pg/log" -D "$WORK/pg/data" -o "-p $PORT -k $WORK/pg -c listen_addresses=127.0.0.1" >/dev/null
URL="postgres://postgres@127.0.0.1:$PORT/postgres"
import_rate "PostgreSQL" --store "$URL"
import_rate "PostgreSQL, again" --store "$URL"
