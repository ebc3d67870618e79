"""``damath-board run --profile hardware/mathchess-pico.toml``: a Mathematical Chess board plays.
The profile is known by its own format (``[board] game = "mathchess"``); the Pico's link is
opened with the board's size * size points, the game is resumed from its journal in the state
folder, and the scan loop (``loop.run_loop``) reads the points, lights the LEDs and hands the
players' buttons (``next``, ``confirm``) to the game (docs/mathchess-board.md)."""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from controller.i18n import _
from controller.rules.mathchess.conditions import from_level
from controller.rules.mathchess.position import Position
from controller.session.mathchess import MathChessSession
from drivers.buttons import Buttons
from drivers.leds import LedStrip
from drivers.link import Link

from .loop import run_loop
from .mathchess import MathChessScan, coprocessor_scan, open_link
from .mathchess_profile import load_mathchess_profile

JOURNAL = "mathchess.jsonl"
"""A Mathematical Chess game's journal in the board's state folder."""
SETTINGS = ("game", "level")


def is_mathchess_profile(path: str | Path) -> bool:
    """Whether the file is a Mathematical Chess profile (``[board] game = "mathchess"``);
    False for anything else, which the Damath profile reader then explains."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    board = data.get("board")
    return isinstance(board, dict) and board.get("game") == "mathchess"


def start_position(settings: Mapping[str, Any]) -> Position:
    """A new game's start: Prepare now! on an empty board, at ``--set level=N`` (1 to 10)."""
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise ValueError(
            f"--set {unknown[0]}: not a Mathematical Chess setting; known: {', '.join(SETTINGS)}"
        )
    if "level" not in settings:
        return Position.start()
    level = settings["level"]
    if isinstance(level, bool) or not isinstance(level, int):
        raise ValueError(f"--set level={level}: a whole number 1 to 10")
    return Position.start(from_level(level))  # ConditionsError is a ValueError: one line


class MathChessLoop:
    """One pass: the buttons to the game, then the points read and the LEDs lit."""

    def __init__(self, scan: MathChessScan, buttons: Buttons | None = None) -> None:
        self.scan = scan
        self.buttons = buttons
        self.shown = ""

    def step(self, t: float) -> None:
        if self.buttons is not None:
            for press in self.buttons.poll():
                if press.kind == "press":
                    self.scan.press(press.name)
        self.scan.step(t)
        line = self.scan.display()
        if line != self.shown:  # the board has no display of its own yet: the log shows it
            self.shown = line
            if line:
                print(f"damath-board run: {line}", flush=True)


def run_mathchess(
    path: str,
    settings: Mapping[str, Any],
    state: Path,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
    period: float,
    running: Callable[[], bool],
    buttons: Callable[[dict[str, int]], Buttons] | None = None,
) -> int:
    """The board plays Mathematical Chess until ``running`` says stop; ``buttons`` builds the
    players' buttons from the profile's pins (None: none, as in the tests)."""
    profile = load_mathchess_profile(path)  # a wrong profile: one line (a ValueError)
    start = start_position(settings)
    data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    try:  # the buttons first: a board that cannot start keeps no new journal
        keys = buttons(profile.buttons) if buttons is not None else None
    except Exception as exc:  # no GPIO here, a pin taken: said in one line
        raise ValueError(
            f"{path}: [buttons.pins] cannot start the buttons: {type(exc).__name__}: {exc}"
        ) from None
    link: Link | None = None
    session: MathChessSession | None = None
    scan: MathChessScan | None = None
    try:
        state.mkdir(parents=True, exist_ok=True)
        session = MathChessSession.open(state / JOURNAL, start)
        for problem in session.problems:
            print(f"damath-board run: {problem}", file=sys.stderr)
        link = open_link(data, profile)
        scan = coprocessor_scan(session, profile, link)
        print(
            _("damath-board run: board {name} plays Mathematical Chess").format(name=profile.name),
            flush=True,
        )
        run_loop(MathChessLoop(scan, keys), clock, sleep, period, running)
        if scan.scanner is not None and scan.scanner.problem:
            print(f"damath-board run: {scan.scanner.problem}", file=sys.stderr)
    finally:
        if keys is not None:
            keys.close()
        if scan is not None and isinstance(scan.leds, LedStrip):
            scan.leds.close()  # the chain dark before the link goes
        if link is not None:
            link.close()
        if session is not None:
            session.close()
    return 0
