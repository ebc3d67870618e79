"""A position of Mathematical Chess and the actions that change it: the three phases, a turn
step by step (a move, removals, the player's "done"), and the end with its score (C-11).

A ``Position`` is a value: ``apply`` returns a new one or raises ``IllegalAction`` naming the
rule broken, so a wrong removal on the board is refused with its reason and nothing changes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from enum import Enum
from functools import cached_property

from .board import Board
from .conditions import Conditions
from .grid import Point, half_rows, on_grid, point_text
from .matches import (
    ANY,
    DIGIT,
    DIGIT_LINES,
    NONE,
    OPERATOR,
    OWN_OPERATORS,
    Match,
    Scope,
    find_matches,
)
from .moves import Move, legal_moves, piece_moves, why_not
from .pieces import SIDES, WHITE, Piece, PieceError, symbol
from .settings import DEFAULT, MathChessSettings

STOPS = ("time", "agreement", "arbiter")
"""C-11: the ways a game is stopped and then decided by the score."""


class Phase(Enum):
    PREPARE = "prepare"
    PLAY = "play"
    OVER = "over"


class IllegalAction(ValueError):
    """An action the rules refuse; ``rule`` is the rule (R01–R12) or decision (C-n) it breaks."""

    def __init__(self, rule: str, text: str) -> None:
        super().__init__(f"{rule}: {text}")
        self.rule = rule
        self.text = text


@dataclass(frozen=True, slots=True)
class Place:
    """Prepare now!: put a piece, named (C-12), on an empty point."""

    symbol: str
    at: Point

    def text(self) -> str:
        return f"{self.symbol}{point_text(self.at)}"


@dataclass(frozen=True, slots=True)
class Remove:
    """One step of removals: opposing pieces taken together, each in a match allowed now."""

    points: frozenset[Point]


@dataclass(frozen=True, slots=True)
class Done:
    """The player ends the turn (the board's button, the page's "done")."""


@dataclass(frozen=True, slots=True)
class Pass:
    """A player who can neither move nor remove passes (C-3)."""


@dataclass(frozen=True, slots=True)
class Stop:
    """The time limit, the players' agreement or the arbiter stops the game (C-11)."""

    reason: str


Action = Place | Move | Remove | Done | Pass | Stop


@dataclass(frozen=True, slots=True)
class TurnState:
    """A turn under way: where the moved piece stands (None: removals without moving), whether
    its move took by itself, and how many removal steps were made."""

    moved: Point | None
    direct: bool = False
    steps: int = 0


@dataclass(frozen=True, slots=True)
class Ending:
    winner: int | None
    reason: str
    scores: tuple[int, int]

    def result(self) -> str:
        return {None: "1/2-1/2", 0: "1-0", 1: "0-1"}[self.winner]

    def describe(self) -> str:
        score = f"score {self.scores[0]}–{self.scores[1]}"
        who = "a draw" if self.winner is None else f"{SIDES[self.winner]} wins"
        why = {
            "no-operators": "has lost all their operators",
            "no-digits": "has lost all their digits",
        }
        if self.reason in why:
            assert self.winner is not None
            return f"{who}: {SIDES[1 - self.winner]} {why[self.reason]} ({score})"
        if self.reason == "both-lost":
            return f"{who}: both players have lost all their operators or digits ({score})"
        if self.reason == "blocked":
            return f"{who} on the score: neither player could move or remove ({score})"
        return f"{who} on the score after the game was stopped ({self.reason}; {score})"


@dataclass(frozen=True)
class Position:
    conditions: Conditions
    settings: MathChessSettings
    board: Board
    to_move: int = WHITE
    preparing: bool = True
    turn: TurnState | None = None
    passes: int = 0
    """Passes in a row: two, and neither player can do anything (C-3), so the game is scored."""
    stopped: str | None = None

    @classmethod
    def start(
        cls, conditions: Conditions | None = None, settings: MathChessSettings = DEFAULT
    ) -> Position:
        """The start of Prepare now!: an empty board, White to place."""
        return cls(conditions or Conditions(), settings, Board.empty(settings.size))

    # ------------------------------------------------------------------ the phases

    @property
    def phase(self) -> Phase:
        if self.ending() is not None:
            return Phase.OVER
        return Phase.PREPARE if self.preparing else Phase.PLAY

    def box(self, side: int) -> Counter[str]:
        """Prepare now!: the pieces ``side`` has still to place."""
        if not self.preparing:
            return Counter()
        return self.conditions.box() - self.board.count(side)

    def taken(self, side: int) -> Counter[str]:
        """Play now!: the pieces of ``side`` the opponent has taken."""
        if self.preparing:
            return Counter()
        return self.conditions.box() - self.board.count(side)

    def score(self) -> tuple[int, int]:
        """C-11: each player scores 2 for every operator taken and 1 for every digit taken."""
        out = []
        for side in (0, 1):
            taken = self.taken(1 - side)
            out.append(sum((1 if s.isdigit() else 2) * n for s, n in taken.items()))
        return out[0], out[1]

    def ending(self) -> Ending | None:
        return self._ending

    @cached_property
    def _ending(self) -> Ending | None:
        lost = ["", ""] if self.preparing else [self._lost(side) for side in (0, 1)]
        if lost[0] and lost[1]:
            return Ending(None, "both-lost", self.score())
        for side in (0, 1):
            if lost[side]:
                return Ending(1 - side, lost[side], self.score())
        if self.stopped is not None or self.passes >= 2:
            scores = self.score()
            winner = None if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
            return Ending(winner, self.stopped or "blocked", scores)
        return None

    def _lost(self, side: int) -> str:
        kinds = {p.is_digit for p in self.board.cells if p is not None and p.side == side}
        if False not in kinds:
            return "no-operators"
        if True not in kinds:
            return "no-digits"
        return ""

    # ------------------------------------------------------------------ what may be done

    def legal_placements(self) -> list[Place]:
        if self.phase is not Phase.PREPARE:
            return []
        symbols = self._placeable()
        return [Place(s, p) for s in symbols for p in self._placing_points()]

    def _placeable(self) -> list[str]:
        box = self.box(self.to_move)
        ops = [s for s in box if not s.isdigit() and box[s] > 0]
        if ops:
            return sorted(ops, key="+−×÷PR".index)
        return sorted(s for s in box if box[s] > 0)

    def _placing_points(self) -> list[Point]:
        size = self.board.size
        rows = (
            range(size) if self.settings.placement == "anywhere" else half_rows(self.to_move, size)
        )
        return [(x, y) for y in rows for x in range(size) if self.board.at((x, y)) is None]

    def legal_moves(self) -> list[Move]:
        if self.phase is not Phase.PLAY or self.turn is not None:
            return []
        return legal_moves(self.board, self.to_move)

    def scope(self) -> Scope:
        """Which matches the player to move may use now (C-3, C-7–C-10)."""
        if self.phase is not Phase.PLAY:
            return Scope(NONE)
        turn = self.turn
        if turn is None or turn.moved is None:
            return Scope(ANY if self.settings.without_moving == "any-match" else OWN_OPERATORS)
        if turn.direct and not self.settings.match_after_direct:
            return Scope(NONE)
        if self.settings.after_move == "whole-board":
            return Scope(ANY)
        piece = self.board.at(turn.moved)
        assert piece is not None
        if not piece.is_digit:
            return Scope(OPERATOR, turn.moved)
        lines = self.settings.digit_matches == "its-operators"
        return Scope(DIGIT_LINES if lines else DIGIT, turn.moved)

    def match_rule(self) -> str:
        """The rule a removal step uses now: R06/R08 after an operator's move (its first step,
        then going on), R09/R11 after a digit's, R12 without moving."""
        turn = self.turn
        if turn is None or turn.moved is None:
            return "R12"
        piece = self.board.at(turn.moved)
        assert piece is not None
        if piece.is_digit:
            return "R09" if turn.steps == 0 else "R11"
        return "R06" if turn.steps == 0 else "R08"

    def removal_options(self) -> list[Match]:
        """Every match the player to move may use now, each with the pieces it would remove and
        its arithmetic."""
        return find_matches(
            self.board,
            self.to_move,
            self.scope(),
            self.match_rule(),
            self.conditions.compare,
            self.settings.roots,
        )

    def removable(self) -> frozenset[Point]:
        return frozenset(p for m in self.removal_options() for p in m.removable)

    def can_end_turn(self) -> bool:
        return self.phase is Phase.PLAY and self.turn is not None

    def can_pass(self) -> bool:
        return (
            self.phase is Phase.PLAY
            and self.turn is None
            and not self.legal_moves()
            and not self.removal_options()
        )

    def step_rule(self, points: frozenset[Point]) -> str:
        """The rule of a removal step: several matches needed at once is R07 (operator) or R10
        (digit) on the turn's first step."""
        base = self.match_rule()
        if base in ("R06", "R09") and not any(
            points <= set(m.removable) for m in self.removal_options()
        ):
            return "R07" if base == "R06" else "R10"
        return base

    # ------------------------------------------------------------------ changing it

    def apply(self, action: Action) -> Position:
        if isinstance(action, Stop):
            return self._stop(action)
        phase = self.phase
        if phase is Phase.OVER:
            ending = self.ending()
            assert ending is not None
            raise IllegalAction("C-11", f"the game is over: {ending.describe()}")
        if isinstance(action, Place):
            return self._place(action)
        if phase is Phase.PREPARE:
            raise IllegalAction("C-2", "Prepare now!: the pieces are placed first, one in turn")
        if isinstance(action, Move):
            return self._move(action)
        if isinstance(action, Remove):
            return self._remove(action)
        if isinstance(action, Done):
            if self.turn is None:
                raise IllegalAction(
                    "C-3", "a turn is a move, or removals without moving: do one first"
                )
            return replace(self, to_move=1 - self.to_move, turn=None, passes=0)
        if not isinstance(action, Pass):
            raise IllegalAction("C-3", f"{action!r} is not an action of this game")
        if not self.can_pass():
            raise IllegalAction("C-3", "a player passes only when they can neither move nor remove")
        return replace(self, to_move=1 - self.to_move, passes=self.passes + 1)

    def _stop(self, action: Stop) -> Position:
        if action.reason not in STOPS:
            raise IllegalAction("C-11", f"a game is stopped by {', '.join(STOPS)}")
        if self.phase is Phase.OVER:
            raise IllegalAction("C-11", "the game is already over")
        return replace(self, stopped=action.reason)

    def _place(self, action: Place) -> Position:
        if self.phase is not Phase.PREPARE:
            raise IllegalAction("C-2", "every piece is on the board: Play now! has begun")
        try:
            name = symbol(action.symbol)
        except PieceError as exc:
            raise IllegalAction("C-12", str(exc)) from None
        side = self.to_move
        if self.box(side)[name] <= 0:
            left = " ".join(sorted(self.box(side).elements()))
            raise IllegalAction("C-12", f"{SIDES[side]} has no {name} left to place (left: {left})")
        if name not in self._placeable():
            raise IllegalAction("C-2", "all the operator pieces are placed before any digit")
        at = action.at
        if not on_grid(at, self.board.size):
            raise IllegalAction("C-1", f"{point_text(at)} is off the board")
        if self.board.at(at) is not None:
            raise IllegalAction("C-2", f"{point_text(at)} is taken: a piece goes on an empty point")
        if at not in self._placing_points():
            raise IllegalAction("C-2", f"{SIDES[side]} places on their own half of the board")
        board = self.board.changed({at: Piece(side, name)})
        done = not (self.conditions.box() - board.count(0)) and not (
            self.conditions.box() - board.count(1)
        )
        if done:
            return replace(self, board=board, preparing=False, to_move=WHITE, turn=None)
        return replace(self, board=board, to_move=1 - side)

    def _move(self, move: Move) -> Position:
        if self.turn is not None:
            if self.turn.moved is None:
                raise IllegalAction(
                    "C-3", "you have removed without moving: a turn is removals alone, or one move"
                )
            raise IllegalAction("R01", "only one move in a turn")
        found = self.find_move(move)
        piece = self.board.at(found.start)
        board = self.board.changed({found.start: None, found.end: piece})
        return replace(self, board=board, turn=TurnState(found.end, found.rule is not None))

    def find_move(self, move: Move) -> Move:
        """The legal move from ``move.start`` to ``move.end``, with what it takes by itself;
        ``IllegalAction`` with the rule it breaks when there is none."""
        for point in (move.start, move.end):  # (a point off the grid would wrap round or fail)
            if not on_grid(point, self.board.size):
                raise IllegalAction("C-1", f"{point_text(point)} is off the board")
        piece = self.board.at(move.start)
        if piece is not None and piece.side == self.to_move and self.phase is Phase.PLAY:
            for legal in piece_moves(self.board, move.start):
                if legal.end == move.end:
                    return legal
        rule, text = why_not(self.board, self.to_move, move.start, move.end)
        raise IllegalAction(rule, text)

    def _remove(self, action: Remove) -> Position:
        points = frozenset(action.points)
        if not points:
            raise IllegalAction("C-9", "a removal step takes at least one piece")
        options = self.removal_options()
        allowed = {p for m in options for p in m.removable}
        rule = self.match_rule()
        for point in sorted(points):
            if not on_grid(point, self.board.size):
                raise IllegalAction("C-1", f"{point_text(point)} is off the board")
            piece = self.board.at(point)
            if piece is None:
                raise IllegalAction("C-3", f"there is no piece on {point_text(point)} to remove")
            if piece.side == self.to_move:
                raise IllegalAction(
                    "C-3",
                    f"a removal takes only the opponent's pieces; {point_text(point)} "
                    f"holds your own {piece.symbol}",
                )
            if point not in allowed:
                raise IllegalAction(rule, self._not_allowed(piece, point, rule))
        board = self.board.changed({p: None for p in points})
        turn = self.turn or TurnState(None)
        return replace(self, board=board, turn=replace(turn, steps=turn.steps + 1))

    def _not_allowed(self, piece: Piece, point: Point, rule: str) -> str:
        where = f"the {piece.name()} on {point_text(point)}"
        scope = self.scope()
        if scope.kind == NONE:
            return f"{where}: the move took by itself and its turn makes no match here (C-4)"
        if not piece.is_digit and scope.kind in (OPERATOR, OWN_OPERATORS):
            return (
                f"{where}: an operator's match removes the opponent's digits only; an operator "
                "is taken by a move (R02, R04) or by a digit's match (R09)"
            )
        if scope.kind == OPERATOR:
            return f"{where} is in no matching pair of partial values around the moved operator"
        if scope.kind == DIGIT:
            return f"{where} is in no matching pair of partial values that uses the moved digit"
        if scope.kind == DIGIT_LINES:
            return (
                f"{where} is in no matching pair of partial values around an operator the "
                "moved digit is attached to"
            )
        return f"{where} is in no matching pair of partial values you may use without moving"
