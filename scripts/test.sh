#!/usr/bin/env bash
# The test suite, on a fresh machine: installs what the tests need beyond Rust (Debian's chromium,
# for the docs and pages tests; Debian's postgresql, whose initdb and pg_ctl the store's contract tests
# and the PostgreSQL server tests run on a temporary directory and port), then runs every test of the
# workspace, then the fixtures' drift check beside schemathesis against the server and a Python client
# generated from its document.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
    echo "installing chromium (the docs page is tested in a headless browser)" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    echo "installing postgresql (the store is tested on a real PostgreSQL)" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
fi

# Every test, those that need chromium or PostgreSQL or kill a server included: a plain `cargo test`
# leaves those out (they are marked `#[ignore = "needs ..."]`), so that it is quick where they cannot run.
cargo test --workspace -- --include-ignored

# The fixtures are what their generator makes: a run of make_fixtures would change or add no file
# (engine/examples/make_fixtures.rs; its PINNED list says which stored files it leaves as they are).
# It runs on one core beside the two HTTP checks below, which mostly wait on the server.
cargo build -q -p tarot-engine --example make_fixtures
target/debug/examples/make_fixtures check &
DRIFT=$!

# The server against its OpenAPI document (schemathesis, in a virtual environment under target/).
bash scripts/schemathesis.sh

# A Python client generated from the served document (openapi-python-client, in a virtual environment
# under target/), running a client's workflow against the server.
bash scripts/python_client.sh

wait "$DRIFT"
