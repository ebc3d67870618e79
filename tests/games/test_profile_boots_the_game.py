"""A board boots into its game as its profile sets it (``[game]``), with no hand-written
drop-in: a class board in practice with the clocks off and a name, a board of rational Damath
on the online rules; ``--set`` wins; a wrong setting in the profile is one line, nothing kept."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from controller.record.journal_file import read

SIM = Path(__file__).resolve().parents[2] / "hardware" / "sim.toml"


def profile_with(folder: Path, table: str) -> Path:
    path = folder / "board.toml"
    path.write_text(SIM.read_text() + f"\n[game]\n{table}\n")
    return path


def run(profile: Path, state: Path, *sets: str) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, "-m", "controller.cli", "run", "--profile", str(profile)]
    args += ["--state-dir", str(state), "--exit-after", "0.2"]
    for s in sets:
        args += ["--set", s]
    return subprocess.run(args, capture_output=True, text=True, timeout=60)


def test_a_class_board_boots_into_practice_from_its_profile(tmp_path):
    profile = profile_with(tmp_path, 'practice = true\nclocks = "off"\nblue = "Ana"')
    out = run(profile, tmp_path / "state", "red=Ben")
    assert out.returncode == 0, out.stderr
    start = read(tmp_path / "state" / "journal.jsonl").records[0]
    assert start["play"]["practice"] is True and start["play"]["clocks"] == "off"
    assert start["info"] == {"blue": "Ana", "red": "Ben"}


def test_the_profile_chooses_the_variant_and_rules_and_set_wins(tmp_path):
    profile = profile_with(tmp_path, 'variant = "rational"\nrules = "online"')
    out = run(profile, tmp_path / "state")
    assert out.returncode == 0, out.stderr
    assert "Rational Damath, online rules" in out.stdout
    start = read(tmp_path / "state" / "journal.jsonl").records[0]
    assert (start["variant"], start["rules"]) == ("rational", "online")
    again = run(profile, tmp_path / "other", "variant=counting")
    assert again.returncode == 0, again.stderr
    assert read(tmp_path / "other" / "journal.jsonl").records[0]["variant"] == "counting"


def test_a_wrong_setting_in_the_profile_is_one_line_and_starts_nothing(tmp_path):
    profile = profile_with(tmp_path, 'practice = "yes"')
    out = run(profile, tmp_path / "state")
    assert out.returncode == 2
    assert "practice: expected true or false, got 'yes'" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
    assert not (tmp_path / "state" / "journal.jsonl").exists()
