#!/usr/bin/env bash
# Installs everything the tests need (Python packages, and the Debian packages the tests use),
# checks that .venv holds exactly the locked versions (requirements/test.txt), then runs the
# linter, the formatter check, the type checker and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/bootstrap.sh
damath_bootstrap test
echo "== the lock"; python scripts/lock_check.py requirements/test.txt
echo "== ruff check"; ruff check .
echo "== ruff format --check"; ruff format --check .
echo "== mypy (strict, pyproject.toml)"; mypy
echo "== pytest"; exec python -m pytest "$@"
