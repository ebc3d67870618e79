"""``damath-board run`` on the 12×12 Dam profile (hardware/dam-pico.toml): the profile names its
game, so the service runs it as it is; any other game is refused in one line before a device or
a journal is touched."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PROFILE = Path(__file__).resolve().parents[2] / "hardware" / "dam-pico.toml"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("sets", "message"),
    [
        (["--set", "game=damath"], "board dam-pico plays dam (its profile's [board] game): "),
        (["--set", "game=dadama"], "--set game=dadama is not played on it"),
        (["--variant", "radical"], "unknown setting"),
        (["--set", "capture_priority=fewest"], "capture_priority"),
    ],
)
def test_run_refuses_another_game_or_a_wrong_setting_in_one_line(tmp_path, sets, message):
    args = [sys.executable, "-m", "controller.cli", "run", "--profile", str(PROFILE)]
    args += ["--state-dir", str(tmp_path), "--exit-after", "0.2", *sets]
    out = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert message in out.stderr, out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_damath_profile_refuses_to_be_a_dam_board_in_one_line(tmp_path):
    sim = PROFILE.parent / "sim.toml"
    args = [sys.executable, "-m", "controller.cli", "run", "--profile", str(sim)]
    args += ["--state-dir", str(tmp_path), "--exit-after", "0.2", "--set", "game=dam"]
    out = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert "board sim plays damath (its profile's [board] game): --set game=dam" in out.stderr
    assert list(tmp_path.iterdir()) == []
