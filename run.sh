#!/usr/bin/env bash
# Runs the board: the real one when a board profile is given, otherwise the simulated board.
# First run sets everything up. Any arguments go to the `damath-board` command.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/bootstrap.sh
if [ "$#" -eq 0 ]; then set -- demo; fi
exec damath-board "$@"
