#!/bin/sh
# Set the Damath board up as a service on a Raspberry Pi 4 or 5 (as root, from the repository):
#   sudo systemd/install.sh [PROFILE] [--hub BOARD.toml]
#   PROFILE: hardware/pi-gpio.toml (default) or any path; BOARD.toml: the board's connection file
#   (damath-board hub board-add), when the board publishes to a tournament hub (docs/hall.md)
# Safe to run again: an upgrade replaces every installed file (nothing old is left behind).
#
# - user `damath` (groups gpio, spi, i2c, dialout);
# - /opt/damath-board: this checkout's files and a fresh .venv with exactly the versions locked in
#   requirements/build.txt and requirements/pi.txt (pip --require-hashes --no-deps, then
#   `pip check`; scripts/lock.sh makes the lock), all owned by root and read-only to everyone else;
# - /etc/damath-board/board.toml: the chosen profile (root's, read-only to the service);
# - config.txt (Pi 4 and Pi 5 layouts) and modules-load.d: the SPI, I2C and UART the profile
#   needs, I2C at 400 kHz (python -m drivers.system); a reboot when those changed; with a link
#   on the header UART, Bluetooth off it on a Pi 4 (dtoverlay=disable-bt), the serial console
#   off cmdline.txt (both files written whole or not at all) and the serial getty masked;
# - the unit, and a drop-in allowing the device classes the profile opens (char-ttyACM, …: a
#   Pico plugged in after the start is reachable), their drivers loaded at boot;
# - with --hub: /etc/damath-board/hub.toml (the connection file, the hub's host resolved now to
#   its address; root's, readable by the service's group) and a drop-in opening the network to
#   that address only (controller/link/service.py). Without --hub the unit has no network, and
#   a hub installed before is removed. The hub's address changed: run install.sh again.
# DAMATH_ROOT (a folder) installs under it instead of / (the tests do; nothing is started).
set -eu

ROOT=${DAMATH_ROOT:-}
PYTHON=${PYTHON:-python3}
PREFIX="$ROOT/opt/damath-board"
ETC="$ROOT/etc/damath-board"
UNIT_DIR="$ROOT/etc/systemd/system"
SRC=$(cd "$(dirname "$0")/.." && pwd)
PROFILE=hardware/pi-gpio.toml
HUB=""
while [ $# -gt 0 ]; do
    case "$1" in
        --hub) [ $# -ge 2 ] || { echo "install.sh: --hub needs the board's connection file" >&2; exit 2; }
               HUB=$2; shift 2 ;;
        --hub=*) HUB=${1#--hub=}; shift ;;
        -*) echo "install.sh: unknown option $1 (usage: install.sh [PROFILE] [--hub BOARD.toml])" >&2; exit 2 ;;
        *) PROFILE=$1; shift ;;
    esac
done

say() { echo "install.sh: $*"; }
fail() { echo "install.sh: $*" >&2; exit 2; }

[ "$(id -u)" -eq 0 ] || fail "run as root: sudo systemd/install.sh $PROFILE"
case "$PROFILE" in
    /*) PROFILE_PATH=$PROFILE ;;
    *) if [ -f "$SRC/$PROFILE" ]; then PROFILE_PATH="$SRC/$PROFILE"; else PROFILE_PATH="$(pwd)/$PROFILE"; fi ;;
esac
[ -f "$PROFILE_PATH" ] || fail "no board profile at $PROFILE_PATH"
# The profile is checked (with this checkout's code) before anything is changed.
DEVICES=$(PYTHONPATH="$SRC" "$PYTHON" -m drivers.system "$PROFILE_PATH" --device-allow) \
    || fail "the profile $PROFILE_PATH is not usable (above); nothing was changed"
# The connection file too: checked, and the hub's host resolved, before anything is changed.
if [ -n "$HUB" ]; then
    [ -f "$HUB" ] || fail "no connection file at $HUB"
    HUB_STAGE=$(mktemp -d)
    trap 'rm -rf "$HUB_STAGE"' EXIT
    HUB_DROP_IN=$(PYTHONPATH="$SRC" "$PYTHON" -m controller.link.service "$HUB" "$HUB_STAGE") \
        || fail "the connection file $HUB is not usable (above); nothing was changed"
fi

if [ -z "$ROOT" ] && command -v apt-get >/dev/null; then
    # venv, and what builds the Pi's compiled packages when PyPI has no wheel for this Python
    missing=""
    for pkg in python3-venv python3-dev build-essential swig liblgpio-dev; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
    done
    if [ -n "$missing" ]; then
        say "installing Debian packages:$missing"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
    fi
fi

for group in gpio spi i2c dialout; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id damath >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/damath-board --shell /usr/sbin/nologin --user-group damath
fi
usermod -a -G gpio,spi,i2c,dialout damath

if [ -z "$ROOT" ] && systemctl is-active --quiet damath-board.service; then
    say "stopping the running service for the upgrade"
    systemctl stop damath-board.service
fi

# The code: every old file goes (the venv is rebuilt below), then a fresh copy, root's only.
mkdir -p "$PREFIX"
find "$PREFIX" -mindepth 1 -maxdepth 1 ! -name .venv -exec rm -rf {} +
for item in controller drivers firmware hardware docs systemd pyproject.toml README.md; do
    [ -e "$SRC/$item" ] && cp -R "$SRC/$item" "$PREFIX/"
done
find "$PREFIX" -name __pycache__ -prune -exec rm -rf {} +

# The environment: exactly the pinned versions, nothing fetched by dependency resolution.
"$PYTHON" -m venv --clear "$PREFIX/.venv"
PIP="$PREFIX/.venv/bin/python -m pip --no-input --disable-pip-version-check --no-cache-dir"
# pip, setuptools and wheel first (they build the compiled packages PyPI has no wheel for, and the
# project), then the lock: every file's hash is checked, so a wheel from another index (piwheels)
# whose hash is not locked is passed over for PyPI's own file.
$PIP install --require-hashes --no-deps --require-virtualenv -r "$SRC/requirements/build.txt"
$PIP install --require-hashes --no-deps --no-build-isolation --require-virtualenv \
    -r "$SRC/requirements/pi.txt"
$PIP install --no-deps --no-build-isolation --require-virtualenv "$PREFIX"
$PIP check
chown -R root:root "$PREFIX"
chmod -R u+rwX,go+rX,go-w "$PREFIX"

# The profile the service reads: root's, read-only to everyone else.
install -d -o root -g root -m 0755 "$ETC"
install -o root -g root -m 0644 "$PROFILE_PATH" "$ETC/board.toml"

# config.txt and the modules the profile needs.
install -d -m 0755 "$ROOT/etc/modules-load.d"
BOOT=$("$PREFIX/.venv/bin/python" -m drivers.system "$ETC/board.toml" --root "$ROOT/" \
    --config --modules "$ROOT/etc/modules-load.d/damath-board.conf") \
    || fail "the boot files are left as they were (above)"
echo "$BOOT" | while IFS= read -r line; do say "$line"; done
# A link on the header UART: no login may answer on its pins (the console came off cmdline.txt
# above; its getty, and Bluetooth's UART helper on a Pi 4, are stopped for good here).
BUSES=$("$PREFIX/.venv/bin/python" -m drivers.system "$ETC/board.toml" --buses)
case " $BUSES " in
    *" uart "*)
        GETTYS="serial-getty@ttyAMA0.service serial-getty@ttyS0.service"
        if [ -n "$ROOT" ]; then
            systemctl --root="$ROOT" mask $GETTYS
        else
            systemctl mask --now $GETTYS
            if systemctl cat hciuart.service >/dev/null 2>&1; then
                systemctl disable --now hciuart.service
                say "hciuart.service disabled: Bluetooth does not take the UART back"
            fi
        fi
        say "the serial login on the header UART ($GETTYS) is stopped and masked:" \
            "GPIO14/15 carry the link to the co-processor"
        : > "$ETC/uart-gettys-masked" ;;
    *)
        # A board that had its link on the header UART and no longer has: the logins this
        # install masked then are given back (the marker says it was this install, not the owner).
        if [ -f "$ETC/uart-gettys-masked" ]; then
            GETTYS="serial-getty@ttyAMA0.service serial-getty@ttyS0.service"
            if [ -n "$ROOT" ]; then
                systemctl --root="$ROOT" unmask $GETTYS
            else
                systemctl unmask $GETTYS
                if systemctl cat hciuart.service >/dev/null 2>&1; then
                    systemctl enable hciuart.service
                fi
            fi
            rm -f "$ETC/uart-gettys-masked"
            say "the serial logins on the header UART ($GETTYS) are unmasked again: this profile" \
                "has no link there (the console is not put back on cmdline.txt; add" \
                "console=serial0,115200 there yourself if you want it)"
        fi ;;
esac

install -d -m 0755 "$UNIT_DIR/damath-board.service.d"
install -o root -g root -m 0644 "$SRC/systemd/damath-board.service" "$UNIT_DIR/damath-board.service"
{
    echo "# Written by systemd/install.sh for $(basename "$PROFILE_PATH"): the device nodes it opens."
    echo "[Service]"
    echo "$DEVICES"
} > "$UNIT_DIR/damath-board.service.d/devices.conf"
chmod 0644 "$UNIT_DIR/damath-board.service.d/devices.conf"

# The hub: its connection file and the network opening, or neither (a board without a hub).
rm -f "$UNIT_DIR/damath-board.service.d/hub.conf" "$ETC/hub.toml" "$ETC/hub-ca.pem"
if [ -n "$HUB" ]; then
    for f in hub.toml hub-ca.pem; do
        [ -f "$HUB_STAGE/$f" ] || continue
        install -o root -g root -m 0640 "$HUB_STAGE/$f" "$ETC/$f"
        chgrp damath "$ETC/$f" 2>/dev/null || say "warning: no group damath for $ETC/$f"
    done
    printf '%s\n' "$HUB_DROP_IN" > "$UNIT_DIR/damath-board.service.d/hub.conf"
    chmod 0644 "$UNIT_DIR/damath-board.service.d/hub.conf"
    say "the board publishes to its hub: $(sed -n 's/^IPAddressAllow=//p' "$UNIT_DIR/damath-board.service.d/hub.conf")"
fi

if [ -n "$ROOT" ]; then
    say "installed under $ROOT (nothing started)"
    exit 0
fi
systemd-analyze verify "$UNIT_DIR/damath-board.service"
systemctl daemon-reload
case "$BOOT" in
    *reboot*)
        systemctl enable damath-board.service
        say "SPI/I2C/UART settings changed: reboot now (sudo reboot); the board starts at boot."
        say "Then test it: sudo systemctl stop damath-board;" \
            "/opt/damath-board/.venv/bin/damath-board selftest --profile /etc/damath-board/board.toml" ;;
    *)
        systemctl enable --now damath-board.service
        systemctl --no-pager status damath-board.service || true ;;
esac
say "journal in /var/lib/damath-board; logs: journalctl -u damath-board -f"
