#!/usr/bin/env bash
# Runs the board. First run sets everything up; later runs start at once, offline.
#   ./run.sh                      the real board when DAMATH_PROFILE names a board profile
#                                 (hardware/pi-gpio.toml, hardware/pico.toml), else the
#                                 simulated board in a browser (it prints the address)
#   ./run.sh COMMAND [ARGS...]    any `damath-board` command: demo, sim, run, rules, audit, ...
#   ./run.sh --help               the commands
# It stays where it is started: a relative path (--dir ., --credential ncr.toml) is read from
# where the user stands, never from the checkout.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/scripts/bootstrap.sh"
# the hub's commands need the pairing engine: its locked install (requirements/hub.txt), once
if [ "${1:-}" = hub ]; then damath_bootstrap hub; else damath_bootstrap; fi
if [ "$#" -eq 0 ]; then
    if [ -n "${DAMATH_PROFILE:-}" ]; then
        profile="$DAMATH_PROFILE"
        # the checkout's own profiles (hardware/pi-gpio.toml) are found from anywhere
        if [ ! -e "$profile" ] && [ -e "$here/$profile" ]; then profile="$here/$profile"; fi
        set -- run --profile "$profile"
    else
        set -- sim
    fi
fi
exec damath-board "$@"
