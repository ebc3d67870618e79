"""The themes of a puzzle, as a teacher names what a lesson is about: each a name (kept in the
store and the files) and its words (marked for the Filipino catalogue), and the test that says
whether a puzzle's solution is about it. Decided from the rules engine's own moves and the
scorer's arithmetic, never from the engine's estimate."""

from __future__ import annotations

from collections.abc import Sequence

from controller.i18n import N_
from controller.rules.damath_data import DIVIDE, TIMES
from controller.rules.move import Move
from controller.rules.scoring import compare, score_move

THEMES: dict[str, str] = {
    "take_most": N_("Take the most"),
    "multiply_negative": N_("Multiply by a negative"),
    "dama_double": N_("The dama's double"),
    "forced_reply": N_("The forced reply"),
    "crown": N_("Make a dama"),
    "divide": N_("Divide with care"),
    "quiet": N_("The quiet move"),
    "look_ahead": N_("Look one move further"),
}
"""Every theme, in the order the pages list them."""


def _negative(label: object) -> bool:
    return str(label).startswith("-")


def themes_of(legal: Sequence[Move], solution: Sequence[Move], variant: str) -> tuple[str, ...]:
    """The themes of a puzzle whose first position has ``legal`` moves and whose solution line
    is ``solution`` (the solver's moves at even indices)."""
    first = solution[0]
    mine = solution[::2]
    found: list[str] = []
    takings = [m for m in legal if m.takings]
    if first.takings and len(takings) > 1:
        best = score_move(first, variant).score
        others = [score_move(m, variant).score for m in takings if m != first]
        if all(compare(best, other) > 0 for other in others):
            found.append("take_most")
    if any(
        t.operator == TIMES and (_negative(t.taker.value.label) or _negative(t.taken.value.label))
        for m in legal
        for t in m.takings
    ):
        found.append("multiply_negative")
    if any(t.multiplier > 1 for m in mine for t in m.takings):
        found.append("dama_double")
    if len(solution) == 3:
        found.append("forced_reply")
    if any(m.promotes for m in mine):
        found.append("crown")
    if any(t.operator == DIVIDE for t in first.takings):
        found.append("divide")
    if not first.takings:
        found.append("quiet")
    if not found:
        found.append("look_ahead")  # equal takings now; the best is the one that pays later
    return tuple(found)
