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

# The tests drive Debian's Chromium through Playwright (never a downloaded browser), check the
# systemd unit with systemd-analyze, and run the hub against a real Mosquitto broker (over TLS
# too, with certificates made by openssl).
if [ "$extra" = "test" ] && command -v apt-get >/dev/null; then
    apt_install chromium systemd mosquitto openssl
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
if [ -z "$extra" ] && [ -f "$here/.venv/.installed-test" ] \
    && [ ! "$here/pyproject.toml" -nt "$here/.venv/.installed-test" ]; then
    stamp="$here/.venv/.installed-test"  # an up-to-date test install has all the board needs
fi
if [ ! -f "$stamp" ] || [ "$here/pyproject.toml" -nt "$stamp" ]; then
    log="$here/.venv/install.log"
    echo "damath-board: installing Python packages into .venv (first run only; log: .venv/install.log)..." >&2
    target="$here"
    [ -n "$extra" ] && target="$here[$extra]"
    if ! { "$here/.venv/bin/python" -m pip install --upgrade pip \
           && "$here/.venv/bin/python" -m pip install -e "$target"; } >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        echo "damath-board: installing the Python packages failed; the whole log is $log" >&2
        exit 1
    fi
    touch "$stamp"
fi
export PATH="$here/.venv/bin:$PATH"
