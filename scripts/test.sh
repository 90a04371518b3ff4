#!/usr/bin/env bash
# The test suite, on a fresh machine: installs what the tests need beyond Rust (scripts/setup.sh:
# Debian's chromium for the docs and pages tests; Debian's postgresql, whose initdb and pg_ctl the
# store's contract tests and the PostgreSQL server tests run on a temporary directory and port; the
# Python environments of schemathesis and of the generated client), builds every test and the
# server, then runs every test of the workspace while, beside it, the fixtures' drift check,
# schemathesis against the server and a Python client generated from its document run too.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

# Everything the tests run, built first: the test binaries, the server (tests and the HTTP checks
# below start it) and the examples (make_fixtures among them).
cargo test -q --workspace --no-run

# Beside the tests, which keep both cores busy in bursts while much of the server tests and of the
# HTTP checks is waiting on a server or a browser:
# - the fixtures are what their generator makes: a run of make_fixtures would change or add no file
#   (engine/examples/make_fixtures.rs; its PINNED list says which stored files it leaves as they are);
# - the server against its OpenAPI document (schemathesis), then a Python client generated from the
#   served document running a client's workflow against the server.
# Their output is kept in target/ and printed when they end.
mkdir -p target
target/debug/examples/make_fixtures check >target/drift.log 2>&1 &
DRIFT=$!
(bash scripts/schemathesis.sh && bash scripts/python_client.sh) >target/http-checks.log 2>&1 &
HTTP=$!
trap 'kill "$DRIFT" "$HTTP" 2>/dev/null || true' EXIT

# Every test, those that need chromium or PostgreSQL or kill a server included: a plain `cargo test`
# leaves those out (they are marked `#[ignore = "needs ..."]`), so that it is quick where they cannot run.
cargo test --workspace -- --include-ignored

status=0
wait "$DRIFT" || status=1
cat target/drift.log
wait "$HTTP" || status=1
cat target/http-checks.log
trap - EXIT
[ "$status" -eq 0 ] || { echo "the drift check or the HTTP checks failed (above)" >&2; exit 1; }
