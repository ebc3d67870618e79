"""Damath on the board: the session (``controller/session``: setup, play, the arbiter's buttons
and clocks, the journal) and the coach (the computer's moves, hints, the review), behind the
one interface of a game (``kind.BoardGame``)."""

from __future__ import annotations

import json
import time
from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any

from controller import registry
from controller.record.games import DAMATH as NAME
from controller.rules.move import Square

from .kind import GameKind, Geometry, Opening, Outputs, Record, SessionGame

if TYPE_CHECKING:
    from controller.coach.board import BoardCoach
    from controller.session import Session, SessionConfig

CHOSEN = ("variant", "rules")
"""Settings that choose the game rather than set it: the variant and the rules profile."""


def config(settings: Mapping[str, Any], opening: Opening | None = None) -> SessionConfig:
    """A Damath game's config from its settings (the variant, the rules profile, the rule,
    play and event settings, by name); ValueError names what is wrong."""
    from controller.session import SessionConfig

    given = dict(settings)
    variant = given.pop("variant", "integer")
    rules = given.pop("rules", "official")
    for name, value in (("variant", variant), ("rules", rules)):
        if not isinstance(value, str):
            raise ValueError(f"{name}: a name, not {value!r}")
    carried: dict[str, Any] = dict(opening.carried) if opening is not None else {}
    made = SessionConfig(
        variant=variant,
        rules=rules,
        rule_settings=given,
        tracker_settings=dict(opening.tracker) if opening is not None else {},
        position=opening.position if opening is not None else None,
        info=dict(carried.get("info") or {}),
        roster=opening.roster if opening is not None else None,
    )
    made.profile()  # a wrong rule setting or variant fails here, clearly
    from controller.rules import variants

    variants.get_variant(made.variant)
    return made


def check(settings: Mapping[str, Any], opening: Opening | None = None) -> object:
    """The settings of a game (``config``), or of a puzzle (``puzzle``, ``child``: the puzzle
    mode, ``damath_puzzle``)."""
    from . import damath_puzzle

    if damath_puzzle.wanted(settings):
        return damath_puzzle.check(settings, opening)
    return config(settings, opening)


def open_damath(settings: Mapping[str, Any], opening: Opening) -> DamathGame:
    from controller.coach.board import BoardCoach
    from controller.session import Session

    from . import damath_puzzle

    if isinstance(opening.config, damath_puzzle.PuzzleRequest) or (
        opening.config is None and damath_puzzle.wanted(settings)
    ):
        return damath_puzzle.open_puzzle(settings, opening)

    made = opening.config if opening.config is not None else config(settings, opening)
    if opening.journal is None:
        session = Session.start(made, opening.t)
    else:
        session = Session.open(made, str(opening.journal), opening.t, sync=opening.sync)
    session.wall = opening.wall or time.time
    return DamathGame(session, BoardCoach())


def owns(first: Record) -> bool:
    from controller.record.games import game_of

    return game_of(first) == NAME


class DamathGame(SessionGame):
    session: Session

    def __init__(self, session: Session, coach: BoardCoach) -> None:
        self.kind = DAMATH
        self.session = session
        self.coach = coach
        """The computer opponent, hints and the review: searches in worker processes, polled."""

    def press(self, t: float, name: str, kind: str = "press") -> None:
        self.session.press(t, name, kind)  # a held button is the arbiter's menu, a dispute

    def tick(self, t: float) -> bool:
        changed = self.session.tick(t)
        return self.coach.poll(self.session) or changed

    def outputs(self, t: float, cols: int, rows: int) -> Outputs:
        from controller.view.compose import compose

        out = compose(self.session.view_input(t), t, cols, rows)
        return Outputs(out.leds, out.page, out.clocks)

    def take_cues(self) -> list[str]:
        return [cue.name for cue in self.session.take_cues()]

    def expected(self) -> frozenset[Square]:
        return frozenset(self.session.expected_chips())

    def page(self, t: float) -> dict[str, Any]:
        from controller.view.snapshot import snapshot

        return snapshot(self.session.view_input(t, page=True), t, page=True)

    def summary(self, t: float) -> dict[str, Any]:
        from controller.scoresheet.typeset import typeset
        from controller.session.clocks import clock_text
        from controller.view.compose import message

        s = self.session
        reading = s.clocks.reading(t)
        totals = s.totals()
        outcome = s.outcome
        return {
            "game": NAME,
            "variant": s.variant,
            "rules": s.profile_name,
            "practice": s.play.practice,
            "blue": s.info.get("blue", ""),
            "red": s.info.get("red", ""),
            "event": s.info.get("event", ""),
            "totals": {"blue": typeset(totals[0]), "red": typeset(totals[1])},
            "to_move": ("blue", "red")[s.game.side_to_move],
            "phase": s.phase,
            "paused": s.paused,
            "ply": s.game.ply,
            "over": outcome is not None,
            "result": f"{outcome.result_text}: {outcome.text}" if outcome else "",
            "clocks": {
                "game": clock_text(reading.game_left) if s.play.timed else "--:--",
                "move": clock_text(reading.move_left) if s.play.timed else "--:--",
            },
            "message": message(s.view_input(t)),
        }

    def ready_line(self, board: str) -> str:
        return self.session.ready_line(board)

    def carried(self) -> dict[str, Any]:
        """What the next game on this board starts with: the players and the event, today."""
        import datetime

        return {"info": {**self.session.info, "date": datetime.date.today().isoformat()}}

    def finished(self) -> Hashable | None:
        outcome = self.session.outcome
        return None if outcome is None else id(outcome)

    def files_version(self) -> Hashable:
        return self.session.current_review() is not None

    def files(self) -> dict[str, str]:
        s = self.session
        return {"pdn": s.export_pdn(), "csv": s.export_csv(), "html": s.export_html()}

    def download(self, what: str) -> tuple[str, str]:
        if what == "position":
            return _position(self.session), "application/json; charset=utf-8"
        return super().download(what)

    def linked(self) -> Session:
        return self.session

    def put_away(self, wall: float) -> str | None:
        from controller.session.journaled import put_away

        return put_away(self.session.journal, bool(self.session.game.ply), wall)

    def close(self, t: float) -> None:
        self.session.close(t)


def _position(session: Session) -> str:
    from controller.rules.notation import game_to_json

    return json.dumps(game_to_json(session.game), ensure_ascii=False, indent=1) + "\n"


DAMATH = GameKind(
    name=NAME,
    title=registry.GAMES[NAME].title,
    geometry=Geometry(8),
    table="chips",
    renderer="damath",
    check=check,
    open=open_damath,
    owns=owns,
    settings=(
        "variant",
        "rules",
        "practice",
        "clocks",
        "computer",
        "level",
        "hints",
        "puzzle",
        "child",
    ),
    clocks=True,
)
