#!/usr/bin/env bash
# The repository holds no absolute path of a development machine: no tracked file names a directory
# such as /work/..., /root/..., /home/<user>/..., /Users/... or a temporary rules directory /tmp/rs-...
# Lists every hit (file:line:text) and exits 1 if there is one; exits 0 otherwise.
# Cargo.lock and this script are not searched.
set -uo pipefail
cd "$(dirname "$0")/.."

pattern='(^|[^A-Za-z0-9._~-])(/work/|/root/|/home/[a-z]|/Users/|/tmp/rs-|/tmp/rt/)'

hits=$(git grep -n -I -E -e "$pattern" -- . ':(exclude)Cargo.lock' ':(exclude)scripts/check_paths.sh')
status=$?
if [ "$status" -gt 1 ]; then
    echo "check_paths: git grep failed" >&2
    exit 2
fi
if [ -n "$hits" ]; then
    echo "absolute paths of a development machine in tracked files:" >&2
    printf '%s\n' "$hits" >&2
    exit 1
fi
exit 0
