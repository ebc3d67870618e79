"""The plain draughts games' computer opponent (Dam, English, Italian draughts): their rules as
the one search's ``Searchable``, and the ``choose`` and ``review`` tasks every game's computer
answers (``controller.games.computer``). Each game's own ``computer.py`` binds an ``Opponent``
to its rules, weights and levels.

A request's position is ``start`` (the game's JSON position; the opening when absent), its
``settings`` and the moves played since (``moves``, as the journal's move records:
``{"path": [[x, y], …], "captures": [[x, y], …]}``). Values are in men, exact, for the side
that chooses; a won game counts as ``WON`` men.

The search sees no repetition (a position's third occurrence): it knows the pieces, the side to
move and, where the game has one (Dam), the run of quiet moves towards the draw by quiet moves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from controller.games.computer import HINT_SECONDS, Computer, Level, Request
from controller.games.search import WIN, Found, Search
from controller.i18n import N_
from controller.rules.game import Game
from controller.rules.movegen import KING, Board, RawMove
from controller.rules.pdn_game import move_text

from .evaluation import Tables, Weights, evaluate, tables
from .record import DraughtsRules, recorded_move

State = tuple[tuple[int, ...], int, int]
"""(cells as the generator holds them, side to move, quiet moves in a row)."""

UNIT = "men"
WON = Fraction(100)
"""A won game in a value said to people: beyond any material."""
BLUNDER = Fraction(3, 4)
"""A move that costs three quarters of a man or more is a blunder in a review."""


LEVELS: tuple[Level, ...] = (
    Level(1, N_("beginner"), 1, None, 0.6, quiescence=False),
    Level(2, N_("learner"), 2, None, 0.3, quiescence=False),
    Level(3, N_("player"), 3, 1.0, 0.15),
    Level(4, N_("club player"), 4, 1.5, 0.05),
    Level(5, N_("strong player"), 6, 2.0, 0.0),
    Level(6, N_("expert"), 30, 3.0, 0.0),
)
"""Level 1 looks at its own move only, misses the takings that follow and picks warmly among
moves up to 1.8 men worse; the top deepens as far as 3 s allow (the last depth it finishes
decides). Shared by the three games; a game may bring its own."""


def no_quiet_rule(game: Game) -> tuple[int, int]:
    """A game without a draw by quiet moves: no run, no limit."""
    return 0, 0


class DraughtsSearchable:
    """A draughts rule set as the search sees it: states are tuples, moves the generator's raw
    moves; one scratch board generates them, the last position's moves are kept for ``moves``
    after ``end``."""

    def __init__(self, board: Board, table: Tables, quiet_limit: int = 0) -> None:
        self.board = board
        self.table = table
        self.quiet_limit = quiet_limit
        """Plies of quiet moves that draw (0: no such rule)."""
        self._last: tuple[State, list[RawMove]] | None = None

    def moves(self, state: State) -> list[RawMove]:
        last = self._last
        if last is not None and last[0] is state:
            return last[1]
        board = self.board
        board.cells = list(state[0])
        board.side = state[1]
        found = board.moves()
        self._last = (state, found)
        return found

    def play(self, state: State, move: RawMove) -> State:
        cells = list(state[0])
        path, captured, promotes, _ = move
        piece = cells[path[0]]
        cells[path[0]] = 0
        for s in captured:
            cells[s] = 0
        cells[path[-1]] = (KING if piece > 0 else -KING) if promotes else piece
        quiet = state[2] + 1 if not captured and abs(piece) == KING else 0
        return tuple(cells), state[1] ^ 1, quiet

    def end(self, state: State) -> Fraction | None:
        if not self.moves(state):  # no piece left, or none that moves: a loss
            return -WIN
        if self.quiet_limit and state[2] >= self.quiet_limit:
            return Fraction(0)
        return None

    def evaluate(self, state: State) -> Fraction:
        return evaluate(state[0], state[1], self.table)

    def noisy(self, state: State, move: RawMove) -> bool:
        return bool(move[1])


def in_men(value: Fraction) -> Fraction:
    """A search value as people hear it: a won game ``WON`` men, a lost one ``-WON``."""
    if value >= WIN - 1000:
        return WON
    if value <= -WIN + 1000:
        return -WON
    return value


@dataclass(frozen=True)
class Opponent:
    """One draughts game's computer: its rules, its weights, its levels, its quiet-move rule
    (the run so far and the limit, in plies)."""

    rules: DraughtsRules
    weights: Weights
    levels: tuple[Level, ...]
    review_depth: int
    quiet: Callable[[Game], tuple[int, int]] = no_quiet_rule

    def computer(self, module: str) -> Computer:
        """The ``Computer`` whose tasks are ``module``'s ``choose`` and ``review``."""
        return Computer(self.levels, choose=f"{module}:choose", review=f"{module}:review")

    # ------------------------------------------------------------------ the search

    def searchable(self, game: Game) -> tuple[DraughtsSearchable, State]:
        """The search's view of ``game`` now."""
        board = game.generator_board()
        run, limit = self.quiet(game)
        table = tables(self.weights, game.rules.size, game.rules.parity)
        return DraughtsSearchable(board, table, limit), (tuple(board.cells), board.side, run)

    def search(
        self, game: Game, level: Level, seed: int | None = None, weigh_all: bool = False
    ) -> Found[RawMove]:
        """The move ``level`` picks in ``game`` (ValueError when the game is over)."""
        if game.ending() is not None:
            raise ValueError("the game is over: there is no move to choose")
        rules, state = self.searchable(game)
        return Search(rules).choose(state, level, seed, weigh_all)

    # ------------------------------------------------------------------ the tasks

    def game(self, request: Request, with_moves: bool = True) -> Game:
        """The position a request names (its start, its settings, its moves); ValueError
        saying which part is wrong."""
        if not isinstance(request, dict):
            raise ValueError("a request is a JSON object with start and moves")
        settings = request.get("settings") or {}
        if not isinstance(settings, dict):
            raise ValueError("settings: expected an object")
        start = request.get("start")
        if start is not None and not isinstance(start, dict):
            raise ValueError("start: expected the game's JSON position")
        game = (
            self.rules.opening(settings) if start is None else self.rules.from_json(start, settings)
        )
        if with_moves:
            for n, raw in enumerate(_moves(request)):
                game.push(_move(game, n, raw))
        return game

    def choose(self, request: Request) -> Request:
        """The computer's move at ``level`` (a hint: the top level's, ``hint: true``)."""
        game = self.game(request)
        top = self.levels[-1]
        if request.get("hint"):
            level = replace(top, seconds=min(top.seconds or HINT_SECONDS, HINT_SECONDS))
        else:
            number = _number(request, "level", None)
            if number is None:
                raise ValueError(f"level: say which level, 1 to {len(self.levels)}")
            level = Computer(self.levels, "").level(number)
        found = self.search(game, level, _number(request, "seed", None))
        return {
            "move": self.move_json(game, found.move),
            "value": str(in_men(found.value)),
            "depth": found.depth,
            "nodes": found.nodes,
            "seconds": round(found.seconds, 3),
        }

    def review(self, request: Request) -> Request:
        """Every move of a game weighed against the best the search finds at ``depth``, full
        width: ``loss`` in men (a lost game ``WON``)."""
        game = self.game(request, with_moves=False)
        depth = _number(request, "depth", self.review_depth) or self.review_depth
        level = Level(0, "review", depth, None, 0.0)
        out: list[dict[str, Any]] = []
        for n, raw in enumerate(_moves(request)):
            move = _move(game, n, raw)
            played = self.move_json(game, _raw(game, move))
            entry: dict[str, Any] = {
                "index": n,
                "side": self.rules.colours[game.side_to_move],
                "played": played,
            }
            if len(game.legal_moves()) <= 1:
                entry |= {"best": played, "loss": "0", "forced": True, "best_found": True,
                          "blunder": False}  # fmt: skip
            else:
                found = self.search(game, level, weigh_all=True)
                loss = in_men(found.value) - in_men(dict(found.values)[_raw(game, move)])
                entry |= {
                    "best": self.move_json(game, found.move),
                    "loss": str(loss),
                    "forced": False,
                    "best_found": loss == 0,
                    "blunder": loss >= BLUNDER,
                }
            out.append(entry)
            game.push(move)
        return {"unit": UNIT, "moves": out}

    def move_json(self, game: Game, raw: RawMove) -> dict[str, Any]:
        """A raw move as the journal writes a move, with its PDN text (``11-15``)."""
        squares = game.geo.squares
        path = [list(squares[i]) for i in raw[0]]
        captures = [list(squares[i]) for i in raw[1]]
        move = recorded_move(game, {"path": path, "captures": captures})
        return {"path": path, "captures": captures, "text": move_text(self.rules.name, move)}


def _raw(game: Game, move: Any) -> RawMove:
    index = game.geo.index
    wanted_path = tuple(index[sq] for sq in move.path)
    wanted_caps = tuple(index[sq] for sq in move.captures)
    board = game.generator_board()
    return next(r for r in board.moves() if r[0] == wanted_path and r[1] == wanted_caps)


def _moves(request: Request) -> Sequence[Any]:
    moves = request.get("moves", [])
    if not isinstance(moves, list):
        raise ValueError("moves: expected a list of moves")
    return moves


def _move(game: Game, n: int, raw: object) -> Any:
    if not isinstance(raw, dict):
        raise ValueError(f"moves[{n}]: expected a move with its path")
    try:
        return recorded_move(game, raw)
    except ValueError as exc:
        raise ValueError(f"moves[{n}]: {exc}") from None


def _number(request: Request, key: str, default: int | None) -> int | None:
    raw = request.get(key, default)
    if raw is not None and (not isinstance(raw, int) or isinstance(raw, bool)):
        raise ValueError(f"{key}: expected a whole number, got {raw!r}")
    return raw
