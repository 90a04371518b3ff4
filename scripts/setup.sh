#!/usr/bin/env bash
# What the tests need beyond Rust, installed once (each step is skipped when it is there already):
#   chromium        Debian's chromium, for the docs and pages tests in a headless browser
#   postgresql      Debian's postgresql, whose initdb and pg_ctl the store's contract tests and the
#                   PostgreSQL server tests run on a temporary directory and port
#   schemathesis    schemathesis from PyPI, in a virtual environment under target/
#   python-client   the pinned openapi-python-client from PyPI, in a virtual environment under target/
#
#   bash scripts/setup.sh                  # all four
#   bash scripts/setup.sh schemathesis     # only the steps named
#
# The Debian packages and the Python environments download at the same time.
set -euo pipefail
cd "$(dirname "$0")/.."

# The generator's version, which scripts/python_client.sh checks too.
PYTHON_CLIENT_VERSION="0.29.1"

steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(chromium postgresql schemathesis python-client)
wants() { [[ " ${steps[*]} " == *" $1 "* ]]; }

packages=()
if wants chromium && ! command -v chromium >/dev/null 2>&1; then
    packages+=(chromium)
fi
if wants postgresql && ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    packages+=(postgresql)
fi
apt_pid=""
if [ ${#packages[@]} -gt 0 ]; then
    echo "installing ${packages[*]} (Debian)" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    (
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${packages[@]}" >/dev/null
    ) &
    apt_pid=$!
fi

if wants schemathesis && [ ! -x target/schemathesis-venv/bin/schemathesis ]; then
    echo "installing schemathesis in target/schemathesis-venv" >&2
    mkdir -p target
    python3 -m venv target/schemathesis-venv
    target/schemathesis-venv/bin/pip install --quiet --disable-pip-version-check "schemathesis>=4,<5"
fi

if wants python-client &&
    ! target/python-client-venv/bin/openapi-python-client --version 2>/dev/null | grep -qF "$PYTHON_CLIENT_VERSION"; then
    echo "installing openapi-python-client $PYTHON_CLIENT_VERSION in target/python-client-venv" >&2
    mkdir -p target
    python3 -m venv target/python-client-venv
    target/python-client-venv/bin/pip install --quiet --disable-pip-version-check \
        "openapi-python-client==$PYTHON_CLIENT_VERSION"
fi

[ -z "$apt_pid" ] || wait "$apt_pid"
