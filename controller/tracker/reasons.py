"""Why a move on the board is wrong, in words a child understands, with the rule it breaks and
what to do next.

Pure: from the position the board should show and what the sensors see (which squares lost a
chip, which gained one) to a ``Reason``: the rule's name, a sentence for the page and a short
form for the board's display (ASCII, at most three lines of 21 characters). The tracker attaches
it to its guidance when a lifted chip may not move and when the board matches no legal move, so
it is shown for exactly as long as the mistake stands on the board.

Each sentence is defined once below (``TEXTS``), with named placeholders, marked for the
catalogue and translated by ``reason()`` (docs/translation.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from controller.i18n import N_, _, side_word
from controller.rules.game import Game
from controller.rules.move import BLUE, Move, Square


@dataclass(frozen=True)
class Reason:
    rule: str
    """Which rule: a key of ``TEXTS`` (``turn``, ``forward_only``, ``must_take`` …)."""
    page: str
    display: str


TEXTS: dict[str, tuple[str, str]] = {
    # rule: (page, display)
    "turn": (
        N_(
            "It is {mover}'s turn: only {mover_lower} chips move now. Put the {other_lower} chip "
            "back on {square}."
        ),
        N_("{mover}'s turn! Put it back on {xy}"),
    ),
    "touch_move": (
        N_(
            "Touch-move: you lifted the chip on {locked} first, so that chip must move. Put this "
            "one back on {square}."
        ),
        N_("Touch-move: move the chip on {locked_xy}"),
    ),
    "must_take": (
        N_(
            "You must take! When a chip can take, taking is not a choice in Damath. The chip on "
            "{takers} can take. Put this one back on {square}."
        ),
        N_("You must take! Use the chip on {takers_xy}"),
    ),
    "blocked": (
        N_(
            "This chip cannot move now: the squares it could go to are taken. Put it back on "
            "{square} and move another chip."
        ),
        N_("This chip is blocked. Put it back on {xy}"),
    ),
    "forward_only": (
        N_(
            "An ordinary chip moves forward only, one square diagonally; only a dama may go back. "
            "Put the chip back on {square}."
        ),
        N_("Forward only! Put it back on {xy}"),
    ),
    "one_square": (
        N_(
            "An ordinary chip moves one square at a time; it jumps only to take a chip. Only "
            "a dama "
            "goes further. Put the chip back on {square}."
        ),
        N_("One square only! Put it back on {xy}"),
    ),
    "diagonal": (
        N_(
            "Chips move diagonally, from one dark square to the next. Put the chip back on "
            "{square}."
        ),
        N_("Diagonally only! Put it back on {xy}"),
    ),
    "most": (
        N_(
            "You must take the most chips you can: {most} here (mayor). The chip on {takers} can "
            "take {most}. Put the chips back as the lights show and take {most}."
        ),
        N_("Take the most: {most} chips! Put back, try again"),
    ),
    "dama_first": (
        N_(
            "When a dama and an ordinary chip can take the same number of chips, the dama "
            "must take "
            "(mayor dama). Put the chips back and take with the dama on {takers}."
        ),
        N_("Mayor dama: take with the dama on {takers_xy}"),
    ),
    "wrong_taken": (
        N_(
            "The chip on {wrong} was not jumped, so it stays on the board: put it back. Take off "
            "the chip you jumped: {right}."
        ),
        N_("Wrong chip off! Put back {wrong_xy}"),
    ),
    "own_chip": (
        N_("A chip never jumps over a chip of its own side. Put the chip back on {square}."),
        N_("No jumping your own chip! Back to {xy}"),
    ),
    "not_to_take": (
        N_(
            "A chip is taken off only when it is jumped. Put the {other_lower} chip back on "
            "{square}."
        ),
        N_("Put the chip back on {xy}"),
    ),
    "extra": (
        N_("There is a chip on {square} that does not belong there: take it off the board."),
        N_("Take the chip off {xy}"),
    ),
    "unknown": (
        N_(
            "The board does not match a move. Put the chips back as the lights show: yellow, put a "
            "chip here; blue, take the chip off."
        ),
        N_("Not a move. Fix the board as the lights show"),
    ),
    "which_way": (
        N_(
            "Two ways lead here, and they score differently. Touch a blinking square (or press "
            "Next) to show which way you went, then press Confirm."
        ),
        N_("Which way? Touch a blinking square"),
    ),
}


def _sq(square: Square) -> str:
    return f"({square[0]}, {square[1]})"


def _xy(square: Square) -> str:
    return f"{square[0]},{square[1]}"


def _list(squares: Iterable[Square]) -> str:
    items = [_sq(s) for s in sorted(squares)]
    if len(items) == 1:
        return items[0]
    return _("{some} or {last}").format(some=", ".join(items[:-1]), last=items[-1])


def _list_xy(squares: Iterable[Square]) -> str:
    return _(" or ").join(_xy(s) for s in sorted(squares))


def reason(rule: str, **values: object) -> Reason:
    page, display = TEXTS[rule]
    return Reason(rule, _(page).format(**values), _(display).format(**values))


def _sides(game: Game) -> dict[str, str]:
    mover = side_word(game.side_to_move)
    other = side_word(1 - game.side_to_move)
    return {
        "mover": mover.upper(),
        "mover_lower": mover.lower(),
        "other": other.upper(),
        "other_lower": other.lower(),
    }


def _takers(moves: list[Move]) -> dict[str, str]:
    starts = {m.start for m in moves}
    return {"takers": _list(starts), "takers_xy": _list_xy(starts)}


def lift_reason(game: Game, square: Square, locked: Square | None) -> Reason:
    """A chip lifted that may not move: whose turn, touch-move, a taking elsewhere, blocked."""
    chip = game.chip_at(square)
    where = {"square": _sq(square), "xy": _xy(square), **_sides(game)}
    if chip is not None and chip.side != game.side_to_move:
        return reason("turn", **where)
    if locked is not None and locked != square:
        return reason("touch_move", locked=_sq(locked), locked_xy=_xy(locked), **where)
    moves = game.legal_moves()
    if moves and moves[0].captures:
        return reason("must_take", **_takers(moves), **where)
    return reason("blocked", **where)


def _between(a: Square, b: Square) -> list[Square]:
    dx = 1 if b[0] > a[0] else -1
    dy = 1 if b[1] > a[1] else -1
    return [(a[0] + i * dx, a[1] + i * dy) for i in range(1, abs(b[0] - a[0]))]


def mismatch_reason(game: Game, missing: tuple[Square, ...], extra: tuple[Square, ...]) -> Reason:
    """The board matches no legal move: the likeliest mistake and the rule it breaks."""
    chips = game.chips()
    mover = game.side_to_move
    sides = _sides(game)
    mine = [s for s in missing if chips.get(s) and chips[s].side == mover]
    theirs = [s for s in missing if chips.get(s) and chips[s].side != mover]
    moves = game.legal_moves()
    if len(mine) == 1 and len(extra) == 1:
        return _wrong_move(game, mine[0], extra[0], tuple(theirs), moves)
    if not mine and len(theirs) == 1 and len(extra) == 1:
        square = theirs[0]  # a chip of the side not to move was moved
        return reason("turn", square=_sq(square), xy=_xy(square), **sides)
    if not mine and theirs and not extra:
        square = theirs[0]
        return reason("not_to_take", square=_sq(square), xy=_xy(square), **sides)
    if not missing and len(extra) == 1:
        return reason("extra", square=_sq(extra[0]), xy=_xy(extra[0]))
    return reason("unknown")


def _wrong_move(
    game: Game, start: Square, end: Square, removed: tuple[Square, ...], moves: list[Move]
) -> Reason:
    chip = game.chip_at(start)
    assert chip is not None
    where = {"square": _sq(start), "xy": _xy(start), **_sides(game)}
    here = [m for m in moves if m.start == start and m.end == end]
    if here:  # the chip stands where a legal move ends: the wrong chips were taken off
        wrong = sorted(set(removed) - set(here[0].captures))
        right = sorted(set(here[0].captures) - set(removed))
        if wrong:
            return reason(
                "wrong_taken",
                wrong=_list(wrong),
                wrong_xy=_list_xy(wrong),
                right=_list(right) if right else _list(here[0].captures),
                **where,
            )
        return reason("unknown")
    must_take = bool(moves) and moves[0].is_capture
    dx, dy = end[0] - start[0], end[1] - start[1]
    straight = abs(dx) == abs(dy)
    path = _between(start, end) if straight else []
    jumped = [c for c in map(game.chip_at, path) if c is not None]
    if must_take and (removed or jumped):  # a taking the rules do not allow here
        most = len(moves[0].captures)
        attempt = max(len(removed), sum(1 for c in jumped if c.side != chip.side))
        if attempt < most:
            return reason("most", most=most, **_takers(moves), **where)
        if not chip.dama and all(m.chip is not None and m.chip.dama for m in moves):
            return reason("dama_first", **_takers(moves), **where)
        if any(c.side == chip.side for c in jumped):
            return reason("own_chip", **where)
        return reason("must_take", **_takers(moves), **where)
    if must_take:
        return reason("must_take", **_takers(moves), **where)
    if not straight:
        return reason("diagonal", **where)
    if jumped and any(c.side == chip.side for c in jumped):
        return reason("own_chip", **where)
    if chip.dama:
        return reason("unknown")
    forward = 1 if chip.side == BLUE else -1
    if dy * forward < 0:
        return reason("forward_only", **where)
    if abs(dx) > 1:
        return reason("one_square", **where)
    return reason("unknown")


def which_way() -> Reason:
    return reason("which_way")


__all__ = ["TEXTS", "Reason", "lift_reason", "mismatch_reason", "which_way"]
