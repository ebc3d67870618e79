"""A board played from a sensor trace or a recorded game, writing its journal as a real board does.

For tests, load and demonstrations of the hub: the frames of a recorded trace (or simulated
hands playing a game's moves, ``tracker.generator.human_trace``) go through the board's own
``Session`` (tracker, rules engine, clocks), which journals every accepted move in ``folder``
exactly as on the Pi; a ``Link`` following that folder publishes it. Time is the trace's, paced
against the wall clock by ``speed`` (``None``: as fast as possible). A board played from moves
can be stopped at any point and continued by a new ``PlaybackBoard`` on the same folder, as a
board that lost its power resumes from its journal.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar, cast

from controller.engine.game_record import played, read_record
from controller.rules.game import Game
from controller.rules.move import Move, Square
from controller.session import Session, SessionConfig
from controller.tracker.generator import human_trace
from controller.tracker.trace import Frame, Press, Trace, read_trace

OnRecord = Callable[["PlaybackBoard", int], None]
"""Called after a step that journaled something, with the number of records now in the file."""


T = TypeVar("T")


class PlaybackBoard:
    def __init__(
        self,
        folder: str | os.PathLike[str],
        *,
        variant: str = "integer",
        rules: str = "official",
        position: dict[str, Any] | None = None,
        tracker_settings: dict[str, Any] | None = None,
        checkpoint_seconds: float = 10.0,
        sync: bool = True,
        on_record: OnRecord | None = None,
    ) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        config = SessionConfig(
            variant=variant,
            rules=rules,
            position=position,
            tracker_settings=dict(tracker_settings or {}),
            checkpoint_seconds=checkpoint_seconds,
        )
        self.session = Session.open(config, str(self.folder / "journal.jsonl"), 0.0, sync=sync)
        self.on_record = on_record
        self.t = 0.0
        self._count = self._journaled()

    @classmethod
    def from_trace(
        cls,
        folder: str | os.PathLike[str],
        trace: Trace,
        *,
        checkpoint_seconds: float = 10.0,
        sync: bool = True,
        on_record: OnRecord | None = None,
    ) -> PlaybackBoard:
        return cls(
            folder,
            variant=trace.variant,
            rules=trace.profile,
            position=trace.position,
            tracker_settings=trace.settings,
            checkpoint_seconds=checkpoint_seconds,
            sync=sync,
            on_record=on_record,
        )

    def _journaled(self) -> int:
        journal = self.session.journal
        return journal.count if journal is not None else 0

    # ------------------------------------------------------------------ playing

    def feed(
        self,
        records: Iterable[Frame | Press],
        speed: float | None = None,
        stop: threading.Event | None = None,
    ) -> bool:
        """Play trace records (times relative to the board's time now); False if stopped."""
        base_t, base_wall = self.t, time.monotonic()
        for rec in records:
            t = base_t + rec.t
            if speed:
                delay = base_wall + (t - base_t) / speed - time.monotonic()
                if stop is not None:
                    if stop.wait(max(0.0, delay)):
                        return False
                elif delay > 0:
                    time.sleep(delay)
            elif stop is not None and stop.is_set():
                return False
            if isinstance(rec, Frame):
                self.session.feed_frame(t, rec.occupied)
            else:
                self.session.press(t, rec.button)
            self.t = t
            self._after_step()
        return True

    def advance(self, seconds: float, step: float = 0.05) -> None:
        """Let board time pass (settling, clocks) without touching the board."""
        end = self.t + seconds
        while self.t < end:
            self.t = min(end, self.t + step)
            self.session.tick(self.t)
            self._after_step()

    def _after_step(self) -> None:
        count = self._journaled()
        if count != self._count:
            self._count = count
            if self.on_record is not None:
                self.on_record(self, count)

    def restore(self) -> None:
        """After a resume the board waits for the chips to stand as journaled: put them back."""
        if self.session.phase == "restore":
            self.feed([Frame(0.05, frozenset(self.session.expected_chips()))])
            self.advance(1.0)

    def play_moves(
        self,
        moves: Iterable[Move | list[Square]],
        seed: int = 1,
        speed: float | None = None,
        stop: threading.Event | None = None,
        pause_between: float = 0.0,
    ) -> int:
        """Simulated hands play ``moves`` (paths or Moves) from the position on the board now;
        returns how many were played. Moves already on the board (a resumed game) are skipped
        by the caller: use ``remaining``."""
        rng = random.Random(seed)
        played = 0
        self.restore()
        if self.session.phase == "setup":
            self.feed([Frame(0.05, frozenset(self.session.expected_chips()))], speed, stop)
            self.advance(1.0)
        for raw in moves:
            game = self.session.game
            path = raw.path if isinstance(raw, Move) else [tuple(s) for s in raw]
            move = game.find_move(cast("list[Square]", list(path)))
            lines = human_trace(game, [move], rng)
            trace = read_trace(lines)
            frames = [r for r in trace.records if isinstance(r, Frame)][1:]  # skip "as it stands"
            if not self.feed([Frame(r.t, r.occupied) for r in frames], speed, stop):
                return played
            self.advance(1.0)
            if pause_between:
                if stop is not None and stop.wait(pause_between):
                    return played + 1
                if stop is None:
                    time.sleep(pause_between)
            played += 1
            if self.session.phase == "over":
                break
        return played

    def remaining(self, moves: list[T]) -> list[T]:
        """The moves of a recorded game not yet on the board (a resumed game continues)."""
        return list(moves[self.session.game.ply :])

    def stop_game(self) -> None:
        """The arbiter's Stop: hold pause, choose "Stop, tally now", confirm."""
        if self.session.phase not in ("play", "restore"):
            return
        self.session.press(self.t + 0.1, "pause", "hold")
        menu = self.session.menu
        for _ in range(len(menu.options) if menu else 0):
            if self.session.menu is None or self.session.menu.choice.action == "stop":
                break
            self.session.press(self.t + 0.1, "next")
        self.session.press(self.t + 0.2, "confirm")
        self.t += 0.3
        self._after_step()

    def new_game(self) -> None:
        """Archive the finished game and start the next (the board's new-game button)."""
        self.t += 0.5
        self.session.press(self.t, "new_game")
        self._after_step()

    def close(self) -> None:
        self.session.checkpoint(self.t)
        if self.session.journal is not None:
            self.session.journal.close()


def sample_game_moves(path: str | None = None) -> tuple[Game, list[Move]]:
    """The bundled sample game (or a game file), checked move by move by the engine."""
    if path is None:
        text = resources.files("controller.data").joinpath("sample_game.json").read_text("utf-8")
    else:
        text = Path(path).read_text(encoding="utf-8")
    game = played(read_record(text, path or "the sample game"))
    return game, [move for _, move in game.played()]
