"""The indexer: every finished game the class's boards kept, reviewed once, counted per child.

It reads ``boards/<id>/games/game-*.jsonl`` (the kept games) and each board's ``journal.jsonl``
when its game is over, in the simulator's state folder. Each file is known by its SHA-256: a
file read once is never read again (``Store.known``), and a finished game later moved into
``games/`` unchanged has the same hash. A game is also known by its identity (board, start
record, moves), so a game counted from the journal is not counted again if its kept file
differs by a record written after the end.

Per child on the class list (``players.txt``), per game: the date and ISO week, the variant, the
result, the score (the grand total), and from the coach's review (``controller.engine.coach``):
per operation, the child's takings and how many were **best** — made in a move the review
marks accurate: no more than a tenth of an ordinary taking below the engine's best at the
review's fixed depth (``coach.ACCURATE_WITHIN``), in a move with a choice (a forced move counts
in neither) — the best moves of the moves with a choice (the review's own "best moves"), and the
points lost (the sum of the review's ``loss_points`` over the child's moves, exact).

Bounded work: ``index`` reviews at most ``limit`` games a call; the simulator calls it in a
background thread at start and after each game ends, so no page ever waits for a review.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from controller.engine.coach import REVIEW_DEPTH, Review, review
from controller.record.games import game_of, reads_its_own
from controller.record.journal_file import read
from controller.rules.notation import game_from_json
from controller.session.session import Session

from .store import OPERATIONS, Play, Store

EVERY_SIDE = "\x00every named side"
"""In a reader's roster: every side with a name (a first-schema game read again, whose
children may have been renamed since)."""
KEPT = "games"
JOURNAL = "journal.jsonl"
_SECONDS = re.compile(r"^game-([0-9]+)")
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


@dataclass(frozen=True)
class Indexed:
    """What one call did: files read and games counted, and what is left for the next."""

    read: int = 0
    counted: int = 0
    left: int = 0
    problems: tuple[str, ...] = ()


def game_files(state_dir: Path) -> Iterator[tuple[str, Path, bool]]:
    """(board, file, is the live journal) for every game file of every board, oldest first."""
    boards = Path(state_dir) / "boards"
    if not boards.is_dir():
        return
    for folder in sorted(p for p in boards.iterdir() if p.is_dir()):
        kept = folder / KEPT
        if kept.is_dir():
            for path in sorted(kept.glob("game-*.jsonl")):
                yield folder.name, path, False
        if (folder / JOURNAL).is_file():
            yield folder.name, folder / JOURNAL, True


def index(
    store: Store,
    state_dir: Path,
    roster: Sequence[str],
    *,
    limit: int = 50,
    depth: int = REVIEW_DEPTH,
    stop: Callable[[], bool] = lambda: False,
    reader: Callable[[Path, str, set[str], int], GameRead] | None = None,
) -> Indexed:
    """Read the games not read yet (at most ``limit`` reviews), store what they say.
    ``reader`` reads one game (``read_game``, or the same in a worker process)."""
    reader = reader or read_game
    names = set(roster)
    read_n = counted = 0
    problems: list[str] = []
    stale = store.stale()
    for board, path, _live in game_files(state_dir):
        digest = _digest(path)
        if digest not in stale or digest in _refreshed:
            continue
        if read_n >= limit or stop():
            return Indexed(read_n, counted, 1, tuple(problems))
        _refreshed.add(digest)  # tried once a run, whatever comes of it
        read_n += 1
        try:
            again = reader(path, board, {EVERY_SIDE}, depth)
        except Exception as exc:
            problems.append(f"{path}: {type(exc).__name__}: {str(exc)[:120]}")
            continue
        store.refresh(digest, [p for p in again.plays if p.side in stale[digest]])
    known = store.hashes()
    pending = [
        (board, path, live)
        for board, path, live in game_files(state_dir)
        if (digest := _digest(path)) not in known and digest not in _playing
    ]
    for n, (board, path, live) in enumerate(pending):
        if read_n >= limit or stop():
            return Indexed(read_n, counted, len(pending) - n, tuple(problems))
        digest = _digest(path)
        try:
            outcome = reader(path, board, names, depth)
        except Exception as exc:  # a file nothing can read is noted once, never retried
            problems.append(f"{path}: {type(exc).__name__}: {str(exc)[:120]}")
            store.add_game(digest, digest, board, path.stem, "unreadable", ())
            continue
        if outcome.status == "unfinished" and live:
            if len(_playing) > 10000:
                _playing.clear()
            _playing.add(digest)  # the game being played: read again once it has changed
            continue
        if outcome.status == "indexed" and store.identity_known(outcome.identity):
            store.add_game(digest, outcome.identity, board, path.stem, "duplicate", ())
            continue
        store.add_game(digest, outcome.identity, board, path.stem, outcome.status, outcome.plays)
        read_n += 1
        counted += outcome.status == "indexed"
    return Indexed(read_n, counted, 0, tuple(problems))


@dataclass(frozen=True)
class GameRead:
    status: str
    """indexed, unfinished, no-roster, other-game"""
    identity: str
    plays: tuple[Play, ...] = ()


def read_game(path: Path, board: str, roster: set[str], depth: int = REVIEW_DEPTH) -> GameRead:
    """One game file: its children's figures, or why it gives none."""
    loaded = read(path)
    records = loaded.records
    if not records:
        return GameRead("unfinished", _digest(path))
    identity = _identity(board, records)
    game = game_of(records[0])
    if game is None or reads_its_own(game):  # a game the session does not replay: not yet read
        return GameRead("other-game", identity)
    session = Session.replayed(records, loaded.problems)
    outcome = session.outcome
    if outcome is None:
        return GameRead("unfinished", identity)
    info = session.info
    sides = [(side, info.get(key, "").strip()) for side, key in ((0, "blue"), (1, "red"))]
    every = EVERY_SIDE in roster
    ours = [(side, name) for side, name in sides if (name in roster or (every and name))]
    if not ours:
        return GameRead("no-roster", identity)
    day = _date(info.get("date", ""), path)
    year, week, _ = day.isocalendar()
    start = game_from_json(session.start_position)
    paths = [m.path for m in session.game.move_stack]
    reviewed: Review | None
    try:
        reviewed = review(start, paths, depth=depth) if paths else None
    except ValueError:
        reviewed = None
    grand = [s.grand_text for s in outcome.sheet.game.sides]
    plays = []
    for side, child in ours:
        ops, lost, (choices, best) = _figures(reviewed, side)
        result = "draw" if outcome.winner is None else ("win" if outcome.winner == side else "loss")
        plays.append(
            Play(
                child=child,
                side=side,
                played=day.isoformat(),
                week=f"{year}-W{week:02d}",
                variant=session.variant,
                result=result,
                score=grand[side],
                opponent_score=grand[1 - side],
                reviewed=reviewed is not None or not paths,
                lost=lost if reviewed is not None else (Fraction(0) if not paths else None),
                moves=sum(1 for i in range(len(paths)) if (i + start.side_to_move) % 2 == side),
                operations=ops,
                choices=choices if reviewed is not None else (0 if not paths else None),
                best_moves=best if reviewed is not None else (0 if not paths else None),
            )
        )
    return GameRead("indexed", identity, tuple(plays))


def _figures(
    reviewed: Review | None, side: int
) -> tuple[tuple[tuple[int, int], ...], Fraction, tuple[int, int]]:
    """The review's own figures of ``side`` (``SideSummary``): per operation (takings, best
    takings) of the moves with a choice, its points lost (exact), and (moves with a choice,
    best moves)."""
    if reviewed is None:
        return tuple((0, 0) for _ in OPERATIONS), Fraction(0), (0, 0)
    summary = reviewed.sides[side]
    by_op = {a.operator: (a.takings, a.accurate) for a in summary.accuracy}
    lost = sum((m.loss_points for m in reviewed.moves if m.side == side), Fraction(0))
    ops = tuple(by_op.get(op, (0, 0)) for op in OPERATIONS)
    return ops, lost, (summary.choices, summary.best_moves)


def _date(written: str, path: Path) -> dt.date:
    """The game's day: the event date on its record, else the second in its kept name, else
    the file's time."""
    if _DATE.match(written):
        try:
            return dt.date.fromisoformat(written)
        except ValueError:
            pass
    found = _SECONDS.match(path.stem)
    seconds = int(found.group(1)) if found else path.stat().st_mtime
    return dt.datetime.fromtimestamp(seconds, dt.UTC).date()


def _identity(board: str, records: Sequence[dict[str, Any]]) -> str:
    start = json.dumps(records[0], sort_keys=True, ensure_ascii=False)
    moves = [r.get("path") for r in records if r.get("k") in ("move", "takeback", "end")]
    text = json.dumps([board, start, moves], ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


_digests: dict[tuple[str, int, int], str] = {}
_refreshed: set[str] = set()
"""First-schema games read again in this run (each once, even when its file cannot be read)."""
_playing: set[str] = set()
"""Boards' journals of games still being played, as they stood when read (their hashes)."""


def _digest(path: Path) -> str:
    """The file's SHA-256, remembered while the file is unchanged (size and time)."""
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key not in _digests:
        if len(_digests) > 20000:
            _digests.clear()
        _digests[key] = hashlib.sha256(path.read_bytes()).hexdigest()
    return _digests[key]
