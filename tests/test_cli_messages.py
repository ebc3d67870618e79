"""What the commands say to a newcomer: the board says when it is ready, counts read as English,
and every command explains itself in ``--help``."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from controller.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
EXE = str(ROOT / ".venv" / "bin" / "damath-board")


@pytest.mark.slow
def test_run_says_when_the_board_is_ready_and_what_to_do_first(tmp_path):
    result = subprocess.run(
        [EXE, "run", "--profile", str(ROOT / "hardware/sim.toml"), "--state-dir", str(tmp_path),
         "--exit-after", "0.2"],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == (
        "damath-board run: Board ready (sim): Integer Damath, official rules. "
        "Set up the chips: the display names each one in turn."
    )


def test_one_legal_taking_is_singular(tmp_path, capsys):
    position = tmp_path / "one.json"
    position.write_text(
        '{"variant": "integer", "to_move": "blue", "pieces": ['
        '{"square": [1, 2], "side": "blue", "value": "5"},'
        '{"square": [2, 3], "side": "red", "value": "3"},'
        '{"square": [6, 7], "side": "red", "value": "4"}]}'
    )
    assert main(["rules", "moves", "--position-json", str(position)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Blue to move: 1 legal taking (taking is mandatory)\n"), out


@pytest.mark.parametrize(
    ("path", "words"),
    [
        (["rules", "moves"], "with its takings and what each scores"),
        (["rules", "perft"], "Count the leaves of the tree of legal moves"),
    ],
)
def test_rules_commands_describe_themselves_in_help(path, words):
    parser = build_parser()
    sub = parser
    for name in path:
        action = next(a for a in sub._actions if a.dest in ("command", "rules_command"))
        sub = action.choices[name]
    assert words in " ".join(sub.format_help().split())


@pytest.mark.slow
def test_run_set_takes_practice_and_the_players_and_refuses_a_help_outside_practice(tmp_path):
    base = [EXE, "run", "--profile", str(ROOT / "hardware/sim.toml"), "--state-dir", str(tmp_path),
            "--exit-after", "0.2"]  # fmt: skip
    ok = subprocess.run(
        [*base, "--set", "practice=true", "--set", "clocks=off", "--set", "blue=Ana Cruz"],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert ok.returncode == 0, ok.stderr
    journal = (tmp_path / "journal.jsonl").read_text()
    assert '"practice":true' in journal and '"clocks":"off"' in journal and "Ana Cruz" in journal
    bad = subprocess.run(
        [*base, "--set", "capture_preview=true"], capture_output=True, text=True, timeout=30
    )
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [
        "damath-board run: error: capture_preview=true: practice help, for practice games only "
        "(add practice=true)"
    ]
