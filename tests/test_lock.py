"""The lock in use: the environment the suite runs in is exactly requirements/test.txt, and the
check that says so names every package that differs (scripts/lock_check.py, run by ./test.sh)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECK = ROOT / "scripts" / "lock_check.py"


def check(lock: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CHECK), str(lock)], capture_output=True, text=True, timeout=60
    )


def test_the_suite_runs_on_exactly_the_locked_versions() -> None:
    result = check(ROOT / "requirements" / "test.txt")
    print(result.stdout)
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"\d+ packages installed exactly as", result.stdout)


def test_a_version_other_than_the_locked_one_is_named(tmp_path: Path) -> None:
    text = (ROOT / "requirements" / "test.txt").read_text()
    drifted = re.sub(r"^pytest==[^\s;]+", "pytest==0.0.1", text, flags=re.M)
    dropped = re.sub(r"^sympy==.*?(?=^\S)", "", drifted, flags=re.M | re.S)
    assert drifted != text and dropped != drifted
    lock = tmp_path / "lock.txt"
    lock.write_text(dropped)
    result = check(lock)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert any(re.fullmatch(r"lock_check: pytest: locked 0\.0\.1, installed \S+", x) for x in lines)
    assert any(re.fullmatch(r"lock_check: sympy: installed \S+, not in the lock", x) for x in lines)


def test_every_lock_pins_each_package_exactly_with_its_hashes() -> None:
    for name in ("build", "board", "hub", "test", "pi"):
        text = (ROOT / "requirements" / f"{name}.txt").read_text().replace("\\\n", " ")
        entries = [e for e in text.splitlines() if e.strip() and not e.lstrip().startswith("#")]
        assert entries, name
        for entry in entries:
            assert re.match(r"[A-Za-z0-9][\w.\-]*==\S+", entry), (name, entry)
            assert re.search(r"--hash=sha256:[0-9a-f]{64}", entry), (name, entry)


def test_a_lock_that_is_not_pins_is_refused_in_one_line(tmp_path: Path) -> None:
    lock = tmp_path / "lock.txt"
    lock.write_text("pytest>=8\n")
    result = check(lock)
    assert result.returncode == 2
    assert result.stderr.strip() == f"lock_check: {lock}:1: not an exact pin: 'pytest>=8'"
