"""``damath-board run`` on the 12×12 Dam profile (hardware/dam-pico.toml): any other game is
refused in one line before a device or a journal is touched."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROFILE = Path(__file__).resolve().parents[2] / "hardware" / "dam-pico.toml"


def test_run_refuses_damath_on_a_12x12_board_in_one_line(tmp_path):
    for sets in ([], ["--set", "game=dadama"]):
        args = [sys.executable, "-m", "controller.cli", "run", "--profile", str(PROFILE)]
        args += ["--state-dir", str(tmp_path), "--exit-after", "0.2", *sets]
        out = subprocess.run(args, capture_output=True, text=True, timeout=60)
        assert out.returncode == 2
        assert "board dam-pico is 12×12: play Dam on it (--set game=dam)" in out.stderr
        assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
        assert list(tmp_path.iterdir()) == []


def test_selftest_refuses_a_12x12_board_rather_than_walk_32_of_its_72_squares():
    args = [sys.executable, "-m", "controller.cli", "selftest", "--profile", str(PROFILE)]
    out = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert "board dam-pico is 12×12: the selftest walks 8×8 boards only" in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
