#!/usr/bin/env bash
# Runs the board. First run sets everything up.
#   ./run.sh                      the real board when DAMATH_PROFILE names a board profile
#                                 (hardware/pi-gpio.toml, hardware/pico.toml), else the
#                                 simulated board in a browser (it prints the address)
#   ./run.sh COMMAND [ARGS...]    any `damath-board` command: demo, sim, run, rules, audit, ...
set -euo pipefail
cd "$(dirname "$0")"
source scripts/bootstrap.sh
if [ "$#" -eq 0 ]; then
    if [ -n "${DAMATH_PROFILE:-}" ]; then
        set -- run --profile "$DAMATH_PROFILE"
    else
        set -- sim
    fi
fi
exec damath-board "$@"
