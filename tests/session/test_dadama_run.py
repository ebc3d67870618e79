"""``damath-board run --set game=dadama``: the board's own command plays Dadama on the
profile's devices (the simulated board's mock devices here), journaled and resumed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from controller.session.journal import read

PROFILE = Path(__file__).resolve().parents[2] / "hardware" / "sim.toml"


def run(state: Path, *sets: str) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, "-m", "controller.cli", "run", "--profile", str(PROFILE)]
    args += ["--state-dir", str(state), "--exit-after", "0.2"]
    for s in sets:
        args += ["--set", s]
    return subprocess.run(args, capture_output=True, text=True, timeout=60)


def test_run_plays_dadama_and_resumes_its_journal(tmp_path):
    first = run(tmp_path, "game=dadama", "seed=41", "dice=real")
    assert first.returncode == 0, first.stderr
    assert "plays Dadama" in first.stdout
    start = read(tmp_path / "dadama.jsonl").records
    assert start[0]["seed"] == 41 and start[0]["dice"] == "real"
    again = run(tmp_path, "game=dadama", "seed=5")  # resumed: the journal's seed stands
    assert again.returncode == 0, again.stderr
    assert read(tmp_path / "dadama.jsonl").records == start


def test_run_refuses_a_wrong_dadama_setting_in_one_line(tmp_path):
    out = run(tmp_path, "game=dadama", "go_on=never")
    assert out.returncode == 2
    assert "go_on" in out.stderr and "Traceback" not in out.stderr
    assert not (tmp_path / "dadama.jsonl").exists()


def test_run_refuses_dam_on_an_8x8_board_in_one_line(tmp_path):
    out = run(tmp_path, "game=dam")
    assert out.returncode == 2
    assert "Dam needs 72" in out.stderr and "Traceback" not in out.stderr
    assert not (tmp_path / "dam.jsonl").exists()
