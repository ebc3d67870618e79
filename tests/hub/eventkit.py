"""What the whole-event tests share: boards that play a table's game through their own session
and link, the organiser's API, the hand-computed figures of each kind of game."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.hub.settings import load_or_create
from controller.link.board import BoardLink
from controller.link.config import load
from controller.link.playback import PlaybackBoard, sample_game_moves
from controller.link.publisher import Link

from .conftest import RunningHub, acked_total, journal_total

MOVES = sample_game_moves()[1]

# The game each table plays, and what the board's scoresheet says of it (worked out by hand from
# the sample game's scoresheet, docs/scoring.md: grand total = takings + remaining chips).
#   kind: (moves played, how it ends, outcome, Blue's grand total, Red's grand total)
GAMES: dict[str, tuple[int, str, str, str, str]] = {
    "blue": (6, "red-resigns", "blue", "-5", "6"),  # Red resigns although ahead
    "draw": (2, "stop", "draw", "-6", "-6"),  # no taking yet: the chips left are equal
    "red": (10, "stop", "red", "-6", "16"),
    "red-big": (11, "stop", "red", "-3", "20"),
    "red-no-show": (0, "red-no-show", "blue-forfeit", "", ""),
}
# the arbiter's menu (hold Pause): Cancel, Stop, Blue resigns, Red resigns, Blue no-show, Red …
MENU = {"stop": 1, "blue-resigns": 2, "red-resigns": 3, "blue-no-show": 4, "red-no-show": 5}


def token(hub: RunningHub) -> str:
    return load_or_create(hub.folder).organiser_token


def api(hub: RunningHub, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        hub.url + path,
        json.dumps(body).encode(),
        {"Authorization": f"Bearer {token(hub)}"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as exc:
        raise AssertionError(f"{path}: {exc.code} {exc.read()!r}") from None


def round_view(hub: RunningHub, rnd: int) -> list[dict[str, Any]]:
    return api(hub, "/api/event/round", {"round": rnd})["tables"]


def wait_for(what: str, check: Any, timeout: float = 120) -> Any:
    """Poll ``check`` until it gives a value; the bound only ends a test that hangs (on two
    loaded cores a board's table or a record may take tens of seconds)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what}: not in {timeout} s ({value!r})"
        time.sleep(0.1)


@dataclass
class HallBoard:
    """A board in the hall: its session played by simulated hands, its link to the hub, and
    the board runtime's own assignment handling (``BoardLink``)."""

    board: str
    folder: Path
    link: BoardLink
    play: PlaybackBoard

    @classmethod
    def start(cls, board: str, conn: Path, folder: Path) -> HallBoard:
        link = Link(load(conn), folder, poll_seconds=0.1, resend_seconds=2.0).start()
        hall = cls(board, folder, BoardLink(link, say=lambda _text: None), None)  # type: ignore[arg-type]
        hall.play = PlaybackBoard(folder, on_record=lambda _b, _n: link.nudge())
        return hall

    def assignment(self) -> str | None:
        a = self.link.link.assignment()
        return a.get("id") if a else None

    def take_assignment(self, ident: str) -> None:
        """Until the board holds assignment ``ident`` and has put it on its game."""
        wait_for(f"{self.board}: assignment {ident}", lambda: self.assignment() == ident)
        self.play.t += 1.0
        self.link.after_step(self.play.session, self.play.t)
        info = self.play.session.info
        assert info.get("blue") and info.get("red"), (self.board, info)

    def step(self, seconds: float = 0.5) -> None:
        """One pass of the board's loop as far as the link sees it (the hub's assignment and
        commands), ``seconds`` of board time later."""
        self.play.t += seconds
        self.link.after_step(self.play.session, self.play.t)

    def wait_started(self) -> None:
        """Until the round's start from the desk has reached the board: its clocks may run."""

        def started() -> bool:
            self.step()
            return self.play.session.state.held is None

        wait_for(f"{self.board}: the round's start", started)

    def play_game(self, kind: str) -> None:
        count, ending, *_ = GAMES[kind]
        if count:
            self.play.play_moves(MOVES[:count])
        else:  # the chips set up, no move: a no-show is decided before the first move
            self.play.play_moves([])
        self.arbiter_ends(ending)
        assert self.play.session.phase == "over", (self.board, self.play.session.phase)

    def arbiter_ends(self, ending: str) -> None:
        s, t = self.play.session, self.play.t
        s.press(t + 0.1, "pause", "hold")
        for _ in range(MENU[ending]):
            s.press(t + 0.15, "next")
        assert s.menu is not None and s.menu.choice.action in ending, s.menu
        s.press(t + 0.2, "confirm")
        self.play.t = t + 0.3
        self.play._after_step()

    def play_some(self, count: int) -> None:
        self.play.play_moves(MOVES[:count])

    def next_game(self) -> None:
        self.play.new_game()

    def wait_acked(self, timeout: float = 60) -> None:
        link = self.link.link

        def done() -> bool:
            link.nudge()
            return link.status().unacked == 0 and journal_total(self.folder) == acked_total(link)

        wait_for(f"{self.board}: acknowledged", done, timeout)

    def close(self) -> None:
        self.link.link.stop()
        self.play.close()
