"""What a board's finished game gives the tournament: its result and exact scores, read again
from the board's signed records by the hub's own rules engine (``link.gamestate.rebuild``).
The desk's rounds, the signing and the score sheets read it alike."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from controller.link.gamestate import rebuild
from controller.rules.values import Sqrt2
from controller.tournament.damath_scores import as_exact
from controller.tournament.model import GameResult

from .store import Store

# A game the board ended this way has no result for the tournament: the arbiter decides.
NO_RESULT_REASONS = ("abandon",)


@dataclass(frozen=True)
class BoardResult:
    """A finished game of a board under an assignment, as the hub's engine scores it."""

    board: str
    game: str
    outcome: str
    blue_score: Sqrt2 | None
    red_score: Sqrt2 | None
    reason: str
    text: str
    games: int
    """How many finished games the board played under this assignment (the last counts)."""

    def result(self) -> GameResult:
        return GameResult(self.outcome, self.blue_score, self.red_score, source="board")


def board_result(store: Store, board: str, assignment: str) -> BoardResult | None:
    """The last game ``board`` finished under ``assignment``, or None while none has."""
    finished: list[BoardResult] = []
    for g in store.games(board=board):
        if g["assignment_id"] != assignment:
            continue
        summary = g["summary"] or {}
        if not summary.get("result") and summary.get("phase") != "over":
            continue
        found = _finished(store, board, g["game_id"], g["last_seq"])
        if found is not None:
            finished.append(found)
    if not finished:
        return None
    return replace(finished[-1], games=len(finished))


_FINISHED: dict[tuple[str, str, str, int], BoardResult | None] = {}
"""A finished game's reading, by (store, board, game, records): the desk asks every 5 s."""


def _finished(store: Store, board: str, game: str, last_seq: int) -> BoardResult | None:
    key = (str(store.path), board, game, last_seq)
    if key in _FINISHED:
        return _FINISHED[key]
    state = rebuild(store.records(board, game))
    outcome = state.outcome
    found: BoardResult | None = None
    if state.other is not None:
        found = _other_finished(board, game, state.other.summary())
    elif outcome is None or outcome.reason in NO_RESULT_REASONS:
        found = None
    elif outcome.reason == "no-show":
        # the side the reason is about did not come: the other wins without a game
        kind = "blue-forfeit" if outcome.side == 1 else "red-forfeit"
        found = BoardResult(board, game, kind, None, None, outcome.reason, outcome.text, 1)
    else:
        sides = outcome.sheet.game.sides
        word = {0: "blue", 1: "red", None: "draw"}[outcome.winner]
        blue, red = as_exact(sides[0].grand), as_exact(sides[1].grand)
        found = BoardResult(board, game, word, blue, red, outcome.reason, outcome.text, 1)
    if len(_FINISHED) > 5000:
        _FINISHED.clear()
    _FINISHED[key] = found
    return found


OTHER_RESULTS = {"1-0": "blue", "0-1": "red", "1/2-1/2": "draw"}
"""Another game's result, from its first mover's side (Blue at the tournament's table)."""


def _other_finished(board: str, game: str, summary: dict[str, Any]) -> BoardResult | None:
    """A finished game of another game than Damath, from the hub's own re-reading of its
    records (``controller.record.games``): its result, and Mathematical Chess's points."""
    outcome = OTHER_RESULTS.get(str(summary.get("result")))
    if outcome is None:
        return None
    blue = red = None
    score = summary.get("score")
    if isinstance(score, dict):  # Mathematical Chess: the points each side took (C-11)
        first, second = (summary.get("picture") or {}).get("colours") or list(score)
        blue, red = as_exact(Fraction(score[first])), as_exact(Fraction(score[second]))
    ending = str(summary.get("ending") or "")
    said = str(summary.get("ending_text") or ending)
    if ending == "no-show":  # the arbiter's no-show at the board: a forfeit, as Damath's
        outcome, blue, red = f"{outcome}-forfeit", None, None
    return BoardResult(board, game, outcome, blue, red, ending, said, 1)
