"""A Dadama game on a simulated board: the dice on the table, the mock sensors and buttons, and
the board's own Dadama loop (``board/dadama.py``), so the page shows what a real board would.

The table only knows which squares hold a die (the sensors see nothing more); a lifted die is
in the hand until it is set down. The page's face buttons (real dice) go to the session as a
button of the page does; the board's five buttons go through the mock buttons.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.board.dadama import DadamaLoop
from controller.i18n import _
from controller.rules.move import Square
from controller.scoresheet import dadama as sheet
from controller.session.dadama import DadamaConfig, DadamaSession
from controller.session.export import write_whole
from controller.session.journal import KEPT_FOLDER, kept_name
from controller.tracker import BUTTONS
from controller.tracker.dadama import loose, occupied
from controller.view.dice import DICE_LEGEND, snapshot, status
from drivers.factory import Devices, MockControls

from . import texts
from .engine import SimError, _square

JOURNAL = "dadama.jsonl"
"""A Dadama game's journal in the board's folder (beside a Damath game's ``journal.jsonl``)."""


class DadamaSim:
    def __init__(
        self,
        config: DadamaConfig,
        devices: Devices,
        hands: MockControls,
        clock: Callable[[], float],
        folder: Path | None,
    ) -> None:
        self.clock = clock
        self.devices = devices
        self.hands = hands
        self.path = folder / JOURNAL if folder is not None else None
        if self.path is not None:
            self.session = DadamaSession.open(config, str(self.path))
        else:
            self.session = DadamaSession.begin(config)
        g = self.session.game
        self.squares: set[Square] = set(occupied(g) - loose(g))
        """The dice on the table (the board is set as the journal left the game)."""
        self.hand: Square | None = None
        self.kept = self.session.phase == "over"
        """A finished game's sheets are written once (not again after a restart)."""
        self.hands.set_occupied(self.squares)
        self.loop = DadamaLoop(self.session, devices)
        self.loop.step(clock())

    @staticmethod
    def journal_in(folder: Path | None) -> bool:
        return folder is not None and (folder / JOURNAL).exists()

    def act(self, message: dict[str, Any]) -> str:
        kind = message.get("type")
        if kind == "click":
            done = self._click(_square(message))
        elif kind == "lift":
            done = self._lift(_square(message))
        elif kind == "place":
            done = self._place(_square(message))
        elif kind == "remove":
            done = self._remove(_square(message))
        elif kind == "button":
            done = self._button(message.get("name"))
        else:
            raise SimError(_("{kind!r} is not an action of a Dadama board").format(kind=kind))
        self.hands.set_occupied(self.squares)
        self.loop.step(self.clock())
        self._keep_finished()
        return done

    def _click(self, square: Square) -> str:
        """Lift a die, set it down; a taken piece clicked is taken off the board."""
        taken = loose(self.session.game) | set(self.session.seen.extra)
        if self.hand is None and square in self.squares and square in taken:
            return self._remove(square)
        if self.hand is None and square in self.squares:
            return self._lift(square)
        if self.hand is not None and square not in self.squares:
            return self._place(square)
        if self.hand is not None and square == self.hand:
            return self._place(square)
        if square in self.squares:  # a die in the hand and one clicked: that one is taken off
            return self._remove(square)
        raise SimError(_("nothing to lift on {square}").format(square=_where(square)))

    def _lift(self, square: Square) -> str:
        if square not in self.squares:
            raise SimError(_("nothing to lift on {square}").format(square=_where(square)))
        if self.hand is not None:
            raise SimError(_("you already hold a die: set it down first"))
        self.squares.discard(square)
        self.hand = square
        return _("lifted the die on {square}").format(square=_where(square))

    def _place(self, square: Square) -> str:
        if self.hand is None:
            raise SimError(_("no die in the hand"))
        if square in self.squares:
            raise SimError(_("{square} is taken").format(square=_where(square)))
        self.squares.add(square)
        self.hand = None
        return _("set the die down on {square}").format(square=_where(square))

    def _remove(self, square: Square) -> str:
        if square not in self.squares:
            raise SimError(_("nothing to take off on {square}").format(square=_where(square)))
        self.squares.discard(square)
        return _("took the die off {square}").format(square=_where(square))

    def _button(self, name: object) -> str:
        if isinstance(name, str) and name in BUTTONS:
            self.hands.press(name)
            return _(texts.BUTTON_PRESSED).format(button=name.replace("_", " "))
        faces = [f"face{n}" for n in range(1, 7)]
        if isinstance(name, str) and name in faces:
            if self.session.dice_mode != "real":
                raise SimError(_("the board throws the dice: start a game with real dice"))
            self.session.press(self.clock(), name)
            return _("entered a {face}").format(face=name[4:])
        raise SimError(
            _(texts.UNKNOWN_BUTTON).format(name=name, names=", ".join([*BUTTONS, *faces]))
        )

    def tick(self) -> None:
        self.loop.step(self.clock())
        self._keep_finished()

    def _keep_finished(self) -> None:
        """A finished game's record and sheets in ``games/``, once, as a Damath board keeps
        them; a disk that refuses is said, and the game stays on the board."""
        if self.kept or self.session.phase != "over" or self.path is None:
            return
        self.kept = True
        folder = self.path.parent / KEPT_FOLDER
        name = f"{kept_name(time.time())}-dadama"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            for suffix, what in ((".pdn", "pdn"), (".csv", "csv"), (".html", "html")):
                write_whole(folder / (name + suffix), self.export(what)[0].encode("utf-8"))
        except OSError as exc:
            self.session.problems.append(_("cannot export the game: {exc}").format(exc=exc))

    def display_lines(self) -> list[str]:
        display = self.devices.scoresheet
        return list(display.last or []) if display is not None else []

    def snapshot(self) -> dict[str, Any]:
        snap = snapshot(self.session.view(), self.clock())
        lines = self.display_lines()
        return {
            **snap,
            "variant": "dadama",
            "profile": "official",
            "ply": len(self.session.game.history),
            "play": {},
            "hand": list(self.hand) if self.hand is not None else None,
            "table": [list(sq) for sq in sorted(self.squares)],
            "display": lines,
            "display_key": hashlib.sha1("\n".join(lines).encode()).hexdigest()[:12],
            "legend": {name: _(light.meaning) for name, light in DICE_LEGEND.items()},
            "record": self.session.record_text(),
            "problems": list(self.session.problems),
        }

    def summary(self) -> dict[str, Any]:
        """The class overview's card, in the Damath card's fields: White in the first
        player's place, Black in the second's; no score and no clocks."""
        v = self.session.view()
        return {
            "variant": "dadama",
            "rules": "dadama",
            "practice": False,
            "blue": _("White"),
            "red": _("Black"),
            "event": "",
            "totals": {"blue": "", "red": ""},
            "to_move": ("blue", "red")[v.side_to_move],
            "phase": v.phase,
            "paused": False,
            "ply": len(self.session.game.history),
            "over": v.ending is not None,
            "result": v.ending.describe() if v.ending is not None else "",
            "clocks": {"game": "--:--", "move": "--:--"},
            "message": status(v),
        }

    def export(self, what: str) -> tuple[str, str]:
        """The game's sheet (``csv``, ``html``: its turns and throws), its record (``pdn``: the
        text with every throw, ``json``) or ``position``."""
        if what == "csv":
            return sheet.to_csv(self.session.game, self.session.start), "text/csv; charset=utf-8"
        if what == "html":
            return sheet.to_html(self.session.game, self.session.start), "text/html; charset=utf-8"
        if what == "pdn":
            return self.session.record_text(), "text/plain; charset=utf-8"
        if what in ("json", "position"):
            data = self.session.record() if what == "json" else self.session.position()
            return json.dumps(data, ensure_ascii=False, indent=1), "application/json"
        raise SimError(
            _("a Dadama game has no {what}: its record is the pdn or json").format(what=what)
        )

    def put_away(self, folder: Path | None) -> None:
        """Another game starts: this one's journal is kept in ``games/`` (none: dropped)."""
        self.session.close()
        if self.path is not None and self.path.exists() and folder is not None:
            kept = folder / KEPT_FOLDER
            kept.mkdir(parents=True, exist_ok=True)
            self.path.rename(kept / f"{kept_name(time.time())}-dadama.jsonl")

    def close(self) -> None:
        self.session.close()


def _where(square: Square) -> str:
    return f"({square[0]},{square[1]})"
