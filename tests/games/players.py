"""Players for every game of the registry, through the board's one interface of a game
(``BoardGame``): they act on the board (sensor frames) and the buttons only, as people do, and
choose from the game as it stands, so a game resumed after a power cut is played on exactly as
before. Each game has one (a game registered without a player fails the tests that list them),
with a short start so that a whole game is quick, and a count of turns played that a resumed
game is measured against.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.games import BoardGame
from tests.session.dadama_play import act as dadama_act

Step = tuple[str, Any]
"""``("lift", cell)``, ``("place", cell)`` or ``("press", button)``."""
SETTLE = 1.5  # seconds of the board's time after each change: every game's tracker settles

DAMATH_END = {  # Blue takes Red's last chip: Red has no chip left
    "variant": "integer",
    "to_move": "blue",
    "pieces": [
        {"square": [3, 4], "side": "blue", "value": "-5"},
        {"square": [4, 5], "side": "red", "value": "10"},
    ],
}
DAM_END = {  # Black's king takes twice, turning at the edge: White has no piece left
    "game": "dam",
    "to_move": "black",
    "pieces": [
        {"square": [5, 0], "side": "black", "king": True},
        {"square": [7, 2], "side": "white"},
        {"square": [8, 9], "side": "white"},
    ],
}
ENGLISH_END = {"game": "english", "fen": "B:W18:B14"}  # Black jumps White's last man
ITALIAN_END = {"game": "italian", "fen": "W:W22:B18"}  # White jumps Black's last man
DADAMA_END = {  # real dice: every die of White shows 6, White loses (G-7)
    "to_move": "white",
    "pieces": [
        {"square": [3, 2], "side": "white", "value": 3},
        {"square": [4, 3], "side": "black", "value": 3},
        {"square": [6, 5], "side": "black", "value": 3},
    ],
}
MATHCHESS_LONG = {  # Play now!: five turns to White's win (tests/sim/test_browser_mathchess.py)
    "game": "mathchess",
    "conditions": {"digits": 9, "operators": {"+": 1, "−": 1, "×": 1}},
    "phase": "play",
    "to_move": "white",
    "pieces": [
        {"at": [6, 0], "side": "white", "piece": "×"},
        {"at": [8, 0], "side": "white", "piece": "9"},
        {"at": [3, 1], "side": "white", "piece": "−"},
        {"at": [0, 2], "side": "white", "piece": "+"},
        {"at": [5, 2], "side": "black", "piece": "×"},
        {"at": [1, 4], "side": "white", "piece": "5"},
        {"at": [2, 4], "side": "black", "piece": "7"},
        {"at": [4, 4], "side": "black", "piece": "1"},
        {"at": [5, 4], "side": "black", "piece": "2"},
        {"at": [6, 4], "side": "black", "piece": "9"},
        {"at": [4, 6], "side": "white", "piece": "6"},
        {"at": [5, 6], "side": "white", "piece": "2"},
        {"at": [7, 6], "side": "white", "piece": "8"},
        {"at": [4, 7], "side": "white", "piece": "1"},
        {"at": [5, 7], "side": "white", "piece": "3"},
        {"at": [6, 7], "side": "black", "piece": "+"},
        {"at": [7, 7], "side": "white", "piece": "4"},
        {"at": [0, 8], "side": "black", "piece": "3"},
    ],
}
MATHCHESS_PLAY = {  # Play now!: White's + takes Black's only operator, and wins
    "game": "mathchess",
    "conditions": {"digits": 9, "operators": {"+": 1, "×": 1}},
    "phase": "play",
    "to_move": "white",
    "pieces": [
        {"at": [0, 2], "side": "white", "piece": "+"},
        {"at": [5, 2], "side": "black", "piece": "×"},
        {"at": [1, 4], "side": "white", "piece": "5"},
        {"at": [2, 6], "side": "black", "piece": "7"},
    ],
}


@dataclass
class Board:
    """The board under the players' hands: what stands, and the board's time."""

    game: BoardGame
    t: float = 0.0
    cells: set[Any] = field(default_factory=set)

    def settle(self, seconds: float = SETTLE) -> None:
        end = self.t + seconds
        while self.t < end:
            self.t += 0.1
            self.game.tick(self.t)

    def show(self) -> None:
        """The board set as the game stands (after a start or a resume)."""
        self.cells = set(self.game.expected())
        self.game.feed_frame(self.t, frozenset(self.cells))
        self.settle()

    def do(self, step: Step) -> None:
        what, arg = step
        if what == "lift":
            self.cells.discard(arg)
        elif what == "place":
            self.cells.add(arg)
        if what in ("lift", "place"):
            self.game.feed_frame(self.t, frozenset(self.cells))
        else:
            self.game.press(self.t, arg)
        self.settle()


def first_legal_move(board: Board) -> list[Step] | None:
    """Damath and the draughts games: the first legal move, as hands make it."""
    game = board.game.session.game  # type: ignore[attr-defined]
    if game.ending() is not None or not game.legal_moves():
        return None
    move = game.legal_moves()[0]
    steps: list[Step] = [("lift", move.path[0])]
    for square in move.path[1:-1]:
        steps += [("place", square), ("lift", square)]
    steps.append(("place", move.path[-1]))
    steps += [("lift", sq) for sq in move.captures]
    return steps


def plies(board: Board) -> int:
    return int(board.game.session.game.ply)  # type: ignore[attr-defined]


def dadama_turn(board: Board) -> list[Step] | None:
    """Dadama: one action of the players (``dadama_play``), seeded by the game's state."""
    session = board.game.session  # type: ignore[attr-defined]
    if session.phase == "over":
        return None
    board.t = dadama_act(session, board.t) + SETTLE
    return []


def dadama_steps(board: Board) -> int:
    return len(board.game.session.game.history)  # type: ignore[attr-defined]


MATHCHESS_TURNS: list[list[Step]] = [  # from MATHCHESS_LONG: five turns, White wins
    [("lift", (0, 2)), ("lift", (5, 2)), ("place", (5, 2)), ("press", "confirm")],
    [("lift", (4, 7)), ("lift", (5, 7)), ("lift", (7, 7)), ("press", "confirm")],
    [("lift", (3, 1)), ("place", (3, 4)), ("lift", (4, 4)), ("lift", (6, 4)),
     ("lift", (2, 4)), ("lift", (5, 4)), ("press", "confirm")],
    [("lift", (6, 7)), ("place", (6, 6)), ("press", "confirm")],
    [("lift", (6, 0)), ("lift", (6, 6)), ("place", (6, 6)), ("press", "confirm")],
]  # fmt: skip
MATHCHESS_SHORT: list[list[Step]] = MATHCHESS_TURNS[:1]
"""From MATHCHESS_PLAY, where Black's only operator stands on White's + row: one turn."""


def scripted(turns: list[list[Step]]) -> Callable[[Board], list[Step] | None]:
    """Mathematical Chess: the script's next turn, by the turns the game has played."""

    def next_turn(board: Board) -> list[Step] | None:
        done = mathchess_turns(board)
        if board.game.finished() is not None or done >= len(turns):
            return None
        return turns[done]

    return next_turn


def mathchess_turns(board: Board) -> int:
    return len(board.game.session.game.turns())  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Game:
    """One way to play a game: from its settings and position, the next turn's steps as the
    game stands (None: nothing more to play), and how many turns the game has, to tell a
    resumed game from a new one."""

    settings: dict[str, Any]
    position: dict[str, Any] | None
    next_turn: Callable[[Board], list[Step] | None]
    played: Callable[[Board], int]
    turns: int = 10**6
    """Play stops after this many turns (a long game, bounded)."""


@dataclass(frozen=True)
class Player:
    """Each game's two: ``short`` ends in a turn or two (its finished game kept once), ``long``
    lasts a dozen turns or more (power cuts land all through it)."""

    short: Game
    long: Game
    files: frozenset[str]
    """What the keeper keeps of a finished game (``BoardGame.files``)."""


def _moves(settings: dict[str, Any], end: dict[str, Any], files: set[str]) -> Player:
    return Player(
        Game(settings, end, first_legal_move, plies),
        Game(settings, None, first_legal_move, plies, turns=14),
        frozenset(files),
    )


PLAYERS: dict[str, Player] = {
    "damath": _moves({"practice": True, "clocks": "off"}, DAMATH_END, {"pdn", "csv", "html"}),
    "dadama": Player(
        Game(
            {"dice": "real"},
            DADAMA_END,
            lambda b: [("press", "face6")] if b.game.finished() is None else None,
            dadama_steps,
        ),
        Game({"seed": 7}, None, dadama_turn, dadama_steps, turns=30),
        frozenset({"pdn", "csv", "html", "json"}),
    ),
    "dam": _moves({}, DAM_END, {"pdn"}),
    "english": _moves({}, ENGLISH_END, {"pdn"}),
    "italian": _moves({}, ITALIAN_END, {"pdn"}),
    "mathchess": Player(
        Game({}, MATHCHESS_PLAY, scripted(MATHCHESS_SHORT), mathchess_turns),
        Game({}, MATHCHESS_LONG, scripted(MATHCHESS_TURNS), mathchess_turns),
        frozenset({"json", "txt"}),
    ),
}


def play_on(board: Board, game: Game, report: Callable[[int], None] | None = None) -> None:
    """Turns until the game has nothing more to play (or has had its turns); a turn the game
    does not take twice running is an error, never an endless loop. ``report`` hears the count
    of turns played after each turn (what the board has confirmed to the players)."""
    stuck = 0
    while game.played(board) < game.turns:
        before = game.played(board)
        steps = game.next_turn(board)
        if steps is None:
            return
        for step in steps:
            board.do(step)
        if report is not None:
            report(game.played(board))
        stuck = stuck + 1 if game.played(board) == before else 0
        if stuck > 20:  # Dadama takes a few actions (choose, throw) to a step
            raise RuntimeError(f"the game did not take the turn {steps}: {board.game.problems}")
