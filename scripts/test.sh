#!/usr/bin/env bash
# The test suite, on a fresh machine: installs what the tests need beyond Rust (scripts/setup.sh:
# Debian's chromium for the docs and pages tests; Debian's postgresql, whose initdb and pg_ctl the
# store's contract tests and the PostgreSQL server tests run on a temporary directory and port; the
# Python environments of schemathesis and of the generated client), runs every test of the
# workspace, then the fixtures' drift check beside schemathesis against the server and a Python
# client generated from its document.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

# Every test, those that need chromium or PostgreSQL or kill a server included: a plain `cargo test`
# leaves those out (they are marked `#[ignore = "needs ..."]`), so that it is quick where they cannot run.
cargo test --workspace -- --include-ignored

# The fixtures are what their generator makes: a run of make_fixtures would change or add no file
# (engine/examples/make_fixtures.rs; its PINNED list says which stored files it leaves as they are).
# It runs on one core beside the two HTTP checks below. (The tests above run alone: run beside the
# HTTP checks, the server's tests took 236 s instead of 134 s, and nothing was gained overall.)
# (`--workspace`: with the workspace's features, as `cargo test` built it, so nothing is built again;
# `-p tarot-engine` would build the engine a second time, without the API's `openapi` feature.)
cargo build -q --workspace --example make_fixtures
target/debug/examples/make_fixtures check &
DRIFT=$!

# The server against its OpenAPI document (schemathesis, in a virtual environment under target/).
bash scripts/schemathesis.sh

# A Python client generated from the served document (openapi-python-client, in a virtual environment
# under target/), running a client's workflow against the server.
bash scripts/python_client.sh

wait "$DRIFT"
