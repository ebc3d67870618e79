#!/bin/sh
# Set the Damath board up as a service on a Raspberry Pi (run as root, from the repository).
#   sudo systemd/install.sh [hardware/pi-gpio.toml]
# Creates the user `damath` (groups gpio, spi, i2c, dialout), installs the project into
# /opt/damath-board/.venv, the unit into /etc/systemd/system, the chosen board profile into
# /etc/default/damath-board, then enables and starts the service. Safe to run again (upgrade).
set -eu

PREFIX=/opt/damath-board
UNIT=/etc/systemd/system/damath-board.service
PROFILE=${1:-hardware/pi-gpio.toml}
SRC=$(cd "$(dirname "$0")/.." && pwd)

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (sudo systemd/install.sh $PROFILE)" >&2
    exit 2
fi
if [ ! -f "$SRC/$PROFILE" ]; then
    echo "install.sh: no board profile $SRC/$PROFILE" >&2
    exit 2
fi

for group in gpio spi i2c dialout; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id damath >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/damath-board --shell /usr/sbin/nologin \
        --user-group damath
fi
usermod -a -G gpio,spi,i2c,dialout damath

mkdir -p "$PREFIX"
cp -a "$SRC/controller" "$SRC/drivers" "$SRC/firmware" "$SRC/hardware" "$SRC/docs" \
    "$SRC/pyproject.toml" "$PREFIX/"
[ -f "$SRC/README.md" ] && cp "$SRC/README.md" "$PREFIX/"
[ -d "$PREFIX/.venv" ] || python3 -m venv "$PREFIX/.venv"
"$PREFIX/.venv/bin/pip" install --quiet --upgrade "$PREFIX[pi]"

echo "DAMATH_PROFILE=$PREFIX/$PROFILE" > /etc/default/damath-board
install -m 0644 "$SRC/systemd/damath-board.service" "$UNIT"
systemd-analyze verify "$UNIT"
systemctl daemon-reload
systemctl enable --now damath-board.service
systemctl --no-pager status damath-board.service || true
echo "installed: journal in /var/lib/damath-board, logs with: journalctl -u damath-board -f"
