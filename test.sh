#!/usr/bin/env bash
# Installs everything the tests need (Python packages, and the Debian packages the tests use),
# checks that .venv holds exactly the locked versions (requirements/test.txt), then runs the
# linter, the formatter check, the type checker and the whole test suite.
#
#   ./test.sh               the whole suite, as CI runs it (docs/testing.md)
#   ./test.sh --quick       while developing: lint, types and the quick tier (no browser, no
#                           long test; every package touched), a few minutes
#   ./test.sh ARGS...       pytest's own arguments after the checks (a directory, -k, -x ...)
#
# The suite runs in parallel workers (pytest-xdist; DAMATH_TEST_WORKERS, default 4: most of a
# test's time is spent waiting for a process or a server, so four workers keep two cores busy).
set -euo pipefail
cd "$(dirname "$0")"
quick=()
if [ "${1:-}" = "--quick" ]; then
    shift
    quick=(-m "not slow and not browser")
fi
source scripts/bootstrap.sh
damath_bootstrap test
echo "== the lock"; python scripts/lock_check.py requirements/test.txt
echo "== ruff check"; ruff check .
echo "== ruff format --check"; ruff format --check .
echo "== mypy (strict, pyproject.toml)"; mypy
echo "== pytest"
exec python -m pytest -n "${DAMATH_TEST_WORKERS:-4}" --dist loadgroup "${quick[@]}" "$@"
