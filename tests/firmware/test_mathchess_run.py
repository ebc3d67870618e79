"""``damath-board run`` on a Mathematical Chess profile: the board's runner against the RP2040
firmware (fake machine/rp2, firmware/boards/mathchess.py) over a pty: a piece put down is read
through the link, named with the board's buttons and journaled in the state folder; the game
resumes from that journal. A profile or game that does not fit is refused in one line."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from controller.board.mathchess_run import JOURNAL, run_mathchess
from controller.session.journal import read
from drivers.buttons import MockButtons
from firmware.boards import mathchess as mathchess_config

from .test_wide_link import PROFILE, Board, Runner
from .test_wide_link import pty_pair as pty_pair  # the fixture

HARDWARE = Path(PROFILE).resolve().parent


def profile_on(tmp_path: Path, port: str) -> Path:
    text = Path(PROFILE).read_text().replace('"/dev/ttyACM0"', f'"{port}"')
    path = tmp_path / "mathchess.toml"
    path.write_text(text)
    return path


def test_run_reads_names_and_journals_a_placement_through_the_pico(tmp_path, pty_pair):
    fd, port = pty_pair
    profile = profile_on(tmp_path, port)
    state = tmp_path / "state"
    board = Board(mathchess_config)
    pico = Runner(fd, board)
    keys = MockButtons()
    passes = [0]

    def running() -> bool:
        passes[0] += 1
        if passes[0] == 20:
            board.closed.add((0, 4))  # a piece put down on (4, 0), White's edge
        if passes[0] == 400:
            keys.inject("confirm")  # the first name the display offers
        placed = (state / JOURNAL).exists() and len(read(state / JOURNAL).records) > 1
        return not placed and passes[0] < 3000

    try:
        code = run_mathchess(
            str(profile), {}, state, time.monotonic, time.sleep, 0.001, running, lambda _: keys
        )
    finally:
        pico.stop()
    assert code == 0
    records = read(state / JOURNAL).records
    assert [r["kind"] for r in records] == ["mathchess-start", "mathchess-action"]
    assert records[1]["place"] == "+" and records[1]["at"] == [4, 0]
    assert passes[0] < 3000  # the placement ended the run, not the pass limit

    board.closed.clear()  # resumed: the journal's placement stands, nothing new is written
    pico = Runner(fd, board)
    stops = iter(range(50))
    try:
        run_mathchess(
            str(profile),
            {},
            state,
            time.monotonic,
            time.sleep,
            0.001,
            lambda: next(stops, None) is not None,
        )
    finally:
        pico.stop()
    assert read(state / JOURNAL).records == records


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "controller.cli", "run", "--exit-after", "0.2", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_a_profile_or_game_that_does_not_fit_is_refused_in_one_line(tmp_path):
    state = ["--state-dir", str(tmp_path)]
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(Path(PROFILE).read_text().replace("count = 81", "count = 64"))
    cases = [
        (
            ["--profile", str(HARDWARE / "sim.toml"), "--set", "game=mathchess"],
            "board sim is not a Mathematical Chess board",
        ),
        (
            ["--profile", PROFILE, "--set", "game=dam"],
            "is a Mathematical Chess board: --set game=dam is not played on it",
        ),
        (["--profile", PROFILE, "--set", "level=11"], "level"),
        (["--profile", str(wrong)], "wrong.toml"),
    ]
    for args, message in cases:
        out = cli(*args, *state)
        assert out.returncode == 2, out
        assert message in out.stderr and "Traceback" not in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert not (tmp_path / JOURNAL).exists()
