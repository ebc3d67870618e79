#!/usr/bin/env bash
# Shared set-up for ./run.sh and ./test.sh: a virtual environment in .venv with the project installed.
# Usage: source scripts/bootstrap.sh, then `damath_bootstrap` (the board), `damath_bootstrap hub`
# (the organiser's laptop: ./run.sh hub ...) or `damath_bootstrap test`
# (also what the tests need). Sourcing defines the function and reads nothing else: the caller's
# own arguments (./run.sh --help, ./run.sh demo) never reach the installer.
#
# What is installed is exactly the lock (requirements/board.txt for the board, requirements/test.txt
# for the tests: every version and its hashes, pip's --require-hashes, nothing resolved here;
# scripts/lock.sh makes and upgrades the lock). pip runs only when .venv/ has no install stamp
# for the lock and pyproject.toml as they are now (the first run, or either changed since): after
# that, starting the board needs neither pip nor the network, as a classroom Pi that is often
# offline requires.

damath_as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else "$@"; fi
}

damath_apt_install() {
    # Debian / Raspberry Pi OS packages, installed only when missing.
    local missing=() pkg
    for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
    [ "${#missing[@]}" -eq 0 ] && return 0
    echo "damath-board: installing Debian packages: ${missing[*]}" >&2
    damath_as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive damath_as_root apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The lock file of an install: "" (the board alone), "hub" (the organiser's laptop: the pairing
# engine too) or "test" (the tests, the hub's included).
damath_lock() {
    case "$2" in
        "") echo "$1/requirements/board.txt" ;;
        *) echo "$1/requirements/$2.txt" ;;
    esac
}

# What an install stamp holds: the digest of the lock and of pyproject.toml it was made from.
damath_digest() {
    local here="$1" extra="$2"
    cat "$(damath_lock "$here" "$extra")" "$here/pyproject.toml" | sha256sum | cut -d' ' -f1
}

# The install stamp that covers `extra` ("" for the board alone, "hub" for the organiser's
# laptop, "test" for the tests), or nothing when .venv/ must be (re)installed. A test install
# covers the hub and the board, a hub install the board.
damath_stamp() {
    local here="$1" extra="$2" name names
    case "$extra" in
        "") names="base hub test" ;;
        hub) names="hub test" ;;
        *) names="$extra" ;;
    esac
    for name in $names ; do
        local stamp="$here/.venv/.installed-$name" lock_extra="$name"
        [ "$name" = base ] && lock_extra=""
        if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(damath_digest "$here" "$lock_extra")" ]; then
            echo "$stamp"
            return 0
        fi
    done
    return 1
}

# The emulated Pico's npm packages (tests/emulator/harness: rp2040js, exactly its lock, `npm ci`),
# on Debian's Node.js; run again only when the lock changed since (a stamp in node_modules).
damath_node_modules() {
    local here="$1" dir="$1/tests/emulator/harness" digest log
    command -v node >/dev/null || damath_apt_install nodejs
    command -v npm >/dev/null || damath_apt_install npm
    digest="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
    if [ -f "$dir/node_modules/.installed" ] && [ "$(cat "$dir/node_modules/.installed")" = "$digest" ]; then
        return 0
    fi
    echo "damath-board: installing the emulated Pico's npm packages (tests/emulator/harness)..." >&2
    log="$(mktemp)"
    if ! (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) >"$log" 2>&1; then
        tail -n 20 "$log" >&2
        echo "damath-board: npm ci failed in tests/emulator/harness" >&2
        rm -f "$log"
        return 1
    fi
    rm -f "$log"
    echo "$digest" > "$dir/node_modules/.installed"
}

damath_bootstrap() {
    local extra="${1:-}"
    case "$extra" in
        "" | hub | test) ;;
        *) echo "damath-board: unknown set-up extra '$extra' (expected nothing, 'hub' or 'test')" >&2; return 2 ;;
    esac
    local here py
    here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    py="${PYTHON:-python3}"

    # The tests drive Debian's Chromium through Playwright (never a downloaded browser), check
    # the systemd unit with systemd-analyze, and run the hub against a real Mosquitto broker (over
    # TLS too, with certificates made by openssl); the federation's tests start their own
    # PostgreSQL server and RabbitMQ cluster (its MQTT plugin ships in the package) from these.
    if [ "$extra" = "test" ] && command -v apt-get >/dev/null; then
        damath_apt_install chromium systemd mosquitto openssl postgresql rabbitmq-server
    fi
    # The emulated Pico (tests/emulator/) runs on Node.js: rp2040js from the npm lock.
    if [ "$extra" = "test" ]; then
        damath_node_modules "$here" || return 1
    fi

    if [ -x "$here/.venv/bin/python" ] && damath_stamp "$here" "$extra" >/dev/null; then
        export PATH="$here/.venv/bin:$PATH"
        return 0  # installed and up to date: no pip, no network
    fi

    if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        echo "damath-board needs Python 3.11 or newer (found: $("$py" --version 2>&1))." >&2
        return 2
    fi
    if [ ! -x "$here/.venv/bin/python" ]; then
        if ! "$py" -m venv "$here/.venv" >/dev/null 2>&1; then
            command -v apt-get >/dev/null && damath_apt_install python3-venv
            rm -rf "$here/.venv"
            "$py" -m venv "$here/.venv" || return 1
        fi
    fi
    local log="$here/.venv/install.log" lock
    lock="$(damath_lock "$here" "$extra")"
    local pip=("$here/.venv/bin/python" -m pip install --disable-pip-version-check --no-input
               --require-virtualenv)
    echo "damath-board: installing Python packages into .venv (first run only; log: .venv/install.log)..." >&2
    rm -f "$here"/.venv/.installed-*
    # the installer first (pip, setuptools, wheel), then the lock with the project's build backend
    # from it (no build step fetches anything unlocked), then the project itself, then a check
    if ! { "${pip[@]}" --require-hashes --no-deps -r "$here/requirements/build.txt" \
           && "${pip[@]}" --require-hashes --no-deps --no-build-isolation -r "$lock" \
           && "${pip[@]}" --no-deps --no-build-isolation -e "$here" \
           && "$here/.venv/bin/python" -m pip check; } >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        echo "damath-board: installing the Python packages failed; the whole log is $log" >&2
        return 1
    fi
    damath_digest "$here" "$extra" > "$here/.venv/.installed-${extra:-base}"
    export PATH="$here/.venv/bin:$PATH"
}
