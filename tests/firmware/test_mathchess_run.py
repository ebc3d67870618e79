"""``damath-board run`` on the Mathematical Chess profile, the one run path of every game: the
RP2040 firmware (fake machine/rp2, firmware/boards/mathchess.py) over a pty, the Pi's buttons and
display on a virtual Pi. A piece put down is read through the link, named with the board's
``confirm`` button, journaled in the state folder and said on the display; the game resumes from
that journal. A profile or setting that does not fit is refused in one line."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.board.host import JOURNAL
from controller.cli import main
from controller.record.journal_file import read
from drivers.link import _open_serial
from drivers.virtual import VirtualPi
from firmware.boards import mathchess as mathchess_config

from .test_wide_link import PROFILE, Board, Runner
from .test_wide_link import pty_pair as pty_pair  # the fixture

HARDWARE = Path(PROFILE).resolve().parent
PASSES = 3000


class PlaceAndName:
    """The harness of ``run`` (``DAMATH_BOARD_HARNESS``): the profile's Pi-side devices on a
    virtual Pi, its link to the Pico on the test's pty; at pass 20 a piece goes on (4, 0), at
    pass 400 the player presses ``confirm`` (the first name the display offers). The run ends
    when the journal holds the placement (or after ``PASSES``)."""

    board: Board
    port: str
    state: Path
    press_at = 400

    def __init__(self, profile) -> None:
        self.pi = VirtualPi(profile)
        self.hardware = {
            **self.pi.hardware,
            "open_port": lambda _url, baud: _open_serial(self.port, baud),
        }
        self.passes = 0
        self.pressed: object = None
        self.shown: list[str] = []
        type(self).last = self

    def clock(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(min(seconds, 0.001))

    def step(self, t: float, devices) -> bool:
        self.passes += 1
        if self.passes == 20:
            self.board.closed.add((0, 4))  # a piece put down on (4, 0), White's edge
        if self.passes == self.press_at:
            self.pressed = self.pi.button_pin("confirm")
            self.pressed.drive_low()  # type: ignore[attr-defined]
        if self.passes == self.press_at + 60:
            self.pressed.drive_high()  # type: ignore[attr-defined]
        journal = self.state / JOURNAL
        placed = journal.exists() and len(read(journal).records) > 1
        return not placed and self.passes < PASSES

    def finish(self, devices) -> None:
        sheet = devices.scoresheet
        if hasattr(sheet, "flush"):
            sheet.flush()
        self.shown = list(getattr(sheet, "last", None) or [])
        self.pi.close()


def _run(profile: Path, state: Path, monkeypatch) -> int:
    monkeypatch.setenv("DAMATH_BOARD_HARNESS", f"{__name__}:PlaceAndName")
    return main(["run", "--profile", str(profile), "--state-dir", str(state), "--scan-hz", "1000"])


def test_run_reads_names_and_journals_a_placement_through_the_pico(tmp_path, pty_pair, monkeypatch):
    fd, port = pty_pair
    state = tmp_path / "state"
    board = Board(mathchess_config)
    PlaceAndName.board, PlaceAndName.port, PlaceAndName.state = board, port, state
    pico = Runner(fd, board)
    try:
        code = _run(Path(PROFILE), state, monkeypatch)
    finally:
        pico.stop()
    assert code == 0
    harness = PlaceAndName.last
    records = read(state / JOURNAL).records
    kinds = [r["k"] for r in records if r.get("act") != "clock"]  # the clocks' records apart
    assert kinds == ["start", "mathchess-action"]
    assert records[1]["place"] == "+" and records[1]["at"] == [4, 0]
    assert harness.passes < PASSES  # the placement ended the run, not the pass limit

    board.closed.clear()  # resumed: the journal's placement stands, nothing new is written
    PlaceAndName.press_at = 10**9
    pico = Runner(fd, board)
    monkeypatch.setattr(sys.modules[__name__], "PASSES", 50)
    try:
        assert _run(Path(PROFILE), state, monkeypatch) == 0
    finally:
        pico.stop()
    assert read(state / JOURNAL).records == records
    # the display: the piece the sensors miss first (the players set it back), whose turn next
    shown = PlaceAndName.last.shown
    assert " ".join(shown) == "Put the piece on (4,0) back where it was. Black to play"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "controller.cli", "run", "--exit-after", "0.2", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--set", "game=dam"],
            "board mathchess-pico plays mathchess (its profile's [board] game)",
        ),
        (["--set", "level=11"], "level"),
        (["--set", "colour=red"], "colour: not a Mathematical Chess setting; known: level"),
        (["--variant", "radical"], "variant: not a Mathematical Chess setting"),
    ],
)
def test_a_setting_that_does_not_fit_the_game_is_refused_in_one_line(tmp_path, args, message):
    out = cli("--profile", PROFILE, "--state-dir", str(tmp_path), *args)
    assert out.returncode == 2, out
    assert message in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert not (tmp_path / JOURNAL).exists()


def test_a_profile_that_does_not_fit_is_refused_in_one_line(tmp_path):
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(Path(PROFILE).read_text().replace("count = 81", "count = 64"))
    sim_as_mathchess = tmp_path / "sim.toml"
    sim_as_mathchess.write_text(
        (HARDWARE / "sim.toml")
        .read_text()
        .replace('name = "sim"', 'name = "sim"\ngame = "mathchess"')
    )
    for profile, message in (
        (wrong, "wrong.toml: [leds] count"),
        (
            sim_as_mathchess,
            "board sim is 8 × 8 squares: Mathematical Chess is played on 9 × 9 points",
        ),
    ):
        out = cli("--profile", str(profile), "--state-dir", str(tmp_path))
        assert out.returncode == 2, out
        assert message in out.stderr and "Traceback" not in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert not (tmp_path / JOURNAL).exists()
