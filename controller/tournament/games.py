"""The game a division plays, and what a result of that game is made of.

A division names one game of the board (docs/tournament.md, "A division's game"). Every game
ends in a win, a draw or a loss from the first mover's side (Blue in the tournament's words:
the pairing's first player moves first, whatever the game calls its colours), so pairings,
points and the tie-breaks on points are the same for all. What differs is the score a game
carries beside its result:

- Damath: both sides' exact Damath scores (RULES.md; the higher wins);
- Mathematical Chess: the points each side took (C-11: 2 an operator, 1 a digit), whole numbers;
- Dam, English draughts and Dadama: none: the result is the win, the draw or the loss
  (RULES-DADAMA-DAM.md M-9, G-7 say nothing else).

So the score tie-breaks (``score-diff``, ``score-total``) count a game's own score where it has
one and are left out of the order where it has none. The games, their titles and what their
scores come from the board's one list of its games (``controller.registry``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from controller import registry
from controller.rules.values import Sqrt2

from .damath_scores import parse_score
from .model import DEFAULT_GAME, TournamentError

DAMATH = DEFAULT_GAME
EXACT = "exact"
"""A game whose result carries both sides' exact scores, written in the event's variant."""


@dataclass(frozen=True)
class TournamentGame:
    name: str
    """As the board, its records and the assignment name it."""
    title: str
    """As people read it (marked for translation: the wall says it in the hall's language)."""
    scores: str
    """``exact`` (both sides' exact Damath scores), ``points`` (whole points taken) or ``""``
    (none): the registry's word."""

    @property
    def has_scores(self) -> bool:
        return bool(self.scores)

    @property
    def in_variant(self) -> bool:
        """Its games are played in the event's variant and rules (its scores are exact Damath
        scores, written in that variant): a table's assignment carries both."""
        return self.scores == EXACT

    def score_variant(self, event_variant: str) -> str:
        """How its scores are written: the event's Damath variant, else whole numbers."""
        return event_variant if self.in_variant else "integer"


GAMES: dict[str, TournamentGame] = {
    e.name: TournamentGame(e.name, e.title, e.scores) for e in registry.ENTRIES
}
"""Every game of the board as a division plays it (``controller.registry``, in its order)."""
SCORE_TIEBREAKS = ("score-diff", "score-total")
"""The tie-breaks on a game's own score: left out for a game without one."""


def tournament_game(name: str) -> TournamentGame:
    """The game called ``name``; a clear refusal naming the games for any other word."""
    found = GAMES.get(str(name).strip().lower())
    if found is None:
        raise TournamentError(f"unknown game {name!r}: one of {', '.join(GAMES)}")
    return found


def tiebreaks_for(game: str, order: Sequence[str]) -> tuple[str, ...]:
    """The event's tie-break order as a division of ``game`` applies it."""
    if tournament_game(game).has_scores:
        return tuple(order)
    return tuple(tb for tb in order if tb not in SCORE_TIEBREAKS)


def parse_game_score(game: str, raw: str) -> Sqrt2:
    """A score as the arbiter types it for a game of ``game``: a Damath score, or a whole number
    of points for Mathematical Chess; a game without scores refuses any."""
    g = tournament_game(game)
    if g.scores == EXACT:
        return parse_score(raw)
    if not g.has_scores:
        raise TournamentError(
            f"a {g.title} game has no scores: give its result alone (blue, red or draw)"
        )
    text = str(raw).strip()
    if not text.isdigit():
        raise TournamentError(
            f"{g.title} points {raw!r}: the points a side took, a whole number (0 or more)"
        )
    return Sqrt2(Fraction(int(text)), Fraction(0))


def check_game_scores(game: str, blue: Sqrt2 | None, red: Sqrt2 | None) -> None:
    """A result's scores fit the division's game: none for a game without scores, whole
    points of 0 or more for Mathematical Chess."""
    g = tournament_game(game)
    if blue is None or red is None or g.scores == EXACT:
        return
    if not g.has_scores:
        raise TournamentError(
            f"a {g.title} game has no scores: give its result alone (blue, red or draw)"
        )
    for value in (blue, red):
        if value.b or value.a.denominator != 1 or value.a < 0:
            raise TournamentError(
                f"{g.title} points are whole numbers of 0 or more (the points a side took)"
            )
