"""Mathematical Chess's sentences on the page, in the language in force.

The rules engine is pure and speaks English to its commands (``rules moves --game mathchess``,
the records): ``6 + 9 = 15 and 5: last digits 5 = 5``, ``white wins: black has lost all their
operators (score 14–4)``. The page says the same from the same facts in the board's language:
a match and an ending are worded here from their parts, and the scoresheet's explanations,
which the sheet keeps as the engine wrote them, are read back by their fixed shape and worded
again (anything of another shape is left as it is)."""

from __future__ import annotations

import re
from typing import Any

from controller.i18n import N_, _
from controller.rules.mathchess import Ending, Op, Piece, key
from controller.rules.mathchess.matches import Match

COMPARE = {"last-digit": N_("last digits {a} = {b}"), "digit-sum": N_("digit sums {a} = {b}")}
MATCH = N_("{first} and {second}: {compare}")
SIDES = (N_("white"), N_("black"))
OPERATORS = {
    Op.ADD: N_("addition"),
    Op.SUB: N_("subtraction"),
    Op.MUL: N_("multiplication"),
    Op.DIV: N_("division"),
    Op.POW: N_("power"),
    Op.ROOT: N_("root"),
}
PIECE = N_("{side} {what}")

WHY = {
    "no-operators": N_("{winner} wins: {loser} has lost all their operators (score {score})"),
    "no-digits": N_("{winner} wins: {loser} has lost all their digits (score {score})"),
}
BOTH_LOST = N_(
    "{winner} wins: both players have lost all their operators or digits (score {score})"
)
BOTH_LOST_DRAW = N_("a draw: both players have lost all their operators or digits (score {score})")
BLOCKED = N_("{winner} wins on the score: neither player could move or remove (score {score})")
BLOCKED_DRAW = N_("a draw on the score: neither player could move or remove (score {score})")
STOPPED = N_("{winner} wins on the score after the game was stopped (score {score})")
STOPPED_DRAW = N_("a draw on the score after the game was stopped (score {score})")

_SHEET_MATCH = re.compile(
    r"^(?P<first>.+) and (?P<second>.+): (?P<name>last digits|digit sums) (?P<a>\d+) = (?P<b>\d+)$"
)


def piece_name(piece: Piece) -> str:
    """``white 7``, ``black addition``: a piece as a page or a screen reader names it."""
    what = piece.symbol if piece.is_digit else _(OPERATORS[piece.op])
    return _(PIECE).format(side=_(SIDES[piece.side]), what=what)


def compare_text(a: int, b: int, compare: str) -> str:
    """``last digits 5 = 5`` in the language in force (C-5)."""
    return _(COMPARE[compare]).format(a=key(a, compare), b=key(b, compare))


def match_text(match: Match) -> str:
    """``6 + 9 = 15 and 5: last digits 5 = 5``: the arithmetic of a match, worded."""
    first, second = match.first, match.second
    compare = compare_text(first.value, second.value, match.compare)
    return _(MATCH).format(first=first.text(), second=second.text(), compare=compare)


def sheet_text(text: str) -> str:
    """A scoresheet explanation as the engine wrote it, worded in the language in force."""
    found = _SHEET_MATCH.match(text)
    if found is None:
        return text
    compare = "last-digit" if found["name"] == "last digits" else "digit-sum"
    said = _(COMPARE[compare]).format(a=found["a"], b=found["b"])
    return _(MATCH).format(first=found["first"], second=found["second"], compare=said)


def ending_text(ending: Ending) -> str:
    """How the game ended, with the score, in the language in force."""
    score = f"{ending.scores[0]}–{ending.scores[1]}"
    winner = ending.winner
    if winner is None:
        template = {"both-lost": BOTH_LOST_DRAW, "blocked": BLOCKED_DRAW}.get(
            ending.reason, STOPPED_DRAW
        )
        return _(template).format(score=score)
    names = {"winner": _(SIDES[winner]), "loser": _(SIDES[1 - winner]), "score": score}
    template = WHY.get(ending.reason) or {"both-lost": BOTH_LOST, "blocked": BLOCKED}.get(
        ending.reason, STOPPED
    )
    return _(template).format(**names)


def sheet_words(sheet: dict[str, Any], ending: Ending | None) -> dict[str, Any]:
    """The scoresheet's JSON with its explanations and ending worded for the page."""
    turns = [
        {
            **turn,
            "removals": [
                {**r, "arithmetic": [sheet_text(a) for a in r["arithmetic"]]}
                for r in turn["removals"]
            ],
        }
        for turn in sheet["turns"]
    ]
    return {**sheet, "turns": turns, "ending": ending_text(ending) if ending else None}
