"""What the teacher's page and the parents' report show, computed from the stored plays.

- best moves: the review's own figure (``controller.engine.coach``), added over the games:
  the moves with a choice that were as good as the engine's best, of all moves with a choice;
  the accuracy is that share, so a game's figures are the figures of its review;
- accuracy per operation: the best takings / all takings of that operation, in the moves with a
  choice (a forced taking is no choice), None without a taking;
- points lost per game: the mean of the review's estimate (the export's; the page shows the
  scores and the best moves, which a teacher checks against the sheet and the review);
- the trend: the accuracy of the child's last ``RECENT`` weeks with games less that of the weeks
  before, in percentage points; None until there are weeks of both;
- the period in dates: the first and the last game's, each week from its Monday to its Sunday.

A first-schema row (no best moves yet: its game is read again by the indexer) counts in the
games and the results, not in these figures.
"""

from __future__ import annotations

import datetime as dt
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


def _current(plays: Iterable[Play]) -> list[Play]:
    return [p for p in plays if p.choices is not None]


def _operations(plays: Iterable[Play]) -> dict[str, dict[str, Any]]:
    totals = {op: [0, 0] for op in OPERATIONS}
    for p in _current(plays):
        for op, (n, best) in zip(OPERATIONS, p.operations, strict=True):
            totals[op][0] += n
            totals[op][1] += best
    return {
        op: {"takings": n, "best": best, "percent": _percent(best, n)}
        for op, (n, best) in totals.items()
    }


def _accuracy(plays: Iterable[Play]) -> tuple[int, int]:
    """(best moves, moves with a choice), as the review counts them."""
    best = every = 0
    for p in _current(plays):
        every += p.choices or 0
        best += p.best_moves or 0
    return best, every


def _week_days(week: str) -> tuple[str, str]:
    """An ISO week's Monday and Sunday (``2026-W41`` -> 2026-10-05, 2026-10-11)."""
    year, number = week.split("-W")
    monday = dt.date.fromisocalendar(int(year), int(number), 1)
    return monday.isoformat(), (monday + dt.timedelta(days=6)).isoformat()


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
        "best_moves": best,
        "choices": every,
        "operations": _operations(plays),
        "lost_per_game": _lost_per_game(plays),
        "puzzles_solved": solved.solved,
        "puzzles_tried": solved.tried,
        "puzzle_rating": None if solved.rating is None else round(solved.rating),
        "trend": _trend(plays),
        "first": plays[0].played if plays else None,
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
                "from": _week_days(week)[0],
                "to": _week_days(week)[1],
                "games": len(mine),
                "best_moves": best,
                "choices": every,
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
