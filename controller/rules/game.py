"""The game object: a position you can ask for legal moves, push a move onto and pop it off.

One class serves Damath and the plain draughts games. It adds to the generator (``movegen``)
what the rest of the project needs: chips with exact values, moves with coordinates and takings,
history, repetition (D-9) and the end of the game (RULES.md §5).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import cast

from . import damath_data
from .geometry import Geometry, geometry
from .move import BLUE, RED, Chip, Move, Square, Taking, side_name
from .movegen import KING, MAN, Board, RawMove
from .profiles import Profile, get_profile
from .ruleset import Priority, RuleSet
from .values import Value
from .variants import get_variant


class IllegalMove(ValueError):
    """A move that is not among the legal moves of the position."""


class EndReason(StrEnum):
    """Why a game ended on the board. A ``StrEnum``: a journal, a PDN tag or a JSON answer
    writes the same text as before (``"no-chips"``), and a reader may compare with text."""

    NO_CHIPS = "no-chips"
    NO_MOVES = "no-moves"
    REPETITION = "repetition"
    QUIET_MOVES = "quiet-moves"
    """Dam's draw by moves without a taking or a man moved (M-9)."""
    ALL_SIXES = "all-sixes"
    """Dadama's loss when every die shows 6 (G-7)."""


class Result(StrEnum):
    """A game's result as PDN writes it (the first side's result first)."""

    FIRST_WINS = "1-0"
    SECOND_WINS = "0-1"
    DRAW = "1/2-1/2"
    GOING_ON = "*"

    @classmethod
    def of(cls, winner: int | None) -> Result:
        """The result of a finished game whose winner is side 0, side 1 or None (a draw)."""
        return cls.DRAW if winner is None else cls.FIRST_WINS if winner == 0 else cls.SECOND_WINS


RESULTS: tuple[str, ...] = tuple(r.value for r in Result)


@dataclass(frozen=True)
class Ending:
    """Why the game ended, as far as the rules engine can tell (time and arbiter come later)."""

    reason: EndReason
    side: int
    """The side to move when the game ended (the one without chips or moves)."""

    def describe(self) -> str:
        who = side_name(self.side).capitalize()
        return {
            EndReason.NO_CHIPS: f"{who} has no chip left",
            EndReason.NO_MOVES: f"{who} cannot move",
            EndReason.REPETITION: "the same position occurred again (repetition)",
        }[self.reason]


def damath_rules(profile: Profile) -> RuleSet:
    """Damath movement as a rule set of the generic core (RULES.md §3)."""
    return RuleSet(
        name="damath",
        size=damath_data.SIZE,
        men_capture_backward=True,
        flying_kings=True,
        priority=profile.capture_priority,
        king_trail=profile.dama_trail,
    )


class Game:
    """A game in progress. ``variant`` is the Damath variant, or None for plain draughts."""

    def __init__(
        self,
        rules: RuleSet,
        chips: Mapping[Square, Chip],
        to_move: int = BLUE,
        *,
        variant: str | None = None,
        profile: Profile | None = None,
    ) -> None:
        self.rules = rules
        self.variant = variant
        self.profile = profile
        board = Board(rules, [0] * geometry(rules.size, rules.parity).count, to_move)
        self.geo: Geometry = board.geo
        self._values: list[Value | None] = [None] * self.geo.count
        for square, chip in chips.items():
            i = self.geo.index[square]
            board.cells[i] = (KING if chip.dama else MAN) * (1 if chip.side == BLUE else -1)
            self._values[i] = chip.value
        self._board = board
        self._stack: list[
            tuple[RawMove, tuple[int, tuple[int, ...]], tuple[Value | None, ...]]
        ] = []
        self._moves: list[Move] = []
        self._seen: Counter[Hashable] = Counter()
        self._seen[self._key()] += 1
        self._legal: list[Move] | None = None
        self._raw_of: dict[Move, RawMove] = {}
        self.start_side = to_move

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, variant: str = "integer", profile: str | Profile = "official") -> Game:
        """The Damath opening of ``variant`` (RULES.md §2), Blue to move."""
        record = get_variant(variant)
        prof = get_profile(profile)
        chips = record.opening_chips()
        return cls(damath_rules(prof), chips, BLUE, variant=record.name, profile=prof)

    def generator_board(self) -> Board:
        """A copy of the raw generator state, for perft and search."""
        return self._board.copy()

    def copy(self) -> Game:
        """A fresh game from the current position (history is not copied)."""
        return Game(
            self.rules, self.chips(), self.side_to_move, variant=self.variant, profile=self.profile
        )

    # ------------------------------------------------------------------ state

    @property
    def side_to_move(self) -> int:
        return self._board.side

    @property
    def is_damath(self) -> bool:
        return self.variant is not None

    def chips(self) -> dict[Square, Chip]:
        """Every chip on the board by square."""
        squares = self.geo.squares
        return {
            squares[i]: Chip(BLUE if c > 0 else RED, self._values[i], abs(c) == KING)
            for i, c in enumerate(self._board.cells)
            if c
        }

    def chip_at(self, square: Square) -> Chip | None:
        i = self.geo.index.get(square)
        if i is None:
            return None
        c = self._board.cells[i]
        if not c:
            return None
        return Chip(BLUE if c > 0 else RED, self._values[i], abs(c) == KING)

    def occupied(self) -> frozenset[Square]:
        """What the sensors of a physical board would see."""
        squares = self.geo.squares
        return frozenset(squares[i] for i, c in enumerate(self._board.cells) if c)

    def played(self) -> list[tuple[int, Move]]:
        """Every move played, with the side that played it."""
        return [((self.start_side + i) % 2, m) for i, m in enumerate(self._moves)]

    @property
    def move_stack(self) -> list[Move]:
        return list(self._moves)

    @property
    def ply(self) -> int:
        return len(self._moves)

    # ------------------------------------------------------------------ moves

    def legal_moves(self) -> list[Move]:
        if self._legal is None:
            raws = self._board.moves()
            moves = [self._to_move(raw) for raw in raws]
            self._raw_of = dict(zip(moves, raws, strict=True))
            self._legal = moves
        return list(self._legal)

    def is_legal(self, move: Move) -> bool:
        self.legal_moves()
        return move in self._raw_of

    def find_move(self, path: list[Square] | tuple[Square, ...]) -> Move:
        """The legal move with this path, or IllegalMove saying why not."""
        # as given: a path read from a file may hold a point of the wrong length, which matches
        # no move and is named by _why_illegal
        wanted = cast("tuple[Square, ...]", tuple(tuple(p) for p in path))
        for move in self.legal_moves():
            if move.path == wanted:
                return move
        raise IllegalMove(self._why_illegal(wanted))

    def push(self, move: Move) -> Move:
        """Play a legal move; returns the move as the engine knows it (chip and takings filled)."""
        legal = self.legal_moves()
        raw = self._raw_of.get(move)
        if raw is None:
            raise IllegalMove(self._why_illegal(move.path))
        known = legal[legal.index(move)]
        values = self._values
        path, captured, _, _ = raw
        saved = tuple(values[s] for s in captured)
        undo = self._board.make(raw)
        moved = values[path[0]]
        for s in captured:
            values[s] = None
        values[path[0]] = None
        values[path[-1]] = moved
        key = self._key()
        self._seen[key] += 1
        self._stack.append((raw, undo, saved))
        self._moves.append(known)
        self._legal = None
        return known

    def pop(self) -> Move:
        """Take back the last move exactly (the position, values and repetition counts)."""
        if not self._stack:
            raise IndexError("no move to take back")
        key = self._key()
        self._seen[key] -= 1
        if not self._seen[key]:
            del self._seen[key]
        raw, undo, saved = self._stack.pop()
        values = self._values
        path, captured, _, _ = raw
        moved = values[path[-1]]
        values[path[-1]] = None
        values[path[0]] = moved
        for s, v in zip(captured, saved, strict=True):
            values[s] = v
        self._board.unmake(raw, undo)
        self._legal = None
        return self._moves.pop()

    # ------------------------------------------------------------------ end of game

    def repetitions(self) -> int:
        """How many times the current position (placement and side to move) has occurred."""
        return self._seen[self._key()]

    def ending(self) -> Ending | None:
        """Why the game is over now, or None while it goes on (RULES.md §5)."""
        side = self.side_to_move
        sgn = 1 if side == BLUE else -1
        if not any(c * sgn > 0 for c in self._board.cells):
            return Ending(EndReason.NO_CHIPS, side)
        if not self.legal_moves():
            return Ending(EndReason.NO_MOVES, side)
        if self._repetition_reached():
            return Ending(EndReason.REPETITION, side)
        return None

    def is_over(self) -> bool:
        return self.ending() is not None

    def _repetition_reached(self) -> bool:
        rule = self.profile.repetition if self.profile else "threefold"
        if rule == "threefold":
            return self.repetitions() >= 3
        # Online rules: a player with a single chip who made five moves in a row without taking.
        mover = 1 - self.side_to_move
        sgn = 1 if mover == BLUE else -1
        if sum(1 for c in self._board.cells if c * sgn > 0) != 1:
            return False
        own = self._moves[-1::-2][:5]
        return len(own) == 5 and not any(m.captures for m in own)

    # ------------------------------------------------------------------ helpers

    def _key(self) -> Hashable:
        return (self._board.side, tuple(self._board.cells), tuple(self._values))

    def _to_move(self, raw: RawMove) -> Move:
        squares = self.geo.squares
        path, captured, promotes, _ = raw
        cells = self._board.cells
        values = self._values
        start = path[0]
        c = cells[start]
        chip = Chip(BLUE if c > 0 else RED, values[start], abs(c) == KING)
        takings: tuple[Taking, ...] = ()
        if self.is_damath and captured:
            operators = damath_data.OPERATORS
            items = []
            for k, s in enumerate(captured):
                t = cells[s]
                taken = Chip(BLUE if t > 0 else RED, values[s], abs(t) == KING)
                landing = squares[path[k + 1]]
                items.append(
                    Taking(
                        taker=chip,
                        taken=taken,
                        taken_square=squares[s],
                        square=landing,
                        operator=operators[landing],
                        multiplier=(2 if chip.dama else 1) * (2 if taken.dama else 1),
                    )
                )
            takings = tuple(items)
        return Move(
            path=tuple(squares[i] for i in path),
            captures=tuple(squares[i] for i in captured),
            promotes=promotes,
            chip=chip,
            takings=takings,
        )

    def _why_illegal(self, path: tuple[Square, ...]) -> str:
        """A sentence a child or an arbiter can act on."""
        if len(path) < 2:
            return "a move needs a start and an end square"
        start = path[0]
        text = " -> ".join(f"({x}, {y})" for x, y in path)
        if start not in self.geo.index:
            return f"{text}: ({start[0]}, {start[1]}) is not a playable square"
        chip = self.chip_at(start)
        mover = side_name(self.side_to_move)
        if chip is None:
            return f"{text}: there is no chip on ({start[0]}, {start[1]})"
        if chip.side != self.side_to_move:
            return f"{text}: it is {mover}'s turn"
        legal = self.legal_moves()
        if legal and legal[0].captures:
            most = max(len(m.captures) for m in legal)
            who = "a dama" if all(m.chip and m.chip.dama for m in legal) else "a chip"
            return (
                f"{text}: taking is mandatory; {mover} must take {most} "
                f"chip{'s' if most > 1 else ''} with {who} (e.g. {legal[0]})"
            )
        return f"{text}: not a legal move for {mover}"

    def __repr__(self) -> str:
        name = self.variant or self.rules.name
        return f"<Game {name} ply={self.ply} to_move={side_name(self.side_to_move)}>"


__all__ = ["Ending", "Game", "IllegalMove", "Priority", "damath_rules"]
