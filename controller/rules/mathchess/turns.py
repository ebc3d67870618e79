"""Whole turns: which sets of removals a turn can end with, how a set of pieces lifted off the
board is explained as removal steps (C-13), and perft over complete turns.

The order of removals matters (R08, R11): taking some pieces first can make a new match, or
spoil one. A removal set is therefore checked by searching orders of steps, each step any part
of what the matches allow at that moment.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from .grid import Point, point_text
from .moves import Move
from .position import Done, IllegalAction, Pass, Phase, Place, Position, Remove

Step = tuple[str, frozenset[Point]]

MAX_STATES = 1 << 16
"""Removal states searched for one turn before giving up: far above any position of a real
game (docs/benchmarks.md), a guard against a forged position built to explode."""


class TooManyStates(ValueError):
    """A turn whose removals cannot be searched in reasonable time."""


@dataclass(frozen=True, slots=True)
class Turn:
    """A complete turn: a placement, or a move (or none) with its removal steps, or a pass."""

    place: Place | None = None
    move: Move | None = None
    steps: tuple[Step, ...] = ()
    passes: bool = False

    def text(self) -> str:
        if self.place is not None:
            return self.place.text()
        if self.passes:
            return "pass"
        parts = [self.move.text()] if self.move is not None else []
        parts += [
            f"{rule}:" + ",".join(point_text(p) for p in sorted(pts)) for rule, pts in self.steps
        ]
        return " ".join(parts)


def _subsets(items: frozenset[Point]) -> Iterator[frozenset[Point]]:
    """Non-empty subsets, largest first (the natural order of a turn: take all, then less)."""
    ordered = sorted(items)
    for size in range(len(ordered), 0, -1):
        for combo in combinations(ordered, size):
            yield frozenset(combo)


def removal_sets(position: Position) -> dict[frozenset[Point], tuple[Step, ...]]:
    """Every set of pieces the turn under way can still remove (the empty set included), each
    with one order of steps that removes it."""
    found: dict[frozenset[Point], tuple[Step, ...]] = {frozenset(): ()}
    stack: list[tuple[Position, frozenset[Point], tuple[Step, ...]]] = [(position, frozenset(), ())]
    expanded: set[frozenset[Point]] = set()
    while stack:
        here, removed, steps = stack.pop()
        if removed in expanded or here.phase is not Phase.PLAY:
            continue
        expanded.add(removed)
        if len(expanded) > MAX_STATES:
            raise TooManyStates(f"more than {MAX_STATES} removal states in one turn")
        for part in _subsets(here.removable()):
            total = removed | part
            if total in found:
                continue
            rule = here.step_rule(part)
            found[total] = (*steps, (rule, part))
            stack.append((here.apply(Remove(part)), total, found[total]))
    return found


def explain(position: Position, lifted: frozenset[Point]) -> tuple[Step, ...]:
    """The removal steps that take exactly ``lifted`` in the turn under way, or
    ``IllegalAction`` naming the rule the first piece that cannot be taken breaks (C-13)."""
    if not lifted:
        return ()
    failed: set[frozenset[Point]] = set()
    reached: set[Point] = set()

    def search(here: Position, removed: frozenset[Point]) -> tuple[Step, ...] | None:
        if removed == lifted:
            return ()
        if removed in failed or here.phase is not Phase.PLAY:
            return None
        for part in _subsets(here.removable() & (lifted - removed)):
            reached.update(part)
            rest = search(here.apply(Remove(part)), removed | part)
            if rest is not None:
                return ((here.step_rule(part), part), *rest)
        failed.add(removed)
        return None

    steps = search(position, frozenset())
    if steps is not None:
        return steps
    for point in sorted(lifted - reached):
        position.apply(Remove(frozenset({point})))  # not removable now: raises with its rule
    base = position.match_rule()
    rule = {"R06": "R08", "R09": "R11"}.get(base, base)
    raise IllegalAction(
        rule,
        "each piece lifted can be removed in some order, but no order of removals takes "
        "exactly these pieces together: a removal can spoil the match another one needs",
    )


def still_removable(position: Position, lifted: frozenset[Point]) -> frozenset[Point]:
    """The pieces that could still be lifted besides ``lifted`` in a turn that can take them
    all: what the board lights while a player is removing (C-13)."""
    out: set[Point] = set()
    for taken in removal_sets(position):
        if lifted <= taken:
            out |= taken - lifted
    return frozenset(out)


def still_removable_rules(position: Position, lifted: frozenset[Point]) -> dict[Point, str]:
    """``still_removable`` with the rule each piece would be taken by (the board names it)."""
    out: dict[Point, str] = {}
    for taken, steps in removal_sets(position).items():
        if lifted <= taken:
            for rule, part in steps:
                for point in part - lifted:
                    out.setdefault(point, rule)
    return out


def turns(position: Position) -> list[Turn]:
    """Every complete turn from the start of a turn, told apart by what it does: each
    placement; each move with each set of removals it allows; each non-empty set of removals
    without moving; or a pass."""
    phase = position.phase
    if phase is Phase.PREPARE:
        return [Turn(place=p) for p in position.legal_placements()]
    if phase is not Phase.PLAY:
        return []
    if position.turn is not None:
        raise ValueError("turns() lists whole turns: finish the turn under way first")
    out: list[Turn] = []
    for taken, steps in removal_sets(position).items():
        if taken:
            out.append(Turn(steps=steps))
    for move in position.legal_moves():
        after = position.apply(move)
        for steps in removal_sets(after).values():
            out.append(Turn(move=move, steps=steps))
    if not out:
        out.append(Turn(passes=True))
    return out


def play_turn(position: Position, turn: Turn) -> Position:
    """The position after a whole turn, checked action by action."""
    if turn.place is not None:
        return position.apply(turn.place)
    if turn.passes:
        return position.apply(Pass())
    here = position
    if turn.move is not None:
        here = here.apply(turn.move)
    for rule, part in turn.steps:
        expected = here.step_rule(part)
        here = here.apply(Remove(part))
        if rule != expected:
            raise IllegalAction(expected, f"this removal is {expected}, not {rule}")
    if here.phase is Phase.OVER:
        return here
    return here.apply(Done())


def perft(position: Position, depth: int) -> int:
    """Complete turns counted to ``depth`` (leaves of the tree of turns)."""
    if depth == 0:
        return 1
    total = 0
    for turn in turns(position):
        total += 1 if depth == 1 else perft(play_turn(position, turn), depth - 1)
    return total
