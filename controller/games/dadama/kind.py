"""Dadama on the board (docs/rules-dadama.md): the same 8 × 8 board and devices as Damath; the
board is the dice (seeded throws, or real dice entered with the buttons)."""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any

from controller import registry
from controller.games.dadama.computer import COMPUTER
from controller.games.dadama.record import GAME
from controller.i18n import _
from controller.record.table import STOP_RULES
from controller.rules.dadama import COLOURS
from controller.rules.move import Square

from ..clocks import NAMES as CLOCK_SETTINGS
from ..clocks import ClockRule
from ..desk import TableDesk, TableSessionGame
from ..kind import GameKind, Geometry, Opening, Outputs, Record
from ..timed import timed

if TYPE_CHECKING:
    from controller.games.dadama.session import DadamaConfig, DadamaSession


def config(settings: Mapping[str, Any], opening: Opening | None = None) -> DadamaConfig:
    from controller.games.dadama.session import config_from_settings

    position = opening.position if opening is not None else None
    return config_from_settings(dict(settings), position)


def open_dadama(settings: Mapping[str, Any], opening: Opening) -> DadamaGame:
    from controller.games.dadama.session import DadamaSession

    made = opening.config if opening.config is not None else config(settings, opening)
    path = None if opening.journal is None else str(opening.journal)
    return DadamaGame(DadamaSession.open(made, path, sync=opening.sync))


def owns(first: Record) -> bool:
    from controller.record.games import game_of

    return game_of(first) == GAME


class DadamaGame(TableSessionGame):
    session: DadamaSession

    def __init__(self, session: DadamaSession) -> None:
        self.kind = DADAMA
        self.session = session
        self.desk = TableDesk(
            GAME,
            lambda: self.session.table,
            self.session.commit,
            lambda: len(self.session.game.history),
            lambda: self.session.phase == "over",
            lambda: self.session.journal,
            colours=COLOURS,
            stop_rule=session.config.stop,
            side=lambda: self.session.view().side_to_move,
            ready=lambda: self.session.phase == "play",
        )
        session.blocks = self.desk.blocks
        session.ended_text = self.desk.ending_text

    def outputs(self, t: float, cols: int, rows: int) -> Outputs:
        from controller.games.dadama.view import compose_dice

        view = self.session.view()
        menu = self.desk.menu_page(cols, rows)
        faces = self.desk.clock_faces(t)
        if menu is not None:
            return Outputs(compose_dice(view, t, cols, rows).leds, menu, faces)
        table = self.desk.lines()
        if not table:
            out = compose_dice(view, t, cols, rows)
            return Outputs(out.leds, out.page, faces)
        from dataclasses import replace

        from controller.view.outputs import page_lines

        # a refused step said first, then the table, then the game's own lines (all of them)
        out = compose_dice(replace(view, message=""), t, cols, 10 * rows)
        shown = [line for line in out.page if line]
        return Outputs(out.leds, page_lines((view.message, *table, *shown), cols, rows), faces)

    def tick(self, t: float) -> bool:
        """The computer's answers, from its worker processes (``games.opponent``), and the
        board's clocks (``TableDesk.tick``)."""
        answered = bool(self.session.tick(t))
        return self.desk.tick(t) or answered

    def expected(self) -> frozenset[Square]:
        from controller.games.dadama.tracker import loose, occupied

        g = self.session.game
        return frozenset(occupied(g) - loose(g))

    def page(self, t: float) -> dict[str, Any]:
        from controller.games.dadama.view import DICE_LEGEND, snapshot

        s = self.session
        return {
            **snapshot(s.view(), t),
            "variant": "dadama",
            "profile": "official",
            "ply": len(s.game.history),
            "play": {},
            "computer": s.computer(),
            "legend": {name: _(light.meaning) for name, light in DICE_LEGEND.items()},
            "record": s.record_text(),
            "problems": list(s.problems),
            "players": s.table.players(),
            "table_lines": self.desk.lines(),
            "clocks": self.desk.clock_page(t),
            "page": list(self.outputs(t, 40, 8).page),  # the display, the table's lines first
        }

    def summary(self, t: float) -> dict[str, Any]:
        """The class overview's card, in the Damath card's fields: White in the first player's
        place, Black in the second's; no score."""
        from controller.games.dadama.view import status

        v = self.session.view()
        return {
            "game": GAME,
            "variant": "dadama",
            "rules": "dadama",
            "practice": False,
            "blue": _("White"),
            "red": _("Black"),
            "event": "",
            "totals": {"blue": "", "red": ""},
            "to_move": ("blue", "red")[v.side_to_move],
            "phase": v.phase,
            "paused": self.session.table.paused,
            "ply": len(self.session.game.history),
            "over": v.ending is not None or bool(v.arbiter),
            "result": v.arbiter or (v.ending.describe() if v.ending is not None else ""),
            "clocks": self.desk.clock_page(t),
            "message": status(v),
        }

    def carried(self) -> dict[str, Any]:
        """A new game keeps the board's dice (board or real) unless it says otherwise."""
        return {"dice": self.session.dice_mode}

    def finished(self) -> Hashable | None:
        s = self.session
        return ("over", len(s.game.history)) if s.phase == "over" else None

    def files(self) -> dict[str, str]:
        """Its sheet (its turns and throws), its record as text with every throw, and as JSON."""
        from . import sheet

        s = self.session
        return {
            "pdn": s.record_text(),
            "csv": sheet.to_csv(s.game, s.start),
            "html": sheet.to_html(s.game, s.start),
            "json": json.dumps(s.record(), ensure_ascii=False, indent=1) + "\n",
        }

    def download(self, what: str) -> tuple[str, str]:
        if what == "position":
            text = json.dumps(self.session.position(), ensure_ascii=False, indent=1)
            return text + "\n", "application/json; charset=utf-8"
        return super().download(what)


TIMED = timed(config, open_dadama, ClockRule(20 * 60, 60))
"""Its clocks as Damath's (docs/rules-dadama.md, "Clocks")."""

DADAMA = GameKind(
    name=GAME,
    title=registry.GAMES[GAME].title,
    geometry=Geometry(8),
    table="dice",
    renderer="dadama",
    check=TIMED[0],
    open=TIMED[1],
    owns=owns,
    settings=(
        "dice",
        "seed",
        "throw_choice",
        "go_on",
        "repetition",
        "stop",
        "computer",
        "level",
        "computer_level",
        *CLOCK_SETTINGS,
    ),
    clocks=True,
    stops=STOP_RULES,
    computer=COMPUTER,
)
