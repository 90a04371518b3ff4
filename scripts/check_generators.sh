#!/usr/bin/env bash
# The hand-steered fixture generators (engine/examples/*_fixtures.rs and worked_examples.rs, the
# commands of the example program `generators`, each in each of its modes) reproduce the fixtures
# stored: each writes into a copy of fixtures/ (TAROT_FIXTURES), and any file it would change or
# add is drift (exit status 1). make_fixtures checks its own files the same way (`make_fixtures check`).
#
#   bash scripts/check_generators.sh      # builds the examples if needed
set -euo pipefail
cd "$(dirname "$0")/.."

# Each generator and the arguments of each of its runs ("" is a run without one).
GENERATORS=(
    "cego_fixtures:"
    "cego3_fixtures:"
    "cego_local_fixtures:"
    "cego_twos_fixtures:"
    "cego_braeunlingen_fixtures:"
    "cego_pflicht_rauber_fixtures:"
    "dobbm_fixtures:"
    "dreierles_fixtures:"
    "droggn_fixtures:"
    "galician_fixtures: trischaken threes priority"
    "grosstarock_fixtures: 1754 1754-2"
    "koenigrufen_fixtures:"
    "minchiate_fixtures:"
    "point_tarock_fixtures:"
    "tapper_fixtures:"
    "tarocchini_fixtures:"
    "troggu_fixtures:"
    "worked_examples:"
)
# Every generator among the examples is listed above (and is a command of `generators`). grep reads
# the whole list (no -q): quitting at the first match, it could break the pipe of a long list, which
# pipefail counts as a failure.
for src in engine/examples/*_fixtures.rs engine/examples/worked_examples.rs; do
    name="$(basename "$src" .rs)"
    [ "$name" = make_fixtures ] && continue
    printf '%s\n' "${GENERATORS[@]}" | grep "^$name:" >/dev/null || { echo "$src is not listed in $0" >&2; exit 1; }
done

cargo build -q --workspace --examples
COPY="$(mktemp -d)"
trap 'rm -rf "$COPY"' EXIT
cp -r fixtures/. "$COPY"
for entry in "${GENERATORS[@]}"; do
    name="${entry%%:*}"
    read -r -a modes <<<"${entry#*:}"
    for mode in "" "${modes[@]}"; do
        TAROT_FIXTURES="$COPY" target/debug/examples/generators "$name" $mode >"$COPY.log" 2>&1 ||
            { cat "$COPY.log" >&2; echo "$name $mode failed" >&2; exit 1; }
    done
done
rm -f "$COPY.log"
if diff -rq fixtures "$COPY" >"$COPY.diff"; then
    echo "no drift: the generators reproduce every fixture they write"
else
    sed "s|$COPY|the generators' run|" "$COPY.diff"
    rm -f "$COPY.diff"
    echo "drift: a generator no longer writes these files as stored; run it (cargo run -p tarot-engine --example generators -- NAME [MODE]), review the change and commit it" >&2
    exit 1
fi
rm -f "$COPY.diff"
