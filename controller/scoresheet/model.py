"""The scoresheet of a game as the manual writes it, built from the moves played.

It depends only on the rules vocabulary (``Move``, ``Chip``) and on the scorer, not on the game
object, so a journal, a replay or a test can build a sheet from a plain list of moves.
One row per written entry, in the order the players write them: the row kinds are those of the
audit format (``move``, ``take``, ``rc``, ``total``, ``grand``), so the CSV the board writes is
the same document a person would type in from paper, and passes the same audit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from controller.i18n import _

from ..rules.move import BLUE, RED, Chip, Move, Square, side_name
from ..rules.scoring import (
    GameScore,
    Score,
    format_score,
    kind_of,
    score_game,
    score_taking,
    sum_scores,
)
from . import texts
from .typeset import typeset

ROW_KINDS = ("move", "take", "rc", "total", "grand")


def format_square(square: Square, spaced: bool = False) -> str:
    """``(0,3)`` for the audit's square column, ``(0, 3)`` as the manual writes a move."""
    x, y = square
    return f"({x}, {y})" if spaced else f"({x},{y})"


@dataclass(frozen=True, slots=True)
class Row:
    """One written entry: ``entry``, ``score`` and ``total`` as text ('' when not written)."""

    player: int
    kind: str
    entry: str
    score: str = ""
    total: str = ""
    square: Square | None = None

    @property
    def player_name(self) -> str:
        return side_name(self.player).upper()


@dataclass(frozen=True, slots=True)
class Player:
    name: str = ""
    school: str = ""
    grade: str = ""
    fed_id: str = ""
    """The player's federation ID (docs/federation.md): on a tournament's sheet when they have
    one (the board knows the names; the event, the IDs)."""


@dataclass(frozen=True, slots=True)
class Event:
    """Where and when the game is played, as a tournament sheet and a game record carry it."""

    name: str = ""
    round: str = ""
    table: str = ""
    date: str = ""
    """ISO date, ``2026-11-23``."""


@dataclass(frozen=True, slots=True)
class Scoresheet:
    """A whole sheet: header, rows in writing order, and the exact result behind them."""

    variant: str
    profile: str
    rows: tuple[Row, ...]
    game: GameScore
    players: tuple[Player, Player] = field(default=(Player(), Player()))
    finished: bool = True
    """False for a game still being played: no remaining chips, grand totals or result yet."""
    event: Event = field(default=Event())
    ending: str = ""
    """Why the game ended, as a sentence (``RED has no chip left``); empty while it goes on."""
    forfeit_by: int | None = None
    """The side that resigned or did not show: the other takes the point whatever the totals."""
    plies: int = 0
    """Moves played (each side's turn counts one)."""

    @property
    def winner(self) -> int | None:
        """The side that takes the point (None: a draw, or a game still being played)."""
        if not self.finished:
            return None
        return 1 - self.forfeit_by if self.forfeit_by is not None else self.game.winner

    @property
    def kind(self) -> str:
        return kind_of(self.variant)

    def rows_of(self, side: int) -> tuple[Row, ...]:
        return tuple(r for r in self.rows if r.player == side)

    @property
    def result_text(self) -> str:
        """The result in one sentence, or what a game still being played stands at."""
        if not self.finished:
            if not self.plies:
                return _(texts.NOT_STARTED)
            blue, red = (s.total_text for s in self.game.sides)
            progress = texts.plural(texts.IN_PROGRESS, self.plies)
            return progress.format(moves=self.plies, blue=typeset(blue), red=typeset(red))
        w = self.winner
        if w is None:
            return _(texts.DRAW)
        return _(texts.WINS).format(winner=_(texts.SIDES[w]), loser=_(texts.SIDES[1 - w]))


def move_rows(side: int, move: Move, running: Score, variant: str) -> tuple[list[Row], Score]:
    """The rows of one move and the new running total: ``-9 (0, 3)`` for a plain move, one
    ``take`` row per taking with its expression, score and running total."""
    kind = kind_of(variant)
    if not move.takings:
        if move.chip is None or move.chip.value is None:
            raise ValueError(f"move {move} has no chip value: build it with chip filled")
        entry = f"{move.chip.value.label} {format_square(move.end, spaced=True)}"
        return [Row(side, "move", entry, square=move.end)], running
    rows = []
    for taking in move.takings:
        scored = score_taking(taking, variant)
        running = running + scored.score
        rows.append(
            Row(
                side,
                "take",
                scored.expression,
                scored.text,
                format_score(running, kind),
                taking.square,
            )
        )
    return rows, running


def build_scoresheet(
    played: Sequence[tuple[int, Move]],
    chips: Mapping[Square, Chip],
    variant: str,
    profile: str = "official",
    players: tuple[Player, Player] | None = None,
    finished: bool = True,
    event: Event | None = None,
    ending: str = "",
    forfeit_by: int | None = None,
) -> Scoresheet:
    """The sheet of a game: ``played`` is (side, move) with ``chip`` and ``takings`` filled,
    ``chips`` the final position. An unfinished game's sheet stops at the running totals."""
    kind = kind_of(variant)
    game = score_game(played, chips, variant, profile)
    running = {BLUE: sum_scores((), kind), RED: sum_scores((), kind)}
    rows: list[Row] = []
    for side, move in played:
        new_rows, running[side] = move_rows(side, move, running[side], variant)
        rows.extend(new_rows)
    for s in game.sides if finished else ():
        for rc in s.remaining.chips:
            entry = f"RC {rc.chip.value.label}"
            if rc.multiplier != 1:
                entry += f" x {rc.multiplier}"
            rows.append(Row(s.side, "rc", entry, rc.text, "", rc.square))
        rows.append(Row(s.side, "total", "Total", "", s.remaining.text))
        rows.append(Row(s.side, "grand", "Grand Total", "", s.grand_text))
    return Scoresheet(
        variant,
        profile,
        tuple(rows),
        game,
        players or (Player(), Player()),
        finished,
        event or Event(),
        ending if finished else "",
        forfeit_by if finished else None,
        len(played),
    )
