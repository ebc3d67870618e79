"""``damath-board run`` on a Dadama board: the profile names the game (``[board] game``) and may
set it (``[game]``: the dice, a seed), ``--set`` wins over it; the board plays on the profile's
devices (the simulated board's mock devices here), journaled and resumed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from controller.record.journal_file import read

SIM = Path(__file__).resolve().parents[2] / "hardware" / "sim.toml"


def dadama_profile(folder: Path, game_table: str = "") -> Path:
    text = SIM.read_text().replace('name = "sim"', 'name = "sim"\ngame = "dadama"')
    path = folder / "dadama.toml"
    path.write_text(text + (f"\n[game]\n{game_table}\n" if game_table else ""))
    return path


def run(profile: Path, state: Path, *sets: str) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, "-m", "controller.cli", "run", "--profile", str(profile)]
    args += ["--state-dir", str(state), "--exit-after", "0.2"]
    for s in sets:
        args += ["--set", s]
    return subprocess.run(args, capture_output=True, text=True, timeout=60)


def test_run_plays_dadama_from_its_profile_and_resumes_its_journal(tmp_path):
    profile = dadama_profile(tmp_path, 'dice = "real"\nseed = 5')
    state = tmp_path / "state"
    first = run(profile, state, "seed=41")  # --set wins over the profile's [game]
    assert first.returncode == 0, first.stderr
    assert "plays Dadama" in first.stdout
    start = read(state / "journal.jsonl").records
    assert start[0]["game"] == "dadama" and start[0]["seed"] == 41 and start[0]["dice"] == "real"
    again = run(profile, state, "seed=5")  # resumed: the journal's seed stands
    assert again.returncode == 0, again.stderr
    assert read(state / "journal.jsonl").records == start


def test_run_refuses_a_wrong_dadama_setting_in_one_line(tmp_path):
    for profile, sets in (
        (dadama_profile(tmp_path), ["go_on=never"]),
        (dadama_profile(tmp_path, 'go_on = "never"'), []),
    ):
        out = run(profile, tmp_path / "state", *sets)
        assert out.returncode == 2
        assert "go_on" in out.stderr and "Traceback" not in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1, out.stderr
        assert not (tmp_path / "state").exists()


def test_run_refuses_dam_on_an_8x8_board_in_one_line(tmp_path):
    profile = tmp_path / "dam8.toml"
    profile.write_text(SIM.read_text().replace('name = "sim"', 'name = "sim"\ngame = "dam"'))
    out = run(profile, tmp_path / "state")
    assert out.returncode == 2
    assert "board sim is 8 × 8 squares: Dam is played on 12 × 12 squares" in out.stderr
    assert "Traceback" not in out.stderr
    assert not (tmp_path / "state").exists()


def test_run_refuses_a_game_no_board_plays_in_one_line(tmp_path):
    profile = tmp_path / "chess.toml"
    profile.write_text(SIM.read_text().replace('name = "sim"', 'name = "sim"\ngame = "chess"'))
    out = run(profile, tmp_path / "state")
    assert out.returncode == 2
    assert "unknown game 'chess'; the board plays damath, dadama, dam, mathchess" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
