"""The tournament's records as plain frozen data: an event, its divisions, players, pairings and
results. Every rule that reads them (pairing, standings, exports) is a pure function of these,
so the web pages, the command line and the tests all see the same thing.

Damath scores are exact (``Fraction`` or ``a + b√2``, as the rules engine scores them); points
for a win, a draw and a loss are ``Fraction`` so an event may give 1, ½, 0 or 3, 1, 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from controller.rules.values import Sqrt2

Score = Fraction | Sqrt2 | int

SYSTEMS = ("swiss", "round-robin", "knockout")
START_RULES = ("desk", "table")
"""When a tournament game's clocks start: at the arbiter's start from the desk for the whole
hall (``desk``, the default: the manual's arbiter starts the games), or when each table is
confirmed at its board (``table``). Never before (docs/tournament.md)."""
DEFAULT_GAME = "damath"
"""The game of a division that names none: every division of an event file from before
divisions had a game (``games.GAMES`` has them all)."""
DEFAULT_TEAM_SIZE = 3
"""How many of a school's players count for its team score (the best N by points)."""

# Outcomes of one pairing, from Blue's side (Blue moves first). A forfeit is a game not played:
# "blue-forfeit" means Blue wins because Red did not play.
OUTCOMES = ("blue", "red", "draw", "blue-forfeit", "red-forfeit", "double-forfeit", "bye")
PLAYED = ("blue", "red", "draw")

TIEBREAKS: dict[str, str] = {
    "score-diff": "cumulative score difference (own minus opponent's, every game): Damath "
    "scores, Mathematical Chess points",
    "score-total": "total score (every game): Damath scores, Mathematical Chess points",
    "buchholz": "Buchholz: the opponents' points",
    "buchholz-cut1": "Buchholz cut 1: the opponents' points without the lowest",
    "sonneborn-berger": "Sonneborn-Berger: beaten opponents' points, half of those drawn",
    "direct": "direct encounter: points among the players still tied, if all met",
    "wins": "games won at the board",
    "red-games": "games played with Red (moving second)",
}
DEFAULT_TIEBREAKS = ("score-diff", "buchholz-cut1", "sonneborn-berger", "direct", "wins")

BLUE = "blue"
RED = "red"


class TournamentError(ValueError):
    """A request the event's rules refuse; the message says what and how to fix it.

    The same rule is broken from the command line and from the desk, but the fix is named in
    each one's own words: ``cli`` (an option, a command) and ``desk`` (a button, a box).
    ``str()`` is the command line's sentence; ``at_desk()`` the desk's."""

    def __init__(self, message: str, *, cli: str = "", desk: str = "") -> None:
        super().__init__(f"{message} ({cli})" if cli else message)
        self.message = message
        self.cli = cli
        self.desk = desk

    def at_desk(self) -> str:
        return f"{self.message} ({self.desk})" if self.desk else self.message


@dataclass(frozen=True)
class Points:
    """Points per outcome. A pairing-allocated bye scores ``bye``; a forfeit win ``forfeit_win``."""

    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    bye: Fraction = Fraction(1)
    forfeit_win: Fraction = Fraction(1)
    forfeit_loss: Fraction = Fraction(0)


@dataclass(frozen=True)
class Event:
    name: str
    date: str = ""
    venue: str = ""
    variant: str = "integer"
    profile: str = "official"
    time_control: str = ""
    points: Points = field(default_factory=Points)
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS
    initial_colour: str = BLUE  # the colour of pairing number 1 in round 1 (drawn by lot)
    start: str = "desk"  # START_RULES: when a tournament game's clocks start
    team_size: int = DEFAULT_TEAM_SIZE  # the best N players of a school make its team score


@dataclass(frozen=True)
class Division:
    name: str
    system: str = "swiss"
    rounds: int = 0  # 0: all rounds of a round robin, else the number given
    game: str = DEFAULT_GAME  # the game its tables play (games.GAMES)


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    school: str = ""
    division: str = "open"
    rating: int | None = None
    joined_round: int = 1  # a late entry joins at a later round
    withdrawn_after: int | None = None  # plays no round after this one
    grade: str = ""  # grade or year, as the scoresheet's Grade/Year
    fed_id: str = ""  # the federation's ID (docs/federation.md), "" when not registered


@dataclass(frozen=True)
class Pairing:
    """One table of one round. ``red is None``: a bye for ``blue``."""

    id: int
    division: str
    round: int
    table: int
    blue: int
    red: int | None

    @property
    def is_bye(self) -> bool:
        return self.red is None

    def players(self) -> tuple[int, ...]:
        return (self.blue,) if self.red is None else (self.blue, self.red)


@dataclass(frozen=True)
class GameResult:
    """A pairing's outcome and, for a played game, both sides' Damath scores (exact)."""

    outcome: str
    blue_score: Sqrt2 | None = None
    red_score: Sqrt2 | None = None
    source: str = "hand"  # "hand" (typed), "board" (the board's signed sheet), "arbiter"

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise TournamentError(f"unknown result {self.outcome!r}: one of {', '.join(OUTCOMES)}")
        if (self.blue_score is None) != (self.red_score is None):
            raise TournamentError("give both Damath scores or neither")
        if self.blue_score is not None and self.outcome not in PLAYED:
            raise TournamentError("a forfeit or a bye has no Damath scores")
        for name in ("blue_score", "red_score"):  # one exact form: a + b√2
            value: Score | None = getattr(self, name)
            if value is not None and not isinstance(value, Sqrt2):
                object.__setattr__(self, name, Sqrt2(Fraction(value), Fraction(0)))


@dataclass(frozen=True)
class ResultRecord:
    """A result as recorded: the latest record of a pairing is its result; earlier ones stay."""

    pairing: int
    result: GameResult
    at: str
    by: str
    reason: str


@dataclass(frozen=True)
class RoundProgress:
    """How far a division has got, for what a heading says of its standings: the last round
    whose every game has a result (0: none), and the round paired after it, if any, with how
    many of its results are in."""

    complete: int
    under_way: int | None = None
    done: int = 0
    total: int = 0

    def words(self) -> str:
        """In English, for the command line and the printed pages: ``after round 1``, ``after
        round 1; round 2 under way, 1 of 4 results in``, ``no round paired yet``."""
        if self.under_way is None:
            return f"after round {self.complete}" if self.complete else "no round paired yet"
        going = f"round {self.under_way} under way, {self.done} of {self.total} results in"
        return f"after round {self.complete}; {going}" if self.complete else going


@dataclass(frozen=True)
class Dispatch:
    """A pairing sent to a board: the hub's assignment id ties the board's game to it."""

    pairing: int
    board: str
    assignment: str
    at: str
    by: str
    reason: str
    active: bool
