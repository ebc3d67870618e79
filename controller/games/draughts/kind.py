"""The plain draughts games on the board (Dam, English draughts): one ``BoardGame`` over the
generic draughts session (``session.py`` here) and view (``view.py``), and
``draughts_kind`` that registers one of them from its ``DraughtsRules`` alone."""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping
from typing import Any

from controller.games.computer import Computer
from controller.games.draughts.record import DraughtsRules
from controller.games.draughts.session import DraughtsConfig, DraughtsSession
from controller.i18n import _
from controller.record.games import game_of
from controller.record.table import STOP_RULES
from controller.rules.move import Square

from ..arbiter import stop_rule, without_stop
from ..clocks import NAMES as CLOCK_SETTINGS
from ..clocks import ClockRule
from ..desk import TableDesk, TableSessionGame
from ..kind import GameKind, Geometry, Opening, Outputs, Record
from ..timed import timed


class DraughtsGame(TableSessionGame):
    session: DraughtsSession

    def __init__(self, kind: GameKind, session: DraughtsSession) -> None:
        self.kind = kind
        self.session = session
        self.desk = TableDesk(
            kind.name,
            lambda: self.session.table,
            self.session.commit,
            lambda: self.session.game.ply,
            lambda: self.session.game.ending() is not None,
            lambda: self.session.journal,
            colours=session.rules.colours,
            stop_rule=session.config.stop,
            side=lambda: self.session.game.side_to_move,
            ready=lambda: self.session.phase == "play",
        )
        session.blocks = self.desk.blocks
        session.ended_text = self.desk.ending_text

    def outputs(self, t: float, cols: int, rows: int) -> Outputs:
        from controller.games.draughts.view import compose_draughts, counts, status
        from controller.view.outputs import page_lines

        v = self.session.view()
        out = compose_draughts(v, t, cols, rows)
        out = Outputs(out.leds, out.page, self.desk.clock_faces(t))
        menu = self.desk.menu_page(cols, rows)
        if menu is not None:
            return Outputs(out.leds, menu, out.clocks)
        table = self.desk.lines()
        if not table:
            return out
        said = "" if v.over else v.message  # a refused move: said first
        parts = (said, *table, status(v), counts(v))
        return Outputs(out.leds, page_lines(parts, cols, rows), out.clocks)

    def expected(self) -> frozenset[Square]:
        return frozenset(self.session.game.occupied())

    def page(self, t: float) -> dict[str, Any]:
        from controller.games.draughts.view import snapshot
        from controller.view.leds import LEGEND

        v = self.session.view()
        return {
            **snapshot(v, t),
            "variant": self.kind.name,
            "profile": "official",
            "title": _(self.kind.title),
            "ply": v.ply,
            "play": {},
            "legend": {name: _(light.meaning) for name, light in LEGEND.items()},
            "record": self.session.pdn(),
            "problems": list(self.session.problems),
            "players": self.session.table.players(),
            "table_lines": self.desk.lines(),
            "clocks": self.desk.clock_page(t),
            "page": list(self.outputs(t, 40, 8).page),  # the display, the table's lines first
        }

    def summary(self, t: float) -> dict[str, Any]:
        """The class overview's card: the first mover in the first player's place."""
        from controller.games.draughts.view import status

        v = self.session.view()
        return {
            "game": self.kind.name,
            "variant": self.kind.name,
            "rules": self.kind.name,
            "practice": False,
            "blue": _(v.colours[0].capitalize()),
            "red": _(v.colours[1].capitalize()),
            "event": "",
            "totals": {"blue": "", "red": ""},
            "to_move": ("blue", "red")[v.side_to_move],
            "phase": v.phase,
            "paused": self.session.table.paused,
            "ply": v.ply,
            "over": v.over,
            "result": v.result if v.over else "",
            "clocks": self.desk.clock_page(t),
            "message": status(v),
        }

    def finished(self) -> Hashable | None:
        game = self.session.game  # over by its pieces: resumed, it is over before it is shown
        return ("over", game.ply) if self.session.over() else None

    def files(self) -> dict[str, str]:
        """Its record (these games have no score): PDN, readable by any draughts program."""
        return {"pdn": self.session.pdn({"Event": _(self.kind.title)})}

    def download(self, what: str) -> tuple[str, str]:
        if what in ("json", "position"):
            text = json.dumps(self.session.position(), ensure_ascii=False, indent=1)
            return text + "\n", "application/json; charset=utf-8"
        return super().download(what)


def draughts_kind(
    rules: DraughtsRules,
    geometry: Geometry,
    settings: tuple[str, ...],
    clock: ClockRule,
    computer: Computer | None = None,
) -> GameKind:
    """The registry's entry for a plain draughts game: everything but its rules (and its
    clocks' defaults, ``clock``: its rules page says them; its computer) is shared."""

    def check(given: Mapping[str, Any], opening: Opening | None = None) -> DraughtsConfig:
        position = opening.position if opening is not None else None
        made = DraughtsConfig(without_stop(given), position, stop_rule(given, STOP_RULES))
        if made.position is not None:
            rules.from_json(made.position, made.settings)
        else:
            rules.opening(made.settings)  # a wrong setting: its reason, one line
        return made

    def open_game(given: Mapping[str, Any], opening: Opening) -> DraughtsGame:
        made = opening.config if opening.config is not None else check(given, opening)
        path = None if opening.journal is None else str(opening.journal)
        session = DraughtsSession.open(rules, made, path, sync=opening.sync)
        return DraughtsGame(kind, session)

    def owns(first: Record) -> bool:
        return game_of(first) == rules.name

    timed_check, timed_open = timed(check, open_game, clock)
    kind = GameKind(
        name=rules.name,
        title=rules.title,
        geometry=geometry,
        table="pieces",
        renderer="draughts",
        check=timed_check,
        open=timed_open,
        owns=owns,
        settings=(*settings, "stop", *CLOCK_SETTINGS),
        clocks=True,
        stops=STOP_RULES,
        computer=computer,
    )
    return kind
