"""A Dam game (12×12) on a simulated board: the pieces on the table, a hand that lifts and sets
them down, and the board's Dam session and view (``session/dam.py``, ``view/dam.py``), so the
page shows what a 72-square board would. The simulator's mock devices are an 8×8 board's, so
the table's 72 squares go to the session as a frame directly, as the sensors' scan would."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.i18n import _
from controller.rules.move import Square
from controller.session.dam import DamConfig, DamSession
from controller.session.export import write_whole
from controller.session.journal import KEPT_FOLDER, kept_name
from controller.view.dam import compose_dam, snapshot, status
from controller.view.leds import LEGEND
from drivers.scoresheet import capacity

from .engine import SimError, _square

DISPLAY = capacity((128, 64))
"""The simulated board's display (the Damath board's 128×64), in characters."""

JOURNAL = "dam.jsonl"
"""A Dam game's journal in the board's folder (beside a Damath game's ``journal.jsonl``)."""


class DamSim:
    def __init__(self, config: DamConfig, clock: Callable[[], float], folder: Path | None) -> None:
        self.clock = clock
        self.path = folder / JOURNAL if folder is not None else None
        if self.path is not None:
            self.session = DamSession.open(config, str(self.path))
        else:
            self.session = DamSession.begin(config)
        self.squares: set[Square] = set(self.session.game.occupied())
        """The pieces on the table (set as the journal left the game)."""
        self.hand: Square | None = None
        self.kept = self.session.phase == "over"
        """A finished game's PDN is written once (not again after a restart)."""
        self.step()

    @staticmethod
    def journal_in(folder: Path | None) -> bool:
        return folder is not None and (folder / JOURNAL).exists()

    def step(self) -> None:
        t = self.clock()
        self.session.feed_frame(t, self.squares)
        self.session.tick(t)
        self.session.take_cues()
        self._keep_finished()

    def act(self, message: dict[str, Any]) -> str:
        kind = message.get("type")
        if kind == "click":
            done = self._click(_square(message))
        elif kind == "remove":
            done = self._remove(_square(message))
        elif kind == "button":
            name = message.get("name")
            if name not in ("next", "confirm"):
                raise SimError(_("a Dam board's buttons: next, confirm"))
            self.session.press(self.clock(), str(name))
            done = _("pressed {button}").format(button=name)
        else:
            raise SimError(_("{kind!r} is not an action of a Dam board").format(kind=kind))
        self.step()
        return done

    def _click(self, square: Square) -> str:
        """Lift a piece, set it down; a piece clicked while one is held is taken off."""
        if self.hand is None and square in self.squares:
            self.squares.discard(square)
            self.hand = square
            return _("lifted the piece on {square}").format(square=_where(square))
        if self.hand is not None and square not in self.squares:
            self.squares.add(square)
            self.hand = None
            return _("set the piece down on {square}").format(square=_where(square))
        if self.hand is not None:
            return self._remove(square)
        raise SimError(_("nothing to lift on {square}").format(square=_where(square)))

    def _remove(self, square: Square) -> str:
        if square not in self.squares:
            raise SimError(_("nothing to take off on {square}").format(square=_where(square)))
        self.squares.discard(square)
        return _("took the piece off {square}").format(square=_where(square))

    def tick(self) -> None:
        self.step()

    def _keep_finished(self) -> None:
        """A finished game's PDN in ``games/``, once; a disk that refuses is said."""
        if self.kept or self.session.phase != "over" or self.path is None:
            return
        self.kept = True
        folder = self.path.parent / KEPT_FOLDER
        try:
            folder.mkdir(parents=True, exist_ok=True)
            name = f"{kept_name(time.time())}-dam.pdn"
            write_whole(folder / name, self.session.pdn({"Event": "Dam"}).encode("utf-8"))
        except OSError as exc:
            self.session.problems.append(_("cannot export the game: {exc}").format(exc=exc))

    def display_lines(self) -> list[str]:
        return list(compose_dam(self.session.view(), self.clock(), *DISPLAY).page)

    def snapshot(self) -> dict[str, Any]:
        snap = snapshot(self.session.view(), self.clock())
        lines = self.display_lines()
        return {
            **snap,
            "variant": "dam",
            "profile": "official",
            "ply": self.session.view().ply,
            "play": {},
            "hand": list(self.hand) if self.hand is not None else None,
            "table": [list(sq) for sq in sorted(self.squares)],
            "display": lines,
            "display_key": hashlib.sha1("\n".join(lines).encode()).hexdigest()[:12],
            "legend": {name: _(light.meaning) for name, light in LEGEND.items()},
            "record": self.session.pdn(),
            "problems": list(self.session.problems),
        }

    def summary(self) -> dict[str, Any]:
        """The class overview's card: Black (moves first) in the first player's place."""
        v = self.session.view()
        return {
            "variant": "dam",
            "rules": "dam",
            "practice": False,
            "blue": _("Black"),
            "red": _("White"),
            "event": "",
            "totals": {"blue": "", "red": ""},
            "to_move": ("blue", "red")[v.side_to_move],
            "phase": v.phase,
            "paused": False,
            "ply": v.ply,
            "over": v.ending is not None,
            "result": v.result if v.ending is not None else "",
            "clocks": {"game": "--:--", "move": "--:--"},
            "message": status(v),
        }

    def export(self, what: str) -> tuple[str, str]:
        """The game's PDN (its record: Dam has no score) or its JSON ``position``."""
        if what == "pdn":
            return self.session.pdn(), "text/plain; charset=utf-8"
        if what in ("json", "position"):
            data = self.session.position()
            return json.dumps(data, ensure_ascii=False, indent=1), "application/json"
        raise SimError(_("a Dam game has no {what}: its record is the pdn").format(what=what))

    def put_away(self, folder: Path | None) -> None:
        """Another game starts: this one's journal is kept in ``games/`` (none: dropped)."""
        self.session.close()
        if self.path is not None and self.path.exists() and folder is not None:
            kept = folder / KEPT_FOLDER
            kept.mkdir(parents=True, exist_ok=True)
            self.path.rename(kept / f"{kept_name(time.time())}-dam.jsonl")

    def close(self) -> None:
        self.session.close()


def _where(square: Square) -> str:
    return f"({square[0]},{square[1]})"
