#!/usr/bin/env bash
# Installs everything the tests need (Python packages, and the Debian packages the tests use),
# then runs the linter, the formatter check, the type checker and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/bootstrap.sh
damath_bootstrap test
echo "== ruff check"; ruff check .
echo "== ruff format --check"; ruff format --check .
echo "== mypy (strict, pyproject.toml)"; mypy
echo "== pytest"; exec python -m pytest "$@"
