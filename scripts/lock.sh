#!/usr/bin/env bash
# The lock: exact versions, with their hashes, of everything the project installs.
#
#   scripts/lock.sh             re-lock after pyproject.toml changed: the versions already locked
#                               are kept where they still fit, new ones added; then ./test.sh
#   scripts/lock.sh --upgrade   move every package to its newest release within pyproject.toml's
#                               ranges (on purpose, never by accident); then ./test.sh
#   scripts/lock.sh --no-test   either of the above without running the suite afterwards
#
# pyproject.toml keeps the loose ranges, for whoever installs the package into an environment of
# their own; ./run.sh, ./test.sh and systemd/install.sh install exactly these files, with pip's
# --require-hashes (scripts/bootstrap.sh, systemd/install.sh), so a new release of anything
# changes nothing on a classroom Pi or in CI until it is locked here and the suite has passed:
#
#   requirements/build.txt   pip, setuptools and wheel: what installs and builds the rest
#   requirements/board.txt   the board (./run.sh): the project's own dependencies
#   requirements/hub.txt     the organiser's laptop (./run.sh hub ...): the hub extra too
#   requirements/test.txt    the tests (./test.sh): the test and hub extras too
#   requirements/pi.txt      the service on a Raspberry Pi (systemd/install.sh): the pi extra
#
# Each file is universal (uv's --universal): one file for x86-64 and the Pi's aarch64, Python
# 3.11 and newer, with markers where a platform needs another package or version, and the hash of
# every file PyPI has for each version. uv (pinned in the test extra) writes the files; pip reads
# them, so a Pi needs no uv.
set -euo pipefail
cd "$(dirname "$0")/.."

upgrade=()
run_tests=1
for arg in "$@"; do
    case "$arg" in
        --upgrade) upgrade=(--upgrade) ;;
        --no-test) run_tests=0 ;;
        *) echo "usage: scripts/lock.sh [--upgrade] [--no-test]" >&2; exit 2 ;;
    esac
done

source scripts/bootstrap.sh
damath_bootstrap test
uv=(uv pip compile --quiet --universal --generate-hashes --python-version 3.11
    --no-header --index-url https://pypi.org/simple "${upgrade[@]}")

lock() {  # lock OUT INPUT... : one lock file from the inputs
    local out="$1"
    shift
    "${uv[@]}" "$@" -o "$out.new"
    {
        echo "# Locked by scripts/lock.sh (do not edit by hand): $*"
        cat "$out.new"
    } > "$out"
    rm -f "$out.new"
    echo "$out: $(grep -c '==' "$out") packages"
}

# -o reads the old file first: uv keeps its versions unless --upgrade
for f in build board hub test pi; do [ -f "requirements/$f.txt" ] && cp "requirements/$f.txt" "requirements/$f.txt.new"; done
lock requirements/build.txt requirements/build.in
lock requirements/board.txt pyproject.toml requirements/build.in
lock requirements/hub.txt pyproject.toml requirements/build.in --extra hub
lock requirements/test.txt pyproject.toml requirements/build.in --extra test --extra hub
lock requirements/pi.txt pyproject.toml requirements/build.in --extra pi

if [ "$run_tests" = 1 ]; then
    echo "== the suite on the new lock"
    exec ./test.sh
fi
