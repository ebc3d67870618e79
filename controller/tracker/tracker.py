"""The tracker: from timestamped occupancy frames to moves, guidance and mistakes to fix.

Every frame is matched as a whole board against the position (nothing lifted), the final
occupancy of every legal move, and the moments while a legal move is being played
(``positions.PositionIndex``). A move commits only after the board has matched its final
occupancy for ``settle`` seconds; a board that matches nothing is shown only after it has stayed
unchanged for ``error_delay``. Time comes in with every call; there is no clock, I/O or thread.

The tracker keeps its own copy of the position. It never pushes onto the caller's game: it
returns ``MoveCommitted`` and the caller pushes the move. After anything else changes the game
(a takeback, an arbiter's correction) the caller hands the new position to ``set_position``.
"""

from __future__ import annotations

from dataclasses import replace

from controller.i18n import _
from controller.rules.game import Game
from controller.rules.move import Chip, Move, Square, side_name

from .events import (
    Ambiguity,
    BoardNeeded,
    BoardReady,
    ButtonIgnored,
    Choice,
    Crowned,
    Event,
    Lifted,
    Mismatch,
    MoveCommitted,
    MustTake,
    Promoted,
    PutBack,
    Recovered,
    Rotated,
)
from .guidance import Guidance, Mode, Phase
from .positions import MoveShape, PositionIndex
from .reasons import Reason, lift_reason, mismatch_reason, which_way
from .settings import Settings

BUTTONS = ("confirm", "next", "pause", "takeback", "new_game")
"""Button names the tracker accepts (drivers.buttons.BUTTON_NAMES); it acts on confirm and next."""


def chip_text(chip: Chip) -> str:
    """How the display names a chip to put back: side, value as printed, dama."""
    value = "" if chip.value is None else f" {chip.value}"
    return f"{side_name(chip.side)}{value}{' dama' if chip.dama else ''}"


class Tracker:
    """Turns occupancy frames into events for one game.

    ``mode`` is ``setup`` (wait for the opening or the given position to stand) or ``restore``
    (the same after a restart from the journal); the tracker starts reading moves once the board
    matches the position for ``settle`` seconds.
    """

    # the attempt in progress (_reset_attempt) and the position's marks (_load)
    _phase: Phase
    _touched: int
    _appeared: dict[int, int]
    _lifted_sent: int
    _current: list[MoveShape]
    _cannot: tuple[Square, ...]
    _amb: list[MoveShape]
    _amb_sel: int | None
    _amb_touched: int
    _crown: Square | None
    _crown_lifted: bool

    def __init__(
        self, game: Game, settings: Settings | None = None, *, mode: str = "setup"
    ) -> None:
        if mode not in (Mode.SETUP, Mode.RESTORE):
            raise ValueError(f"mode must be 'setup' or 'restore', got {mode!r}")
        self.settings = settings or Settings()
        touch = self.settings.touch_move
        if touch is None:
            touch = bool(game.profile and game.profile.touch_move)
        self.touch_move = touch
        self.mode = Mode(mode)
        self._board = -1  # nothing seen yet
        self._since = 0.0
        self._flip = False
        self._rotation_offered = False
        self._announced = False
        self._load(game.copy())

    # ------------------------------------------------------------------ public API

    @property
    def game(self) -> Game:
        """The tracker's copy of the position the board should show (read only)."""
        return self._game

    @property
    def flipped(self) -> bool:
        """True once the players accepted a board set up turned half round."""
        return self._flip

    def set_position(self, game: Game, t: float) -> list[Event]:
        """The expected position changed outside the board (takeback, correction): restore it."""
        self._load(game.copy())
        self.mode = Mode.RESTORE
        self._announced = False
        events: list[Event] = []
        if self._board >= 0:
            self._since = t
            self._setup_frame(t, events)
        return events

    def feed_frame(self, t: float, occupied: object) -> list[Event]:
        """A sensor frame: every occupied playable square at time ``t`` (seconds)."""
        events = self.tick(t)
        board = self._to_mask(occupied)
        if board == self._board:
            return events
        self._board = board
        self._since = t
        if self.mode != Mode.PLAY:
            self._setup_frame(t, events)
        else:
            self._play_frame(t, events)
        return events

    def feed_button(self, t: float, name: str) -> list[Event]:
        """A button press: ``next`` cycles an ambiguity's choices, ``confirm`` takes the chosen
        one (or accepts a board set up turned half round)."""
        if name not in BUTTONS:
            raise ValueError(
                _("unknown button {name!r}; buttons are: {join}").format(
                    name=name, join=", ".join(BUTTONS)
                )
            )
        events = self.tick(t)
        if name == "next" and self._amb:
            self._amb_sel = 0 if self._amb_sel is None else (self._amb_sel + 1) % len(self._amb)
            events.append(Choice(t, self._amb[self._amb_sel].move))
        elif name == "confirm" and self._amb and self._amb_sel is not None:
            if self._board == self._amb[0].final:
                self._commit(t, self._amb[self._amb_sel], events)
            else:
                events.append(ButtonIgnored(t, name))
        elif name == "confirm" and self.mode != Mode.PLAY and self._is_rotated():
            self._flip = True
            self._board = self._rotate(self._board)
            self._since = t
            self._setup_frame(t, events)
        else:
            events.append(ButtonIgnored(t, name))
        return events

    def tick(self, t: float) -> list[Event]:
        """Time passed without a new frame: settle and error_delay may expire."""
        events: list[Event] = []
        if self._board < 0:
            return events
        if self.mode != Mode.PLAY:
            if self._board == self._pos.occupied and t >= self._since + self.settings.settle:
                events.append(BoardReady(self._since + self.settings.settle, self.mode))
                self.mode = Mode.PLAY
                self._start_position(self._since + self.settings.settle, events)
            return events
        if self._phase == Phase.SETTLING and t >= self._since + self.settings.settle:
            when = self._since + self.settings.settle
            if self._amb:
                chosen = self._amb_resolved()
                if chosen is not None:
                    self._commit(when, chosen, events)
            else:
                self._settled(when, events)
        elif (
            self._phase in (Phase.INVALID, Phase.MISMATCH_PENDING)
            and t >= self._since + self.settings.error_delay
        ):
            self._phase = Phase.MISMATCH
            missing, extra = self._diff()
            events.append(Mismatch(self._since + self.settings.error_delay, missing, extra))
        return events

    @property
    def pending(self) -> bool:
        """True while a timer may still produce an event (a settle or an error_delay)."""
        if self._board < 0:
            return False
        if self.mode != Mode.PLAY:
            return self._board == self._pos.occupied
        return self._phase in (Phase.SETTLING, Phase.INVALID, Phase.MISMATCH_PENDING)

    def next_deadline(self) -> float | None:
        """When the running timer expires (for a caller that sleeps until then)."""
        if not self.pending:
            return None
        if self.mode != Mode.PLAY or self._phase == Phase.SETTLING:
            return self._since + self.settings.settle
        return self._since + self.settings.error_delay

    def guidance(self) -> Guidance:
        """What the board should show now (read by the view on every frame)."""
        pos = self._pos
        if self.mode != Mode.PLAY:
            missing, extra = self._diff()
            return Guidance(
                mode=self.mode,
                phase=Phase.READY if not (missing or extra) else Phase.WAITING,
                side=pos.side,
                missing=missing,
                extra=extra,
                place=self._place(missing),
                rotated=self._is_rotated(),
            )
        phase = self._phase
        common = Guidance(
            mode=Mode.PLAY,
            phase=phase,
            side=pos.side,
            locked=pos.squares[self._lock.bit_length() - 1] if self._lock else None,
            crown=self._crown,
        )
        if phase == Phase.MISMATCH:
            missing, extra = self._diff()
            return replace(
                common,
                missing=missing,
                extra=extra,
                place=self._place(missing),
                reason=mismatch_reason(self._game, missing, extra),
            )
        if self._amb:
            blink, order = _telling_apart(self._amb)
            chosen = self._amb_sel
            sel = self._amb[chosen].move if chosen is not None else None
            marks: tuple[Square, ...] = ()
            if chosen is not None and sel is not None:
                marks = (order[chosen],) if order else sel.path[1:-1]
            return replace(
                common,
                phase=Phase.AMBIGUITY,
                choices=tuple(s.move for s in self._amb),
                blink=blink,
                selected=sel,
                selected_marks=marks,
                reason=which_way(),
            )
        if phase == Phase.IDLE:
            if pos.must_take:
                return replace(common, must_take=self._takers(), to_be_taken=self._all_taken())
            return common
        if phase in (Phase.MOVING, Phase.SETTLING):
            shapes = self._current
            board = self._board
            lifted = pos.squares_of(pos.occupied & ~board)
            taken = {c for s in shapes for c in s.move.captures}
            still = tuple(sorted(c for c in taken if board >> pos.index[c] & 1))
            dest = tuple(sorted({s.move.end for s in shapes}))
            return replace(common, lifted=lifted, destinations=dest, to_be_taken=still)
        if phase == Phase.CROWNING:
            return common
        # invalid / mismatch_pending: a chip that may not move is shown, nothing else yet
        why = self._lift_reason(self._cannot[0]) if self._cannot else None
        return replace(common, cannot_move=self._cannot, reason=why)

    # ------------------------------------------------------------------ position

    def _load(self, game: Game) -> None:
        self._game = game
        self._pos = PositionIndex(game)
        self._reset_attempt()
        self._lock = 0
        self._crown = None
        self._crown_lifted = False

    def _reset_attempt(self) -> None:
        self._phase = Phase.IDLE
        self._touched = 0
        self._appeared = {}
        self._lifted_sent = 0
        self._current = []
        self._cannot = ()
        self._amb = []
        self._amb_sel = None
        self._amb_touched = 0

    def _start_position(self, t: float, events: list[Event]) -> None:
        if self._pos.must_take:
            events.append(MustTake(t, self._takers(), self._all_taken()))
        # the board may already differ (a fast player): read it against the new position
        if self._board != self._pos.occupied:
            self._play_frame(t, events)

    def _takers(self) -> tuple[Square, ...]:
        return tuple(sorted({m.start for m in self._pos.moves}))

    def _all_taken(self) -> tuple[Square, ...]:
        return tuple(sorted({c for m in self._pos.moves for c in m.captures}))

    # ------------------------------------------------------------------ setup and restore

    def _setup_frame(self, t: float, events: list[Event]) -> None:
        if self._board == self._pos.occupied:
            return  # BoardReady after settle, from tick
        if not self._announced:
            self._announced = True
            missing, extra = self._diff()
            events.append(BoardNeeded(t, self.mode, missing, extra, self._place(missing)))
        if self._is_rotated() and not self._rotation_offered:
            self._rotation_offered = True
            events.append(Rotated(t))

    def _is_rotated(self) -> bool:
        expected = self._pos.occupied
        return (
            not self._flip
            and self._board >= 0
            and self._board != expected
            and self._rotate(self._board) == expected
        )

    def _rotate(self, mask: int) -> int:
        """The board turned half round: (x, y) is seen at (last - x, last - y)."""
        pos = self._pos
        last = pos.size - 1
        return pos.mask((last - x, last - y) for x, y in pos.squares_of(mask))

    # ------------------------------------------------------------------ play

    def _play_frame(self, t: float, events: list[Event]) -> None:
        pos = self._pos
        board = self._board
        if self._amb and self._ambiguity_frame(t, board, events):
            return
        was_error = self._phase == Phase.MISMATCH
        if self._crown is not None and self._crowning(t, board, events):
            return
        if board == pos.occupied:
            if self._phase != Phase.IDLE or self._lifted_sent:
                events.append(PutBack(t))
            self._reset_attempt()
            if was_error:
                events.append(Recovered(t))
            return
        self._crown = None
        new = board & ~pos.occupied
        self._touched |= new
        if new:
            self._appeared[new] = self._appeared.get(new, 0) + 1
        lock = self._lock or None
        finals = [s for s in pos.by_final.get(board, ()) if lock is None or s.start == lock]
        if finals:
            self._phase = Phase.SETTLING
            self._current = finals
        else:
            moving = pos.in_progress(board, lock)
            self._current = moving
            self._phase = Phase.MOVING if moving else Phase.MISMATCH_PENDING
        if self._phase != Phase.MISMATCH_PENDING:
            self._announce_lift(t, board, events)
            if was_error:
                events.append(Recovered(t))
            return
        self._cannot = ()
        gone = pos.occupied & ~board
        if gone and not gone & (gone - 1) and not new:
            self._invalid_lift(t, gone, events)
        if was_error:
            self._phase = Phase.MISMATCH  # keep showing: the diff follows the board live

    def _announce_lift(self, t: float, board: int, events: list[Event]) -> None:
        pos = self._pos
        gone = pos.occupied & ~board
        for s in self._current:
            if gone & s.start and not self._lifted_sent & s.start:
                self._lifted_sent |= s.start
                if self.touch_move and pos.starts and s.start in pos.starts:
                    self._lock = s.start
                start = s.move.start
                events.append(Lifted(t, start, pos.destinations(start)))
                break

    def _lift_reason(self, square: Square) -> Reason:
        locked = self._pos.squares[self._lock.bit_length() - 1] if self._lock else None
        return lift_reason(self._game, square, locked)

    def _invalid_lift(self, t: float, gone: int, events: list[Event]) -> None:
        """One chip lifted that may not move: say so at once (the mismatch waits)."""
        square = self._pos.squares[gone.bit_length() - 1]
        self._phase = Phase.INVALID
        self._cannot = (square,)
        if not self._lifted_sent & gone:
            self._lifted_sent |= gone
            events.append(Lifted(t, square, (), self._lift_reason(square).page))

    def _settled(self, t: float, events: list[Event]) -> None:
        shapes = self._current
        chosen = resolve(shapes, self._touched, self._pos)
        if len(chosen) == 1:
            self._commit(t, chosen[0], events)
            return
        self._amb = chosen
        self._amb_sel = None
        self._amb_touched = 0
        self._phase = Phase.AMBIGUITY
        events.append(Ambiguity(t, tuple(s.move for s in chosen), _telling_apart(chosen)[0]))

    def _commit(self, t: float, shape: MoveShape, events: list[Event]) -> None:
        move = shape.move
        end_bit = 1 << self._pos.index[move.end]
        placed_twice = self._appeared.get(end_bit, 0) >= 2
        events.append(MoveCommitted(t, move))
        self._game.push(move)
        self._load(self._game)
        if move.promotes:
            events.append(Promoted(t, move.end))
            if placed_twice:
                events.append(Crowned(t, move.end))
            else:
                self._crown = move.end
        self._start_position(t, events)

    # ------------------------------------------------------------------ ambiguity

    def _ambiguity_frame(self, t: float, board: int, events: list[Event]) -> bool:
        """Frames while the board asks: a touch on a blinking square chooses. True if handled."""
        final = self._amb[0].final
        end = 1 << self._pos.index[self._amb[0].move.end]
        new = board & ~final
        gone = final & ~board
        if gone & ~end or new & (new - 1):
            if board == self._pos.occupied:  # every chip back at once: the move is undone
                events.append(PutBack(t))
            self._reset_attempt()
            return False  # the player does something else: read it afresh
        self._phase = Phase.SETTLING if board == final else Phase.AMBIGUITY
        if new and not self._amb_touched & new:
            self._amb_touched |= new
            picked = self._amb_picked()
            if len(picked) == 1:
                self._amb_sel = self._amb.index(picked[0])
                events.append(Choice(t, picked[0].move))
        return True

    def _amb_picked(self) -> list[MoveShape]:
        """The choices the touches during the question leave (D-5, as ``resolve``); when the
        paths land on the same squares in another order, the first step where they part says
        which way round."""
        picked = resolve(self._amb, self._amb_touched, self._pos)
        _first, order = _telling_apart(self._amb)
        if len(picked) > 1 and order:
            index = self._pos.index
            touched = self._amb_touched
            picked = [s for s, sq in zip(self._amb, order, strict=True) if touched >> index[sq] & 1]
        return picked

    def _amb_resolved(self) -> MoveShape | None:
        if self._amb_touched:
            picked = self._amb_picked()
            if len(picked) == 1:
                return picked[0]
        self._phase = Phase.AMBIGUITY
        return None

    # ------------------------------------------------------------------ crowning

    def _crowning(self, t: float, board: int, events: list[Event]) -> bool:
        pos = self._pos
        bit = 1 << pos.index[self._crown]  # type: ignore[index]
        if board == pos.occupied & ~bit:
            self._crown_lifted = True
            self._phase = Phase.CROWNING
            return True
        if board == pos.occupied and self._crown_lifted:
            events.append(Crowned(t, self._crown))  # type: ignore[arg-type]
            self._crown = None
            self._crown_lifted = False
            self._phase = Phase.IDLE
            return True
        return False

    # ------------------------------------------------------------------ helpers

    def _to_mask(self, occupied: object) -> int:
        index = self._pos.index
        mask = 0
        for sq in occupied:  # type: ignore[attr-defined]
            i = index.get((sq[0], sq[1]))
            if i is None:
                raise ValueError(f"({sq[0]}, {sq[1]}) is not a playable square")
            mask |= 1 << i
        return self._rotate(mask) if self._flip else mask

    def _diff(self) -> tuple[tuple[Square, ...], tuple[Square, ...]]:
        pos = self._pos
        board = max(self._board, 0)
        return pos.squares_of(pos.occupied & ~board), pos.squares_of(board & ~pos.occupied)

    def _place(self, missing: tuple[Square, ...]) -> tuple[tuple[Square, str], ...]:
        chips = self._pos.chips
        return tuple((sq, chip_text(chips[sq])) for sq in missing if sq in chips)


def _telling_apart(
    shapes: list[MoveShape],
) -> tuple[tuple[Square, ...], tuple[Square, ...] | None]:
    """The squares that show the choices apart, and, when every path lands on the same squares
    in another order (a ring taken either way round), each path's landing at the first step
    where they part (else None): those squares blink, and the chosen one's stays lit."""
    landings = _distinguishing(shapes)
    if landings:
        return landings, None
    paths = [s.move.path for s in shapes]
    for k in range(1, min(len(p) for p in paths)):
        order = tuple(p[k] for p in paths)
        if len(set(order)) == len(order):
            return tuple(sorted(set(order))), order
    return (), None


def _distinguishing(shapes: list[MoveShape]) -> tuple[Square, ...]:
    """Landing squares that some but not all of the paths use."""
    common = frozenset.intersection(*(s.landings for s in shapes))
    return tuple(sorted(frozenset().union(*(s.landings for s in shapes)) - common))


def resolve(shapes: list[MoveShape], touched: int, pos: PositionIndex) -> list[MoveShape]:
    """D-5: the paths that the touched squares single out, or all of them if they don't.

    A touched distinguishing landing must lie on a path's trail (set down there or slid over);
    if that leaves several, a path that landed on every touched one wins. Never a guess: if
    nothing singles one out, every candidate is returned and the board asks.
    """
    if len(shapes) < 2:
        return list(shapes)
    dist = pos.mask(_distinguishing(shapes))
    hit = touched & dist
    if not hit:
        return list(shapes)
    on_trail = [s for s in shapes if not hit & ~s.trail]
    if len(on_trail) == 1:
        return on_trail
    landed = [s for s in on_trail if not hit & ~pos.mask(s.landings)]
    if len(landed) == 1:
        return landed
    return on_trail or list(shapes)


__all__ = ["BUTTONS", "Move", "Tracker", "chip_text", "resolve"]
