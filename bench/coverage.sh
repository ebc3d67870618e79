#!/usr/bin/env bash
# Branch coverage of controller/ and drivers/ over the whole test suite, the processes the tests
# start (damath-board run, the replay and rules commands, the power-cut children) included.
#
#   bench/coverage.sh [pytest arguments]      e.g. bench/coverage.sh -m "not browser"
#
# Figures go in docs/testing.md. It prints, per package, statements and branches covered and
# the lines left (bench/out/coverage/report.txt has every file; html/ the annotated source).
# Not part of ./test.sh: measuring costs about half as long again as the suite.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh test

out="$(pwd)/bench/out/coverage"
rm -rf "$out"
mkdir -p "$out"
export COVERAGE_FILE="$out/.coverage"  # absolute: children in other directories write here too

status=0
python -m coverage run -m pytest -q -p no:cacheprovider "$@" || status=$?
python -m coverage combine -q
python -m coverage report --show-missing >"$out/report.txt"
python -m coverage json -q -o "$out/coverage.json"
python -m coverage html -q -d "$out/html"

python - "$out/coverage.json" <<'PY'
import json
import sys

files = json.load(open(sys.argv[1]))["files"]
print(f"{'package':<12} {'statements':>18} {'branches':>18} {'combined':>9}")
for package in ("controller", "drivers"):
    s = sc = b = bc = 0
    for path, data in files.items():
        if path.startswith(package + "/"):
            t = data["summary"]
            s += t["num_statements"]
            sc += t["covered_lines"]
            b += t["num_branches"]
            bc += t["covered_branches"]
    print(
        f"{package:<12} {sc:>6}/{s:<6} {100 * sc / s:5.1f} % {bc:>6}/{b:<6} {100 * bc / b:5.1f} %"
        f" {100 * (sc + bc) / (s + b):7.1f} %"
    )
PY
echo "every file: $out/report.txt"
exit "$status"
