#!/usr/bin/env bash
# Shared set-up for ./run.sh and ./test.sh: a virtual environment in .venv with the project installed.
# Usage: source scripts/bootstrap.sh [extra]   (extra: "test" also installs what the tests need)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
extra="${1:-}"
py="${PYTHON:-python3}"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else "$@"; fi; }

apt_install() {
    # Debian / Raspberry Pi OS packages, installed only when missing.
    local missing=()
    for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
    [ "${#missing[@]}" -eq 0 ] && return 0
    echo "damath-board: installing Debian packages: ${missing[*]}" >&2
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The tests drive Debian's Chromium through Playwright (never a downloaded browser) and check the
# systemd unit with systemd-analyze.
if [ "$extra" = "test" ] && command -v apt-get >/dev/null; then
    apt_install chromium systemd
fi

if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "damath-board needs Python 3.11 or newer (found: $("$py" --version 2>&1))." >&2
    exit 2
fi
if [ ! -x "$here/.venv/bin/python" ]; then
    if ! "$py" -m venv "$here/.venv" >/dev/null 2>&1; then
        command -v apt-get >/dev/null && apt_install python3-venv
        rm -rf "$here/.venv"
        "$py" -m venv "$here/.venv"
    fi
fi
stamp="$here/.venv/.installed-${extra:-base}"
if [ -z "$extra" ] && [ -f "$here/.venv/.installed-test" ]; then
    stamp="$here/.venv/.installed-test"  # the test install has everything the board needs
fi
if [ ! -f "$stamp" ] || [ "$here/pyproject.toml" -nt "$stamp" ]; then
    echo "damath-board: installing Python packages into .venv (first run only)..." >&2
    "$here/.venv/bin/python" -m pip install -q --upgrade pip >/dev/null
    if [ -n "$extra" ]; then
        "$here/.venv/bin/python" -m pip install -q -e "$here[$extra]"
    else
        "$here/.venv/bin/python" -m pip install -q -e "$here"
    fi
    touch "$stamp"
fi
export PATH="$here/.venv/bin:$PATH"
