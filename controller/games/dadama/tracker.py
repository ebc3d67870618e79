"""What happened on a Dadama board: the sensors' occupancy against the steps a die may make.

Dadama is Italian draughts geometry on the same 8×8 board, one step at a time: a quiet move,
or the jump of a die whose throw (made by the board, ``games/dadama/session.py``) allowed a taking.
The board sees only occupancy, so a step is recognised when the whole board matches the
position after it. A taken piece may be lifted at once or when the move ends (Italian
draughts leaves it on the board until then): its square counts either way until the turn is
over, and the next turn waits until it is gone. Pure: no time, no hardware.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from controller.rules.dadama import DadamaGame, Phase, Step, Throw, jumped
from controller.rules.move import Square


@dataclass(frozen=True)
class Seen:
    """What the board shows, measured against the game: the step it completes (if any), the
    one square a player has lifted (if that is all), the squares that differ otherwise."""

    step: Step | None = None
    lifted: Square | None = None
    missing: tuple[Square, ...] = ()
    extra: tuple[Square, ...] = ()

    @property
    def ready(self) -> bool:
        """The board shows the game's position exactly (modulo taken pieces still lying)."""
        return self.step is None and self.lifted is None and not self.missing and not self.extra


def occupied(game: DadamaGame) -> frozenset[Square]:
    """The squares the board should show: every piece, the pieces taken this turn included
    (they may still lie there)."""
    return frozenset(game.pieces())


def loose(game: DadamaGame) -> frozenset[Square]:
    """Squares that may be either way now: the pieces taken in the turn under way."""
    going = game.going_on
    return frozenset(going[1]) if going is not None else frozenset()


def candidates(
    game: DadamaGame, options: Iterable[Throw] = ()
) -> list[tuple[Step, frozenset[Square], Square | None]]:
    """Every step the board may show now, with the occupancy after it and the square it takes
    (None for a quiet move): the quiet moves in ``MOVE``, the takings of a throw made."""
    base = occupied(game)
    out: list[tuple[Step, frozenset[Square], Square | None]] = []
    if game.phase is Phase.MOVE:
        for q in game.quiet_moves():
            out.append((q, (base - {q.start}) | {q.end}, None))
    seen: set[Square] = set()
    for option in options:
        if option.to is None or option.to in seen:
            continue
        seen.add(option.to)
        out.append(
            (option, (base - {option.square}) | {option.to}, jumped(option.square, option.to))
        )
    return out


def read_board(game: DadamaGame, board: frozenset[Square], options: Iterable[Throw] = ()) -> Seen:
    """Match the whole board against the game and the steps it allows (``options``: the
    takings the throw just made allows, the first option per landing square standing for
    them all: the session picks the kept value)."""
    free = loose(game)
    for step, after, taken in candidates(game, options):
        either = free | ({taken} if taken is not None else set())
        if (board - either) == (after - either):
            return Seen(step=step)
    expected = occupied(game)
    missing = tuple(sorted((expected - board) - free))
    extra = tuple(sorted(board - expected))
    if len(missing) == 1 and not extra:
        return Seen(lifted=missing[0])
    return Seen(missing=missing, extra=extra)
