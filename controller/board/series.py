"""A board that plays a series of Damath games: a match between two players, or the games of a
round one board carries. It stands above the single game (``Session``): when a game is over, the
next one is started from the series' next settings, and every game played is kept by the board's
host under its one name. A tournament gives a board its series; a class may use one for a
best-of-three.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from controller.games.damath.kind import DAMATH, DamathGame
from controller.session import Session, SessionConfig

from .host import BoardHost


class SeriesError(ValueError):
    """A series asked to do what it cannot: no game in it, or the next before this one ends."""


@dataclass(frozen=True)
class GameResult:
    """One finished game of the series, as the tally left it."""

    number: int
    """1 for the first game of the series."""
    reason: str
    winner: int | None
    points: tuple[Fraction, Fraction]
    """Blue's and Red's match points for this game."""


class Series:
    """The games of a series, one after the other, on one board (``host``)."""

    def __init__(self, host: BoardHost, games: Sequence[SessionConfig]) -> None:
        if not games:
            raise SeriesError("a series needs at least one game")
        self.host = host
        self.games = tuple(games)
        self.results: list[GameResult] = []
        self.game: DamathGame | None = None
        self.problems: list[str] = []
        """What went wrong putting a game away (the series went on)."""

    @property
    def number(self) -> int:
        """The number of the game on the board now (1 for the first)."""
        return len(self.results) + 1

    @property
    def finished(self) -> bool:
        return len(self.results) == len(self.games)

    def points(self) -> tuple[Fraction, Fraction]:
        """Blue's and Red's points over the games played so far."""
        return (
            sum((r.points[0] for r in self.results), Fraction(0)),
            sum((r.points[1] for r in self.results), Fraction(0)),
        )

    @property
    def session(self) -> Session | None:
        """The game on the board now (None before the start and after the last)."""
        return None if self.game is None else self.game.session

    def _open(self, config: SessionConfig, t: float) -> Session:
        self.game = game = self.host.open_as(DAMATH, DamathGame, {}, t, config=config)
        return game.session

    def start(self, t: float) -> Session:
        """The series' game on the board: the one in the journal (resumed), or the first."""
        if self.game is not None:
            raise SeriesError("the series has started")
        return self._open(self.games[0], t)

    def next_game(self, t: float) -> Session | None:
        """The game on the board is over: it is scored and kept, and the next one starts;
        None when it was the last (the series is finished)."""
        game = self.game
        session = self.session
        if game is None or session is None or session.outcome is None:
            raise SeriesError("the game on the board is not over yet")
        outcome = session.outcome
        self.results.append(GameResult(self.number, outcome.reason, outcome.winner, outcome.points))
        problem = self.host.put_away(game)
        if problem:
            self.problems.append(problem)
        if self.finished:
            self.game = None
            return None
        return self._open(self.games[len(self.results)], t)
