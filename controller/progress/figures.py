"""What the teacher's page and the parents' report show, computed from the stored plays.

- accuracy per operation: best takings / all takings of that operation (``indexer`` defines
  best), None without a taking;
- points lost per game: the mean of the review's points lost over the reviewed games, exact,
  shown with 2 decimals;
- the trend: the accuracy (all operations) of the child's last ``RECENT`` weeks with games less
  that of the weeks before, in percentage points; None until there are weeks of both.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from . import puzzles
from .store import OPERATIONS, Play

RECENT = 3


def _percent(best: int, every: int) -> float | None:
    return None if not every else round(100 * best / every, 1)


def _operations(plays: Iterable[Play]) -> dict[str, dict[str, Any]]:
    totals = {op: [0, 0] for op in OPERATIONS}
    for p in plays:
        for op, (n, best) in zip(OPERATIONS, p.operations, strict=True):
            totals[op][0] += n
            totals[op][1] += best
    return {
        op: {"takings": n, "best": best, "percent": _percent(best, n)}
        for op, (n, best) in totals.items()
    }


def _accuracy(plays: Iterable[Play]) -> tuple[int, int]:
    best = every = 0
    for p in plays:
        for n, b in p.operations:
            every += n
            best += b
    return best, every


def _lost_per_game(plays: Sequence[Play]) -> float | None:
    lost = [p.lost for p in plays if p.lost is not None]
    if not lost:
        return None
    return round(float(sum(lost, Fraction(0)) / len(lost)), 2)


def _trend(plays: Sequence[Play]) -> float | None:
    weeks = sorted({p.week for p in plays})
    if len(weeks) < 2:
        return None
    recent = set(weeks[-RECENT:]) if len(weeks) > RECENT else set(weeks[-1:])
    now = _accuracy(p for p in plays if p.week in recent)
    before = _accuracy(p for p in plays if p.week not in recent)
    if not now[1] or not before[1]:
        return None
    return round(100 * now[0] / now[1] - 100 * before[0] / before[1], 1)


def child_summary(name: str, plays: Sequence[Play], state_dir: Path) -> dict[str, Any]:
    """One line of the class page: the child's figures over the term."""
    solved = puzzles.summary(state_dir, name)
    best, every = _accuracy(plays)
    return {
        "name": name,
        "games": len(plays),
        "wins": sum(p.result == "win" for p in plays),
        "draws": sum(p.result == "draw" for p in plays),
        "losses": sum(p.result == "loss" for p in plays),
        "accuracy": _percent(best, every),
        "operations": _operations(plays),
        "lost_per_game": _lost_per_game(plays),
        "puzzles_solved": solved.solved,
        "puzzles_tried": solved.tried,
        "puzzle_rating": None if solved.rating is None else round(solved.rating),
        "trend": _trend(plays),
        "last": plays[-1].played if plays else None,
    }


def class_figures(
    roster: Sequence[str], plays: Sequence[Play], state_dir: Path
) -> list[dict[str, Any]]:
    """Every child on the class list (and any child with figures no longer on it), by name."""
    by_child: dict[str, list[Play]] = defaultdict(list)
    for p in plays:
        by_child[p.child].append(p)
    names = list(roster) + sorted(n for n in by_child if n not in roster)
    out = []
    for name in names:
        line = child_summary(name, by_child.get(name, []), state_dir)
        line["on_roster"] = name in roster
        out.append(line)
    return out


def child_weeks(name: str, plays: Sequence[Play], state_dir: Path) -> list[dict[str, Any]]:
    """Week by week (ISO weeks with games or puzzles): games, accuracy, points lost per game,
    puzzles solved and the puzzle rating at the week's end."""
    by_week: dict[str, list[Play]] = defaultdict(list)
    for p in plays:
        by_week[p.week].append(p)
    puzzle_weeks = {w.week: w for w in puzzles.weeks(state_dir, name)}
    out = []
    for week in sorted(set(by_week) | set(puzzle_weeks)):
        mine = by_week.get(week, [])
        best, every = _accuracy(mine)
        pw = puzzle_weeks.get(week)
        out.append(
            {
                "week": week,
                "games": len(mine),
                "accuracy": _percent(best, every),
                "lost_per_game": _lost_per_game(mine),
                "puzzles_solved": pw.solved if pw else 0,
                "puzzle_rating": round(pw.rating) if pw else None,
            }
        )
    return out


def child_page(name: str, plays: Sequence[Play], state_dir: Path) -> dict[str, Any]:
    """Everything the child's page and the report show."""
    variants: dict[str, int] = defaultdict(int)
    for p in plays:
        variants[p.variant] += 1
    return {
        **child_summary(name, plays, state_dir),
        "weeks": child_weeks(name, plays, state_dir),
        "variants": dict(sorted(variants.items(), key=lambda kv: -kv[1])),
        "recent": [p.json() for p in plays[-8:]][::-1],
    }
