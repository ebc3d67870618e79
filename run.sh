#!/usr/bin/env bash
# Runs the board. First run sets everything up; later runs start at once, offline.
#   ./run.sh                      the real board when DAMATH_PROFILE names a board profile
#                                 (hardware/pi-gpio.toml, hardware/pico.toml), else the
#                                 simulated board in a browser (it prints the address)
#   ./run.sh COMMAND [ARGS...]    any `damath-board` command: demo, sim, run, rules, audit, ...
#   ./run.sh --help               the commands
set -euo pipefail
cd "$(dirname "$0")"
source scripts/bootstrap.sh
damath_bootstrap
if [ "$#" -eq 0 ]; then
    if [ -n "${DAMATH_PROFILE:-}" ]; then
        set -- run --profile "$DAMATH_PROFILE"
    else
        set -- sim
    fi
fi
exec damath-board "$@"
