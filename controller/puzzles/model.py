"""A puzzle as data: its position, its solution line, where it came from, its themes, and for a
wrong try the engine's line after each other move (so the board explains a wrong answer at
once, with no search on the Pi). Read back from JSON strictly: a damaged puzzle file is named
line by line, never half-read."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from controller.rules.game import Game
from controller.rules.move import Move, Square
from controller.rules.notation import NotationError, game_from_json

Path_ = tuple[Square, ...]
"""A move as its path (RULES.md D-5)."""


class PuzzleError(ValueError):
    """A puzzle (or a puzzle file's line) that cannot be read; the text says what is wrong."""


@dataclass(frozen=True)
class Puzzle:
    id: str
    variant: str
    profile: str
    position: dict[str, Any]
    """The JSON position (docs/notation.md) the solver faces, the solver to move."""
    solution: tuple[Path_, ...]
    """The solver's move; or the solver's move, the opponent's forced reply, the solver's."""
    themes: tuple[str, ...]
    source: dict[str, Any]
    """``kind`` (``game``: a game a board kept; ``engine``: the engine's own game), ``game``
    (the kept game's board and name, or the engine game's levels and seed), ``ply``."""
    margin: str
    """How much better the best move is than the second, in points, as the engine valued it
    when it found the puzzle (exact, as text)."""
    gain: str
    """What a child can count: the points the best move gives over the next moves more than
    the second best (takings, exact, as the sheet writes them)."""
    depth: int
    """The depth that found it; ``verified`` a deeper one that agreed."""
    verified: int
    refutations: dict[str, tuple[Path_, ...]] = field(default_factory=dict)
    """``"<step>:<path>"`` -> the engine's line after that wrong move (the move first)."""
    rating: float = 1500.0
    """The rating it starts with (Glicko-2's, before any attempt)."""

    @property
    def solver(self) -> int:
        return 0 if self.position.get("to_move", "blue") == "blue" else 1

    @property
    def steps(self) -> int:
        """How many moves the solver makes (1, or 2 around a forced reply)."""
        return (len(self.solution) + 1) // 2

    def game(self) -> Game:
        """The puzzle's position as a rules-engine game."""
        return game_from_json(self.position)

    def line_moves(self) -> list[Move]:
        """The solution as the rules engine's moves (each found by its path)."""
        game = self.game()
        return [game.push(game.find_move(list(path))) for path in self.solution]

    def refutation(self, step: int, path: Path_) -> tuple[Path_, ...]:
        return self.refutations.get(refutation_key(step, path), (path,))

    def json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "variant": self.variant,
            "profile": self.profile,
            "position": self.position,
            "solution": [_path_json(p) for p in self.solution],
            "themes": list(self.themes),
            "source": self.source,
            "margin": self.margin,
            "gain": self.gain,
            "depth": self.depth,
            "verified": self.verified,
            "refutations": {k: [_path_json(p) for p in v] for k, v in self.refutations.items()},
            "rating": self.rating,
        }


def refutation_key(step: int, path: Path_) -> str:
    return f"{step}:" + "-".join(f"{x}{y}" for x, y in path)


def puzzle_id(position: dict[str, Any], solution: tuple[Path_, ...]) -> str:
    """The same position and solution give the same id, wherever they were found."""
    pieces = sorted(
        (tuple(p["square"]), p["side"], str(p["value"]), bool(p.get("dama")))
        for p in position["pieces"]
    )
    text = json.dumps(
        [position["variant"], position["profile"], position["to_move"], pieces, solution],
        sort_keys=True,
    )
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def _path_json(path: Path_) -> list[list[int]]:
    return [[x, y] for x, y in path]


def _path(raw: object, where: str) -> Path_:
    if not isinstance(raw, list) or len(raw) < 2:
        raise PuzzleError(f"{where}: a move is a list of at least two squares")
    out = []
    for sq in raw:
        if (
            not isinstance(sq, list)
            or len(sq) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in sq)
        ):
            raise PuzzleError(f"{where}: {sq!r} is not a square [x, y]")
        out.append((sq[0], sq[1]))
    return tuple(out)


def from_json(data: object, where: str = "puzzle") -> Puzzle:
    """A puzzle from its JSON; PuzzleError names what is wrong (and where). The solution is
    played on the position by the rules engine: an illegal line is refused too."""
    if not isinstance(data, dict):
        raise PuzzleError(f"{where}: a puzzle is a JSON object")

    def need(key: str, kind: type | tuple[type, ...]) -> Any:
        value = data.get(key)
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise PuzzleError(f"{where}: '{key}' is missing or of the wrong kind")
        return value

    position = need("position", dict)
    solution = tuple(
        _path(p, f"{where}: solution[{i}]") for i, p in enumerate(need("solution", list))
    )
    if len(solution) not in (1, 3):
        raise PuzzleError(f"{where}: a solution has 1 or 3 moves, not {len(solution)}")
    refutations: dict[str, tuple[Path_, ...]] = {}
    for key, line in (data.get("refutations") or {}).items():
        if not isinstance(line, list) or not line:
            raise PuzzleError(f"{where}: refutation {key!r} is not a line of moves")
        refutations[str(key)] = tuple(_path(p, f"{where}: refutation {key}") for p in line)
    themes = need("themes", list)
    if not all(isinstance(t, str) for t in themes):
        raise PuzzleError(f"{where}: 'themes' is a list of names")
    rating = data.get("rating", 1500.0)
    if not isinstance(rating, int | float) or isinstance(rating, bool) or not 0 < rating < 5000:
        raise PuzzleError(f"{where}: 'rating' is a number from 0 to 5000")
    puzzle = Puzzle(
        id=need("id", str),
        variant=need("variant", str),
        profile=need("profile", str),
        position=position,
        solution=solution,
        themes=tuple(themes),
        source=need("source", dict),
        margin=need("margin", str),
        gain=need("gain", str),
        depth=need("depth", int),
        verified=need("verified", int),
        refutations=refutations,
        rating=float(rating),
    )
    step = 0
    try:
        game = puzzle.game()
        if game.variant != puzzle.variant:
            raise PuzzleError(f"{where}: the position is {game.variant}, not {puzzle.variant}")
        for path in solution:
            game.push(game.find_move(list(path)))
            step += 1
    except NotationError as exc:
        raise PuzzleError(f"{where}: position: {exc}") from None
    except ValueError as exc:
        if isinstance(exc, PuzzleError):
            raise
        raise PuzzleError(f"{where}: solution[{step}]: {exc}") from None
    return puzzle


def read_lines(text: str, source: str) -> list[Puzzle]:
    """Every puzzle of a JSON Lines file; PuzzleError for the first line that is wrong, so
    that a damaged file is refused whole (nothing half-imported)."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{source}, line {number}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise PuzzleError(f"{where}: not JSON ({exc.msg})") from None
        out.append(from_json(data, where))
    return out


def write_lines(puzzles: list[Puzzle]) -> str:
    return "".join(json.dumps(p.json(), ensure_ascii=False) + "\n" for p in puzzles)
