"""A Damath game as its journal's records build it: the one ``apply`` that every reader of the
records goes through. The board's session applies each record it journals (and, on a resume,
each record it reads back), the board's link describes what it publishes from it, and the hub
rebuilds every game it receives with it: one reading of each kind of record, as python-chess's
PGN reader is one reader with many visitors.

A record is a dict as the journal writes it (``{"k": "move", "path": [[1, 2], [2, 3]], ...}``;
docs/session.md); ``check.record_problem`` says what is impossible in one before it is applied.
What a live board adds (the tracker, the running clocks, the buzzer, the messages) stays with
the session; nothing here reads a clock or a device.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.i18n import _
from controller.rules.game import Game
from controller.rules.move import Move
from controller.rules.notation import game_from_json, game_to_json
from controller.rules.profiles import Profile, get_profile
from controller.rules.scoring import Score, format_score, kind_of, sum_scores
from controller.scoresheet.model import Row, Scoresheet, build_scoresheet, move_rows

from . import info as game_info
from . import play as play_mode
from .kinds import RecordKind
from .outcome import Outcome, scoring_profile, tally
from .signing import SIGNING_KINDS, Signing

Record = dict[str, Any]


@dataclass(frozen=True)
class Setup:
    """What a game starts from, as its ``start`` record says it."""

    variant: str = "integer"
    rules: str = "official"
    rule_settings: dict[str, Any] = field(default_factory=dict)
    tracker_settings: dict[str, Any] = field(default_factory=dict)
    position: dict[str, Any] | None = None
    """The JSON position it starts from (docs/notation.md); None: the variant's opening."""
    info: dict[str, str] = field(default_factory=dict)
    play: dict[str, Any] = field(default_factory=dict)

    def profile(self) -> Profile:
        return get_profile(self.rules).with_settings(self.rule_settings)

    @classmethod
    def of(cls, rec: Record) -> Setup:
        """A start record's setup; ValueError names the field that cannot be read."""
        return cls(
            variant=_text(rec, "variant"),
            rules=_text(rec, "rules"),
            rule_settings=_object(rec, "rule_settings"),
            tracker_settings=_object(rec, "tracker_settings"),
            position=_object(rec, "position") or None,
            info=game_info.clean(_object(rec, "info")),
            play=_object(rec, "play"),
        )


def game_at(position: dict[str, Any], profile: Profile) -> Game:
    """A game standing at a JSON position (docs/notation.md), played under ``profile`` (with
    the arbiter's settings, which the position does not carry)."""
    base = game_from_json(position)
    return Game(base.rules, base.chips(), base.side_to_move, variant=base.variant, profile=profile)


class DamathState:
    """Everything a Damath game's records say after those applied so far."""

    def __init__(self, setup: Setup | None = None) -> None:
        self.signing = Signing()
        """Confirmations, signatures and disputes (they outlast a game: a new board's game
        keeps an assignment confirmed)."""
        self.begin(setup or Setup())
        self.phase = "none"
        """``none`` (no start record yet), ``setup``, ``play``, ``over``."""

    def begin(self, setup: Setup) -> None:
        """A new game from ``setup``: what a ``start`` record does. ValueError (a rules
        profile, a setting, a position, a play setting that cannot be) changes nothing."""
        profile = setup.profile()
        if setup.position is not None:
            position = dict(setup.position)
            position.setdefault("variant", setup.variant)
            position["profile"] = profile.name
            game = game_at(position, profile)
        else:
            game = Game.new(setup.variant, profile)
        play = play_mode.parse(setup.play)
        self.setup = setup
        self.profile = profile
        self.game = game
        self.start = game_to_json(game)
        """The position it started from, as the journal keeps it."""
        self.info: dict[str, str] = dict(setup.info)
        self.play = play
        self.phase = "setup"
        self.paused = False
        self.proxy = False
        """The last move was made for a player whose move time ran out (online rules)."""
        self.outcome: Outcome | None = None
        self.held: str | None = None
        """What the clocks wait for before the round's start (``record/start.py``): round,
        desk, table; None when they may run (never held, or started)."""
        self.held_asg: str | None = None
        """The assignment the held clocks wait to be started for."""
        self.started_by: str | None = None
        """Who started this game's clocks after a hold (desk, table, arbiter), or None."""
        self.started_asg: str | None = None
        self.reading: tuple[int, int] = (0, 0)
        """The clocks' last journaled reading (game ms, move ms)."""
        self.move_clocks: list[tuple[int, int]] = []
        """Per played move, the clocks' used time when it was made: the game record carries
        them (PDN ``%clk``/``%emt``)."""
        zero = sum_scores((), kind_of(self.variant))
        self.running: list[Score] = [zero, zero]
        self.rows: list[Row] = []
        self.last_move: Move | None = None

    # ------------------------------------------------------------------ applying records

    def apply(self, rec: Record) -> Move | None:
        """What a record does to the game: the one reading of every kind. Returns the move a
        ``move`` record played, or the one a ``takeback`` undid. ValueError for a start that
        cannot be read; IllegalMove for a move the rules refuse (nothing changed)."""
        kind = rec["k"]
        if "game_ms" in rec:
            self.reading = (rec["game_ms"], rec["move_ms"])
        if kind == RecordKind.START:
            self.begin(Setup.of(rec))
        elif kind == RecordKind.READY:
            self.phase = "play"
        elif kind in SIGNING_KINDS:
            self.signing.apply(rec)
        elif kind == RecordKind.MOVE:
            move = self.game.find_move([(sq[0], sq[1]) for sq in rec["path"]])
            self.proxy = False
            return self.push(move)
        elif kind == RecordKind.TAKEBACK:
            self.outcome = None
            self.proxy = False
            self.signing.signed.clear()  # a sheet signed before the takeback is not this one
            if self.phase == "over":
                self.phase = "play"
            return self.pop() if self.game.ply else None
        elif kind == RecordKind.PAUSE:
            self.paused = True
        elif kind == RecordKind.RESUME:
            self.paused = False
        elif kind == RecordKind.TIMEOUT:
            self.proxy = self.profile.move_timeout == "opponent-moves"
        elif kind == RecordKind.INFO:
            self.info = game_info.clean(rec["info"])
            if self.outcome is not None:  # a finished game's sheet shows the names too
                self.outcome = tally(self.game, self.outcome.reason, self.outcome.side, self.info)
        elif kind == RecordKind.PLAY:
            self.play = self.play.with_changes(rec["play"])
        elif kind == RecordKind.HOLD:
            self.held, self.held_asg = rec["until"], rec.get("asg")
            self.proxy = False  # a time-out before the hold is forgotten with the time
        elif kind == RecordKind.GO:
            self.held, self.held_asg = None, None
            self.started_by, self.started_asg = rec["by"], rec.get("asg")
        elif kind == RecordKind.END:
            self.outcome = tally(self.game, rec["reason"], rec.get("side"), self.info)
            self.phase = "over"
            self.paused = False
        return None

    def push(self, move: Move) -> Move:
        """A move played: the game, its sheet's rows and running total, its clocks."""
        side = self.game.side_to_move
        played = self.game.push(move)
        self.move_clocks.append(self.reading)
        rows, self.running[side] = move_rows(side, played, self.running[side], self.variant)
        self.rows.extend(rows)
        self.last_move = played
        return played

    def pop(self) -> Move:
        """The last move taken back, and what it had written."""
        move = self.game.pop()
        del self.move_clocks[self.game.ply :]
        kind = kind_of(self.variant)
        self.rows = []
        self.running = [sum_scores((), kind), sum_scores((), kind)]
        for side, played in self.game.played():
            rows, self.running[side] = move_rows(side, played, self.running[side], self.variant)
            self.rows.extend(rows)
        self.last_move = self.game.move_stack[-1] if self.game.ply else None
        return move

    # ------------------------------------------------------------------ reading

    @property
    def variant(self) -> str:
        return self.game.variant or ""

    def start_game(self) -> Game:
        """The position the game started from, under the game's own rules."""
        return game_at(self.start, self.profile)

    def totals(self) -> tuple[str, str]:
        kind = kind_of(self.variant)
        return format_score(self.running[0], kind), format_score(self.running[1], kind)

    def sheet(self) -> Scoresheet:
        """The scoresheet: the whole tally once the game is over; while it is played, the
        entries and running totals so far, marked as a game in progress (no RC, no result)."""
        if self.outcome is not None:
            return self.outcome.sheet
        return build_scoresheet(
            self.game.played(),
            self.game.chips(),
            self.variant,
            scoring_profile(self.game),
            game_info.players(self.info),
            finished=False,
            event=game_info.event(self.info),
        )

    def pdn_clocks(self) -> list[tuple[float, float]]:
        """Per played move: the game clock left after it and the time it took, in seconds."""
        total = self.profile.game_seconds
        return [(total - g / 1000, m / 1000) for g, m in self.move_clocks]

    def pdn(self) -> str:
        """The game record, as the board exports it."""
        from .pdn import pdn

        return pdn(self.game, self.start_game(), self.outcome, self.pdn_clocks(), self.info)


def _text(rec: Record, key: str) -> str:
    value = rec.get(key)
    if not isinstance(value, str):
        raise ValueError(_("the start record has no {key}").format(key=key))
    return value


def _object(rec: Record, key: str) -> dict[str, Any]:
    value = rec.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(_("the start record's {key} is not an object").format(key=key))
    return dict(value)
