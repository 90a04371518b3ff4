#!/usr/bin/env bash
# The test suite, on a fresh machine: installs what the tests need beyond Rust (scripts/setup.sh:
# Debian's chromium for the docs and pages tests; Debian's postgresql, whose initdb and pg_ctl the
# store's contract tests and the PostgreSQL server tests run on a temporary directory and port; the
# Python environments of schemathesis and of the generated client), runs every test of the
# workspace, the fixtures' drift check, schemathesis against the server and a Python client
# generated from its document.
#
# What `cargo test --workspace -- --include-ignored` runs, run by this script binary by binary so
# that the cores are used: the server's tests (which spawn servers, browsers and PostgreSQL, and
# wait on them) and schemathesis (time-bounded, about one core) leave a core idle for long
# stretches, and the engine's tests and the drift check (pure computation, no clock) fill it, at the
# lowest priority (`nice`) so that they take only what the others leave.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

# Every test at full strength: the scorer comparisons, the fuzzing and the statistics' cross-check try
# all their deals (a plain `cargo test` tries a quarter of them; engine/tests/it/common/mod.rs, `count`).
export TAROT_TESTS=full

# Every test binary of the workspace, built as `cargo test --workspace` builds them (nothing is built
# again after `.ci/run`'s build), listed as "package-folder binary" lines. The engine's is set apart.
cargo test -q --workspace --no-run --message-format=json | python3 -c '
import json, os, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(os.path.dirname(m["manifest_path"]), m["executable"])
' >target/test-binaries.txt
[ -s target/test-binaries.txt ] || { echo "no test binary was built" >&2; exit 1; }

# Each binary runs in its package's folder, as cargo runs it, with every test included (those that
# need chromium or PostgreSQL or kill a server: a plain `cargo test` leaves those out, marked
# `#[ignore = "needs ..."]`, so that it is quick where they cannot run).
run_tests() { (cd "$1" && "$2" --include-ignored); }

# In the background, at the lowest priority: the engine's tests, and the fixtures' drift check (a run
# of make_fixtures would change or add no file: engine/examples/make_fixtures.rs; its PINNED list
# says which stored files it leaves as they are; nor would a run of the hand-steered generators,
# scripts/check_generators.sh). Their output is shown once they are done.
# (`--workspace`: with the workspace's features, as `cargo test` built it, so nothing is built again.)
cargo build -q --workspace --examples
mkdir -p target/test-logs
read -r ENGINE_DIR ENGINE_BIN < <(grep '/engine ' target/test-binaries.txt)
nice -n 19 bash -c "cd '$ENGINE_DIR' && exec '$ENGINE_BIN' --include-ignored" >target/test-logs/engine.log 2>&1 &
ENGINE=$!
nice -n 19 bash -c "target/debug/examples/make_fixtures check && bash scripts/check_generators.sh" >target/test-logs/drift.log 2>&1 &
DRIFT=$!
# And the engine alone, as a crate that embeds it builds it: without the API's `openapi` feature, so
# without utoipa (type-checked only, in its own target folder, so as not to wait on the one above).
nice -n 19 cargo check -q -p tarot-engine --lib --target-dir target/engine-alone >target/test-logs/alone.log 2>&1 &
ALONE=$!
# If a step below fails, the script stops there, and so do they.
trap 'kill "$ENGINE" "$DRIFT" "$ALONE" 2>/dev/null || true' EXIT

# In the foreground: the other crates' tests, and the doc tests.
grep -v '/engine ' target/test-binaries.txt | while read -r dir bin; do
    echo "== $bin"
    run_tests "$dir" "$bin"
done
cargo test -q --workspace --doc

# The server against its OpenAPI document (schemathesis, in a virtual environment under target/).
bash scripts/schemathesis.sh

# A Python client generated from the served document (openapi-python-client, in a virtual environment
# under target/), running a client's workflow against the server.
bash scripts/python_client.sh

# The background's results, each shown in full, the first failure failing the script.
status=0
for job in "$ENGINE engine" "$DRIFT drift" "$ALONE alone"; do
    read -r pid name <<<"$job"
    wait "$pid" && echo "== $name: passed" || { status=$?; echo "== $name: failed (exit status $status)"; }
    cat "target/test-logs/$name.log"
done
exit "$status"
