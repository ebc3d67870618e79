"""Dadama, draughts with dice (docs/rules-dadama.md): Italian draughts where every piece is a die
whose value decides what it may take.

The engine stays pure: it never throws a die. A throw is an input carried by the step that uses
it, so a game is a list of steps that replays exactly. A turn is one ``Quiet`` move, or a
sequence of ``Throw`` steps by one die (each throw, the value it keeps, and the taking it makes,
if any) that may end with ``Stop``. Between steps the game answers what a board must show: which
dice must throw (``throwers``), which takings a given throw allows (``throw_options``), whether
the die may go on or stop (``phase`` is ``GO_ON``), and how the game ended (``ending``).

Movement is the generic core with Italian draughts' rule set (``draughts.ITALIAN``): quiet moves
come from ``movegen.Board.quiet_moves``; which dice can take, from ``movegen.Board.captures``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from .draughts import ITALIAN
from .game import Ending, EndReason
from .geometry import DOWN, UP
from .move import Square
from .movegen import EMPTY, KING, MAN, Board, RawMove
from .settings import changed_settings, checked_settings

RULES = replace(ITALIAN.rules, name="dadama")
"""Italian draughts: men step and take forward only, a man never takes a dadama, dadamas step
and take one square forward or backward."""
SIZE = RULES.size
COLOURS = ("white", "black")
"""Side 0 (moves first, sits at ``y = 0``) is White, as in Italian draughts."""
START_VALUE = 3
"""G-1: every die starts showing 3; G-5: so does every new dadama."""
FACES = (1, 2, 3, 4, 5, 6)


class IllegalStep(ValueError):
    """A step the rules do not allow now; the message says why and what is allowed."""


@dataclass(frozen=True, slots=True)
class Die:
    """A piece: one die, or a dadama (two dice stacked, ``value`` its top die's)."""

    side: int
    value: int
    dadama: bool = False


@dataclass(frozen=True, slots=True)
class Quiet:
    """A die moves one square without taking, its value unchanged (G-1)."""

    start: Square
    end: Square


@dataclass(frozen=True, slots=True)
class Throw:
    """The die on ``square`` throws ``dice`` (one value, or two for a dadama, as they fell),
    keeps ``keep`` (a single die keeps its throw; a dadama one of its two, G-5) and takes by
    jumping to ``to``, or takes nothing when ``to`` is None."""

    square: Square
    dice: tuple[int, ...]
    keep: int | None = None
    to: Square | None = None

    @property
    def kept(self) -> int:
        if self.keep is not None:
            return self.keep
        return self.dice[0]


@dataclass(frozen=True, slots=True)
class Stop:
    """After a taking, the die on ``square`` keeps its value instead of throwing again (G-3)."""

    square: Square


Step = Quiet | Throw | Stop


class Phase(Enum):
    MOVE = "move"  # no die can take: one quiet move
    THROW = "throw"  # one of ``throwers()`` must throw (G-2)
    GO_ON = "go-on"  # after a taking the die may throw again, or stop (G-3)
    OVER = "over"


@dataclass(frozen=True)
class Played:
    """One step as the game played it, with everything a board, a record or a scoresheet
    needs: the piece before the step, what it took, its value after, and whether the turn (or
    the game) ended with it."""

    side: int
    step: Step
    piece: Die
    taken: Square | None = None
    taken_piece: Die | None = None
    value: int = 0
    promoted: bool = False
    turn_ends: bool = False


class DadamaEnding(Ending):
    """Why the game ended; ``side`` is the side that lost (or, for a repetition, the side to
    move). ``all-sixes`` is G-7's loss."""

    def describe(self) -> str:
        who = COLOURS[self.side].capitalize()
        return {
            EndReason.NO_CHIPS: f"{who} has no die left",
            EndReason.NO_MOVES: f"{who} cannot move",
            EndReason.ALL_SIXES: f"every die of {who} shows 6",
            EndReason.REPETITION: "the same position occurred a third time (draw)",
        }[self.reason]

    @property
    def winner(self) -> int | None:
        return None if self.reason == EndReason.REPETITION else 1 - self.side


@dataclass(frozen=True)
class DadamaSettings:
    """Every point where the seed is open, as a named choice (docs/rules-dadama.md)."""

    throw_choice: str = "free"
    """G-2: ``free`` (any die that can take may throw) or ``italian`` (only the dice whose
    takings, if every throw succeeded, the Italian priorities would allow)."""
    go_on: str = "choice"
    """G-3: ``choice`` (after a taking the player may stop) or ``compulsory`` (it must throw
    again while it can take, as an Italian sequence is completed)."""
    all_sixes_loses: bool = True
    """G-7: a player whose dice all show 6 at once loses."""
    repetition: str = "threefold"
    """G-7: ``threefold`` (the third occurrence of a position is a draw) or ``off``."""

    @property
    def by_priority(self) -> bool:
        """G-2's second choice: only the dice whose takings the priorities allow may throw."""
        return self.throw_choice != "free"

    def with_settings(self, settings: Mapping[str, Any]) -> DadamaSettings:
        return replace(self, **checked_settings(self, settings, CHOICES))

    def changed(self) -> dict[str, Any]:
        return changed_settings(self)


CHOICES = {
    "throw_choice": ("free", "italian"),
    "go_on": ("choice", "compulsory"),
    "repetition": ("threefold", "off"),
}
DEFAULT = DadamaSettings()


def jumped(start: Square, to: Square) -> Square:
    """The square a short jump from ``start`` to ``to`` passes over."""
    return ((start[0] + to[0]) // 2, (start[1] + to[1]) // 2)


def square_text(square: Square) -> str:
    return f"({square[0]},{square[1]})"


@dataclass
class _Saved:
    """What ``undo`` restores: the whole small state before a step (exact by construction)."""

    cells: list[int]
    values: list[int]
    side: int
    taker: int | None
    taken: list[int]
    over: DadamaEnding | None
    key: tuple[Any, ...] | None


@dataclass(slots=True)
class _Cache:
    """What a position's questions cost to answer, kept until the position changes."""

    throwers: tuple[Square, ...] | None = None
    quiet: dict[Quiet, RawMove] | None = None
    ending: DadamaEnding | None = None
    ending_known: bool = False


class DadamaGame:
    """A Dadama game: a position you can ask what must happen next, play a step on and undo."""

    def __init__(
        self,
        pieces: Mapping[Square, Die],
        to_move: int = 0,
        settings: DadamaSettings = DEFAULT,
        going_on: tuple[Square, tuple[Square, ...]] | None = None,
    ) -> None:
        self.settings = settings
        board = Board(RULES, [EMPTY] * 32, to_move)
        self.geo = board.geo
        self._values = [0] * self.geo.count
        for square, die in pieces.items():
            i = self.geo.index[square]
            board.cells[i] = (KING if die.dadama else MAN) * (1 if die.side == 0 else -1)
            self._values[i] = die.value
        self._board = board
        self._taker: int | None = None
        self._taken: list[int] = []
        if going_on is not None:
            where, taken = going_on
            self._taker = self.geo.index[where]
            self._taken = [self.geo.index[s] for s in taken]
        self._over: DadamaEnding | None = None
        self._seen: Counter[tuple[Any, ...]] = Counter()
        if self._taker is None:
            self._seen[self._key()] += 1
        self._history: list[tuple[Played, _Saved]] = []
        self._cache = _Cache()
        self.start_side = to_move

    @classmethod
    def opening(cls, settings: DadamaSettings = DEFAULT) -> DadamaGame:
        """Twelve dice a side showing 3 on the first three rows, White to move (G-1)."""
        pieces = {}
        for x, y in Board(RULES, [EMPTY] * 32, 0).geo.squares:
            if y < 3:
                pieces[(x, y)] = Die(0, START_VALUE)
            elif y >= SIZE - 3:
                pieces[(x, y)] = Die(1, START_VALUE)
        return cls(pieces, 0, settings)

    def copy(self) -> DadamaGame:
        """The current position as a new game (history not copied)."""
        return DadamaGame(self.pieces(), self.side_to_move, self.settings, self.going_on)

    # ------------------------------------------------------------------ state

    @property
    def side_to_move(self) -> int:
        return self._board.side

    def pieces(self) -> dict[Square, Die]:
        squares = self.geo.squares
        return {
            squares[i]: Die(0 if c > 0 else 1, self._values[i], abs(c) == KING)
            for i, c in enumerate(self._board.cells)
            if c
        }

    def piece_at(self, square: Square) -> Die | None:
        i = self.geo.index.get(square)
        if i is None or not self._board.cells[i]:
            return None
        c = self._board.cells[i]
        return Die(0 if c > 0 else 1, self._values[i], abs(c) == KING)

    @property
    def going_on(self) -> tuple[Square, tuple[Square, ...]] | None:
        """During a multiple taking: the die that is taking and the pieces it has taken (they
        stay on the board until the move ends, and may not be jumped again)."""
        if self._taker is None:
            return None
        squares = self.geo.squares
        return squares[self._taker], tuple(squares[i] for i in self._taken)

    @property
    def phase(self) -> Phase:
        if self._over is not None:
            return Phase.OVER
        if self._taker is not None:
            return Phase.GO_ON
        if self.ending() is not None:
            return Phase.OVER
        return Phase.THROW if self.throwers() else Phase.MOVE

    @property
    def can_stop(self) -> bool:
        """True when the die that has taken may keep its value and end the move (G-3)."""
        return self.phase is Phase.GO_ON and self.settings.go_on == "choice"

    @property
    def history(self) -> list[Played]:
        return [played for played, _ in self._history]

    @property
    def steps(self) -> list[Step]:
        return [played.step for played, _ in self._history]

    def turns(self) -> list[list[Played]]:
        """The steps grouped by turn; the last group may be a turn still going on."""
        out: list[list[Played]] = []
        current: list[Played] = []
        for played in self.history:
            current.append(played)
            if played.turn_ends:
                out.append(current)
                current = []
        if current:
            out.append(current)
        return out

    # ------------------------------------------------------------------ what may happen now

    def throwers(self) -> tuple[Square, ...]:
        """The dice that can take now; one of them must throw (G-2). During a multiple taking,
        the die that is taking, if it can take again."""
        if self._cache.throwers is None:
            self._cache.throwers = self._throwers()
        return self._cache.throwers

    def _throwers(self) -> tuple[Square, ...]:
        squares = self.geo.squares
        if self._over is not None:
            return ()
        if self._taker is not None:
            return (squares[self._taker],)
        board = self._board
        captures = board.moves() if self.settings.by_priority else board.captures()
        if not captures or not captures[0][1]:
            return ()
        return tuple(squares[i] for i in sorted({raw[0][0] for raw in captures}))

    def quiet_moves(self) -> list[Quiet]:
        """The quiet moves, when no die can take (taking is compulsory)."""
        if self.phase is not Phase.MOVE:
            return []
        return list(self._quiet_raw())

    def _quiet_raw(self) -> dict[Quiet, RawMove]:
        if self._cache.quiet is None:
            squares = self.geo.squares
            self._cache.quiet = {
                Quiet(squares[raw[0][0]], squares[raw[0][1]]): raw
                for raw in self._board.quiet_moves()
            }
        return self._cache.quiet

    def dice_to_throw(self, square: Square) -> int:
        """How many dice the piece on ``square`` throws: two for a dadama (G-5), else one."""
        piece = self.piece_at(square)
        if piece is None:
            raise IllegalStep(f"there is no die on {square_text(square)}")
        return 2 if piece.dadama else 1

    def jumps(self, square: Square) -> list[tuple[Square, Square]]:
        """(landing, taken square) of every taking the piece on ``square`` could make now if its
        throw were high enough: a short jump over an opposing piece to the empty square beyond,
        forward only for a die, both ways for a dadama; never over a dadama by a die, nor over a
        piece already taken in this move."""
        i = self.geo.index.get(square)
        if i is None:
            return []
        squares = self.geo.squares
        return [(squares[land], squares[over]) for land, over in self._jumps(i)]

    def _jumps(self, i: int) -> list[tuple[int, int]]:
        cells = self._board.cells
        c = cells[i]
        if not c:
            return []
        sgn = 1 if c > 0 else -1
        king = abs(c) == KING
        rays = self.geo.rays[i]
        dirs = (0, 1, 2, 3) if king else (UP if sgn > 0 else DOWN)
        out = []
        for d in dirs:
            ray = rays[d]
            if len(ray) < 2:
                continue
            over, land = ray[0], ray[1]
            target = cells[over] * sgn
            if target >= 0 or cells[land] != EMPTY or over in self._taken:
                continue
            if not king and target == -KING:
                continue
            out.append((land, over))
        return out

    def allowed_takings(self, square: Square, value: int) -> list[tuple[Square, Square]]:
        """The takings a throw of ``value`` allows the piece on ``square``: those of pieces whose
        value it equals or exceeds (G-2)."""
        return [(land, over) for land, over in self.jumps(square) if self._value_at(over) <= value]

    def throw_options(self, square: Square, dice: tuple[int, ...] | list[int]) -> list[Throw]:
        """Every step the player may make once the piece on ``square`` has thrown ``dice``.

        With a taking allowed: the takings only (taking is compulsory, and the player chooses
        which, G-2; a dadama keeps a value that allows one, G-5). Otherwise the die keeps the
        throw where it stands (a dadama keeps either value). A value that would make all the
        player's dice show 6 ends the game at once and takes nothing (G-7); the duty to take
        never forces it (GE-3).
        """
        dice = tuple(dice)
        self._check_thrower(square, dice)
        i = self.geo.index[square]
        takings: list[Throw] = []
        stays: list[Throw] = []
        for keep in sorted(set(dice)):
            if self._loses_at(i, keep):
                stays.append(Throw(square, dice, keep, None))
                continue
            allowed = [land for land, over in self._jumps(i) if self._values[over] <= keep]
            takings += [Throw(square, dice, keep, self.geo.squares[land]) for land in allowed]
            stays.append(Throw(square, dice, keep, None))
        return takings or stays

    def _loses_at(self, i: int, keep: int) -> bool:
        """True when keeping ``keep`` on the die at ``i`` makes every die of its side show 6."""
        if not self.settings.all_sixes_loses or keep != 6:
            return False
        cells, values = self._board.cells, self._values
        sgn = 1 if cells[i] > 0 else -1
        return all(values[j] == 6 for j, c in enumerate(cells) if c * sgn > 0 and j != i)

    def _check_thrower(self, square: Square, dice: tuple[int, ...]) -> None:
        phase = self.phase
        if phase is Phase.OVER:
            raise IllegalStep(f"the game is over: {self.ending().describe()}")  # type: ignore[union-attr]
        if phase is Phase.MOVE:
            raise IllegalStep("no die can take: there is nothing to throw for, move a die")
        if square not in self.throwers():
            options = ", ".join(square_text(s) for s in self.throwers())
            raise IllegalStep(
                f"the die on {square_text(square)} may not throw now; throw one on {options}"
            )
        need = self.dice_to_throw(square)
        if len(dice) != need:
            what = "a dadama throws both its dice" if need == 2 else "a die throws one die"
            raise IllegalStep(f"{square_text(square)}: {what}, got {len(dice)} values")
        for value in dice:
            if not isinstance(value, int) or isinstance(value, bool) or value not in FACES:
                raise IllegalStep(f"a die shows 1 to 6, not {value!r}")

    # ------------------------------------------------------------------ playing

    def play(self, step: Step) -> Played:
        """Play one step; returns what it did. An illegal step changes nothing and raises
        ``IllegalStep`` with a sentence a player or an arbiter can act on."""
        if isinstance(step, Quiet):
            return self._play_quiet(step)
        if isinstance(step, Throw):
            return self._play_throw(step)
        if isinstance(step, Stop):
            return self._play_stop(step)
        raise IllegalStep(f"not a step: {step!r}")

    def _play_quiet(self, step: Quiet) -> Played:
        phase = self.phase
        if phase is Phase.OVER:
            raise IllegalStep(f"the game is over: {self.ending().describe()}")  # type: ignore[union-attr]
        if phase is Phase.GO_ON:
            raise IllegalStep("the die that has taken must throw again or stop")
        if phase is Phase.THROW:
            options = ", ".join(square_text(s) for s in self.throwers())
            raise IllegalStep(f"taking is compulsory: throw one of the dice on {options}")
        raw = self._quiet_raw().get(step)
        if raw is None:
            raise IllegalStep(self._why_not_quiet(step))
        saved = self._save()
        i, to = raw[0]
        piece = self._piece(i)
        self._board.cells[to] = self._board.cells[i]
        self._board.cells[i] = EMPTY
        self._values[to], self._values[i] = self._values[i], 0
        promoted = raw[2]
        if promoted:
            self._crown(to)
        played = Played(self._board.side, step, piece, value=self._values[to], promoted=promoted)
        return self._finish(played, saved, end_turn=True)

    def _play_throw(self, step: Throw) -> Played:
        options = self.throw_options(step.square, step.dice)
        keep = step.keep
        if keep is None and len(set(step.dice)) == 1:
            keep = step.dice[0]
        wanted = Throw(step.square, tuple(step.dice), keep, step.to)
        if wanted not in options:
            raise IllegalStep(self._why_not_throw(wanted, options))
        saved = self._save()
        i = self.geo.index[step.square]
        piece = self._piece(i)
        side = self._board.side
        if self._loses_at(i, wanted.kept):
            self._over = DadamaEnding(EndReason.ALL_SIXES, side)
        self._values[i] = wanted.kept
        if wanted.to is None:
            played = Played(side, wanted, piece, value=self._values[i], turn_ends=True)
            return self._finish(played, saved, end_turn=True)
        to = self.geo.index[wanted.to]
        over = self.geo.index[jumped(step.square, wanted.to)]
        taken_piece = self._piece(over)
        cells = self._board.cells
        cells[to], cells[i] = cells[i], EMPTY
        self._values[to], self._values[i] = self._values[i], 0
        self._taken.append(over)
        far_row = SIZE - 1 if side == 0 else 0
        promoted = abs(cells[to]) == MAN and wanted.to[1] == far_row
        if promoted:
            self._crown(to)
            go_on = False
        else:
            self._taker = to
            go_on = bool(self._jumps(to))
        played = Played(
            side,
            wanted,
            piece,
            taken=self.geo.squares[over],
            taken_piece=taken_piece,
            value=self._values[to],
            promoted=promoted,
        )
        return self._finish(played, saved, end_turn=not go_on)

    def _play_stop(self, step: Stop) -> Played:
        phase = self.phase
        if phase is not Phase.GO_ON:
            raise IllegalStep("only a die that has just taken and could take again may stop")
        if not self.can_stop:
            raise IllegalStep("going on is compulsory (setting go_on): throw again")
        here = self.geo.squares[self._taker]  # type: ignore[index]
        if step.square != here:
            raise IllegalStep(f"the die that is taking stands on {square_text(here)}")
        saved = self._save()
        i = self._taker
        assert i is not None
        played = Played(self._board.side, step, self._piece(i), value=self._values[i])
        return self._finish(played, saved, end_turn=True)

    def _crown(self, i: int) -> None:
        """G-5: a die that ends its move on the far row becomes a dadama showing 3."""
        cells = self._board.cells
        cells[i] = KING if cells[i] > 0 else -KING
        self._values[i] = START_VALUE

    def _finish(self, played: Played, saved: _Saved, end_turn: bool) -> Played:
        if end_turn:
            cells = self._board.cells
            for s in self._taken:
                cells[s] = EMPTY
                self._values[s] = 0
            self._taken = []
            self._taker = None
            self._board.side ^= 1
            if self._over is None:
                key = self._key()
                self._seen[key] += 1
                saved.key = key
            played = replace(played, turn_ends=True)
        self._history.append((played, saved))
        self._cache = _Cache()
        return played

    def undo(self) -> Played:
        """Take back the last step exactly (position, values, phase, repetition counts)."""
        if not self._history:
            raise IndexError("no step to take back")
        played, saved = self._history.pop()
        if saved.key is not None:
            self._seen[saved.key] -= 1
            if not self._seen[saved.key]:
                del self._seen[saved.key]
        self._board.cells[:] = saved.cells
        self._values[:] = saved.values
        self._board.side = saved.side
        self._taker = saved.taker
        self._taken = saved.taken
        self._over = saved.over
        self._cache = _Cache()
        return played

    def _save(self) -> _Saved:
        return _Saved(
            list(self._board.cells),
            list(self._values),
            self._board.side,
            self._taker,
            list(self._taken),
            self._over,
            None,
        )

    # ------------------------------------------------------------------ end of game

    def ending(self) -> DadamaEnding | None:
        """Why the game is over, or None (G-7). Checked at the start of a turn, and at once
        when a throw makes all the thrower's dice show 6."""
        if self._over is not None:
            return self._over
        if self._taker is not None:
            return None
        if not self._cache.ending_known:
            self._cache.ending = self._ending()
            self._cache.ending_known = True
        return self._cache.ending

    def _ending(self) -> DadamaEnding | None:
        side = self._board.side
        cells, values = self._board.cells, self._values
        mine = [values[i] for i, c in enumerate(cells) if (c > 0) == (side == 0) and c]
        theirs = [values[i] for i, c in enumerate(cells) if (c > 0) != (side == 0) and c]
        if not mine:
            return DadamaEnding(EndReason.NO_CHIPS, side)
        if not theirs:
            return DadamaEnding(EndReason.NO_CHIPS, 1 - side)
        if self.settings.all_sixes_loses:
            if all(v == 6 for v in mine):
                return DadamaEnding(EndReason.ALL_SIXES, side)
            if all(v == 6 for v in theirs):
                return DadamaEnding(EndReason.ALL_SIXES, 1 - side)
        if not self.throwers() and not self._quiet_raw():
            return DadamaEnding(EndReason.NO_MOVES, side)
        if self.settings.repetition == "threefold" and self.repetitions() >= 3:
            return DadamaEnding(EndReason.REPETITION, side)
        return None

    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def repetitions(self) -> int:
        """How often the current position (dice, values, side to move) has stood at a turn's
        start."""
        return self._seen[self._key()]

    # ------------------------------------------------------------------ helpers

    def _key(self) -> tuple[Any, ...]:
        return (self._board.side, tuple(self._board.cells), tuple(self._values))

    def _piece(self, i: int) -> Die:
        c = self._board.cells[i]
        return Die(0 if c > 0 else 1, self._values[i], abs(c) == KING)

    def _value_at(self, square: Square) -> int:
        return self._values[self.geo.index[square]]

    def _why_not_quiet(self, step: Quiet) -> str:
        text = f"{square_text(step.start)}-{square_text(step.end)}"
        piece = self.piece_at(step.start)
        if piece is None:
            return f"{text}: there is no die on {square_text(step.start)}"
        if piece.side != self.side_to_move:
            return f"{text}: it is {COLOURS[self.side_to_move]}'s turn"
        if not piece.dadama:
            return f"{text}: a die moves one square diagonally forward to an empty square"
        return f"{text}: a dadama moves one square diagonally to an empty square"

    def _why_not_throw(self, step: Throw, options: list[Throw]) -> str:
        text = f"{square_text(step.square)} throws {list(step.dice)}"
        if step.keep is None:
            return f"{text}: say which of the two values the dadama keeps"
        if step.keep not in step.dice:
            return f"{text}: the dadama keeps one of the values thrown, not {step.keep}"
        takes = [o for o in options if o.to is not None]
        if takes and step.to is None:
            where = ", ".join(f"x{square_text(o.to)}" for o in takes)  # type: ignore[arg-type]
            return f"{text}: the throw allows a taking, and taking is compulsory ({where})"
        if step.to is not None and not takes:
            return f"{text}: the throw is too low to take; the die stays with its new value"
        if step.to is not None:
            where = ", ".join(f"x{square_text(o.to)} keeping {o.keep}" for o in takes)  # type: ignore[arg-type]
            return f"{text}: cannot take by {square_text(step.to)}; allowed: {where}"
        return f"{text}: not allowed now"

    def __repr__(self) -> str:
        return (
            f"<DadamaGame steps={len(self._history)} to_move={COLOURS[self.side_to_move]} "
            f"phase={self.phase.value}>"
        )
