"""The published draughts games as rule sets of the same core, with their start positions and
the standard PDN square numbering of each.

They prove the generator against published perft tables (``perft``); the 12×12 Dam of Sri
Lanka is one more rule set here, and Dadama (``dadama``) plays on the Italian one.

Numbering: every game numbers its playable squares 1..n row by row from the top of the
diagram as its federation prints it (the second mover's side at the top). ``number_map`` is
the one place that ties those numbers to our ``(x, y)``, with ``y = 0`` the first mover's back row.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .geometry import geometry
from .move import Square
from .ruleset import KingTurns, Priority, RuleSet


@dataclass(frozen=True)
class DraughtsGame:
    rules: RuleSet
    men_rows: int
    numbering: str  # "top-left", "top-right" or "bottom-left": where square 1 is
    first_mover_top: bool
    """True when the first mover sits at the top of the standard diagram (English: Black)."""
    colours: tuple[str, str]
    """PDN colour letters of (first mover, second mover)."""


ENGLISH = DraughtsGame(
    RuleSet("english", 8, men_capture_backward=False, flying_kings=False, priority=Priority.ANY),
    men_rows=3,
    numbering="top-left",
    first_mover_top=True,
    colours=("B", "W"),
)
ITALIAN = DraughtsGame(
    RuleSet(
        "italian",
        8,
        men_capture_backward=False,
        flying_kings=False,
        priority=Priority.ITALIAN,
        men_capture_kings=False,
    ),
    men_rows=3,
    numbering="top-right",
    first_mover_top=False,
    colours=("W", "B"),
)
INTERNATIONAL = DraughtsGame(
    RuleSet(
        "international", 10, men_capture_backward=True, flying_kings=True, priority=Priority.MOST
    ),
    men_rows=4,
    numbering="top-left",
    first_mover_top=False,
    colours=("W", "B"),
)
BRAZILIAN = DraughtsGame(
    RuleSet("brazilian", 8, men_capture_backward=True, flying_kings=True, priority=Priority.MOST),
    men_rows=3,
    numbering="bottom-left",
    first_mover_top=False,
    colours=("W", "B"),
)

DAM = DraughtsGame(
    RuleSet(
        "dam",
        12,
        men_capture_backward=True,
        flying_kings=True,
        priority=Priority.ANY,
        men_move_backward=True,
        crowning_ends_capture=True,
        king_turns=KingTurns.AT_EDGE,
    ),
    men_rows=5,
    numbering="top-left",
    first_mover_top=True,
    colours=("B", "W"),
)
"""Sri Lankan Dam (Parker 1909), docs/rules-dam.md: numbered as English draughts, extended to
12×12 (the first mover, Black, on 1–30 at the top of the diagram; White on 43–72)."""

GAMES: dict[str, DraughtsGame] = {
    g.rules.name: g for g in (ENGLISH, ITALIAN, INTERNATIONAL, BRAZILIAN, DAM)
}


def diagram_square(game: DraughtsGame, row: int, col: int) -> Square:
    """``(x, y)`` of the square in diagram row ``row`` (0 = top) and column ``col`` (0 = left).

    ``y`` runs up from the first mover's back row. ``x`` follows the diagram's columns, mirrored
    when needed so that playable squares keep ``(x + y) % 2 == parity``: a left-right mirror is
    a symmetry of every rule set here, so the game is unchanged.
    """
    size = game.rules.size
    y = row if game.first_mover_top else size - 1 - row
    x = col if (col + y) % 2 == game.rules.parity else size - 1 - col
    return (x, y)


@cache
def number_map(name: str) -> tuple[dict[int, Square], dict[Square, int]]:
    """PDN square number <-> ``(x, y)`` for the game ``name``.

    The diagram's top row holds squares 1..n/2 in reading order, starting from the left
    (``top-left``) or from the right (``top-right``); ``bottom-left`` counts the rows from the
    bottom of the diagram instead (pydraughts' Brazilian numbering).
    """
    game = GAMES[name]
    size = game.rules.size
    geo = geometry(size, game.rules.parity)
    half = size // 2
    by_number: dict[int, Square] = {}
    for n in range(1, size * half + 1):
        row = (n - 1) // half
        k = (n - 1) % half
        if game.numbering == "bottom-left":  # square 1 on the first mover's back row
            row = size - 1 - row
        if game.numbering in ("top-left", "bottom-left"):
            col = 2 * k + 1 if row % 2 == 0 else 2 * k
        else:
            col = size - 1 - 2 * k if row % 2 == 0 else size - 2 - 2 * k
        by_number[n] = diagram_square(game, row, col)
    by_square = {sq: n for n, sq in by_number.items()}
    assert set(by_square) == set(geo.squares)
    return by_number, by_square


def start_cells(game: DraughtsGame) -> list[int]:
    """Men on the first ``men_rows`` rows of each side, the first mover (+1) at ``y = 0``."""
    size = game.rules.size
    geo = geometry(size, game.rules.parity)
    cells = [0] * geo.count
    for i, (_, y) in enumerate(geo.squares):
        if y < game.men_rows:
            cells[i] = 1
        elif y >= size - game.men_rows:
            cells[i] = -1
    return cells
