"""Reading a game of Mathematical Chess from a board of points (C-12, C-13).

A sensor on each point says only "a piece is here". During Prepare now! a piece put down on an
empty point waits for its name (a button or the page); nothing else may happen until it is
named. During Play now! the tracker follows the changes of one turn in the order they happen:
the player's own piece lifted and put down elsewhere is the move (onto an opposing piece: a
direct removal, R02–R05); each opposing piece lifted is a removal, checked at once with
``explain`` against everything lifted before it, and refused with the rule it breaks (the piece
must go back). The player's button ends the turn. The tracker never changes the game: it says
what the turn is (``TurnReading``) and the session plays it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.i18n import _
from controller.rules.mathchess import (
    Done,
    IllegalAction,
    Move,
    Pass,
    Phase,
    Place,
    Point,
    Position,
    Remove,
    explain,
    point_text,
    still_removable_rules,
)
from controller.rules.mathchess.position import Action
from controller.rules.mathchess.turns import Step, TooManyStates


@dataclass(frozen=True)
class Refusal:
    """A piece the board refuses: where, the rule it breaks, and why in words."""

    point: Point
    rule: str
    text: str


@dataclass
class TurnReading:
    """What the board shows of the turn under way, read against the position at its start."""

    in_hand: Point | None = None
    """The player's own piece lifted and not yet put down (its starting point)."""
    move: Move | None = None
    lifted: list[Point] = field(default_factory=list)
    """The opposing pieces lifted, in the order they came off."""
    steps: tuple[Step, ...] = ()
    """The accepted removals as the rules' steps (``explain``)."""
    refused: list[Refusal] = field(default_factory=list)
    strays: set[Point] = field(default_factory=set)
    """Points that hold a piece the game cannot account for (put it back where it was)."""
    naming: Point | None = None
    """Prepare now!: the point of a piece put down and not yet named."""

    @property
    def accepted(self) -> frozenset[Point]:
        return frozenset(p for _rule, part in self.steps for p in part)


class MathChessTracker:
    """Occupancy of the points in, the turn read so far out. Built on a position at the start
    of a turn (``reset``); fed every frame (``frame``)."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.occupied = self._expected()
        self.reading = TurnReading()

    def _expected(self) -> frozenset[Point]:
        return frozenset(p for p, _piece in self.position.board.pieces())

    def reset(self, position: Position) -> None:
        """A new turn from ``position``; the sensors are read afresh by the next frame."""
        self.position = position
        self.reading = TurnReading()
        self.occupied = self._expected()

    # ------------------------------------------------------------------ reading frames

    def frame(self, occupied: frozenset[Point]) -> TurnReading:
        """Follow the changes since the last frame, one point at a time, emptied first."""
        before = self.occupied
        self.occupied = frozenset(occupied)
        for point in sorted(before - self.occupied):
            self._emptied(point)
        for point in sorted(self.occupied - before):
            self._filled(point)
        self._judge()
        return self.reading

    def _emptied(self, point: Point) -> None:
        r = self.reading
        if point in r.strays:
            r.strays.discard(point)
            return
        if point == r.naming:
            r.naming = None
            return
        piece = self.position.board.at(point)
        if self.position.phase is not Phase.PLAY:
            r.strays.add(point)  # a placed piece lifted again during Prepare now!
            return
        if r.move is not None and point == r.move.end:
            r.in_hand, r.move = r.move.start, None  # the moved piece taken up again
            if piece is not None and piece.side != self.position.to_move:
                r.lifted.append(point)  # the piece it had taken stays off
            return
        if piece is None:
            return
        if piece.side == self.position.to_move:
            if r.in_hand is None and r.move is None:
                r.in_hand = point
            else:
                r.strays.add(point)
            return
        if point not in r.lifted:
            r.lifted.append(point)

    def _filled(self, point: Point) -> None:
        r = self.reading
        piece = self.position.board.at(point)
        if point in r.strays:
            r.strays.discard(point)
            return
        if self.position.phase is Phase.PREPARE:
            if piece is None and r.naming is None:
                r.naming = point
            elif piece is None:
                r.strays.add(point)
            return
        if r.in_hand is not None:
            if point == r.in_hand:
                r.in_hand = None  # put back: no move
                return
            if piece is None or point in r.lifted:
                start, r.in_hand = r.in_hand, None
                r.move = Move(start, point)
                if point in r.lifted:
                    r.lifted.remove(point)
                return
        if point in r.lifted:
            r.lifted.remove(point)  # an opposing piece put back
            return
        r.strays.add(point)

    def _judge(self) -> None:
        """Check the move, then the pieces lifted: all together, or else each in the order
        it came off against the ones before it (the first that does not fit is refused)."""
        r = self.reading
        r.refused, r.steps = [], ()
        if self.position.phase is Phase.PREPARE:
            if r.naming is not None and not self.names():
                r.refused.append(self._placing_refusal(r.naming))
            return
        after = self.after_move()
        if after is None:
            return
        try:  # the whole set first: any lifting order of a set the rules allow is good
            r.steps = explain(after, frozenset(r.lifted))
            return
        except (IllegalAction, TooManyStates):
            pass
        kept: list[Point] = []
        for point in r.lifted:
            try:
                r.steps = explain(after, frozenset([*kept, point]))
            except IllegalAction as exc:
                r.refused.append(Refusal(point, exc.rule, exc.text))
                continue
            except TooManyStates as exc:
                r.refused.append(Refusal(point, "C-13", str(exc)))
                continue
            kept.append(point)

    def after_move(self) -> Position | None:
        """The position after the move read (or the turn's start without one); None while a
        piece is in hand or the move is wrong (then the move is refused, with its rule)."""
        r = self.reading
        if r.in_hand is not None:
            return None
        if r.move is None:
            return self.position
        try:
            after = self.position.apply(r.move)
        except IllegalAction as exc:
            r.refused.append(Refusal(r.move.end, exc.rule, exc.text))
            return None
        r.move = self.position.find_move(r.move)
        return after

    def _placing_refusal(self, point: Point) -> Refusal:
        try:
            self.position.apply(Place("+", point))
        except IllegalAction as exc:
            return Refusal(point, exc.rule, exc.text)
        return Refusal(point, "C-12", _("no piece of yours is left to place here"))

    # ------------------------------------------------------------------ what the board shows

    def names(self) -> list[str]:
        """Prepare now!: the pieces the piece just put down may be (its name buttons)."""
        at = self.reading.naming
        if at is None:
            return []
        return sorted({p.symbol for p in self.position.legal_placements() if p.at == at})

    def still_removable(self) -> dict[Point, str]:
        """The pieces that may still be lifted in this turn, each with its rule (lit)."""
        r = self.reading
        if self.position.phase is not Phase.PLAY or r.refused or r.strays:
            return {}
        after = self.after_move()
        if after is None:
            return {}
        try:
            return still_removable_rules(after, r.accepted)
        except TooManyStates:
            return {}

    def problem(self) -> str | None:
        """What must be put right before the turn can end, in words; None when nothing."""
        r = self.reading
        if r.strays:
            where = ", ".join(point_text(p) for p in sorted(r.strays))
            return _("Put the piece on {points} back where it was.").format(points=where)
        if r.refused:
            first = r.refused[0]
            return _("Put the piece on {point} back: {rule}, {text}").format(
                point=point_text(first.point), rule=first.rule, text=first.text
            )
        if r.in_hand is not None:
            return _("The piece from {point} is in your hand: put it down.").format(
                point=point_text(r.in_hand)
            )
        if r.naming is not None:
            return _("Name the piece on {point}.").format(point=point_text(r.naming))
        return None

    # ------------------------------------------------------------------ the turn's actions

    def name(self, symbol: str) -> Place:
        """Prepare now!: the placement of the piece waiting for a name, checked."""
        at = self.reading.naming
        if at is None:
            raise IllegalAction("C-12", _("put a piece on an empty point first, then name it"))
        place = Place(symbol, at)
        self.position.apply(place)  # raises with the rule
        return place

    def done(self) -> list[Action]:
        """The player's button: the turn as the rules' actions, or ``IllegalAction`` saying
        what is wrong (nothing is played)."""
        if self.position.phase is Phase.PREPARE:
            raise IllegalAction("C-12", self.problem() or _("Prepare now!: place a piece"))
        if self.position.phase is not Phase.PLAY:
            raise IllegalAction("C-11", _("the game is over"))
        problem = self.problem()
        r = self.reading
        if problem is not None:
            rule = r.refused[0].rule if r.refused else "C-13"
            raise IllegalAction(rule, problem)
        actions: list[Action] = []
        if r.move is not None:
            actions.append(r.move)
        actions += [Remove(part) for _rule, part in r.steps]
        if not actions:
            if self.position.can_pass():
                return [Pass()]
            raise IllegalAction("C-3", _("move a piece, or remove, before the button"))
        here = self.position
        for action in actions:
            here = here.apply(action)
        if here.phase is not Phase.OVER:
            actions.append(Done())
        return actions
